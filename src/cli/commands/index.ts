/** Every command of the contract, in the order `--help` lists them. */
import type { CommandSpec } from './spec.js';
import { scanCommand } from './scan.js';
import { whyCommand } from './why.js';
import { nodesCommand } from './nodes.js';
import { nodeCommand } from './node.js';
import { rolloutCommand } from './rollout.js';
import { impactCommand } from './impact.js';
import { lintCommand } from './lint.js';
import { planCommand } from './plan.js';
import { reportCommand } from './report.js';

export const COMMANDS: CommandSpec[] = [
  scanCommand,
  whyCommand,
  nodesCommand,
  nodeCommand,
  rolloutCommand,
  impactCommand,
  lintCommand,
  planCommand,
  reportCommand,
];
