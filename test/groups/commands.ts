// The scenario tests and the CLI tests that run the CLI in-process (test/harness.ts).
import { importTests } from './import-tests.js';
import { commandTests } from './lists.js';

await importTests(commandTests());
