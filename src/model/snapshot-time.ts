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

/**
 * The newest of the timestamps added. The API writes RFC 3339 in UTC with whole seconds
 * (`2017-12-13T17:07:23Z`), which compares as text: only other forms (fractions, offsets) are
 * parsed, so a dump of 150,000 pods is dated without a million Date.parse calls.
 */
class Newest {
  private text = '';
  private parsed = -Infinity;

  add(v: unknown): void {
    if (typeof v !== 'string' || v === '') return;
    if (v.length === 20 && v.charCodeAt(19) === 0x5a /* Z */ && v.charCodeAt(10) === 0x54 /* T */) {
      if (v > this.text) this.text = v;
      return;
    }
    const t = Date.parse(v);
    if (t > this.parsed) this.parsed = t;
  }

  /** Milliseconds since the epoch, or -Infinity when nothing valid was added. */
  millis(): number {
    const t = this.text ? Date.parse(this.text) : NaN;
    return Math.max(Number.isNaN(t) ? -Infinity : t, this.parsed);
  }
}

const CONDITION_TIMES = ['lastTransitionTime', 'lastHeartbeatTime', 'lastProbeTime', 'lastUpdateTime'];
const EVENT_TIMES = ['lastTimestamp', 'firstTimestamp', 'eventTime', 'deprecatedLastTimestamp'];

/** Adds the times a container status records (start of the running state, end of a termination). */
function addContainerTimes(status: unknown, acc: Newest): void {
  const s = record(status);
  for (const which of ['state', 'lastState']) {
    const state = record(s?.[which]);
    acc.add(record(state?.['running'])?.['startedAt']);
    acc.add(record(state?.['terminated'])?.['finishedAt']);
  }
}

/** Adds the fields of an object that record when something happened (not every string in it). */
function addObjectTimes(obj: KubeObject, acc: Newest): void {
  const meta = record(obj.metadata);
  acc.add(meta?.['creationTimestamp']);
  acc.add(meta?.['deletionTimestamp']);
  for (const key of EVENT_TIMES) acc.add(obj[key]);
  acc.add(record(obj['series'])?.['lastObservedTime']);
  const status = record(obj['status']);
  if (!status) return;
  acc.add(status['startTime']);
  const conditions = status['conditions'];
  if (Array.isArray(conditions)) {
    for (const c of conditions) for (const key of CONDITION_TIMES) acc.add(record(c)?.[key]);
  }
  for (const list of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
    const statuses = status[list];
    if (Array.isArray(statuses)) for (const cs of statuses) addContainerTimes(cs, acc);
  }
}

/** The newest timestamp an object carries, in milliseconds (-Infinity when it has none). */
export function newestObjectTime(obj: KubeObject): number {
  const acc = new Newest();
  addObjectTimes(obj, acc);
  return acc.millis();
}

/** The kinds whose timestamps say when a dump was taken (nodes' heartbeats above all). */
const TIMED_FIELDS = ['nodes', 'pods', 'events', 'daemonSets', 'controllerRevisions'] as const;

/**
 * The time a snapshot describes: the newest timestamp of its nodes, pods, events, DaemonSets and
 * ControllerRevisions; undefined when none has one (manifests).
 */
export function snapshotTime(snapshot: ClusterSnapshot): Date | undefined {
  const acc = new Newest();
  for (const field of TIMED_FIELDS) {
    for (const obj of snapshot[field] as KubeObject[]) addObjectTimes(obj, acc);
  }
  const t = acc.millis();
  return Number.isFinite(t) ? new Date(t) : undefined;
}
