/**
 * Loading a snapshot, the first step of every analysis: from files (dumps, manifests, the
 * layout of `kubectl cluster-info dump`) or from a cluster through a kubeconfig with kubectl's
 * connection settings. The CLI loads through these two functions; each imports its loader when
 * called, so that reading files never loads the Kubernetes client.
 */
import type { ClusterSnapshot, LoadedSnapshot, LoadRequest } from '../model/snapshot.js';
import type { ConfigOverrides } from '../client/kubeconfig-overrides.js';
import type { LoadOptions, StdinReader } from '../load/files.js';

export type { ClusterSnapshot, LoadedSnapshot, LoadRequest, ConfigOverrides };

/** Reads files, directories (recursively) and `-` (standard input, read with `readStdin`). */
export async function loadSnapshotFromFiles(
  paths: string[],
  options: { readStdin?: StdinReader } & LoadOptions = {},
): Promise<ClusterSnapshot> {
  const { loadFiles } = await import('../load/files.js');
  const { readStdin = async () => '', ...rest } = options;
  return loadFiles(paths, readStdin, rest);
}

/** How to reach a cluster: kubectl's kubeconfig, context and connection flags. */
export interface ClusterOptions {
  /** A kubeconfig file (kubectl's --kubeconfig); else `kubeconfigEnv`, else ~/.kube/config. */
  kubeconfig?: string;
  /** A KUBECONFIG list of files (kubectl's merge rules). */
  kubeconfigEnv?: string;
  /** kubectl's --context. */
  context?: string;
  /** kubectl's --cluster, --user, --server, --token, --as, --as-group, --as-uid and the TLS flags. */
  overrides?: Omit<ConfigOverrides, 'context'>;
  /** The namespace to read (default: the context's); `allNamespaces` reads every one. */
  namespace?: string;
  allNamespaces?: boolean;
  /** Limit of each request, and of all the reads together, in milliseconds (0: none; default 30 s and 5 min). */
  requestTimeoutMs?: number;
  totalTimeoutMs?: number;
  /** HTTPS_PROXY, HTTP_PROXY and NO_PROXY, when the kubeconfig names no proxy-url. */
  proxyEnv?: Record<string, string | undefined>;
  /** kubectl's -v: from 6, each request is logged through `log`. */
  verbosity?: number;
  log?: (line: string) => void;
  /** Progress lines ("read 120 pods"). */
  progress?: (text: string) => void;
}

/**
 * Reads what `request` needs from a cluster, with get and list only: the DaemonSets asked about
 * (or every one in scope), their nodes, pods and revisions, and the kinds the request names.
 * `defaultNamespace` is the namespace the context defaults to.
 */
export async function loadSnapshotFromCluster(
  request: LoadRequest,
  options: ClusterOptions = {},
): Promise<LoadedSnapshot> {
  const { loadLive } = await import('../load/live.js');
  const {
    namespace,
    allNamespaces,
    context,
    overrides,
    requestTimeoutMs,
    totalTimeoutMs,
    verbosity,
    log,
    progress,
    ...rest
  } = options;
  return loadLive(request, {
    ...rest,
    ...(context ? { context } : {}),
    ...(overrides && Object.keys(overrides).length ? { overrides } : {}),
    ...(namespace ? { namespace } : {}),
    allNamespaces: Boolean(allNamespaces),
    requestTimeoutMs: requestTimeoutMs ?? 30_000,
    totalTimeoutMs: totalTimeoutMs ?? 300_000,
    ...(verbosity !== undefined && log ? { verbosity, log } : {}),
    ...(progress ? { progress } : {}),
  });
}
