/**
 * The times an object and a snapshot describe: the newest of the timestamps the API server and
 * the kubelet write (creation, deletion, conditions, container starts and exits, events). Used to
 * keep the newest of duplicate objects and to judge a dump at the moment it was taken.
 */
import type { KubeObject } from './k8s-types.js';
import type { ClusterSnapshot } from './snapshot.js';

type Loose = Record<string, unknown> | undefined;

function record(v: unknown): Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function millis(v: unknown): number {
  if (typeof v !== 'string' || v === '') return -Infinity;
  const t = Date.parse(v);
  return Number.isNaN(t) ? -Infinity : t;
}

const CONDITION_TIMES = ['lastTransitionTime', 'lastHeartbeatTime', 'lastProbeTime', 'lastUpdateTime'];
const EVENT_TIMES = ['lastTimestamp', 'firstTimestamp', 'eventTime', 'deprecatedLastTimestamp'];

/** The newest time a container status records (start of the running state, end of a termination). */
function containerTime(status: unknown): number {
  const s = record(status);
  let t = -Infinity;
  for (const which of ['state', 'lastState']) {
    const state = record(s?.[which]);
    t = Math.max(t, millis(record(state?.['running'])?.['startedAt']), millis(record(state?.['terminated'])?.['finishedAt']));
  }
  return t;
}

/**
 * The newest timestamp an object carries, in milliseconds (-Infinity when it has none). Reads
 * only the fields that record when something happened, not every string of the object.
 */
export function newestObjectTime(obj: KubeObject): number {
  const meta = record(obj.metadata);
  let t = Math.max(millis(meta?.['creationTimestamp']), millis(meta?.['deletionTimestamp']));
  for (const key of EVENT_TIMES) t = Math.max(t, millis(obj[key]));
  t = Math.max(t, millis(record(obj['series'])?.['lastObservedTime']));
  const status = record(obj['status']);
  if (!status) return t;
  t = Math.max(t, millis(status['startTime']));
  const conditions = status['conditions'];
  if (Array.isArray(conditions)) {
    for (const c of conditions) for (const key of CONDITION_TIMES) t = Math.max(t, millis(record(c)?.[key]));
  }
  for (const list of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
    const statuses = status[list];
    if (Array.isArray(statuses)) for (const cs of statuses) t = Math.max(t, containerTime(cs));
  }
  return t;
}

/** The kinds whose timestamps say when a dump was taken (nodes' heartbeats above all). */
const TIMED_FIELDS = ['nodes', 'pods', 'events', 'daemonSets', 'controllerRevisions'] as const;

/**
 * The time a snapshot describes: the newest timestamp of its nodes, pods, events, DaemonSets and
 * ControllerRevisions; undefined when none has one (manifests).
 */
export function snapshotTime(snapshot: ClusterSnapshot): Date | undefined {
  let t = -Infinity;
  for (const field of TIMED_FIELDS) {
    for (const obj of snapshot[field] as KubeObject[]) t = Math.max(t, newestObjectTime(obj));
  }
  return Number.isFinite(t) ? new Date(t) : undefined;
}
