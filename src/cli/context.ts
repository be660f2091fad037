/** What a command handler gets: parsed flags, the streams, a loader and an output writer. */
import type { LoadedSnapshot, LoadRequest } from '../model/snapshot.js';
import { EXIT } from '../model/errors.js';
import { renderContext, type RenderContext } from '../render/context.js';
import { renderJson, renderYaml } from '../render/document.js';
import { loadFiles } from '../load/files.js';
import type { CliIO } from './io.js';
import type { GlobalOptions } from './options.js';
import { parseDuration } from './duration.js';

export interface CommandContext {
  opts: GlobalOptions;
  io: CliIO;
  render: RenderContext;
  load(request: LoadRequest): Promise<LoadedSnapshot>;
  /** Writes a result: JSON/YAML of `doc`, or the human rendering for table/wide/markdown. */
  emit(doc: unknown, human: (ctx: RenderContext, markdown: boolean) => string): void;
  /** Prints a note on stderr (never on stdout, which stays parseable). */
  note(text: string): void;
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

export function commandContext(opts: GlobalOptions, io: CliIO): CommandContext {
  const render = renderContext({ color: opts.color && io.stdoutIsTTY !== false && opts.output !== 'markdown', columns: io.columns, wide: opts.output === 'wide' });
  return {
    opts,
    io,
    render,
    async load(request: LoadRequest): Promise<LoadedSnapshot> {
      if (opts.filenames.length > 0) {
        return { snapshot: await loadFiles(opts.filenames, io.readStdin, io.stdinChunks ? { stdinChunks: () => io.stdinChunks!() } : {}) };
      }
      const live = await import('../load/live.js');
      const progress = io.stderrIsTTY ? (text: string) => io.stderr.write(`\r\u001b[2Kloading: ${text}`) : undefined;
      // The progress line is cleared also when loading fails, so the error starts its own line.
      const loading = live.loadLive(request, {
        ...(opts.kubeconfig ? { kubeconfig: opts.kubeconfig } : {}),
        ...(io.env['KUBECONFIG'] ? { kubeconfigEnv: io.env['KUBECONFIG'] } : {}),
        proxyEnv: Object.fromEntries(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'].map((k) => [k, io.env[k]])),
        ...(opts.context ? { context: opts.context } : {}),
        ...(opts.namespace ? { namespace: opts.namespace } : {}),
        allNamespaces: opts.allNamespaces,
        ...readTimeouts(opts.requestTimeout),
        ...(progress ? { progress } : {}),
      });
      const loaded = await (progress ? loading.finally(() => io.stderr.write('\r\u001b[2K')) : loading);
      if (opts.dump) await live.writeDump(loaded.snapshot, opts.dump);
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
        default:
          io.stdout.write(human(render, opts.output === 'markdown'));
      }
    },
    note(text: string) {
      io.stderr.write(`${text}\n`);
    },
  };
}

/** Exit code for results with the given worst severities, honouring --fail-on. */
export function exitFor(opts: GlobalOptions, found: { error: boolean; warning: boolean }): number {
  if (opts.failOn === 'none') return EXIT.ok;
  if (found.error) return EXIT.problems;
  if (opts.failOn === 'warning' && found.warning) return EXIT.problems;
  return EXIT.ok;
}
