// npm test imports the test files into a few processes (test/groups/): every file of test/unit,
// test/scenario and test/cli is in exactly one group, and every file a group names exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandTests, PROCESS_TESTS, unitTests, WAIT_TESTS } from '../groups/lists.js';
import { testFiles } from '../groups/import-tests.js';

test('every unit, scenario and CLI test file is in exactly one group of npm test', () => {
  const all = [...testFiles('unit'), ...testFiles('scenario'), ...testFiles('cli')].sort();
  const grouped = [...unitTests(), ...commandTests(), ...PROCESS_TESTS, ...WAIT_TESTS].sort();
  assert.deepEqual(grouped, all);
  assert.ok(all.includes('unit/test-groups.test.js'), 'the walk finds this file');
  assert.ok(all.length > 100, `${all.length} test files`);
});
