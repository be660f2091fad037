// The CLI tests that start processes (Node with tracing hooks, the bundle, bash, tmux) or wait on
// a fake API server's timeouts: one group, so that their waits overlap the other groups' CPU work.
import { importTests } from './import-tests.js';
import { PROCESS_TESTS } from './lists.js';

await importTests(PROCESS_TESTS);
