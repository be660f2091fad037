/**
 * kubectl's connection flags (--context, --cluster, --user, --server, --token, --as, …) applied
 * over the kubeconfig with client-go's precedence (tools/clientcmd/client_config.go
 * #DirectClientConfig, resolveConfig below): explicit flags override the selected context,
 * cluster and user, field by field; a name that does not exist is an error with "did you mean".
 */
import type { Cluster, User } from '@kubernetes/client-node';
import { ClusterError, InputError } from '../model/errors.js';
import { didYouMean } from '../model/suggest.js';
import type { LoadedKubeconfig } from './kubeconfig.js';
import type { FieldLabels } from './kubeconfig-check.js';

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
