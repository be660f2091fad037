/** `impact <daemonset>`: What breaks if the DaemonSet is deleted. */
import { InputError } from '../../model/errors.js';
import type { CommandSpec } from './spec.js';

export const impactCommand: CommandSpec = {
  usage: 'impact <daemonset>',
  description: 'What breaks if the DaemonSet is deleted',
  examples: ['ds-doctor impact kube-system/calico-node --cascade=background'],
  async run() {
    throw new InputError('"impact" is not available in this version yet: its analysis is still being built');
  },
};
