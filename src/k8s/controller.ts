/**
 * The DaemonSet controller's view of its pods: `getDaemonPods` / `ClaimPods`
 * (pkg/controller/controller_ref_manager.go) and `getNodesToDaemonPods`
 * (pkg/controller/daemon/daemon_controller.go).
 */
import type { DaemonSet, Pod } from '../model/k8s-types.js';
import { controllerRef, objectKey, type SnapshotIndex } from '../model/snapshot-index.js';
import { compileLabelSelector } from './labels.js';
import { targetNodeName } from './daemonpod.js';
import { isPodTerminal } from './podutil.js';

export interface ClaimedPods {
  /** Pods the controller counts as its own (controlled, or orphans it would adopt). */
  pods: Pod[];
  /** Orphans among them: matched by selector, adopted on the next sync. */
  adoptable: Pod[];
  /** Pods controlled by this DaemonSet that no longer match its selector (released). */
  released: Pod[];
  /** The selector's parse error, if any (then no pod is claimed). */
  selectorError?: string;
}

function isOwnedBy(pod: Pod, ds: DaemonSet): boolean {
  const ref = controllerRef(pod);
  if (!ref || ref.kind !== 'DaemonSet') return false;
  const uid = ds.metadata?.uid;
  if (uid && ref.uid) return ref.uid === uid;
  return ref.name === ds.metadata?.name;
}

/** `ClaimPods` for a DaemonSet over the pods of its namespace. */
export function claimDaemonPods(index: SnapshotIndex, ds: DaemonSet): ClaimedPods {
  return index.cached(`claim:${objectKey(ds)}`, () => {
    const selector = compileLabelSelector(ds.spec?.selector);
    const deleting = Boolean(ds.metadata?.deletionTimestamp);
    const result: ClaimedPods = { pods: [], adoptable: [], released: [] };
    if (!selector.ok) {
      result.selectorError = selector.error;
      return result;
    }
    // An empty selector is refused by the controller (SelectingAll) and claims nothing.
    if (selector.empty) return result;
    const namespace = ds.metadata?.namespace ?? '';
    for (const pod of index.podsControlledBy('DaemonSet', ds)) {
      if (!isOwnedBy(pod, ds)) continue;
      if (selector.matches(pod.metadata?.labels)) result.pods.push(pod);
      else if (!deleting) result.released.push(pod);
    }
    if (!deleting) {
      for (const pod of index.orphanPodsByNamespace.get(namespace) ?? []) {
        if (pod.metadata?.deletionTimestamp) continue;
        if (selector.matches(pod.metadata?.labels)) {
          result.pods.push(pod);
          result.adoptable.push(pod);
        }
      }
    }
    return result;
  });
}

/**
 * `getNodesToDaemonPods(ds, includeDeletedTerminal)`: claimed pods grouped by target node.
 * Pods that are terminal and already deleted are skipped unless `includeDeletedTerminal`.
 * Pods without a target node are left out, as upstream does.
 */
export function nodesToDaemonPods(
  index: SnapshotIndex,
  ds: DaemonSet,
  includeDeletedTerminal = false,
): Map<string, Pod[]> {
  return index.cached(`nodes:${objectKey(ds)}:${includeDeletedTerminal}`, () => {
    const map = new Map<string, Pod[]>();
    for (const pod of claimDaemonPods(index, ds).pods) {
      if (!includeDeletedTerminal && isPodTerminal(pod) && pod.metadata?.deletionTimestamp) continue;
      const node = targetNodeName(pod);
      if (!node) continue;
      const list = map.get(node);
      if (list) list.push(pod);
      else map.set(node, [pod]);
    }
    return map;
  });
}
