/**
 * Kubeconfig loading and checking. The files are loaded by @kubernetes/client-node (with
 * kubectl's merge rules for a KUBECONFIG list); what it does not check, this module checks before
 * any request is made, as client-go's clientcmd validation and rest.Config do: the server is a
 * URL, certificates and keys are PEM and belong together, referenced files exist, and `tokenFile`
 * (which client-node ignores, reading a non-standard `token-file`) is read. A wrong field is an
 * input error (exit 2) naming the kubeconfig file, the context, the cluster or user, and the field;
 * values are never echoed except a server URL, with its password masked.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import yaml from 'js-yaml';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { ClusterError, InputError } from '../model/errors.js';

/** A loaded kubeconfig and, for each cluster and user name, the file that defined it. */
export interface LoadedKubeconfig {
  kc: KubeConfig;
  /** Where a cluster or user entry came from, and its raw fields (for what client-node drops). */
  origin(section: 'clusters' | 'users', name: string): { file: string; raw: Record<string, unknown> } | undefined;
}

type Origins = Map<string, { file: string; raw: Record<string, unknown> }>;

/** Records, for each named entry of one file's section, the file and the raw entry (first file wins). */
function recordOrigins(origins: Origins, section: string, file: string): void {
  let doc: unknown;
  try {
    doc = yaml.load(readFileSync(file, 'utf8'));
  } catch {
    return; // client-node has already reported a file it cannot parse
  }
  const entries = (doc as Record<string, unknown> | null)?.[section];
  if (!Array.isArray(entries)) return;
  const key = section === 'clusters' ? 'cluster' : 'user';
  for (const e of entries as Record<string, unknown>[]) {
    const name = e?.['name'];
    const raw = e?.[key];
    if (typeof name !== 'string' || origins.has(name)) continue;
    origins.set(name, { file, raw: raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {} });
  }
}

/**
 * Loads the files of a KUBECONFIG list with kubectl's merge rules: missing files are skipped,
 * the first file to define a cluster, user or context name wins, and so does the first
 * current-context. (client-node's own merge throws on a repeated name and lets a later file's
 * current-context win.)
 */
function mergeKubeconfigFiles(present: string[]): KubeConfig {
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

/** The first line of a load error, without the source excerpt js-yaml adds (it may hold a secret). */
function loadErrorReason(err: unknown): string {
  const e = err as { reason?: string; mark?: { line: number }; message?: string };
  if (e?.reason && e.mark) return `invalid YAML: ${e.reason} (line ${e.mark.line + 1})`;
  return String(e?.message ?? err).split('\n')[0]!;
}

/**
 * Loads `--kubeconfig`, else the KUBECONFIG list, else ~/.kube/config (client-node's default,
 * which also covers in-cluster service accounts). Failures are exit 3, as before.
 */
export function loadKubeconfig(opts: { kubeconfig?: string; kubeconfigEnv?: string }): LoadedKubeconfig {
  let kc = new KubeConfig();
  let files: string[] = [];
  try {
    if (opts.kubeconfig) {
      files = [opts.kubeconfig];
      kc.loadFromFile(opts.kubeconfig);
    } else if (opts.kubeconfigEnv) {
      files = opts.kubeconfigEnv.split(delimiter).filter((f) => f !== '' && existsSync(f));
      if (!files.length) throw new Error(`KUBECONFIG=${opts.kubeconfigEnv}: no such file`);
      kc = mergeKubeconfigFiles(files);
    } else {
      kc.loadFromDefault();
      const home = join(homedir(), '.kube', 'config');
      if (existsSync(home)) files = [home];
    }
  } catch (err) {
    throw new ClusterError(`cannot load kubeconfig${opts.kubeconfig ? ` ${opts.kubeconfig}` : ''}: ${loadErrorReason(err)}`);
  }
  const origins = { clusters: new Map() as Origins, users: new Map() as Origins };
  for (const file of files) for (const section of ['clusters', 'users'] as const) recordOrigins(origins[section], section, file);
  return { kc, origin: (section, name) => origins[section].get(name) };
}

/** A server URL for messages: the password of any user info masked, as Go's url.Redacted does. */
export function redactedUrl(server: string): string {
  let url: URL | undefined;
  try {
    url = new URL(server);
  } catch {
    url = undefined;
  }
  if (url?.password) {
    url.password = 'xxxxx';
    return server.endsWith('/') ? url.href : url.href.replace(/\/$/, '');
  }
  if (url?.host) return server;
  // Not a URL with a host ("admin:pw@host" reads as scheme "admin"): mask from the first colon
  // after any "//" to the last "@", to be safe.
  const at = server.lastIndexOf('@');
  const start = server.includes('//') ? server.indexOf('//') + 2 : 0;
  const colon = server.indexOf(':', start);
  return colon >= 0 && colon < at ? `${server.slice(0, colon)}:xxxxx${server.slice(at)}` : server;
}

/**
 * The API server URL, as client-go's rest.DefaultServerURL reads `server`: a value without a
 * scheme and host gets https:// when TLS is configured (a CA, a client certificate or
 * insecure-skip-tls-verify), else http://. Throws a reason when it is not an http(s) URL.
 * kubernetes v1.35 staging/src/k8s.io/client-go/rest/url_utils.go#DefaultServerURL
 */
export function serverUrl(server: string, defaultTLS: boolean): URL {
  let url: URL | undefined;
  try {
    url = new URL(server);
  } catch {
    url = undefined;
  }
  if (!server) throw new Error('not set (e.g. https://host:6443)');
  if (!url || !url.host || !/^https?:$/.test(url.protocol)) {
    if (url && url.host) throw new Error(`scheme ${url.protocol.slice(0, -1)} is not http or https`);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(server)) throw new Error('not a URL (e.g. https://host:6443)');
    try {
      url = new URL(`${defaultTLS ? 'https' : 'http'}://${server}`);
    } catch {
      throw new Error('not a URL (e.g. https://host:6443)');
    }
    if (url.pathname !== '/') throw new Error('not a URL or a host:port pair (e.g. https://host:6443)');
  }
  if (!url.hostname) throw new Error('not a URL: no host (e.g. https://host:6443)');
  return url;
}

/** Names a kubeconfig entry in messages: file, context, and the cluster or user. */
function where(loaded: LoadedKubeconfig, section: 'clusters' | 'users', name: string, context: string): string {
  const file = loaded.origin(section, name)?.file;
  return `kubeconfig${file ? ` ${file}` : ''}: context "${context}", ${section === 'clusters' ? 'cluster' : 'user'} "${name}"`;
}

/** Reads a certificate or key given as a file or as base64 data; a problem is thrown as a reason. */
function pemOf(file: string | undefined | null, data: string | undefined | null, field: string): string | undefined {
  if (file) {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new Error(`${field} ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'cannot read')}`, { cause: err });
    }
  }
  return data ? Buffer.from(data, 'base64').toString('utf8') : undefined;
}

function certificate(pem: string, field: string): X509Certificate {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${field}: not a PEM certificate`);
  try {
    return new X509Certificate(pem);
  } catch {
    throw new Error(`${field}: the PEM certificate cannot be parsed`);
  }
}

function privateKey(pem: string, field: string): KeyObject {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) throw new Error(`${field}: not a PEM private key`);
  try {
    return createPrivateKey(pem);
  } catch {
    throw new Error(`${field}: the PEM private key cannot be parsed`);
  }
}

/** Checks the cluster entry: server URL and certificate authority. */
function checkCluster(cluster: Cluster, user: User | null): URL {
  if (cluster.caFile || cluster.caData) {
    const field = cluster.caFile ? 'certificate-authority' : 'certificate-authority-data';
    certificate(pemOf(cluster.caFile, cluster.caData, field)!, field);
  }
  const tls = Boolean(cluster.caFile || cluster.caData || cluster.skipTLSVerify || user?.certFile || user?.certData);
  try {
    return serverUrl(cluster.server, tls);
  } catch (err) {
    throw new Error(`server "${redactedUrl(cluster.server)}": ${(err as Error).message}`, { cause: err });
  }
}

/** Checks the user entry's client certificate and key: both PEM, both given, and a pair. */
function checkClientCertificate(user: User): void {
  const certField = user.certFile ? 'client-certificate' : 'client-certificate-data';
  const keyField = user.keyFile ? 'client-key' : 'client-key-data';
  const certPem = pemOf(user.certFile, user.certData, certField);
  const keyPem = pemOf(user.keyFile, user.keyData, keyField);
  if (!certPem && !keyPem) return;
  if (!keyPem) throw new Error(`${certField} is set but neither client-key nor client-key-data`);
  if (!certPem) throw new Error(`${keyField} is set but neither client-certificate nor client-certificate-data`);
  const cert = certificate(certPem, certField);
  const key = privateKey(keyPem, keyField);
  if (!cert.checkPrivateKey(key)) throw new Error(`${certField} and ${keyField} do not match: the key is not the certificate's`);
}

/**
 * The bearer token of a user's `tokenFile` (relative to its kubeconfig, as clientcmd resolves
 * paths), or undefined when it has none. A token given inline wins, as in client-go.
 */
function tokenFromFile(loaded: LoadedKubeconfig, user: User): string | undefined {
  const origin = loaded.origin('users', user.name);
  const tokenFile = origin?.raw['tokenFile'];
  if (tokenFile === undefined || tokenFile === '' || user.token) return undefined;
  if (typeof tokenFile !== 'string') throw new Error('tokenFile: not a file name');
  const file = isAbsolute(tokenFile) ? tokenFile : join(dirname(origin!.file), tokenFile);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`tokenFile ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'cannot read')}`, { cause: err });
  }
}

/** What the checks yield: the server URL to use and a bearer token read from `tokenFile`. */
export interface CheckedEntries {
  server: URL;
  fileToken?: string;
}

/**
 * Checks the current context's cluster and user before any request; a wrong field is an
 * InputError (exit 2) naming the file, context, entry and field.
 */
export function checkEntries(loaded: LoadedKubeconfig, context: string, cluster: Cluster, user: User | null): CheckedEntries {
  let server: URL;
  try {
    server = checkCluster(cluster, user);
  } catch (err) {
    throw new InputError(`${where(loaded, 'clusters', cluster.name, context)}: ${(err as Error).message}`);
  }
  if (!user) return { server };
  try {
    checkClientCertificate(user);
    const fileToken = tokenFromFile(loaded, user);
    return fileToken === undefined ? { server } : { server, fileToken };
  } catch (err) {
    throw new InputError(`${where(loaded, 'users', user.name, context)}: ${(err as Error).message}`);
  }
}
