import type { LoadOptions } from '../load/files.js';
import { escapeTerminal, escapeTerminalLines } from '../render/sanitize.js';

/** What the command-line program may touch: streams, environment, and whether they are terminals. */
export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Called unbound (passed to the loaders), hence a function property. */
  readStdin: () => Promise<string>;
  /** Standard input as text chunks while it arrives, so that a dump of any size can be piped in. */
  stdinChunks?(): AsyncIterable<string>;
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The name the program was run as, for usage, examples and hints: `ds-doctor`, or `kubectl ds-doctor` for the plugin. */
  programName?: string;
  /** Terminal width for tables (columns), when stdout is a terminal. */
  columns?: number;
  /** Replaces the progress line on a terminal's stderr ('' clears it); absent when not a terminal. */
  status?: (text: string) => void;
  /** Options of the file loader (tests: slimmed parts watched, shared parts frozen, or neither done). */
  loadOptions?: LoadOptions;
  /**
   * A signal aborted by Ctrl-C (SIGINT) or SIGTERM, for a command that runs until something
   * happens (`rollout --watch`) and stops cleanly. Asked for only by such a command: the handler
   * it installs replaces the default, which ends the process at once.
   */
  interrupted?: () => AbortSignal;
}

/**
 * The streams with stderr guarded: every line written there has its terminal control characters
 * made visible (error messages quote file names, flags and server replies), and the progress
 * line, our only control sequence on stderr, goes through `status`.
 */
export function guardStderr(io: CliIO): CliIO {
  const raw = io.stderr;
  return {
    ...io,
    stderr: { write: (text: string) => raw.write(escapeTerminalLines(text)) },
    ...(io.stderrIsTTY
      ? {
          status: (text: string) => {
            raw.write(`\r\u001b[2K${text ? `loading: ${escapeTerminal(text)}` : ''}`);
          },
        }
      : {}),
  };
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
    interrupted: () => {
      const ac = new AbortController();
      const stop = () => ac.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return ac.signal;
    },
  };
}
