/**
 * Kubeconfig loading and checking. The files are loaded by @kubernetes/client-node (with
 * kubectl's merge rules for a KUBECONFIG list); what it does not check, this module checks before
 * any request is made, as client-go's clientcmd validation and rest.Config do: the server is a
 * URL, certificates and keys are PEM and belong together, referenced files exist, and `tokenFile`
 * (which client-node ignores, reading a non-standard `token-file`) is read. A wrong field is an
 * input error (exit 2) naming the kubeconfig file, the context, the cluster or user, and the field;
 * values are never echoed except a server URL, with its password masked.
 *
 * kubectl's connection flags (--server, --token, --as, …) are applied over the kubeconfig with
 * client-go's precedence (resolveConfig): explicit flags override the selected context, cluster
 * and user, field by field.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import yaml from 'js-yaml';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { ClusterError, InputError } from '../model/errors.js';
import { didYouMean } from '../model/suggest.js';

/** A loaded kubeconfig and, for each cluster and user name, the file that defined it. */
export interface LoadedKubeconfig {
  kc: KubeConfig;
  /** The files read, in order (kubectl logs them at -v=6). */
  files: string[];
  /** The KUBECONFIG list when none of its files exists (client-go then starts from an empty config). */
  missing?: string;
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
  let missing: string | undefined;
  try {
    if (opts.kubeconfig) {
      files = [opts.kubeconfig];
      kc.loadFromFile(opts.kubeconfig);
    } else if (opts.kubeconfigEnv) {
      files = opts.kubeconfigEnv.split(delimiter).filter((f) => f !== '' && existsSync(f));
      // As client-go's loading rules: missing files of the list are skipped, and with none left the
      // configuration is empty (enough with --server and --token); resolveConfig says so otherwise.
      if (files.length) kc = mergeKubeconfigFiles(files);
      else missing = opts.kubeconfigEnv;
    } else {
      kc.loadFromDefault();
      const home = join(homedir(), '.kube', 'config');
      if (existsSync(home)) files = [home];
    }
  } catch (err) {
    throw new ClusterError(
      `cannot load kubeconfig${opts.kubeconfig ? ` ${opts.kubeconfig}` : ''}: ${loadErrorReason(err)}`,
    );
  }
  const origins = { clusters: new Map() as Origins, users: new Map() as Origins };
  for (const file of files)
    for (const section of ['clusters', 'users'] as const) recordOrigins(origins[section], section, file);
  return {
    kc,
    files,
    ...(missing !== undefined ? { missing } : {}),
    origin: (section, name) => origins[section].get(name),
  };
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
      throw new Error(`${field} ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'cannot read')}`, {
        cause: err,
      });
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

/**
 * How messages name a field: `--client-key` when a flag set it, else the kubeconfig field
 * (`client-key`, `client-key-data`). A message that starts with a flag is not prefixed with the
 * kubeconfig entry (checkEntries).
 */
export type FieldLabels = Partial<
  Record<'certificate-authority' | 'server' | 'client-certificate' | 'client-key', string>
>;

/** Checks the cluster entry: server URL and certificate authority. */
function checkCluster(cluster: Cluster, user: User | null, labels: FieldLabels): URL {
  if (cluster.caFile || cluster.caData) {
    const field = cluster.caFile
      ? (labels['certificate-authority'] ?? 'certificate-authority')
      : 'certificate-authority-data';
    certificate(pemOf(cluster.caFile, cluster.caData, field)!, field);
  }
  const tls = Boolean(cluster.caFile || cluster.caData || cluster.skipTLSVerify || user?.certFile || user?.certData);
  try {
    return serverUrl(cluster.server, tls);
  } catch (err) {
    throw new Error(`${labels.server ?? 'server'} "${redactedUrl(cluster.server)}": ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** Checks the user entry's client certificate and key: both PEM, both given, and a pair. */
function checkClientCertificate(user: User, labels: FieldLabels): void {
  const certField = user.certFile ? (labels['client-certificate'] ?? 'client-certificate') : 'client-certificate-data';
  const keyField = user.keyFile ? (labels['client-key'] ?? 'client-key') : 'client-key-data';
  const certPem = pemOf(user.certFile, user.certData, certField);
  const keyPem = pemOf(user.keyFile, user.keyData, keyField);
  if (!certPem && !keyPem) return;
  // A flag names its missing partner flag, and what the user lacks too.
  const missing = (field: string, partner: string) =>
    field.startsWith('--')
      ? `${field} is given without --${partner} (and user "${user.name}" has no ${partner} or ${partner}-data)`
      : `${field} is set but neither ${partner} nor ${partner}-data`;
  if (!keyPem) throw new Error(missing(certField, 'client-key'));
  if (!certPem) throw new Error(missing(keyField, 'client-certificate'));
  const cert = certificate(certPem, certField);
  const key = privateKey(keyPem, keyField);
  if (!cert.checkPrivateKey(key))
    throw new Error(`${certField} and ${keyField} do not match: the key is not the certificate's`);
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
    throw new Error(`tokenFile ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'cannot read')}`, {
      cause: err,
    });
  }
}

/** What the checks yield: the server URL to use and a bearer token read from `tokenFile`. */
export interface CheckedEntries {
  server: URL;
  fileToken?: string;
}

/**
 * Checks the current context's cluster and user before any request; a wrong field is an
 * InputError (exit 2) naming the file, context, entry and field, or the flag that set it.
 */
export function checkEntries(
  loaded: LoadedKubeconfig,
  context: string,
  cluster: Cluster,
  user: User | null,
  labels: FieldLabels = {},
): CheckedEntries {
  const fail = (section: 'clusters' | 'users', name: string, err: unknown) => {
    const message = (err as Error).message;
    return new InputError(message.startsWith('--') ? message : `${where(loaded, section, name, context)}: ${message}`);
  };
  let server: URL;
  try {
    server = checkCluster(cluster, user, labels);
  } catch (err) {
    throw fail('clusters', cluster.name, err);
  }
  if (!user) return { server };
  try {
    checkClientCertificate(user, labels);
    const fileToken = tokenFromFile(loaded, user);
    return fileToken === undefined ? { server } : { server, fileToken };
  } catch (err) {
    throw fail('users', user.name, err);
  }
}

/**
 * kubectl's connection flags (cli-runtime genericclioptions.ConfigFlags), as the clientcmd
 * ConfigOverrides they become. An unset field leaves the kubeconfig's value.
 */
export interface ConfigOverrides {
  /** --context: the context to use instead of current-context. */
  context?: string;
  /** --cluster: the kubeconfig cluster to use instead of the context's. */
  cluster?: string;
  /** --user: the kubeconfig user to use instead of the context's. */
  user?: string;
  /** -s/--server: the API server address, instead of the cluster's. */
  server?: string;
  /** --certificate-authority: a CA file, replacing the cluster's CA and insecure-skip-tls-verify. */
  certificateAuthority?: string;
  /** --insecure-skip-tls-verify: the server certificate is not checked (the cluster's CA is dropped). */
  insecureSkipTlsVerify?: boolean;
  /** --tls-server-name: the name the server certificate is checked against. */
  tlsServerName?: string;
  /** --client-certificate and --client-key: a client certificate pair, replacing the user's. */
  clientCertificate?: string;
  clientKey?: string;
  /** --token: a bearer token, replacing the user's token. */
  token?: string;
  /** --as, --as-group (repeatable), --as-uid: whom to impersonate. */
  as?: string;
  asGroups?: string[];
  asUid?: string;
}

/** The Impersonate-* headers a request carries (client-go rest.ImpersonationConfig). */
export interface Impersonation {
  user: string;
  uid?: string;
  groups: string[];
  extra: Record<string, string[]>;
}

/** The context, cluster and user to talk with, the flags applied. */
export interface ResolvedConfig {
  contextName: string;
  namespace?: string;
  cluster: Cluster;
  user: User | null;
  impersonation?: Impersonation;
  /** How messages name the fields that flags set. */
  labels: FieldLabels;
}

/** ` (did you mean "admin"?)` for a near name, else the list of names of that kind. */
function closest(name: string, names: string[], kind: string): string {
  return didYouMean(name, names) || (names.length ? ` (${kind}: ${names.join(', ')})` : '');
}

/** Strings of a kubeconfig list field (as-groups), or a reason it is not one. */
function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new Error(`${field}: not a list of strings`);
  return value as string[];
}

/** The `as-user-extra` map of a kubeconfig user: key → list of values. */
function extraMap(value: unknown): Record<string, string[]> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new Error('as-user-extra: not a map of lists of strings');
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = stringList(v, `as-user-extra "${k}"`);
  return out;
}

/**
 * The context, cluster and user with kubectl's flags applied, as client-go's DirectClientConfig
 * merges ConfigOverrides over the kubeconfig (tools/clientcmd/client_config.go#getContext,
 * getAuthInfo, getCluster, and validation.go#validateAuthInfo, validateClusterInfo):
 * - --context picks the context; --cluster and --user pick the entries instead of the context's;
 *   a name given by a flag must exist, as must the context's own when no flag replaces it.
 * - --server replaces the server and clears the kubeconfig's tls-server-name unless
 *   --tls-server-name is given too; --certificate-authority or --insecure-skip-tls-verify
 *   replace both the CA (file and data) and the skip setting; both at once is an error.
 * - --client-certificate and --client-key replace the file and the data of the user's pair.
 * - --token replaces the user's token (and its tokenFile); a user's exec plugin is then not run
 *   (client-go's exec authenticator stands aside for a token or a client certificate), and a
 *   token beside a username and password is kubectl's "more than one authentication method".
 * - --as, --as-uid and --as-group (a list: given, it replaces the user's `as-groups`) override
 *   the user's `as`, `as-uid`, `as-groups`; `as-user-extra` comes from the kubeconfig only (kubectl
 *   has no flag for it). A uid, groups or extra without a user to impersonate is an error.
 * No kubeconfig at all is fine when --server is given (kubectl --server=… --token=…).
 */
export function resolveConfig(
  loaded: LoadedKubeconfig,
  o: ConfigOverrides = {},
  explicitKubeconfig = false,
): ResolvedConfig {
  const { kc } = loaded;
  const contextNames = kc.getContexts().map((c) => c.name);
  if (o.context && !kc.getContextObject(o.context)) {
    throw new ClusterError(
      `context "${o.context}" not found in kubeconfig${closest(o.context, contextNames, 'contexts')}`,
    );
  }
  const contextName = o.context ?? kc.getCurrentContext();
  // client-node falls back to an unauthenticated http://localhost:8080 when it finds no config.
  const fallback =
    !explicitKubeconfig &&
    contextName === 'loaded-context' &&
    kc.getCurrentCluster()?.server === 'http://localhost:8080';
  const flagsOnly = (fallback || !contextNames.length) && Boolean(o.server);
  if (!flagsOnly && loaded.missing !== undefined)
    throw new ClusterError(`cannot load kubeconfig: KUBECONFIG=${loaded.missing}: no such file`);
  if ((fallback || !contextNames.length) && !flagsOnly) {
    throw new ClusterError(
      'no kubeconfig found (set KUBECONFIG or --kubeconfig, pass --server, or analyse a dump with -f <file|dir|->)',
    );
  }
  const context = flagsOnly ? null : kc.getContextObject(contextName);
  if (!context && !flagsOnly) {
    throw new ClusterError(
      contextName
        ? `current context "${contextName}" not found in kubeconfig${closest(contextName, contextNames, 'contexts')}`
        : `the kubeconfig has no current context: pass --context (contexts: ${contextNames.join(', ')})`,
    );
  }

  const clusterName = o.cluster ?? context?.cluster ?? '';
  const fileCluster = flagsOnly ? undefined : kc.getCluster(clusterName);
  if (!fileCluster && o.cluster !== undefined) {
    throw new ClusterError(
      `--cluster "${o.cluster}": no such cluster in the kubeconfig${closest(
        o.cluster,
        kc.getClusters().map((c) => c.name),
        'clusters',
      )}`,
    );
  }
  if (!fileCluster && !o.server) {
    throw new ClusterError(
      `context "${contextName}" refers to cluster "${clusterName}", which is not in the kubeconfig`,
    );
  }
  const cluster: { -readonly [K in keyof Cluster]: Cluster[K] } = {
    ...(fileCluster ?? { name: clusterName, server: '', skipTLSVerify: false }),
  };
  const labels: FieldLabels = {};
  if (o.server !== undefined) {
    cluster.server = o.server;
    labels.server = '--server';
  }
  if (o.insecureSkipTlsVerify && o.certificateAuthority) {
    throw new InputError(
      '--certificate-authority and --insecure-skip-tls-verify cannot be used together: a CA file with the insecure flag is not allowed (as in kubectl)',
    );
  }
  if (o.insecureSkipTlsVerify || o.certificateAuthority) {
    cluster.skipTLSVerify = Boolean(o.insecureSkipTlsVerify);
    delete cluster.caData;
    if (o.certificateAuthority) {
      cluster.caFile = o.certificateAuthority;
      labels['certificate-authority'] = '--certificate-authority';
    } else {
      delete cluster.caFile;
    }
  }
  if (o.tlsServerName !== undefined || o.server !== undefined) {
    if (o.tlsServerName) cluster.tlsServerName = o.tlsServerName;
    else delete cluster.tlsServerName;
  }

  const userName = o.user ?? context?.user ?? '';
  const fileUser = flagsOnly || !userName ? undefined : kc.getUser(userName);
  if (!fileUser && o.user !== undefined) {
    throw new ClusterError(
      `--user "${o.user}": no such user in the kubeconfig${closest(
        o.user,
        kc.getUsers().map((u) => u.name),
        'users',
      )}`,
    );
  }
  if (!fileUser && userName && !flagsOnly) {
    throw new ClusterError(`context "${contextName}" refers to user "${userName}", which is not in the kubeconfig`);
  }
  const fromFlags = Boolean(o.clientCertificate || o.clientKey || o.token || o.as || o.asUid || o.asGroups?.length);
  let user: { -readonly [K in keyof User]: User[K] } | null = fileUser
    ? { ...fileUser }
    : fromFlags
      ? { name: userName }
      : null;
  let impersonation: Impersonation | undefined;
  if (user) {
    if (o.clientCertificate) {
      user.certFile = o.clientCertificate;
      delete user.certData;
      labels['client-certificate'] = '--client-certificate';
    }
    if (o.clientKey) {
      user.keyFile = o.clientKey;
      delete user.keyData;
      labels['client-key'] = '--client-key';
    }
    if (o.token) {
      if (user.username || user.password) {
        throw new InputError(
          `--token: user "${user.name}" of the kubeconfig has a username and password too, and kubectl allows one authentication method (pass --user to pick another user)`,
        );
      }
      user.token = o.token;
    }
    // client-go's exec authenticator stands aside when a token or a client certificate is
    // given (plugin/pkg/client/auth/exec/exec.go#UpdateTransportConfig): the flag's credential
    // is the one sent, and the plugin is not run.
    if (o.token || o.clientCertificate) {
      delete user.exec;
      delete user.authProvider;
    }
    const raw = fileUser ? (loaded.origin('users', fileUser.name)?.raw ?? {}) : {};
    const where = `kubeconfig user "${user.name}"`;
    let fileGroups: string[];
    let extra: Record<string, string[]>;
    try {
      fileGroups = stringList(raw['as-groups'], 'as-groups');
      extra = extraMap(raw['as-user-extra']);
    } catch (err) {
      throw new InputError(`${where}: ${(err as Error).message}`);
    }
    const fileUid = typeof raw['as-uid'] === 'string' ? raw['as-uid'] : undefined;
    const as = o.as || user.impersonateUser || undefined;
    const uid = o.asUid || fileUid || undefined;
    const groups = o.asGroups?.length ? o.asGroups : fileGroups;
    if (!as && (uid || groups.length || Object.keys(extra).length)) {
      const flags = [o.asUid ? '--as-uid' : '', o.asGroups?.length ? '--as-group' : ''].filter(Boolean);
      throw new InputError(
        flags.length
          ? `${flags.join(' and ')} ${flags.length > 1 ? 'need' : 'needs'} --as: kubectl impersonates a uid or groups only together with a user (requesting uid, groups or user-extra without impersonating a user)`
          : `${where}: as-uid, as-groups or as-user-extra without as: requesting uid, groups or user-extra without impersonating a user`,
      );
    }
    if (as) impersonation = { user: as, ...(uid ? { uid } : {}), groups, extra };
    // The impersonation headers are set by the client from `impersonation`, all of them.
    delete user.impersonateUser;
    if (!fileUser && !user.token && !user.certFile && !impersonation) user = null;
  }
  const namespace = context?.namespace;
  return {
    contextName,
    ...(namespace ? { namespace } : {}),
    cluster,
    user,
    ...(impersonation ? { impersonation } : {}),
    labels,
  };
}
