/** What a command handler gets: parsed flags, the streams, a loader and an output writer. */
import type { LoadedSnapshot, LoadRequest } from '../model/snapshot.js';
import { EXIT } from '../model/errors.js';
import { renderContext, type RenderContext } from '../render/context.js';
import { renderJson, renderYaml } from '../render/document.js';
import { loadFiles } from '../load/files.js';
import type { KubeconfigOptions } from '../load/api-client.js';
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

/** How to reach the cluster: the kubeconfig flags and the environment kubectl reads. */
export function kubeconfigOptions(
  opts: Pick<GlobalOptions, 'kubeconfig' | 'context'>, env: Record<string, string | undefined>, requestTimeoutMs: number,
): KubeconfigOptions {
  return {
    ...(opts.kubeconfig ? { kubeconfig: opts.kubeconfig } : {}),
    ...(env['KUBECONFIG'] ? { kubeconfigEnv: env['KUBECONFIG'] } : {}),
    proxyEnv: Object.fromEntries(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'].map((k) => [k, env[k]])),
    ...(opts.context ? { context: opts.context } : {}),
    requestTimeoutMs,
  };
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
      const loaded = await live.loadLive(request, {
        ...kubeconfigOptions(opts, io.env, parseDuration('--request-timeout', opts.requestTimeout ?? '30s') * 1000),
        ...(opts.namespace ? { namespace: opts.namespace } : {}),
        allNamespaces: opts.allNamespaces,
        ...(progress ? { progress } : {}),
      });
      if (progress) io.stderr.write('\r\u001b[2K');
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
