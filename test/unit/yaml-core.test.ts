// The core schema's scalar resolution of our own (src/load/yaml-core.ts) gives what js-yaml's
// CORE_SCHEMA gives for a plain scalar: a table of the spec's forms and js-yaml's quirks, then a
// seeded random set of number-like scalars. js-yaml is asked through its public load() only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { resolveCoreScalar } from '../../src/load/yaml-core.js';
import { Rng } from '../diff/rng.js';

/** js-yaml's value of `s` as a plain scalar, or undefined when `s` is not one (a sequence, a mapping, an error). */
function jsYamlScalar(s: string): { value: unknown } | undefined {
  let doc: unknown;
  try {
    doc = yaml.load(`k: ${s}\n`, { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Object.keys(doc).length !== 1) return undefined;
  const value = (doc as Record<string, unknown>)['k'];
  if (typeof value === 'object' && value !== null) return undefined;
  return { value };
}

const TABLE: [string, unknown][] = [
  ['~', null],
  ['null', null],
  ['Null', null],
  ['NULL', null],
  ['nULL', 'nULL'],
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
  ['yes', 'yes'],
  ['on', 'on'],
  ['0', 0],
  ['-0', 0],
  ['+0', 0],
  ['-00', -0],
  ['007', 7],
  ['0755', 755],
  ['08', 8],
  ['-12', -12],
  ['+7', 7],
  ['0x1F', 31],
  ['0xff', 255],
  ['-0x10', -16],
  ['+0x10', 16],
  ['0X10', '0X10'],
  ['0x', '0x'],
  ['0xg', '0xg'],
  ['0o17', 15],
  ['0o8', '0o8'],
  ['-0o7', -7],
  ['0b101', 5],
  ['-0b1', -1],
  ['0b2', '0b2'],
  ['0b', '0b'],
  ['1_000', '1_000'],
  ['9007199254740993', 9007199254740992],
  ['123456789012345678901234567890', 1.2345678901234568e29],
  ['1' + '0'.repeat(400), '1' + '0'.repeat(400)],
  ['0x' + 'f'.repeat(300), '0x' + 'f'.repeat(300)],
  ['1.5', 1.5],
  ['-1.5e3', -1500],
  ['.5', 0.5],
  ['-.5', '-.5'],
  ['+.5', '+.5'],
  ['1.', 1],
  ['1e3', 1000],
  ['1E-3', 0.001],
  ['6.02E+23', 6.02e23],
  ['1.2.3', '1.2.3'],
  ['1e500', '1e500'],
  ['-0.0', -0],
  ['+1.25', 1.25],
  ['.e3', '.e3'],
  ['1.e3', 1000],
  ['.inf', Infinity],
  ['-.Inf', -Infinity],
  ['+.INF', Infinity],
  ['.iNf', '.iNf'],
  ['.nan', NaN],
  ['.NaN', NaN],
  ['.NAN', NaN],
  ['-.nan', '-.nan'],
  ['2026-11-29T12:00:00Z', '2026-11-29T12:00:00Z'],
  ['2001-12-14', '2001-12-14'],
  ['1:20', '1:20'],
  ['v1', 'v1'],
];

test('YAML core schema: a table of scalars resolves as the table says and as js-yaml does', () => {
  for (const [s, want] of TABLE) {
    assert.deepStrictEqual(resolveCoreScalar(s), want, s);
    assert.deepStrictEqual({ value: resolveCoreScalar(s) }, jsYamlScalar(s), `js-yaml: ${s}`);
  }
});

// Pieces number-like scalars are made of, so that most random ones sit near a rule's edge.
const PIECES = [
  '0',
  '1',
  '7',
  '8',
  '9',
  '00',
  '12',
  '+',
  '-',
  '.',
  'e',
  'E',
  'x',
  'o',
  'b',
  'a',
  'F',
  '_',
  'inf',
  'Inf',
  'nan',
  'NaN',
  'null',
  'true',
  'False',
  '~',
  ':',
  '0x',
  '0o',
  '0b',
  '.inf',
  '.nan',
];

test('YAML core schema: 20,000 seeded random number-like scalars resolve as js-yaml resolves them', () => {
  const rng = new Rng(41, 1);
  let compared = 0;
  for (let i = 0; i < 20_000; i++) {
    let s = '';
    const n = rng.int(1, 6);
    for (let k = 0; k < n; k++) s += rng.pick(PIECES);
    if (rng.chance(0.05)) s += '9'.repeat(rng.int(300, 320));
    const js = jsYamlScalar(s);
    if (js === undefined) continue;
    compared++;
    assert.deepStrictEqual({ value: resolveCoreScalar(s) }, js, JSON.stringify(s));
  }
  assert.ok(compared > 15_000, `only ${compared} scalars compared`);
});
