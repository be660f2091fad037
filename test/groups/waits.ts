// The CLI tests that mostly wait (on tmux, on a fake API server's timeouts and watches): a group of
// their own, run beside the others, so that their waits overlap the other groups' CPU work.
import { importTests } from './import-tests.js';
import { WAIT_TESTS } from './lists.js';

await importTests(WAIT_TESTS);
