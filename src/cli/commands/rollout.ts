/** `rollout <daemonset>`: Is the rollout complete, progressing or stuck, and why. */
import { InputError } from '../../model/errors.js';
import type { CommandSpec } from './spec.js';

export const rolloutCommand: CommandSpec = {
  usage: 'rollout <daemonset>',
  description: 'Is the rollout complete, progressing or stuck, and why',
  examples: ['ds-doctor rollout logging/fluent-bit'],
  async run() {
    throw new InputError('"rollout" is not available in this version yet: its analysis is still being built');
  },
};
