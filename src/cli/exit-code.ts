/** The exit code of a command from the severities it found (kept apart from the command context, which loads the renderers). */
import { EXIT } from '../model/errors.js';
import { atOrAbove } from '../model/severity.js';
import type { GlobalOptions } from './options.js';

/** Exit code for results with the given worst severities, honouring --fail-on. */
export function exitFor(opts: GlobalOptions, found: { error: boolean; warning: boolean }): number {
  if (opts.failOn === 'none') return EXIT.ok;
  const worst = found.error ? 'error' : found.warning ? 'warning' : undefined;
  return worst && atOrAbove(worst, opts.failOn) ? EXIT.problems : EXIT.ok;
}
