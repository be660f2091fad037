/** Process entry point: runs `main` on the real process and sets the exit code. */
import { processIO } from './io.js';
import { main } from './main.js';

export async function run(argv: string[]): Promise<void> {
  // A reader that goes away (`ds-doctor … | head`) is not an error: stop quietly, as kubectl does.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  process.exitCode = await main(argv, processIO());
}
