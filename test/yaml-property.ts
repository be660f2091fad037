/**
 * A seeded property test of YAML *text* against js-yaml: random values dumped with varied styles
 * (indentation, line widths, quoting, block scalars, flow levels, kubectl's sequences at the key's
 * indentation, number and null styles), then comments and random line edits; and random line edits
 * of the repository's real YAML fixtures. For each text the translator (src/load/yaml-json.ts)
 * either declines it or gives exactly js-yaml's value, never a value where js-yaml fails. Every
 * `streamEvery`-th case also goes through the stream (src/load/yaml-stream.ts) in random chunks,
 * split as a List or not (its text kept, as up to 32 MiB), which must give what js-yaml gives
 * document by document — errors too.
 *
 * test/unit/yaml-property.test.ts runs a few thousand cases; test/slow/ runs 50,000 and more.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { readYamlAsJson } from '../src/load/yaml-json.js';
import { Rng } from './diff/rng.js';
import { bothWays, jsYaml, yamlFilesUnder } from './yaml-sweeps.js';

const KEYS = [
  'name',
  'namespace',
  'labels',
  'app',
  'kubernetes.io/os',
  'a:b',
  'on',
  'yes',
  'no',
  '1',
  '0x1F',
  'null',
  '~',
  'true',
  '-',
  '- x',
  '#c',
  'a #b',
  ' lead',
  'trail ',
  'é',
  'key with spaces',
  "it's",
  'say "hi"',
  '',
  '[x]',
  '{y}',
  '*a',
  '&b',
  '!t',
  '%p',
  '@q',
  '`r',
  '?',
  ':',
  'x:',
  '1.5',
  '.inf',
  '-0',
  'NULL',
];
const WORDS = [
  'a',
  'x',
  'ok',
  'calico',
  'v1.2.3',
  '2026-11-29T12:00:00Z',
  '10',
  '-5',
  '0o17',
  '0b101',
  '+7',
  '1e3',
  '.5',
  '1.',
  '-.5',
  '.nan',
  '.Inf',
  'True',
  'FALSE',
  'Null',
  '~',
  'yes',
  '080',
  ': ',
  ' #',
  '#',
  '- ',
  '-',
  '--- ',
  '...',
  '|',
  '>',
  '"',
  "'",
  '\\',
  '\\n',
  '{',
  '}',
  '[',
  ']',
  ',',
  '&x',
  '*y',
  '!z',
  '%',
  '@',
  '`',
  '?',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\u2028',
  '\u00e9',
  '\ud83d\ude00',
  'word word word word word word word word word word',
];
/** Characters that send a whole text to js-yaml (tabs, carriage returns, controls, lone surrogates, BOM): rarer. */
const RARE = ['\t', '\r', '\u0085', '\ud800', '\u0007', '\ufeff'];

/** A random scalar: strings made of tricky words most often, numbers, booleans, null. */
function scalar(rng: Rng): unknown {
  switch (rng.int(0, 9)) {
    case 0:
      return rng.pick([
        0,
        -0,
        1,
        -1,
        42,
        1.5,
        -2.25,
        1e21,
        1e-7,
        2 ** 53 + 2,
        0.1,
        123456789.125,
        NaN,
        Infinity,
        -Infinity,
      ]);
    case 1:
      return rng.pick([true, false, null]);
    default: {
      let s = '';
      for (let n = rng.int(0, 5); n > 0; n--) s += rng.chance(0.01) ? rng.pick(RARE) : rng.pick(WORDS);
      return s;
    }
  }
}

/** A random value nested up to `depth`: mappings and sequences of scalars, empty ones too. */
function value(rng: Rng, depth: number): unknown {
  if (depth <= 0 || rng.chance(0.35)) return scalar(rng);
  if (rng.chance(0.5)) {
    const out: Record<string, unknown> = {};
    for (let n = rng.int(0, 4); n > 0; n--)
      out[rng.chance(0.7) ? rng.pick(KEYS.slice(0, 6)) + (rng.chance(0.3) ? String(n) : '') : rng.pick(KEYS)] = value(
        rng,
        depth - 1,
      );
    return out;
  }
  return Array.from({ length: rng.int(0, 4) }, () => value(rng, depth - 1));
}

/** A document's value: a mapping most often, as API objects are. */
function topValue(rng: Rng): unknown {
  if (rng.chance(0.15)) return value(rng, rng.int(1, 4));
  const out: Record<string, unknown> = {};
  for (let n = rng.int(1, 5); n > 0; n--)
    out[rng.chance(0.8) ? `${rng.pick(KEYS.slice(0, 6))}${n}` : rng.pick(KEYS)] = value(rng, rng.int(0, 4));
  return out;
}

/** yaml.dump options of one case. */
function dumpOptions(rng: Rng): yaml.DumpOptions {
  return {
    indent: rng.pick([1, 2, 2, 2, 3, 4, 8]),
    noArrayIndent: rng.chance(0.5),
    lineWidth: rng.pick([-1, 10, 20, 40, 80]),
    quotingType: rng.pick(["'", '"'] as const),
    forceQuotes: rng.chance(0.15),
    flowLevel: rng.chance(0.1) ? rng.int(0, 3) : -1,
    noCompatMode: rng.chance(0.5),
    condenseFlow: rng.chance(0.2),
    sortKeys: rng.chance(0.2),
    styles: {
      '!!null': rng.pick(['lowercase', 'canonical', 'uppercase', 'camelcase', 'empty']),
      '!!bool': rng.pick(['lowercase', 'uppercase', 'camelcase']),
      '!!int': rng.pick(['decimal', 'decimal', 'hexadecimal', 'octal', 'binary']),
      '!!float': rng.pick(['lowercase', 'uppercase', 'camelcase']),
    },
    schema: yaml.CORE_SCHEMA,
  };
}

/** Comments, blank lines, trailing spaces and small edits of random lines. */
function editLines(rng: Rng, text: string, edits: number): string {
  const lines = text.split('\n');
  for (let k = 0; k < edits; k++) {
    const i = rng.int(0, Math.max(0, lines.length - 1));
    const line = lines[i] ?? '';
    switch (rng.int(0, 11)) {
      case 0:
        lines[i] = `${line} # ${rng.pick(WORDS)}`;
        break;
      case 1:
        lines.splice(i, 0, `${' '.repeat(rng.int(0, 6))}# comment ${rng.pick(WORDS)}`);
        break;
      case 2:
        lines.splice(i, 0, ' '.repeat(rng.int(0, 4)));
        break;
      case 3:
        lines[i] = `${line}${' '.repeat(rng.int(1, 3))}`;
        break;
      case 4:
        lines[i] = ` ${line}`;
        break;
      case 5:
        lines[i] = line.replace(/^ /, '');
        break;
      case 6:
        lines.splice(i, 1);
        break;
      case 7:
        lines.splice(i, 0, line);
        break;
      case 8: {
        const at = rng.int(0, line.length);
        lines[i] = line.slice(0, at) + rng.pick(WORDS) + line.slice(at);
        break;
      }
      case 9: {
        const at = rng.int(0, line.length);
        lines[i] = line.slice(0, at) + line.slice(at + 1);
        break;
      }
      case 10:
        lines.splice(
          i,
          0,
          rng.pick(['---', '...', '--- # doc', 'kind: List', 'items:', '- a: 1', '-', '- - x', '? k', ': v']),
        );
        break;
      default:
        lines[i] = line.replace(/: /, rng.pick([':  ', ': |\n  ', ': >-\n   ', ': "', ": '", ':']));
    }
  }
  return lines.join('\n');
}

export interface PropertyReport {
  cases: number;
  translated: number;
  jsYamlErrors: number;
  streamed: number;
}

/** One case's YAML text: a random value dumped, or a real fixture, then edited. */
export function caseText(rng: Rng, fixtures: string[]): string {
  if (fixtures.length && rng.chance(0.25)) {
    const lines = rng.pick(fixtures).split('\n');
    const from = rng.chance(0.5) ? 0 : rng.int(0, lines.length - 1);
    return editLines(rng, lines.slice(from, from + rng.int(5, 60)).join('\n') + '\n', rng.int(0, 3));
  }
  let text: string;
  const v = topValue(rng);
  try {
    text = yaml.dump(
      rng.chance(0.3) ? { apiVersion: 'v1', items: Array.isArray(v) ? v : [v], kind: 'List' } : v,
      dumpOptions(rng),
    );
  } catch {
    text = String(v);
  }
  if (rng.chance(0.1)) text += `---\n${yaml.dump(topValue(rng), dumpOptions(rng))}`;
  return rng.chance(0.4) ? editLines(rng, text, rng.int(1, 3)) : text;
}

/**
 * Runs `cases` seeded cases; throws (assert) on the first disagreement with the seed, the case
 * number and the text in the message.
 */
export function yamlProperty(seed: number, cases: number, streamEvery = 50, fixtureDir = 'fixtures'): PropertyReport {
  const fixtures = yamlFilesUnder(fixtureDir).map((f) => readFileSync(f, 'utf8'));
  const report: PropertyReport = { cases, translated: 0, jsYamlErrors: 0, streamed: 0 };
  for (let n = 0; n < cases; n++) {
    const rng = new Rng(seed, n);
    const text = caseText(rng, fixtures);
    const what = `seed ${seed} case ${n}: ${JSON.stringify(text)}`;
    const mine = readYamlAsJson(text);
    const theirs = jsYaml(text);
    if ('error' in theirs) report.jsYamlErrors++;
    if (mine !== undefined) {
      report.translated++;
      assert.deepStrictEqual(mine, theirs, what);
    }
    if (n % streamEvery === 0) {
      report.streamed++;
      const chunk = rng.pick([1, 3, 7, 16, 61, 200, text.length || 1]);
      const splitAbove = rng.pick([undefined, 0, 40]);
      // A List split into entries keeps its text and reads it whole when the parts cannot say
      // (as the loader does up to 32 MiB); past that size broken Lists may fail differently.
      const { stream, whole } = bothWays(text, splitAbove, chunk, 'inline', 32 << 20);
      assert.deepStrictEqual(stream, whole, `${what} (stream, chunks of ${chunk}, split above ${splitAbove})`);
    }
  }
  return report;
}
