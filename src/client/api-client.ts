/**
 * A read-only Kubernetes API client: kubeconfig loading and authentication from
 * @kubernetes/client-node (KUBECONFIG with several files, contexts, client certificates, bearer
 * tokens, exec credential plugins, proxies), requests made with node:https for raw JSON. It has
 * one verb, GET, so ds-doctor cannot write to a cluster.
 *
 * Every way a server can fail (an error status, throttling, a redirect, a page that is not JSON,
 * a connection reset, silence) is a ClusterError (exit 3) with one line naming the status and the
 * API path. Server text in it is put on one line with control characters escaped, and the
 * client's own secrets (token, password) are masked wherever they appear.
 */
import http from 'node:http';
import https from 'node:https';
import { KubeConfig, type Cluster, type User } from '@kubernetes/client-node';
import { ClusterError } from '../model/errors.js';
import {
  checkEntries,
  loadKubeconfig,
  redactedUrl,
  resolveConfig,
  type ConfigOverrides,
  type Impersonation,
} from './kubeconfig.js';
import { proxyFor } from './proxy.js';
import { RequestLog, klogHeader } from './request-log.js';
import { escapeTerminal } from '../model/terminal-text.js';

/** An HTTP error answer of the API server (exit 3 unless the caller knows better). */
export class ApiError extends ClusterError {
  constructor(
    message: string,
    readonly status: number,
    readonly kubernetesStatus: boolean,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A request cut short by --request-timeout (its own limit, or the deadline of all reads). */
export class ReadTimeout extends ClusterError {
  constructor(message: string) {
    super(message);
    this.name = 'ReadTimeout';
  }
}

export interface KubeconfigOptions {
  kubeconfig?: string;
  /** The KUBECONFIG variable of the CLI's environment (a list of files, as for kubectl). */
  kubeconfigEnv?: string;
  context?: string;
  /** Limit of each request; 0 means none, as for kubectl. */
  requestTimeoutMs: number;
  /** Limit of all the command's reads together, from the moment the client is made; 0 means none. */
  totalTimeoutMs?: number;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY of the CLI's environment, used when the kubeconfig sets no proxy-url. */
  proxyEnv?: Record<string, string | undefined>;
  /** kubectl's connection flags (--server, --token, --as, …) over the kubeconfig; `context` above is --context. */
  overrides?: ConfigOverrides;
  /** kubectl's -v: from 6 on, each request is logged through `log` as kubectl logs it (request-log.ts). */
  verbosity?: number;
  log?: (line: string) => void;
}

/** Redirects followed to the same server before giving up (a proxy adding a slash, say). */
const MAX_REDIRECTS = 3;
/** The longest Retry-After honoured on a 429; a longer one fails at once. */
const MAX_RETRY_AFTER_S = 10;
/** Server text longer than this is cut in an error line. */
const MAX_SERVER_TEXT = 300;

/** Server text (an error message, a header) as one line of terminal-safe text, long text cut. */
export function oneLineServerText(text: string, max = MAX_SERVER_TEXT): string {
  const escaped = escapeTerminal(text);
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}

/** A header name byte that needs no escaping (an RFC 7230 token character, '%' excepted). */
function legalHeaderByte(b: number): boolean {
  return (
    (b >= 0x30 && b <= 0x39) ||
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x61 && b <= 0x7a) ||
    "!#$&'*+-.^_`|~".includes(String.fromCharCode(b))
  );
}

/**
 * The key of an Impersonate-Extra-<key> header, percent-encoded where a header name cannot
 * hold the byte, as client-go does (transport/round_trippers.go#headerKeyEscape).
 */
export function headerKeyEscape(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8'))
    out += legalHeaderByte(b) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/**
 * The impersonation headers of a request (client-go transport/round_trippers.go
 * #impersonatingRoundTripper): Impersonate-User, Impersonate-Uid, one Impersonate-Group line per
 * group, and one Impersonate-Extra-<key> line per value.
 */
export function impersonationHeaders(imp: Impersonation): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = { 'Impersonate-User': imp.user };
  if (imp.uid) headers['Impersonate-Uid'] = imp.uid;
  if (imp.groups.length) headers['Impersonate-Group'] = [...imp.groups];
  for (const [key, values] of Object.entries(imp.extra))
    if (values.length) headers[`Impersonate-Extra-${headerKeyEscape(key)}`] = [...values];
  return headers;
}

/** The Authorization header client-node put in the request options, if any. */
function authorizationOf(options: https.RequestOptions): unknown {
  const headers = (options.headers ?? {}) as Record<string, unknown>;
  return headers['Authorization'] ?? headers['authorization'];
}

/** The secrets a request carries, to be masked in anything printed. */
function secretsOf(
  options: https.RequestOptions,
  server: URL,
  user: User | null,
  proxyUrl: string | undefined,
): string[] {
  const found: string[] = [];
  const authorization = authorizationOf(options);
  if (typeof authorization === 'string') {
    const [scheme, credential = ''] = authorization.split(' ', 2);
    found.push(credential);
    if (/^basic$/i.test(scheme ?? '')) found.push(...Buffer.from(credential, 'base64').toString('utf8').split(':'));
  }
  if (typeof options.auth === 'string') found.push(options.auth, options.auth.slice(options.auth.indexOf(':') + 1));
  if (server.password) found.push(server.password, decodeURIComponent(server.password));
  if (user?.token) found.push(user.token);
  if (user?.password) found.push(user.password);
  if (proxyUrl) {
    try {
      const proxy = new URL(proxyUrl);
      if (proxy.password) found.push(proxy.password, decodeURIComponent(proxy.password));
    } catch {
      // client-node has refused a proxy URL it cannot parse
    }
  }
  // Short strings would mask ordinary words; real credentials are longer.
  return [...new Set(found.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
}

/** Why an exec credential plugin failed, without its output (which may hold a credential). */
function execFailure(user: User, err: unknown): string {
  const command = oneLineServerText(String((user.exec as { command?: string } | undefined)?.command ?? ''), 80);
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return `the exec plugin "${command}" of user "${user.name}" was not found`;
  if (e instanceof SyntaxError)
    return `the exec plugin "${command}" of user "${user.name}" did not print an ExecCredential as JSON (its output is not shown)`;
  return `the exec plugin "${command}" of user "${user.name}" failed (its output is not shown; run it to see why)`;
}

/** Response headers with the names as the server wrote them (for the -v log). */
function rawHeaderMap(raw: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) (out[raw[i]!] ??= []).push(raw[i + 1]!);
  return out;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export class ApiClient {
  /** The server for messages: its password, if the URL has one, masked. */
  readonly server: string;
  /** When all reads must have ended: set by the first request, so that it gets the whole limit. */
  private deadline: number | undefined;

  private constructor(
    private readonly serverUrl: string,
    readonly contextName: string,
    readonly contextNamespace: string,
    private readonly requestOptions: https.RequestOptions,
    private readonly timeoutMs: number,
    private readonly totalTimeoutMs: number,
    private readonly secrets: string[],
    logging?: { verbosity: number; log: (line: string) => void },
  ) {
    this.server = redactedUrl(serverUrl);
    this.requestLog = logging ? new RequestLog(logging.verbosity, logging.log, secrets) : undefined;
  }

  /** kubectl's -v request log, when asked for. */
  private readonly requestLog: RequestLog | undefined;

  /**
   * Loads the kubeconfig and the credentials of the chosen context. A missing kubeconfig or
   * context and credentials that cannot be had are exit 3; a wrong field is exit 2.
   */
  static async fromKubeconfig(opts: KubeconfigOptions): Promise<ApiClient> {
    const loaded = loadKubeconfig(opts);
    const log = opts.verbosity !== undefined && opts.verbosity >= 6 && opts.log ? opts.log : undefined;
    // kubectl -v=6 says which files the configuration came from (clientcmd/loader.go).
    for (const file of loaded.files)
      log?.(`${klogHeader(new Date())} ${escapeTerminal(`Config loaded from file:  ${file}`)}`);
    const resolved = resolveConfig(
      loaded,
      { ...opts.overrides, ...(opts.context ? { context: opts.context } : {}) },
      Boolean(opts.kubeconfig),
    );
    const { contextName, user } = resolved;
    const cluster = resolved.cluster as { -readonly [K in keyof Cluster]: Cluster[K] };
    const checked = checkEntries(loaded, contextName, cluster, user, resolved.labels);
    const server = checked.server.href.replace(/\/$/, '');
    cluster.server = server;
    // client-node refuses http:// unless TLS verification is off; kubectl reads a plain http
    // server (kubectl proxy) as it is, and there is no TLS to verify.
    if (checked.server.protocol === 'http:') cluster.skipTLSVerify = true;
    // kubectl honours the proxy environment variables when the kubeconfig names no proxy-url;
    // client-node builds its proxy agent from the cluster's proxyUrl, so set it there.
    const envProxy = cluster.proxyUrl ? undefined : proxyFor(server, opts.proxyEnv ?? {});
    if (envProxy) cluster.proxyUrl = envProxy;
    // client-node reads the request options from a kubeconfig: one with just the resolved
    // context, cluster and user (the flags applied). Its fallback context is recognised by name
    // in resolveConfig: implementation details, so client-node is pinned exactly in package.json.
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [cluster],
      users: user ? [user] : [],
      contexts: [
        {
          name: contextName || 'ds-doctor',
          cluster: cluster.name,
          ...(user ? { user: user.name } : {}),
          ...(resolved.namespace ? { namespace: resolved.namespace } : {}),
        },
      ],
      currentContext: contextName || 'ds-doctor',
    });
    const requestOptions: https.RequestOptions = {
      method: 'GET',
      headers: { Accept: 'application/json', 'User-Agent': 'ds-doctor' },
    };
    try {
      await kc.applyToHTTPSOptions(requestOptions);
    } catch (err) {
      const why = user?.exec ? execFailure(user, err) : oneLineServerText((err as Error).message.split('\n')[0] ?? '');
      throw new ClusterError(`cannot get credentials for context "${contextName}": ${why}`);
    }
    if (checked.fileToken && authorizationOf(requestOptions) === undefined) {
      requestOptions.headers = { ...requestOptions.headers, Authorization: `Bearer ${checked.fileToken}` };
    }
    if (resolved.impersonation)
      requestOptions.headers = { ...requestOptions.headers, ...impersonationHeaders(resolved.impersonation) };
    const secrets = secretsOf(requestOptions, checked.server, user, cluster.proxyUrl);
    return new ApiClient(
      server,
      contextName,
      resolved.namespace ?? 'default',
      requestOptions,
      opts.requestTimeoutMs,
      opts.totalTimeoutMs ?? 0,
      secrets,
      log ? { verbosity: opts.verbosity!, log } : undefined,
    );
  }

  /** Server text for an error line: one line, escaped, the client's secrets masked. */
  private say(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join('***');
    return oneLineServerText(out);
  }

  /** "the API server at https://… answered HTTP 503 Service Unavailable for GET /api/v1/nodes" */
  private answered(status: number, path: string): string {
    return (
      `the API server at ${this.server} answered HTTP ${status} ${http.STATUS_CODES[status] ?? ''}`.trimEnd() +
      ` for GET ${path}`
    );
  }

  private networkError(err: NodeJS.ErrnoException, path: string, midBody: boolean): ClusterError {
    const code = err.code ?? '';
    if (midBody)
      return new ClusterError(
        `the connection to ${this.server} broke while reading the answer to GET ${path} (${code || this.say(err.message)})`,
      );
    if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EAI_AGAIN'].includes(code)) {
      return new ClusterError(`cannot reach the API server at ${this.server}: ${code}`);
    }
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL|ERR_TLS/i.test(code) || /certificate|TLS|SSL/i.test(err.message)) {
      return new ClusterError(`TLS failure talking to ${this.server}: ${this.say(err.message)}`);
    }
    return new ClusterError(`request to ${this.server} failed: ${this.say(err.message)}`);
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
        reject(timedOut ?? (err instanceof ClusterError ? err : this.networkError(err, path, midBody)));
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

  /** The same-server URL a redirect points to; another server, or too many hops, is an error. */
  private redirectTarget(answer: Answer, from: URL, path: string, hops: number): URL {
    const location = answer.headers.location;
    let to: URL | undefined;
    try {
      to = location ? new URL(location, from) : undefined;
    } catch {
      to = undefined;
    }
    const head = `${this.answered(answer.status, path)}, a redirect`;
    if (!to) throw new ApiError(`${head} without a valid Location`, answer.status, false);
    const shown = this.say(`${to.protocol}//${to.host}${to.pathname}`);
    if (to.origin !== from.origin)
      throw new ApiError(
        `${head} to ${shown}: ds-doctor does not follow a redirect to another host`,
        answer.status,
        false,
      );
    if (hops >= MAX_REDIRECTS)
      throw new ApiError(`${head} to ${shown}, after ${hops} redirects already: not followed`, answer.status, false);
    to.username = from.username;
    to.password = from.password;
    return to;
  }

  /** How long to wait before retrying a 429, from its Retry-After; throws when it cannot be honoured. */
  private retryDelay(answer: Answer, path: string): number {
    const header = answer.headers['retry-after'];
    const head = `${this.answered(answer.status, path)}${this.statusMessage(answer.text)}`;
    const isStatus = kubernetesStatus(answer.text) !== undefined;
    if (header === undefined) throw new ApiError(`${head} (no Retry-After: not retried)`, answer.status, isStatus);
    const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : (Date.parse(header) - Date.now()) / 1000;
    if (!Number.isFinite(seconds))
      throw new ApiError(
        `${head} (Retry-After "${this.say(header)}" is not a delay: not retried)`,
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

  /** ": <message>" of a Kubernetes Status body, or "" when the body is not one. */
  private statusMessage(text: string): string {
    const message = kubernetesStatus(text)?.message;
    return typeof message === 'string' && message ? `: ${this.say(message)}` : '';
  }

  /** Turns a final answer into parsed JSON or the error it means. */
  private decode(answer: Answer, path: string, retried: boolean): Record<string, unknown> {
    const { status, text } = answer;
    const type = this.say(
      String(answer.headers['content-type'] ?? 'no Content-Type')
        .split(';')[0]!
        .trim(),
    );
    if (status >= 200 && status < 300) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        const html = /html/i.test(type) || /^\s*</.test(text);
        const what = html
          ? `${type}, not JSON (a login page or a proxy in front of the API server?)`
          : text
            ? `invalid JSON (${type}, ${Buffer.byteLength(text)} bytes)`
            : 'an empty body, not JSON';
        throw new ApiError(`${this.answered(status, path)} with ${what}`, status, false);
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        throw new ApiError(`${this.answered(status, path)} with JSON that is not an object`, status, false);
      }
      return body as Record<string, unknown>;
    }
    const isStatus = kubernetesStatus(text) !== undefined;
    const detail = isStatus ? this.statusMessage(text) : ` (${type}, not a Kubernetes Status)`;
    if (status === 401) {
      throw new ApiError(
        `unauthorized (401) by ${this.server}: the credentials of context "${this.contextName}" are missing, invalid or expired`,
        status,
        isStatus,
      );
    }
    if (status === 403) {
      const message = kubernetesStatus(text)?.message;
      throw new ApiError(
        typeof message === 'string' && message
          ? `forbidden: ${this.say(message)}`
          : `forbidden: ${this.answered(status, path)}${detail}`,
        status,
        isStatus,
      );
    }
    throw new ApiError(
      `${this.answered(status, path)}${detail}${retried && status === 429 ? ' (retried once, as Retry-After asked)' : ''}`,
      status,
      isStatus,
    );
  }

  /** GETs a path with query parameters and returns the parsed JSON object. */
  async get(path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    let url = new URL(`${this.serverUrl}${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let retried = false;
    for (let hops = 0; ;) {
      const answer = await this.exchange(url, path);
      if (answer.status >= 300 && answer.status < 400) {
        url = this.redirectTarget(answer, url, path, hops++);
        continue;
      }
      if (answer.status === 429 && !retried) {
        const wait = this.retryDelay(answer, path);
        await new Promise((r) => setTimeout(r, wait));
        retried = true;
        continue;
      }
      return this.decode(answer, path, retried);
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
          res.on('error', (e) => finish(this.networkError(e, path, true)));
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
              this.decode({ status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }, path, false);
              finish(new ApiError(`${this.answered(status, path)}: not a watch`, status, false));
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
        res.on('error', (e) => finish(e instanceof ClusterError ? e : this.networkError(e, path, true)));
        res.on('close', () =>
          finish(
            res.complete || settled
              ? undefined
              : this.networkError(
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
        finish(e instanceof ClusterError ? e : this.networkError(e, path, false));
      });
      if (opts.signal?.aborted) abort();
      else opts.signal?.addEventListener('abort', abort, { once: true });
      req.end();
    });
  }
}

/** The body parsed as a Kubernetes Status object (`kind: Status`), or undefined. */
function kubernetesStatus(text: string): { message?: unknown } | undefined {
  try {
    const body = JSON.parse(text) as { kind?: unknown; message?: unknown } | null;
    return body && typeof body === 'object' && body.kind === 'Status' ? body : undefined;
  } catch {
    return undefined;
  }
}
