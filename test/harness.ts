/** Runs the CLI in-process through `main(argv, io)` and captures what it prints. */
import { main } from '../src/cli/main.js';
import type { CliIO } from '../src/cli/io.js';
import type { LoadOptions } from '../src/load/files.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Streams that keep what the CLI writes, with the given stdin, environment and terminals (none by default). */
export function capturingIo(
  options: { stdin?: string; env?: Record<string, string>; tty?: boolean; stderrTty?: boolean; columns?: number } = {},
): {
  io: CliIO;
  output: () => { stdout: string; stderr: string };
} {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: {
      write: (s: string) => {
        stdout += s;
        return true;
      },
    },
    stderr: {
      write: (s: string) => {
        stderr += s;
        return true;
      },
    },
    readStdin: async () => options.stdin ?? '',
    env: options.env ?? {},
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.stderrTty ?? false,
    ...(options.columns === undefined ? {} : { columns: options.columns }),
  };
  return { io, output: () => ({ stdout, stderr }) };
}

export async function runCli(
  argv: string[],
  options: { stdin?: string; env?: Record<string, string>; tty?: boolean; loadOptions?: LoadOptions } = {},
): Promise<CliRun> {
  const { io, output } = capturingIo({ ...options, columns: 100 });
  if (options.loadOptions) io.loadOptions = options.loadOptions;
  const code = await main(argv, io, () => new Date('2026-11-29T12:00:00Z'));
  return { code, ...output() };
}
