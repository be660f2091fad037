// Which test files each group of `npm test` imports (test/groups/import-tests.ts). Every file of
// test/unit, test/scenario and test/cli is in exactly one group: test/unit/test-groups.test.ts checks it.
import { testFiles } from './import-tests.js';

/** CLI tests that start processes: Node with tracing hooks, the bundle, bash (test/groups/processes.ts). */
export const PROCESS_TESTS = [
  'cli/startup.test.js',
  'cli/launch.test.js',
  'cli/completion.test.js',
  'cli/output-failures.test.js',
  'cli/code-generation.test.js',
];

/** CLI tests that mostly wait: on tmux, on a fake API server's timeouts and watches (test/groups/waits.ts). */
export const WAIT_TESTS = ['cli/tour-tmux.test.js', 'cli/rollout-watch.test.js', 'cli/live-faults.test.js'];

/** The scenario tests and the in-process CLI tests (test/groups/commands.ts). */
export function commandTests(): string[] {
  return [
    ...testFiles('scenario'),
    ...testFiles('cli').filter((f) => !PROCESS_TESTS.includes(f) && !WAIT_TESTS.includes(f)),
  ];
}

/** The unit tests (test/groups/unit.ts). */
export function unitTests(): string[] {
  return testFiles('unit');
}
