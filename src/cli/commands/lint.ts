/** `lint [daemonset]`: Best-practice findings for DaemonSet manifests. */
import { InputError } from '../../model/errors.js';
import type { CommandSpec } from './spec.js';

export const lintCommand: CommandSpec = {
  usage: 'lint [daemonset]',
  description: 'Best-practice findings for DaemonSet manifests',
  examples: ['ds-doctor lint -f manifests/ -o sarif'],
  async run() {
    throw new InputError('"lint" is not available in this version yet: its analysis is still being built');
  },
};
