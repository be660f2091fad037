/** Process entry point: runs `main` on the real process and sets the exit code. */
import { processIO } from './io.js';
import { main } from './main.js';
import { programName } from './program-name.js';
import { EXIT } from '../model/errors.js';
import { escapeTerminal } from '../render/sanitize.js';

/**
 * What a failed write to stdout means. A reader that goes away (`ds-doctor … | head`, EPIPE) is
 * not an error: stop quietly with exit 0, as a program killed by SIGPIPE would leave the
 * pipeline. Any other failure (a full disk, ENOSPC; an I/O error) is one line and exit 2,
 * never exit 1, which means "problems found".
 */
function onStdoutError(err: NodeJS.ErrnoException): never {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  try {
    process.stderr.write(`error: writing output: ${escapeTerminal(err.message)}\n`);
  } catch {
    // stderr is gone too: the exit code is all that is left.
  }
  process.exit(EXIT.usage);
}

export async function run(argv: string[]): Promise<void> {
  process.stdout.on('error', onStdoutError);
  // Nothing useful can be done when stderr itself cannot be written; the exit code still says it.
  process.stderr.on('error', () => undefined);
  // Run as kubectl-ds_doctor (kubectl's plugin), usage, examples and hints say `kubectl ds-doctor`.
  process.exitCode = await main(argv, { ...processIO(), programName: programName(process.argv[1]) });
}
