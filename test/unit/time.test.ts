// Timestamps as the API machinery reads them (metav1.Time: Go's time.Parse(time.RFC3339)), and
// the ages shown for them: an impossible or malformed time is unknown, never "NaNy" or a guess.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ageOf, formatDuration, parseRfc3339 } from '../../src/model/duration.js';

const VALID: [string, string][] = [
  ['2026-11-29T12:00:00Z', '2026-11-29T12:00:00.000Z'],
  ['2026-11-29t12:00:00z', '2026-11-29T12:00:00.000Z'],
  ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'], // divisible by 400: a leap year
  ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
  ['2026-11-29T12:00:00.5+01:00', '2026-11-29T11:00:00.500Z'],
  ['2026-11-29T11:39:48.123456Z', '2026-11-29T11:39:48.123Z'],
  ['2026-11-29T12:00:00-05:30', '2026-11-29T17:30:00.000Z'],
];
for (const [text, iso] of VALID) {
  test(`parseRfc3339 accepts ${text}`, () => assert.equal(new Date(parseRfc3339(text)).toISOString(), iso));
}

const INVALID = [
  '2026-02-30T00:00:00Z', // Date.parse takes it as 2 March
  '2026-02-29T00:00:00Z', // 2026 is not a leap year
  '2100-02-29T00:00:00Z', // divisible by 100 but not by 400: not a leap year
  '2026-06-31T00:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-00-10T00:00:00Z',
  '2026-11-29T24:00:00Z', // Date.parse takes it as the next midnight
  '2026-11-29T12:60:00Z',
  '2026-11-29T12:00:60Z',
  '2026-11-29T12:00:00+24:00',
  '2026-11-29T12:00:00', // no offset
  '2026-11-29',
  '1', // Date.parse takes it as the year 2001
  'yesterday',
  '',
];
for (const text of INVALID) {
  test(`parseRfc3339 refuses ${JSON.stringify(text)}`, () => assert.ok(Number.isNaN(parseRfc3339(text))));
}

const NOW = new Date('2026-11-29T12:00:00Z');
const AGES: [string | undefined, string][] = [
  ['2026-11-29T11:45:00Z', '15m'],
  ['not-a-time', '<unknown>'],
  ['1', '<unknown>'],
  ['2026-02-30T00:00:00Z', '<unknown>'],
  [undefined, '<unknown>'],
];
for (const [ts, want] of AGES) {
  test(`ageOf(${JSON.stringify(ts)}) is ${want}`, () => assert.equal(ageOf(ts, NOW), want));
}

test('formatDuration of no duration (NaN) is <unknown>, not NaNy', () =>
  assert.equal(formatDuration(Number.NaN), '<unknown>'));
