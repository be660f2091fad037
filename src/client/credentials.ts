/**
 * From the kubeconfig and kubectl's connection flags to the options of every request: the
 * server, TLS, and the credentials of the chosen context, as client-go builds a rest.Config
 * (tools/clientcmd/client_config.go#ClientConfig) and wraps its transport
 * (transport/round_trippers.go: bearer and basic authorization, impersonation). The files and the
 * credentials are read by @kubernetes/client-node (client certificates, bearer tokens, exec
 * credential plugins as plugin/pkg/client/auth/exec runs them, auth providers, proxies); what it
 * does not do (`tokenFile`, the Impersonate-* headers, the proxy environment) is done here. The
 * secrets a request carries are collected, to be masked in anything printed.
 */
import type { RequestOptions } from 'node:https';
import { KubeConfig, type Cluster, type User } from '@kubernetes/client-node';
import { ClusterError } from '../model/errors.js';
import { loadKubeconfig } from './kubeconfig.js';
import { checkEntries } from './kubeconfig-check.js';
import { resolveConfig, type ConfigOverrides, type Impersonation } from './kubeconfig-overrides.js';
import { proxyFor } from './proxy.js';
import { klogHeader } from './request-log.js';
import { oneLineServerText } from './api-errors.js';
import { escapeTerminal } from '../model/terminal-text.js';

/** How to reach a cluster: the kubeconfig, kubectl's connection flags and environment, the time limits, -v. */
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
function authorizationOf(options: RequestOptions): unknown {
  const headers = (options.headers ?? {}) as Record<string, unknown>;
  return headers['Authorization'] ?? headers['authorization'];
}

/** The secrets a request carries, to be masked in anything printed. */
function secretsOf(options: RequestOptions, server: URL, user: User | null, proxyUrl: string | undefined): string[] {
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

/** What a client is made with: the server, the context, the options of each request and its secrets. */
export interface Connection {
  /** The server URL, without a trailing slash. */
  server: string;
  contextName: string;
  /** The context's namespace, else "default". */
  contextNamespace: string;
  requestOptions: RequestOptions;
  /** The credentials a request carries (longest first), to be masked in anything printed. */
  secrets: string[];
  /** kubectl's -v, from 6 on. */
  logging?: { verbosity: number; log: (line: string) => void };
}

/**
 * Loads the kubeconfig and the credentials of the chosen context. A missing kubeconfig or
 * context and credentials that cannot be had are exit 3; a wrong field is exit 2.
 */
export async function connectionOf(opts: KubeconfigOptions): Promise<Connection> {
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
  const requestOptions: RequestOptions = {
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
  return {
    server,
    contextName,
    contextNamespace: resolved.namespace ?? 'default',
    requestOptions,
    secrets,
    ...(log ? { logging: { verbosity: opts.verbosity!, log } } : {}),
  };
}
