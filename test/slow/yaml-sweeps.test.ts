// Every chunk size and split threshold of the YAML stream against js-yaml (test/yaml-sweeps.ts);
// npm test runs a few of each.
import { yamlSweeps } from '../yaml-sweeps.js';

yamlSweeps('full');
