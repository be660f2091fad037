/**
 * Lookups over a ClusterSnapshot, built once so that no analysis scans all pods per node
 * or per DaemonSet.
 */
import type { ControllerRevision, DaemonSet, KubeEvent, KubeObject, Node, Pod } from './k8s-types.js';
import type { ClusterSnapshot } from './snapshot.js';
import { compareText } from './order.js';

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `namespace/name`, the key of namespaced objects. */
export function objectKey(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/** The controller ownerReference of an object, if any. */
export function controllerRef(obj: KubeObject) {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

export class SnapshotIndex {
  readonly nodesByName = new Map<string, Node>();
  readonly daemonSetsByKey = new Map<string, DaemonSet>();
  /** Pods by `spec.nodeName` (bound pods only). */
  readonly podsByNode = new Map<string, Pod[]>();
  /** Pods by the UID of their controller ownerReference. */
  readonly podsByOwnerUid = new Map<string, Pod[]>();
  /** Events by involved object UID, and by `Kind/namespace/name`. */
  readonly eventsByUid = new Map<string, KubeEvent[]>();
  readonly eventsByName = new Map<string, KubeEvent[]>();
  /** The events without an involved-object UID, by `Kind/namespace/name`: empty on a real cluster's dump. */
  private readonly eventsWithoutUidByName = new Map<string, KubeEvent[]>();
  readonly revisionsByOwnerUid = new Map<string, ControllerRevision[]>();
  readonly revisionsByOwnerName = new Map<string, ControllerRevision[]>();
  /** Pods without a controller ownerReference, by namespace (what a controller could adopt). */
  readonly orphanPodsByNamespace = new Map<string, Pod[]>();
  /**
   * How many pods name each DaemonSet as their controller, by namespace and name, whether the
   * input holds that DaemonSet or not.
   */
  readonly daemonSetPodCounts = new Map<string, Map<string, number>>();
  private readonly memo = new Map<string, unknown>();
  // Built on first use: most commands never need them, and on 150,000 pods each costs a pass
  // that makes a string key per pod.
  private byOwnerName?: Map<string, Pod[]>;
  private byNamespace?: Map<string, Pod[]>;
  private byKey?: Map<string, Pod>;
  private inNameOrder?: Node[];
  private sortedNames?: string[];

  constructor(readonly snapshot: ClusterSnapshot) {
    for (const n of snapshot.nodes) this.nodesByName.set(n.metadata?.name ?? '', n);
    for (const ds of snapshot.daemonSets) this.daemonSetsByKey.set(objectKey(ds), ds);
    // One pass over the pods for every lookup by owner: on 300,000 pods each pass is a walk of
    // memory the caches do not hold.
    for (const p of snapshot.pods) {
      if (p.spec?.nodeName) push(this.podsByNode, p.spec.nodeName, p);
      const ref = controllerRef(p);
      if (!ref) {
        push(this.orphanPodsByNamespace, p.metadata?.namespace ?? '', p);
        continue;
      }
      if (ref.uid) push(this.podsByOwnerUid, ref.uid, p);
      if (ref.kind === 'DaemonSet') {
        const namespace = p.metadata?.namespace ?? '';
        const counts =
          this.daemonSetPodCounts.get(namespace) ?? this.daemonSetPodCounts.set(namespace, new Map()).get(namespace)!;
        counts.set(ref.name ?? '', (counts.get(ref.name ?? '') ?? 0) + 1);
      }
    }
    for (const e of snapshot.events) {
      const o = e.involvedObject ?? e.regarding;
      if (!o) continue;
      const name = `${o.kind}/${o.namespace ?? ''}/${o.name}`;
      if (o.uid) push(this.eventsByUid, o.uid, e);
      else push(this.eventsWithoutUidByName, name, e);
      push(this.eventsByName, name, e);
    }
    for (const r of snapshot.controllerRevisions) {
      const ref = controllerRef(r);
      if (!ref) continue;
      if (ref.uid) push(this.revisionsByOwnerUid, ref.uid, r);
      push(this.revisionsByOwnerName, `${ref.kind}/${r.metadata?.namespace ?? ''}/${ref.name}`, r);
    }
  }

  /** Pods by their controller ownerReference `kind/namespace/name` (for dumps without UIDs). */
  get podsByOwnerName(): Map<string, Pod[]> {
    if (!this.byOwnerName) {
      this.byOwnerName = new Map();
      for (const p of this.snapshot.pods) {
        const ref = controllerRef(p);
        if (ref) push(this.byOwnerName, `${ref.kind}/${p.metadata?.namespace ?? ''}/${ref.name}`, p);
      }
    }
    return this.byOwnerName;
  }

  /** Pods by namespace. */
  get podsByNamespace(): Map<string, Pod[]> {
    if (!this.byNamespace) {
      this.byNamespace = new Map();
      for (const p of this.snapshot.pods) push(this.byNamespace, p.metadata?.namespace ?? '', p);
    }
    return this.byNamespace;
  }

  /** Pods by `namespace/name`. */
  get podsByKey(): Map<string, Pod> {
    if (!this.byKey) {
      this.byKey = new Map();
      for (const p of this.snapshot.pods) this.byKey.set(objectKey(p), p);
    }
    return this.byKey;
  }

  /**
   * The nodes sorted by name (text order, as every per-node listing shows them), sorted once:
   * each DaemonSet's analysis walks them in this order.
   */
  get nodesInNameOrder(): readonly Node[] {
    this.inNameOrder ??= [...this.snapshot.nodes].sort((a, b) =>
      compareText(a.metadata?.name ?? '', b.metadata?.name ?? ''),
    );
    return this.inNameOrder;
  }

  /** The distinct node names in code-unit order (`Array.prototype.sort`), sorted once. */
  get sortedNodeNames(): readonly string[] {
    this.sortedNames ??= [...this.nodesByName.keys()].sort();
    return this.sortedNames;
  }

  /** Events about an object: by UID when both sides have one, else by kind, namespace and name. */
  eventsFor(kind: string, obj: KubeObject): KubeEvent[] {
    const uid = obj.metadata?.uid;
    if (!uid) return this.eventsByName.get(`${kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`) ?? [];
    const byUid = this.eventsByUid.get(uid) ?? [];
    // Events without a UID (hand-written or trimmed dumps) still count when the name matches.
    if (!this.eventsWithoutUidByName.size) return byUid;
    const extra =
      this.eventsWithoutUidByName.get(`${kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`) ?? [];
    return extra.length ? [...byUid, ...extra] : byUid;
  }

  /** ControllerRevisions controlled by a DaemonSet. */
  revisionsFor(ds: DaemonSet): ControllerRevision[] {
    const uid = ds.metadata?.uid;
    if (uid && this.revisionsByOwnerUid.has(uid)) return this.revisionsByOwnerUid.get(uid)!;
    return this.revisionsByOwnerName.get(`DaemonSet/${objectKey(ds)}`) ?? [];
  }

  /** Pods whose controller is `kind` `obj` (by UID, or by name when the dump lacks UIDs). */
  podsControlledBy(kind: string, obj: KubeObject): Pod[] {
    const uid = obj.metadata?.uid;
    if (uid && this.podsByOwnerUid.has(uid)) return this.podsByOwnerUid.get(uid)!;
    return (this.podsByOwnerName.get(`${kind}/${objectKey(obj)}`) ?? []).filter((p) => !uid || !controllerRef(p)?.uid);
  }

  /** Computes a value once per key (per-DaemonSet derived data). */
  cached<T>(key: string, compute: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const v = compute();
    this.memo.set(key, v);
    return v;
  }
}
