// The CLI tests that start processes (Node with tracing hooks, the bundle, bash).
import { importTests } from './import-tests.js';
import { PROCESS_TESTS } from './lists.js';

await importTests(PROCESS_TESTS);
