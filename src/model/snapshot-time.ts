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

  /** Adds a time already in milliseconds since the epoch. */
  addMillis(t: number | undefined): void {
    if (t !== undefined && t > this.parsed) this.parsed = t;
  }

  /** Milliseconds since the epoch, or -Infinity when nothing valid was added. */
  millis(): number {
    const t = this.text ? Date.parse(this.text) : NaN;
    return Math.max(Number.isNaN(t) ? -Infinity : t, this.parsed);
  }
}

/**
 * Adds the times a list of conditions records. Each field is read by its own name, not from a
 * list of names: a property load whose name is fixed is served from the object's layout, which
 * matters when a dump's 150,000 pods are dated.
 */
function addConditionTimes(conditions: unknown, acc: Newest): void {
  if (!Array.isArray(conditions)) return;
  for (const item of conditions) {
    const c = record(item);
    if (!c) continue;
    acc.add(c['lastTransitionTime']);
    acc.add(c['lastHeartbeatTime']);
    acc.add(c['lastProbeTime']);
    acc.add(c['lastUpdateTime']);
  }
}

/** Adds the times a container state records: the start of running, the end of a termination. */
function addStateTimes(state: unknown, acc: Newest): void {
  const s = record(state);
  if (!s) return;
  acc.add(record(s['running'])?.['startedAt']);
  acc.add(record(s['terminated'])?.['finishedAt']);
}

/** Adds the times the container statuses of a list record (their state and last state). */
function addContainerTimes(statuses: unknown, acc: Newest): void {
  if (!Array.isArray(statuses)) return;
  for (const item of statuses) {
    const cs = record(item);
    if (!cs) continue;
    addStateTimes(cs['state'], acc);
    addStateTimes(cs['lastState'], acc);
  }
}

/** Adds the fields of an object that record when something happened (not every string in it). */
function addObjectTimes(obj: KubeObject, acc: Newest): void {
  const meta = record(obj.metadata);
  acc.add(meta?.['creationTimestamp']);
  acc.add(meta?.['deletionTimestamp']);
  // An Event's times (events.k8s.io/v1: eventTime, series, the deprecated fields).
  acc.add(obj['lastTimestamp']);
  acc.add(obj['firstTimestamp']);
  acc.add(obj['eventTime']);
  acc.add(obj['deprecatedLastTimestamp']);
  acc.add(record(obj['series'])?.['lastObservedTime']);
  const status = record(obj['status']);
  if (!status) return;
  acc.add(status['startTime']);
  addConditionTimes(status['conditions'], acc);
  addContainerTimes(status['containerStatuses'], acc);
  addContainerTimes(status['initContainerStatuses'], acc);
  addContainerTimes(status['ephemeralContainerStatuses'], acc);
}

/**
 * The newest timestamp an object carries, in milliseconds (-Infinity when it has none); with
 * `dropped`, also the newest time of the fields the loader dropped from it (ClusterSnapshot.prunedTimes).
 */
export function newestObjectTime(obj: KubeObject, dropped?: number): number {
  const acc = new Newest();
  addObjectTimes(obj, acc);
  acc.addMillis(dropped);
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
  // What slimming dropped, which only pods lose.
  for (const pod of snapshot.pods) acc.addMillis(snapshot.prunedTimes.get(pod));
  const t = acc.millis();
  return Number.isFinite(t) ? new Date(t) : undefined;
}
