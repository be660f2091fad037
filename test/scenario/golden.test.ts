// Golden scenario tests: each scenario's human and JSON output and exit code, run in-process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../harness.js';
import { SCENARIOS } from './scenarios.js';

const GOLDEN = 'test/scenario/golden';
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

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
    const files = s.input.flatMap((f) => ['-f', f]);
    const human = await runCli([...s.args, ...files, '--no-color']);
    assert.equal(human.stderr, '', 'no errors');
    assert.equal(human.code, s.exit, `exit code of ${s.args.join(' ')}`);
    await compare(`${s.name}.txt`, human.stdout);
    const json = await runCli([...s.args, ...files, '-o', 'json']);
    assert.equal(json.code, s.exit);
    JSON.parse(json.stdout);
    await compare(`${s.name}.json`, json.stdout);
  });
}
