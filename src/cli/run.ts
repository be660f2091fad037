/** Process entry point: runs `main` on the real process and sets the exit code. */
import { processIO } from './io.js';
import { main } from './main.js';

export async function run(argv: string[]): Promise<void> {
  process.exitCode = await main(argv, processIO());
}
