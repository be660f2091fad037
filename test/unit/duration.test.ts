// kubectl-style durations for --stuck-after and --request-timeout.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/cli/duration.js';

describe('durations: plain seconds and unit sums, milliseconds included', () => {
  const cases: [string, number][] = [
    ['90', 90],
    ['30s', 30],
    ['10m', 600],
    ['1h30m', 5400],
    ['500ms', 0.5],
    ['1m30s', 90],
    ['0', 0],
  ];
  for (const [text, want] of cases) {
    test(text, () => {
      assert.equal(parseDuration('--x', text), want, text);
    });
  }
  test('malformed durations are refused naming the flag', () => {
    for (const bad of ['', 'ten', '10 m', '5d', '1h-', 'm'])
      assert.throws(() => parseDuration('--x', bad), /--x: ".*" is not a duration/, bad);
  });
});
