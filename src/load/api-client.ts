/**
 * A read-only Kubernetes API client: kubeconfig loading and authentication from
 * @kubernetes/client-node (KUBECONFIG with several files, contexts, client certificates, bearer
 * tokens, exec credential plugins, proxies), requests made with node:https for raw JSON. It has
 * one verb, GET, so ds-doctor cannot write to a cluster.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { delimiter } from 'node:path';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { ClusterError } from '../model/errors.js';
import { proxyFor } from './proxy.js';

/** An HTTP error answer of the API server, with its Status message. */
export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface KubeconfigOptions {
  kubeconfig?: string;
  /** The KUBECONFIG variable of the CLI's environment (a list of files, as for kubectl). */
  kubeconfigEnv?: string;
  context?: string;
  requestTimeoutMs: number;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY of the CLI's environment, used when the kubeconfig sets no proxy-url. */
  proxyEnv?: Record<string, string | undefined>;
}

/**
 * Loads the files of a KUBECONFIG list with kubectl's merge rules: missing files are skipped,
 * the first file to define a cluster, user or context name wins, and so does the first
 * current-context. (client-node's own merge throws on a repeated name and lets a later file's
 * current-context win.)
 */
function loadKubeconfigList(list: string): KubeConfig {
  const files = list.split(delimiter).filter((f) => f !== '');
  const present = files.filter((f) => existsSync(f));
  if (!present.length) throw new Error(`KUBECONFIG=${list}: no such file`);
  const clusters: Cluster[] = [];
  const users: User[] = [];
  const contexts: Context[] = [];
  let currentContext = '';
  for (const file of present) {
    const kc = new KubeConfig();
    kc.loadFromFile(file);
    for (const c of kc.clusters) if (!clusters.some((x) => x.name === c.name)) clusters.push(c);
    for (const u of kc.users) if (!users.some((x) => x.name === u.name)) users.push(u);
    for (const c of kc.contexts) if (!contexts.some((x) => x.name === c.name)) contexts.push(c);
    if (!currentContext && kc.currentContext) currentContext = kc.currentContext;
  }
  const merged = new KubeConfig();
  merged.loadFromOptions({ clusters, users, contexts, currentContext });
  return merged;
}

function closest(name: string, names: string[]): string {
  const near = names.filter((n) => n.includes(name) || name.includes(n));
  return near.length ? ` (did you mean "${near[0]}"?)` : names.length ? ` (contexts: ${names.join(', ')})` : '';
}

function networkError(err: NodeJS.ErrnoException, server: string): ClusterError {
  const code = err.code ?? '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EAI_AGAIN'].includes(code)) {
    return new ClusterError(`cannot reach the API server at ${server}: ${code}`);
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL|ERR_TLS/i.test(code) || /certificate|TLS|SSL/i.test(err.message)) {
    return new ClusterError(`TLS failure talking to ${server}: ${err.message}`);
  }
  return new ClusterError(`request to ${server} failed: ${err.message}`);
}

export class ApiClient {
  private constructor(
    readonly server: string,
    readonly contextName: string,
    readonly contextNamespace: string,
    private readonly requestOptions: https.RequestOptions,
    private readonly timeoutMs: number,
  ) {}

  /** Loads the kubeconfig and the credentials of the chosen context; failures are exit 3. */
  static async fromKubeconfig(opts: KubeconfigOptions): Promise<ApiClient> {
    let kc = new KubeConfig();
    try {
      if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
      else if (opts.kubeconfigEnv) kc = loadKubeconfigList(opts.kubeconfigEnv);
      else kc.loadFromDefault();
    } catch (err) {
      throw new ClusterError(`cannot load kubeconfig${opts.kubeconfig ? ` ${opts.kubeconfig}` : ''}: ${(err as Error).message.split('\n')[0]}`);
    }
    if (opts.context) {
      if (!kc.getContextObject(opts.context)) {
        throw new ClusterError(`context "${opts.context}" not found in kubeconfig${closest(opts.context, kc.getContexts().map((c) => c.name))}`);
      }
      kc.setCurrentContext(opts.context);
    }
    const contextName = kc.getCurrentContext();
    const context = kc.getContextObject(contextName);
    const cluster = kc.getCurrentCluster();
    // client-node falls back to an unauthenticated http://localhost:8080 when it finds no config.
    const fallback = !opts.kubeconfig && contextName === 'loaded-context' && cluster?.server === 'http://localhost:8080';
    if (fallback || !kc.getContexts().length) {
      throw new ClusterError('no kubeconfig found (set KUBECONFIG or --kubeconfig, or analyse a dump with -f <file|dir|->)');
    }
    if (!context) {
      const names = kc.getContexts().map((c) => c.name);
      throw new ClusterError(contextName
        ? `current context "${contextName}" not found in kubeconfig${closest(contextName, names)}`
        : `the kubeconfig has no current context: pass --context (contexts: ${names.join(', ')})`);
    }
    if (!cluster) {
      throw new ClusterError(`context "${contextName}" refers to cluster "${context.cluster}", which is not in the kubeconfig`);
    }
    // kubectl honours the proxy environment variables when the kubeconfig names no proxy-url;
    // client-node builds its proxy agent from the cluster's proxyUrl, so set it there.
    const envProxy = cluster.proxyUrl ? undefined : proxyFor(cluster.server, opts.proxyEnv ?? {});
    if (envProxy) (cluster as { proxyUrl?: string }).proxyUrl = envProxy;
    const requestOptions: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json', 'User-Agent': 'ds-doctor' } };
    try {
      await kc.applyToHTTPSOptions(requestOptions);
    } catch (err) {
      throw new ClusterError(`cannot get credentials for context "${contextName}": ${(err as Error).message.split('\n')[0]}`);
    }
    return new ApiClient(cluster.server.replace(/\/$/, ''), contextName, context.namespace ?? 'default', requestOptions, opts.requestTimeoutMs);
  }

  /** GETs a path with query parameters and returns the parsed JSON body. */
  get(path: string, params: Record<string, string>): Promise<unknown> {
    const url = new URL(`${this.server}${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const transport = url.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      const req = transport.request(url, { ...this.requestOptions, method: 'GET' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => {
          clearTimeout(timer);
          reject(e instanceof ClusterError ? e : networkError(e as NodeJS.ErrnoException, this.server));
        });
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : {};
          } catch {
            body = undefined;
          }
          if (status >= 200 && status < 300 && body !== undefined) return resolve(body);
          const message = (body as { message?: string } | undefined)?.message ?? `HTTP ${status} from ${url.pathname}`;
          if (status === 401) return reject(new ClusterError(`unauthorized (401) by ${this.server}: the credentials of context "${this.contextName}" are missing, invalid or expired`));
          reject(new ApiError(status === 403 ? `forbidden: ${message}` : message, status));
        });
      });
      // A deadline for the whole request, as kubectl's --request-timeout: the socket's idle
      // timeout (req.setTimeout) fired at twice the value against a server that accepts
      // connections and never answers. 0 means no timeout, as for kubectl.
      const timer = this.timeoutMs > 0 ? setTimeout(() => {
        req.destroy(new ClusterError(`request to ${this.server}${url.pathname} timed out after ${this.timeoutMs / 1000}s (--request-timeout)`));
      }, this.timeoutMs) : undefined;
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(e instanceof ClusterError ? e : networkError(e as NodeJS.ErrnoException, this.server));
      });
      req.end();
    });
  }
}
