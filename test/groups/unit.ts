// The unit tests: tables on the analyses, the upstream semantics, the loaders and the renderers.
import { importTests } from './import-tests.js';
import { unitTests } from './lists.js';

await importTests(unitTests());
