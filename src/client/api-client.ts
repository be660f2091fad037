/**
 * A read-only Kubernetes API client with one verb, GET, so ds-doctor cannot write to a cluster:
 * requests made with node:https for raw JSON, with the options credentials.ts builds from the
 * kubeconfig, as client-go's rest client makes them (rest/request.go#Request.Do: the request
 * timeout, a 429 retried once after its Retry-After, redirects to the same server; and
 * Request.Watch for a watch stream), and kubectl's -v log of each (request-log.ts).
 *
 * Every way a server can fail (an error status, throttling, a redirect, a page that is not JSON,
 * a connection reset, silence) is a ClusterError (exit 3) with one line naming the status and the
 * API path (api-errors.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { ClusterError } from '../model/errors.js';
import { SNAPSHOT_KINDS, type SnapshotKind } from '../model/snapshot.js';
import { redactedUrl } from './server-url.js';
import { RequestLog } from './request-log.js';
import { ApiError, ReadTimeout, ServerAnswers, kubernetesStatus, type Answer } from './api-errors.js';
import { connectionOf, type KubeconfigOptions } from './credentials.js';

/** The longest Retry-After honoured on a 429; a longer one fails at once. */
const MAX_RETRY_AFTER_S = 10;

/** The path of a kind's collection, in one namespace or the whole cluster (`/apis/apps/v1/namespaces/ns/daemonsets`). */
export function collectionPath(kind: SnapshotKind, namespace?: string): string {
  const m = SNAPSHOT_KINDS[kind];
  const base = m.group ? `/apis/${m.group}/${m.version}` : `/api/${m.version}`;
  return m.namespaced && namespace
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${m.plural}`
    : `${base}/${m.plural}`;
}

/** Response headers with the names as the server wrote them (for the -v log). */
function rawHeaderMap(raw: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) (out[raw[i]!] ??= []).push(raw[i + 1]!);
  return out;
}

export class ApiClient {
  /** The server for messages: its password, if the URL has one, masked. */
  readonly server: string;
  /** When all reads must have ended: set by the first request, so that it gets the whole limit. */
  private deadline: number | undefined;
  /** The texts of the server's answers and failures. */
  private readonly answers: ServerAnswers;

  private constructor(
    private readonly serverUrl: string,
    readonly contextName: string,
    readonly contextNamespace: string,
    private readonly requestOptions: https.RequestOptions,
    private readonly timeoutMs: number,
    private readonly totalTimeoutMs: number,
    secrets: string[],
    logging?: { verbosity: number; log: (line: string) => void },
  ) {
    this.server = redactedUrl(serverUrl);
    this.answers = new ServerAnswers(this.server, contextName, secrets);
    this.requestLog = logging ? new RequestLog(logging.verbosity, logging.log, secrets) : undefined;
  }

  /** kubectl's -v request log, when asked for. */
  private readonly requestLog: RequestLog | undefined;

  /**
   * Loads the kubeconfig and the credentials of the chosen context (credentials.ts). A missing
   * kubeconfig or context and credentials that cannot be had are exit 3; a wrong field is exit 2.
   */
  static async fromKubeconfig(opts: KubeconfigOptions): Promise<ApiClient> {
    const c = await connectionOf(opts);
    return new ApiClient(
      c.server,
      c.contextName,
      c.contextNamespace,
      c.requestOptions,
      opts.requestTimeoutMs,
      opts.totalTimeoutMs ?? 0,
      c.secrets,
      c.logging,
    );
  }

  /** Milliseconds left for this request: its own limit or what remains of all reads, if less. */
  private timeLeft(path: string): { ms: number; total: boolean } | undefined {
    const now = Date.now();
    if (this.deadline === undefined && this.totalTimeoutMs > 0) this.deadline = now + this.totalTimeoutMs;
    const remaining = this.deadline === undefined ? undefined : this.deadline - now;
    if (remaining !== undefined && remaining <= 0) throw this.deadlineError(path);
    if (remaining === undefined) return this.timeoutMs > 0 ? { ms: this.timeoutMs, total: false } : undefined;
    return this.timeoutMs > 0 && this.timeoutMs <= remaining
      ? { ms: this.timeoutMs, total: false }
      : { ms: remaining, total: true };
  }

  private deadlineError(path: string): ReadTimeout {
    return new ReadTimeout(
      `reading from ${this.server} took longer than ${this.totalTimeoutMs / 1000}s in all (--request-timeout); GET ${path} did not finish`,
    );
  }

  /** -v: the GET of `url` as it is sent, with this client's headers and credentials (masked there). */
  private logRequest(url: URL): void {
    this.requestLog?.request(
      'GET',
      url,
      (this.requestOptions.headers ?? {}) as Record<string, string>,
      typeof this.requestOptions.auth === 'string' ? this.requestOptions.auth : undefined,
    );
  }

  /** One HTTP exchange, bounded by the time left; the body is read whole. */
  private exchange(url: URL, path: string): Promise<Answer> {
    const limit = this.timeLeft(path);
    const transport = url.protocol === 'http:' ? http : https;
    const started = performance.now();
    this.logRequest(url);
    return new Promise((resolve, reject) => {
      let timedOut: ReadTimeout | undefined;
      let settled = false;
      const fail = (err: Error, midBody: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.requestLog?.response('GET', url, 0, performance.now() - started);
        reject(timedOut ?? (err instanceof ClusterError ? err : this.answers.networkError(err, path, midBody)));
      };
      const req = transport.request(url, { ...this.requestOptions, method: 'GET' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => fail(e, true));
        res.on('close', () => {
          if (!res.complete)
            fail(
              Object.assign(new Error('the connection closed before the answer ended'), { code: 'ECONNRESET' }),
              true,
            );
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const answer = {
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          };
          this.requestLog?.response(
            'GET',
            url,
            answer.status,
            performance.now() - started,
            rawHeaderMap(res.rawHeaders),
            answer.text,
          );
          resolve(answer);
        });
      });
      // A deadline for the whole request, as kubectl's --request-timeout: the socket's idle
      // timeout (req.setTimeout) fired at twice the value against a server that accepts
      // connections and never answers.
      const timer = limit
        ? setTimeout(() => {
            timedOut = limit.total
              ? this.deadlineError(path)
              : new ReadTimeout(
                  `request to ${this.server}${path} timed out after ${limit.ms / 1000}s (--request-timeout)`,
                );
            req.destroy(timedOut);
          }, limit.ms)
        : undefined;
      req.on('error', (e) => fail(e, false));
      req.end();
    });
  }

  /** How long to wait before retrying a 429, from its Retry-After; throws when it cannot be honoured. */
  private retryDelay(answer: Answer, path: string): number {
    const header = answer.headers['retry-after'];
    const head = `${this.answers.answered(answer.status, path)}${this.answers.statusMessage(answer.text)}`;
    const isStatus = kubernetesStatus(answer.text) !== undefined;
    if (header === undefined) throw new ApiError(`${head} (no Retry-After: not retried)`, answer.status, isStatus);
    const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : (Date.parse(header) - Date.now()) / 1000;
    if (!Number.isFinite(seconds))
      throw new ApiError(
        `${head} (Retry-After "${this.answers.say(header)}" is not a delay: not retried)`,
        answer.status,
        isStatus,
      );
    const wait = Math.max(0, seconds);
    const left = this.deadline === undefined ? Infinity : (this.deadline - Date.now()) / 1000;
    if (wait > MAX_RETRY_AFTER_S || wait >= left) {
      throw new ApiError(
        `${head} (Retry-After ${Math.ceil(wait)}s is longer than ds-doctor waits: ${Math.min(MAX_RETRY_AFTER_S, Math.max(0, Math.floor(left)))}s)`,
        answer.status,
        isStatus,
      );
    }
    return wait * 1000;
  }

  /** GETs a path with query parameters and returns the parsed JSON object. */
  async get(path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    let url = new URL(`${this.serverUrl}${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let retried = false;
    for (let hops = 0; ;) {
      const answer = await this.exchange(url, path);
      if (answer.status >= 300 && answer.status < 400) {
        url = this.answers.redirectTarget(answer, url, path, hops++);
        continue;
      }
      if (answer.status === 429 && !retried) {
        const wait = this.retryDelay(answer, path);
        await new Promise((r) => setTimeout(r, wait));
        retried = true;
        continue;
      }
      return this.answers.decode(answer, path, retried);
    }
  }

  /**
   * GETs one page of a list: its items (each an object) and its continue token. A page that is
   * not a list, or holds an item that is not an object, is an error naming the path.
   */
  async getList(
    path: string,
    params: Record<string, string>,
  ): Promise<{ items: Record<string, unknown>[]; continue?: string; resourceVersion?: string }> {
    const page = await this.get(path, params);
    // Go writes an empty list's items as null; a list has the field, though: an object without
    // it is not a list (another service answering), and reading it as empty would be wrong.
    if (!('items' in page))
      throw new ApiError(
        `the API server at ${this.server} answered GET ${path} with an object that is not a list (no "items")`,
        200,
        false,
      );
    const items = page['items'] ?? [];
    if (!Array.isArray(items))
      throw new ApiError(
        `the API server at ${this.server} answered GET ${path} with a list whose "items" is not an array`,
        200,
        false,
      );
    const bad = items.findIndex((i) => !i || typeof i !== 'object' || Array.isArray(i));
    if (bad >= 0) {
      throw new ApiError(
        `the API server at ${this.server} answered GET ${path} with a list holding ${items[bad] === null ? 'a null item' : 'an item that is not an object'} (items[${bad}])`,
        200,
        false,
      );
    }
    const meta = page['metadata'] as { continue?: unknown; resourceVersion?: unknown } | undefined;
    const cont = meta?.continue;
    const objects = items as Record<string, unknown>[];
    // The list's resourceVersion is where a watch of it resumes (src/client/watch.ts).
    const rv =
      typeof meta?.resourceVersion === 'string' && meta.resourceVersion
        ? { resourceVersion: meta.resourceVersion }
        : {};
    return typeof cont === 'string' && cont ? { items: objects, continue: cont, ...rv } : { items: objects, ...rv };
  }

  /**
   * A watch (`?watch=1`): the answer is a stream of JSON objects, one a line, each handed to
   * `onEvent` as it arrives. Resolves when the server ends the stream (its timeoutSeconds) or
   * `signal` aborts it; rejects with a ClusterError when the connection breaks, and with the
   * error an answer means (ApiError) when the server refuses the watch. Only the connection is
   * bounded by --request-timeout; the stream lasts as long as the server keeps it open, with
   * `idleMs` of silence (no event, no bookmark) taken as a dead connection.
   */
  watchStream(
    path: string,
    params: Record<string, string>,
    onEvent: (event: Record<string, unknown>) => void,
    opts: { signal?: AbortSignal; idleMs?: number } = {},
  ): Promise<void> {
    const url = new URL(`${this.serverUrl}${path}`);
    for (const [k, v] of Object.entries({ ...params, watch: '1' })) url.searchParams.set(k, v);
    const transport = url.protocol === 'http:' ? http : https;
    // -v logs a watch as client-go does any request: when it is sent, and its status when the
    // answer's headers arrive (the stream's events are not a body to log).
    const started = performance.now();
    this.logRequest(url);
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', abort);
        if (err) reject(err);
        else resolve();
      };
      const abort = () => {
        finish();
        req.destroy();
      };
      let timer: NodeJS.Timeout | undefined;
      const arm = (ms: number | undefined, text: () => string) => {
        clearTimeout(timer);
        timer = ms ? setTimeout(() => req.destroy(new ReadTimeout(text())), ms) : undefined;
      };
      const req = transport.request(url, { ...this.requestOptions, method: 'GET' }, (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => finish(this.answers.networkError(e, path, true)));
          res.on('end', () => {
            this.requestLog?.response(
              'GET',
              url,
              status,
              performance.now() - started,
              rawHeaderMap(res.rawHeaders),
              Buffer.concat(chunks).toString('utf8'),
            );
            try {
              this.answers.decode(
                { status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') },
                path,
                false,
              );
              finish(new ApiError(`${this.answers.answered(status, path)}: not a watch`, status, false));
            } catch (err) {
              finish(err as Error);
            }
          });
          return;
        }
        this.requestLog?.response('GET', url, status, performance.now() - started, rawHeaderMap(res.rawHeaders));
        const idle = () =>
          arm(opts.idleMs, () => `the watch of ${path} on ${this.server} was silent for ${(opts.idleMs ?? 0) / 1000}s`);
        idle();
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          idle();
          pending += chunk;
          for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
            const line = pending.slice(0, nl).trim();
            pending = pending.slice(nl + 1);
            if (!line) continue;
            let event: unknown;
            try {
              event = JSON.parse(line);
            } catch {
              finish(
                new ApiError(
                  `the API server at ${this.server} answered the watch of ${path} with a line that is not JSON`,
                  status,
                  false,
                ),
              );
              req.destroy();
              return;
            }
            if (!event || typeof event !== 'object' || Array.isArray(event)) continue;
            try {
              onEvent(event as Record<string, unknown>);
            } catch (err) {
              finish(err as Error);
              req.destroy();
              return;
            }
          }
        });
        res.on('error', (e) => finish(e instanceof ClusterError ? e : this.answers.networkError(e, path, true)));
        res.on('close', () =>
          finish(
            res.complete || settled
              ? undefined
              : this.answers.networkError(
                  Object.assign(new Error('the connection closed'), { code: 'ECONNRESET' }),
                  path,
                  true,
                ),
          ),
        );
        res.on('end', () => finish());
      });
      arm(
        this.timeoutMs || undefined,
        () => `request to ${this.server}${path} timed out after ${this.timeoutMs / 1000}s (--request-timeout)`,
      );
      req.on('error', (e) => {
        if (!settled) this.requestLog?.response('GET', url, 0, performance.now() - started);
        finish(e instanceof ClusterError ? e : this.answers.networkError(e, path, false));
      });
      if (opts.signal?.aborted) abort();
      else opts.signal?.addEventListener('abort', abort, { once: true });
      req.end();
    });
  }
}
