/** What a command handler gets: parsed flags, the streams, a loader and an output writer. */
import type { ClusterSnapshot, LoadedSnapshot, LoadRequest } from '../model/snapshot.js';
import { snapshotTime } from '../model/snapshot-time.js';
import { renderContext, type RenderContext } from '../render/context.js';
import { renderJson, renderYaml } from '../render/document.js';
import { escapeDocumentForHumans } from '../render/sanitize.js';
import { wrap } from '../render/wrap.js';
import type { KubeconfigOptions } from '../client/credentials.js';
import type { CliIO } from './io.js';
import type { GlobalOptions } from './options.js';
import { parseDuration } from './duration.js';
import { asProgram } from './program-name.js';

export interface CommandContext {
  opts: GlobalOptions;
  io: CliIO;
  render: RenderContext;
  load(request: LoadRequest): Promise<LoadedSnapshot>;
  /**
   * Writes a result: JSON/YAML of `doc`, or the human rendering for table/wide/markdown, which
   * gets a copy of `doc` whose strings are escaped for a terminal (and for Markdown).
   */
  emit<T>(doc: T, human: (doc: T, ctx: RenderContext, markdown: boolean) => string): void;
  /** Prints a note on stderr (never on stdout, which stays parseable). */
  note(text: string): void;
  /** How to reach the cluster, as `load` does (for a command that reads more after loading: `rollout --watch`). */
  liveOptions(): KubeconfigOptions;
}

/**
 * A dump whose newest timestamp is older than this is judged at that timestamp. A younger one is
 * judged now: timestamps are written only when something changes (node heartbeats every few
 * minutes), so they lag the moment a fresh dump was taken.
 */
const STALE_DUMP_MS = 60 * 60 * 1000;

/**
 * Without --now, an old dump is judged at the time it describes (its newest timestamp), not
 * today: a pod of a dump taken years ago is not "7y old". Said in one line on stderr.
 */
function judgeAtDumpTime(opts: GlobalOptions, snapshot: ClusterSnapshot, note: (text: string) => void): void {
  if (opts.nowGiven) return;
  const taken = snapshotTime(snapshot);
  if (!taken || opts.now.getTime() - taken.getTime() <= STALE_DUMP_MS) return;
  opts.now = taken;
  note(
    `note: judging the input at ${taken.toISOString().replace('.000Z', 'Z')}, its newest timestamp (pass --now to choose the time)`,
  );
}

/**
 * --request-timeout bounds each request and all of the command's reads together; without it,
 * each request gets 30s and all reads 5 minutes. 0 means no limit, as for kubectl.
 */
function readTimeouts(flag: string | undefined): { requestTimeoutMs: number; totalTimeoutMs: number } {
  if (flag === undefined) return { requestTimeoutMs: 30_000, totalTimeoutMs: 300_000 };
  const ms = parseDuration('--request-timeout', flag) * 1000;
  return { requestTimeoutMs: ms, totalTimeoutMs: ms };
}

/**
 * How to reach the cluster: the kubeconfig and connection flags, the environment kubectl reads,
 * and where -v writes its request log (stderr).
 */
export function kubeconfigOptions(
  opts: Pick<GlobalOptions, 'kubeconfig' | 'context'> & Partial<Pick<GlobalOptions, 'connection' | 'verbosity'>>,
  env: Record<string, string | undefined>,
  requestTimeoutMs: number,
  totalTimeoutMs?: number,
  log?: (line: string) => void,
): KubeconfigOptions {
  return {
    ...(opts.connection && Object.keys(opts.connection).length ? { overrides: { ...opts.connection } } : {}),
    ...(opts.verbosity !== undefined && log ? { verbosity: opts.verbosity, log } : {}),
    ...(opts.kubeconfig ? { kubeconfig: opts.kubeconfig } : {}),
    ...(env['KUBECONFIG'] ? { kubeconfigEnv: env['KUBECONFIG'] } : {}),
    proxyEnv: Object.fromEntries(
      ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'].map((k) => [k, env[k]]),
    ),
    ...(opts.context ? { context: opts.context } : {}),
    requestTimeoutMs,
    ...(totalTimeoutMs !== undefined ? { totalTimeoutMs } : {}),
  };
}

export function commandContext(opts: GlobalOptions, io: CliIO): CommandContext {
  const color = opts.output !== 'markdown' && (opts.color === 'always' || (opts.color === 'auto' && io.stdoutIsTTY));
  // Prose is wrapped only on a terminal: piped output keeps one line per item, as kubectl's does.
  const render = renderContext({
    color,
    columns: io.columns,
    wide: opts.output === 'wide',
    wrap: io.stdoutIsTTY && opts.output !== 'markdown',
    ...(opts.noHeaders ? { noHeaders: true } : {}),
  });
  // Notes on a terminal's stderr are wrapped too (stdout's width: the same terminal).
  const noteWidth = io.stderrIsTTY && io.columns && io.columns > 40 ? io.columns - 1 : Number.POSITIVE_INFINITY;
  const note = (text: string) => io.stderr.write(`${wrap('', text, noteWidth, '  ')}\n`);
  return {
    opts,
    io,
    render,
    async load(request: LoadRequest): Promise<LoadedSnapshot> {
      // Loaded through the library's entry (src/api/load.ts), as a program using ds-doctor loads.
      const api = await import('../api/load.js');
      if (opts.filenames.length > 0) {
        const { envLoadOptions } = await import('../load/files.js');
        const snapshot = await api.loadSnapshotFromFiles(opts.filenames, {
          readStdin: io.readStdin,
          ...envLoadOptions(io.env),
          ...io.loadOptions,
          ...(io.stdinChunks ? { stdinChunks: () => io.stdinChunks!() } : {}),
        });
        judgeAtDumpTime(opts, snapshot, note);
        return { snapshot };
      }
      const progress = io.status;
      const timeouts = readTimeouts(opts.requestTimeout);
      // The progress line is cleared also when loading fails, so the error starts its own line.
      const loading = api.loadSnapshotFromCluster(request, {
        ...kubeconfigOptions(opts, io.env, timeouts.requestTimeoutMs, timeouts.totalTimeoutMs, (line) =>
          io.stderr.write(`${line}\n`),
        ),
        ...(opts.namespace ? { namespace: opts.namespace } : {}),
        allNamespaces: opts.allNamespaces,
        ...(progress ? { progress } : {}),
      });
      const loaded = await (progress ? loading.finally(() => progress('')) : loading);
      if (opts.dump) await (await import('../load/live.js')).writeDump(loaded.snapshot, opts.dump);
      return loaded;
    },
    emit(doc, human) {
      switch (opts.output) {
        case 'json':
          io.stdout.write(renderJson(doc));
          break;
        case 'yaml':
          io.stdout.write(renderYaml(doc));
          break;
        default: {
          const markdown = opts.output === 'markdown';
          // Lint fixes end in a YAML snippet on the lines after the sentence.
          const safe = escapeDocumentForHumans(doc, { markdown, multilineKeys: isLintReport(doc) ? ['fix'] : [] });
          // Hints name the program as it was run: `kubectl ds-doctor why …` for the plugin.
          io.stdout.write(asProgram(human(safe, render, markdown), io.programName ?? 'ds-doctor'));
        }
      }
    },
    note,
    liveOptions() {
      const timeouts = readTimeouts(opts.requestTimeout);
      return kubeconfigOptions(opts, io.env, timeouts.requestTimeoutMs, timeouts.totalTimeoutMs, (line) =>
        io.stderr.write(`${line}\n`),
      );
    },
  };
}

function isLintReport(doc: unknown): boolean {
  return typeof doc === 'object' && doc !== null && (doc as { kind?: unknown }).kind === 'LintReport';
}
