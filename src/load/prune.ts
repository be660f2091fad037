/**
 * What the loaders drop from each object as they read it, so that a dump of a large cluster fits
 * in memory: fields no analysis, lint rule or renderer reads.
 */
import type { KubeObject } from '../model/k8s-types.js';
import { newestObjectTime } from '../model/snapshot-time.js';
import { isMap } from './shape.js';

type Loose = Record<string, unknown>;

/**
 * Drops `metadata.managedFields` (server-side apply bookkeeping: often a third of a dumped
 * object, and read by nothing in ds-doctor). Returns the same object, changed in place.
 */
export function pruneObject<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const meta = (value as KubeObject).metadata as Record<string, unknown> | undefined;
  if (meta && typeof meta === 'object' && 'managedFields' in meta) {
    // A copy without the key keeps the object's fast property layout (delete would not).
    const { managedFields: _dropped, ...rest } = meta;
    (value as KubeObject).metadata = rest;
  }
  return value;
}

/**
 * The fields of a container that a pod of another controller is read for: what it requests and
 * limits (NodeResourcesFit, LimitRange and quota), the host ports it holds (NodePorts), whether an
 * init container is a sidecar (restartPolicy, which makes its requests and ports count for the
 * pod's life), and its name and image for the messages that name it.
 */
const NEIGHBOUR_CONTAINER_FIELDS = ['name', 'image', 'ports', 'resources', 'restartPolicy'] as const;

/**
 * The status fields such a pod is read for: its phase (a terminal pod holds nothing on its node),
 * the scheduler's nomination, and the reason and message of a phase.
 */
const NEIGHBOUR_STATUS_FIELDS = ['phase', 'reason', 'message', 'nominatedNodeName'] as const;

/** The container lists of a pod spec that are slimmed. */
const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

/** The controller ownerReference's kind as written, when the object has one (the first with `controller: true`, as GetControllerOf). */
function controllerKind(meta: Loose): unknown {
  const refs = meta['ownerReferences'];
  if (!Array.isArray(refs)) return undefined;
  for (const r of refs) if (isMap(r) && r['controller'] === true) return r['kind'];
  return undefined;
}

/** A slimmed part; with `watch` (tests), a proxy that reports every read of a field slimming dropped. */
function watched(
  part: Loose,
  path: string,
  kept: readonly string[],
  watch: ((path: string) => void) | undefined,
): Loose {
  if (!watch) return part;
  return new Proxy(part, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key !== 'toJSON' && !kept.includes(key) && !(key in target))
        watch(`${path}.${key}`);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

function slimContainers(list: unknown, path: string, watch: ((path: string) => void) | undefined): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((c: unknown) => {
    if (!isMap(c)) return c;
    const kept: Loose = {};
    for (const k of NEIGHBOUR_CONTAINER_FIELDS) if (c[k] !== undefined) kept[k] = c[k];
    return watched(kept, path, NEIGHBOUR_CONTAINER_FIELDS, watch);
  });
}

/**
 * A Pod whose controller is of another kind than DaemonSet (a ReplicaSet's, a Job's, a node's
 * mirror pod) slimmed to what it is read for. No DaemonSet can own or adopt such a pod (the
 * controller claims only its own pods and orphans), so ds-doctor reads it only as a neighbour on
 * its node: its metadata and spec (labels and affinity for inter-pod affinity, volumes, host
 * network and DNS policy, priority, node name), its containers' NEIGHBOUR_CONTAINER_FIELDS and its
 * status' NEIGHBOUR_STATUS_FIELDS. The rest (environment, probes, mounts, conditions, container
 * statuses) is most of a pod and most of a dump; `test/cli/neighbour-pods.test.ts` runs every
 * command over the fixtures and real dumps with `watch` set and fails when one reads a field of
 * such a pod that this drops. Other objects, and the pods a DaemonSet may own, keep every field.
 *
 * The object stage (stage.ts) calls it once on each object read from files (live objects are not
 * slimmed: `--dump` writes what the API server returned). Changes the pod in place and returns the
 * newest time it carried before (so that a dump is dated, and duplicates ranked, as from the whole
 * object: src/model/snapshot-time.ts); undefined when the object is not such a pod.
 */
export function slimNeighbourPod(obj: unknown, watch?: (path: string) => void): number | undefined {
  if (!isMap(obj) || obj['kind'] !== 'Pod') return undefined;
  const meta = obj['metadata'];
  if (!isMap(meta)) return undefined;
  const kind = controllerKind(meta);
  if (typeof kind !== 'string' || kind === 'DaemonSet') return undefined;
  const dropped = newestObjectTime(obj);
  const spec = obj['spec'];
  if (isMap(spec)) {
    for (const list of CONTAINER_LISTS)
      if (spec[list] !== undefined) spec[list] = slimContainers(spec[list], `Pod.spec.${list}[]`, watch);
  }
  const status = obj['status'];
  if (isMap(status)) {
    const kept: Loose = {};
    for (const k of NEIGHBOUR_STATUS_FIELDS) if (status[k] !== undefined) kept[k] = status[k];
    obj['status'] = watched(kept, 'Pod.status', NEIGHBOUR_STATUS_FIELDS, watch);
  }
  return dropped;
}
