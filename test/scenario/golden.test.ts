// Golden cases, one runner for every command: each case's expectation (expect/<name>.json: exit
// code and the part of the JSON document its story is about) is checked first, then the whole
// human and JSON outputs against golden/<name>.txt|json. Runs in-process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../harness.js';
import { firstMismatch, readExpectation } from './expect.js';
import { SCENARIOS } from './scenarios.js';

const GOLDEN = 'test/scenario/golden';
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

/** Compares with golden/<file>; UPDATE_GOLDEN=1 rewrites it (the expectations are never rewritten). */
async function compare(file: string, actual: string): Promise<void> {
  const path = join(GOLDEN, file);
  if (UPDATE || !existsSync(path)) {
    if (!UPDATE) assert.fail(`golden ${path} is missing: run with UPDATE_GOLDEN=1 and review it`);
    await writeFile(path, actual);
    return;
  }
  assert.equal(actual, await readFile(path, 'utf8'), `${path} differs (UPDATE_GOLDEN=1 rewrites it)`);
}

for (const s of SCENARIOS) {
  test(`${s.name}: ${s.story}`, async () => {
    const expected = readExpectation(s.name);
    const argv = [...s.args, ...s.input.flatMap((f) => ['-f', f])];
    const command = `ds-doctor ${argv.join(' ')}`;
    const human = await runCli([...argv, '--no-color']);
    const json = await runCli([...argv, '-o', 'json']);
    assert.equal(human.stderr, '', `${s.name}: no errors`);

    // The expectation first: what the story says must hold, whatever the goldens hold.
    assert.equal(
      human.code,
      expected.exit,
      `${s.name}: exit code of ${command}: expected ${expected.exit}, got ${human.code}`,
    );
    assert.equal(
      json.code,
      expected.exit,
      `${s.name}: exit code of ${command} -o json: expected ${expected.exit}, got ${json.code}`,
    );
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    const mismatch = firstMismatch(expected.json, doc);
    assert.ok(mismatch === undefined, `${s.name}: expect/${s.name}.json: ${mismatch}`);
    if (doc['kind'] === 'DeleteImpact') {
      // The exit code is the pipeline gate: 1 exactly when the risk is high or critical.
      assert.equal(
        expected.exit,
        doc['risk'] === 'critical' || doc['risk'] === 'high' ? 1 : 0,
        `${s.name}: exit code against risk ${String(doc['risk'])}`,
      );
    }

    await compare(`${s.name}.txt`, human.stdout);
    await compare(`${s.name}.json`, json.stdout);

    // Same input, same output: nothing depends on map order or the clock.
    assert.equal(
      (await runCli([...argv, '--no-color'])).stdout,
      human.stdout,
      `${s.name}: a second run prints the same`,
    );
  });
}

test('every golden case has an expectation and every expectation a case', async () => {
  const files = (await readdir('test/scenario/expect'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
  assert.deepEqual(files, SCENARIOS.map((s) => s.name).sort());
});
