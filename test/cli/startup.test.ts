// Start-up on a few commands, one of each way a command starts (test/startup.ts); the slow tier
// checks every command (test/slow/startup.test.ts).
import { startupChecks } from '../startup.js';

startupChecks('quick');
