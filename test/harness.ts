/** Runs the CLI in-process through `main(argv, io)` and captures what it prints. */
import { main } from '../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], options: { stdin?: string; env?: Record<string, string>; tty?: boolean } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => { stdout += s; return true; } },
    stderr: { write: (s: string) => { stderr += s; return true; } },
    readStdin: async () => options.stdin ?? '',
    env: options.env ?? {},
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: false,
    columns: 100,
  }, () => new Date('2026-11-29T12:00:00Z'));
  return { code, stdout, stderr };
}
