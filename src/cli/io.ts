/** What the command-line program may touch: streams, environment, and whether they are terminals. */
export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  readStdin(): Promise<string>;
  /** Standard input as text chunks while it arrives, so that a dump of any size can be piped in. */
  stdinChunks?(): AsyncIterable<string>;
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width for tables (columns), when stdout is a terminal. */
  columns?: number;
}

/** The real process's streams. The only place besides bin/ that touches `process`. */
export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    stdinChunks: () => process.stdin.setEncoding('utf8') as AsyncIterable<string>,
    env: process.env,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    columns: process.stdout.columns,
  };
}
