// Start-up on every command of test/startup.ts's lists: none loads the live client, --help and
// --version load no loader, analysis or renderer; npm test checks a few (test/cli/startup.test.ts).
import { startupChecks } from '../startup.js';

startupChecks('full');
