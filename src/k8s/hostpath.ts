/**
 * The kubelet's check of a hostPath volume's `type` before it mounts it (kubernetes v1.35.4
 * pkg/volume/hostpath/host_path.go#checkTypeInternal): Directory, File, Socket, CharDevice and
 * BlockDevice must already exist as that kind of file on the node, DirectoryOrCreate and
 * FileOrCreate are created when absent, and an unset type is not checked. A failure reads
 * `hostPath type check failed: <path> is not a directory` (a file, a socket file, a character
 * device, a block device) and reaches the pod as a FailedMount event
 * (`MountVolume.SetUp failed for volume "<name>" : …`), the pod staying ContainerCreating.
 *
 * The kubelet's own files live under its root directory, `--root-dir`, /var/lib/kubelet unless
 * set (cmd/kubelet/app/options/options.go, defaultRootDir). Node agents that talk to the kubelet
 * (CSI node plugins, device plugins) mount paths under it, so a manifest written for one root
 * fails its type check on nodes whose kubelet uses another.
 */
import type { Node } from '../model/k8s-types.js';

/** A hostPath type check failure, from a FailedMount message. */
export interface HostPathTypeFailure {
  volume?: string;
  path: string;
  /** What the path is not, in the kubelet's words: "a directory", "a socket file", … */
  want: string;
}

const FAILURE =
  /hostPath type check failed: (.+?) is not (a directory|a file|a socket file|a character device|a block device)/;

/** The volume, path and kind of file of a hostPath type check failure, when `message` is one. */
export function hostPathTypeFailure(message: string): HostPathTypeFailure | undefined {
  const m = FAILURE.exec(message);
  if (!m) return undefined;
  const volume = /for volume "([^"]+)"/.exec(message)?.[1];
  return { ...(volume ? { volume } : {}), path: m[1]!, want: m[2]! };
}

/** The kubelet's default root directory (cmd/kubelet/app/options/options.go). */
export const DEFAULT_KUBELET_ROOT = '/var/lib/kubelet';

/**
 * Kubelet root directories of distributions that move it, as their documentation gives them: k0s
 * (/var/lib/k0s/kubelet) and MicroK8s (/var/snap/microk8s/common/var/lib/kubelet); k3s and
 * kubeadm keep the default.
 */
const DISTRIBUTION_ROOTS: { name: string; root: string; matches: (n: Node) => boolean }[] = [
  {
    name: 'k0s',
    root: '/var/lib/k0s/kubelet',
    matches: (n) => /\+k0s\b/.test(n.status?.nodeInfo?.kubeletVersion ?? ''),
  },
  {
    name: 'MicroK8s',
    root: '/var/snap/microk8s/common/var/lib/kubelet',
    matches: (n) => n.metadata?.labels?.['microk8s.io/cluster'] !== undefined,
  },
  {
    name: 'k3s',
    root: DEFAULT_KUBELET_ROOT,
    matches: (n) => /\+k3s\d*\b/.test(n.status?.nodeInfo?.kubeletVersion ?? ''),
  },
];

const KNOWN_ROOTS = [...new Set([DEFAULT_KUBELET_ROOT, ...DISTRIBUTION_ROOTS.map((d) => d.root)])].sort(
  (a, b) => b.length - a.length,
);

/** The kubelet root a path lies under, among the default and the known distributions' roots. */
export function kubeletRootOf(path: string): string | undefined {
  return KNOWN_ROOTS.find((r) => path === r || path.startsWith(`${r}/`));
}

/** The distribution a node's kubelet comes from, when its version or labels say, with its root. */
export function nodeKubeletRoot(node: Node | undefined): { name: string; root: string } | undefined {
  if (!node) return undefined;
  const d = DISTRIBUTION_ROOTS.find((x) => x.matches(node));
  return d ? { name: d.name, root: d.root } : undefined;
}
