/**
 * Lookups over a ClusterSnapshot, built once so that no analysis scans all pods per node
 * or per DaemonSet.
 */
import type { ControllerRevision, DaemonSet, KubeEvent, KubeObject, Node, Pod } from './k8s-types.js';
import type { ClusterSnapshot } from './snapshot.js';

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
  /** Pods by their controller ownerReference `kind/namespace/name` (for dumps without UIDs). */
  readonly podsByOwnerName = new Map<string, Pod[]>();
  readonly podsByNamespace = new Map<string, Pod[]>();
  readonly podsByKey = new Map<string, Pod>();
  /** Events by involved object UID, and by `Kind/namespace/name`. */
  readonly eventsByUid = new Map<string, KubeEvent[]>();
  readonly eventsByName = new Map<string, KubeEvent[]>();
  readonly revisionsByOwnerUid = new Map<string, ControllerRevision[]>();
  readonly revisionsByOwnerName = new Map<string, ControllerRevision[]>();
  private readonly memo = new Map<string, unknown>();

  constructor(readonly snapshot: ClusterSnapshot) {
    for (const n of snapshot.nodes) this.nodesByName.set(n.metadata?.name ?? '', n);
    for (const ds of snapshot.daemonSets) this.daemonSetsByKey.set(objectKey(ds), ds);
    for (const p of snapshot.pods) {
      const ns = p.metadata?.namespace ?? '';
      this.podsByKey.set(objectKey(p), p);
      push(this.podsByNamespace, ns, p);
      if (p.spec?.nodeName) push(this.podsByNode, p.spec.nodeName, p);
      const ref = controllerRef(p);
      if (ref) {
        if (ref.uid) push(this.podsByOwnerUid, ref.uid, p);
        push(this.podsByOwnerName, `${ref.kind}/${ns}/${ref.name}`, p);
      }
    }
    for (const e of snapshot.events) {
      const o = e.involvedObject ?? e.regarding;
      if (!o) continue;
      if (o.uid) push(this.eventsByUid, o.uid, e);
      push(this.eventsByName, `${o.kind}/${o.namespace ?? ''}/${o.name}`, e);
    }
    for (const r of snapshot.controllerRevisions) {
      const ref = controllerRef(r);
      if (!ref) continue;
      if (ref.uid) push(this.revisionsByOwnerUid, ref.uid, r);
      push(this.revisionsByOwnerName, `${ref.kind}/${r.metadata?.namespace ?? ''}/${ref.name}`, r);
    }
  }

  /** Events about an object: by UID when both sides have one, else by kind, namespace and name. */
  eventsFor(kind: string, obj: KubeObject): KubeEvent[] {
    const uid = obj.metadata?.uid;
    const byName = this.eventsByName.get(`${kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`) ?? [];
    if (!uid) return byName;
    const byUid = this.eventsByUid.get(uid) ?? [];
    // Events without a UID (hand-written or trimmed dumps) still count when the name matches.
    const extra = byName.filter((e) => !(e.involvedObject ?? e.regarding)?.uid);
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
