/**
 * core/v1 Events as the classic recorder writes them: kubelet, scheduler and controller events.
 */
import type { KubeEvent } from '../../src/model/k8s-types.js';
import { type Json, ordered } from './fields.js';
import { sha, uid } from './ids.js';
import { imageNotFound, imageSize } from './images.js';
import { at, NOW } from './time.js';
import type { BuiltNode, BuiltPod } from './types.js';
import type { Versions } from './versions.js';

/** What makeEvent builds an Event from. */
export interface EventDef {
  object: Json;
  reason: string;
  message: string;
  component: string;
  host?: string;
  firstAgo: number;
  lastAgo?: number;
  count?: number;
  type?: string;
  fieldPath?: string;
  involvedResourceVersion?: string;
  /** The event's name (default: the involved object's name and the first time in hex nanoseconds), uid (default: derived from the name) and resourceVersion (default: '', for `versions` to assign). */
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

/** An Event as makeEvent builds it; `_involved` is dropped by finishEvents. */
export type BuiltEvent = KubeEvent & {
  metadata: { name: string; namespace: string };
  involvedObject: Json;
  _involved?: Json;
};

/** The options of failedPullEvents. */
export interface FailedPulls {
  firstAgo: number;
  lastAgo: number;
  pulls: number;
  backOffs: number;
  lastBackOffAgo: number;
}

/**
 * A core/v1 Event written through the classic recorder (source, count, first/lastTimestamp),
 * registered in `versions`. `e`: object, reason, message, component, host, firstAgo, lastAgo,
 * count, type, fieldPath, involvedResourceVersion. Kubelet events about a Node name it by its
 * name instead of its uid. Keeps the involved object in `_involved` for finishEvents.
 */
export function makeEvent(e: EventDef, versions: Versions, idPrefix = ''): BuiltEvent {
  const inv = e.object;
  const ns = inv.metadata.namespace ?? 'default';
  const nanos = () => {
    const firstMs = BigInt(NOW.getTime() - Math.round(e.firstAgo) * 1000);
    return (
      firstMs * 1000000n +
      BigInt(parseInt(sha(`evt/${idPrefix}${inv.metadata.name}/${e.reason}/${e.message}`).slice(0, 5), 16) % 1000000)
    );
  };
  const name = e.name ?? `${inv.metadata.name}.${nanos().toString(16)}`;
  const involvedObject = ordered(
    {
      kind: inv.kind,
      namespace: inv.metadata.namespace,
      name: inv.metadata.name,
      uid: inv.kind === 'Node' && e.component === 'kubelet' ? inv.metadata.name : inv.metadata.uid,
      apiVersion: inv.apiVersion,
      resourceVersion: e.involvedResourceVersion,
      fieldPath: e.fieldPath,
    },
    [],
  );
  const ev: Json = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name,
      namespace: ns,
      uid: e.uid ?? uid(`${idPrefix}Event/${ns}/${name}`),
      resourceVersion: e.resourceVersion ?? '',
      creationTimestamp: at(e.firstAgo),
    },
    involvedObject,
    reason: e.reason,
    message: e.message,
    source: e.host ? { component: e.component, host: e.host } : { component: e.component },
    firstTimestamp: at(e.firstAgo),
    lastTimestamp: at(e.lastAgo ?? e.firstAgo),
    count: e.count ?? 1,
    type: e.type ?? 'Normal',
    eventTime: null,
    reportingComponent: e.component,
    reportingInstance: e.host ?? '',
  };
  versions.add(ev, e.lastAgo ?? e.firstAgo);
  ev._involved = inv;
  return ev as BuiltEvent;
}

/** After resourceVersions are assigned: records the involved object's version in each event (not for Nodes). */
export function finishEvents(events: BuiltEvent[]): void {
  for (const ev of events) {
    const inv = ev._involved!;
    if (!ev.involvedObject.resourceVersion && inv.metadata.resourceVersion && inv.kind !== 'Node') {
      ev.involvedObject = ordered({ ...ev.involvedObject, resourceVersion: inv.metadata.resourceVersion }, [
        'kind',
        'namespace',
        'name',
        'uid',
        'apiVersion',
        'resourceVersion',
        'fieldPath',
      ]);
    }
    delete ev._involved;
  }
}

/** The fields of an event the kubelet records about a container of `pod` (or about the pod, without `container`). */
export function kubeletSource(
  pod: BuiltPod,
  container?: string,
): Pick<EventDef, 'object' | 'component' | 'host' | 'fieldPath'> {
  return {
    object: pod,
    component: 'kubelet',
    host: pod.spec.nodeName,
    fieldPath: container ? `spec.containers{${container}}` : undefined,
  };
}

/** The message of a Pulled event after a pull that took `seconds`. */
export function pulledMessage(image: string, seconds: number): string {
  return `Successfully pulled image "${image}" in ${seconds}s (${seconds}s including waiting). Image size: ${imageSize(image)} bytes.`;
}

/**
 * The kubelet's events about `container` of `pod` whose image does not exist: `pulls` pulls,
 * the first `firstAgo` and the last `lastAgo` seconds before NOW, each failing a second later,
 * and `backOffs` syncs in back-off from then on, the last `lastBackOffAgo`.
 */
export function failedPullEvents(
  pod: BuiltPod,
  container: string,
  { firstAgo, lastAgo, pulls, backOffs, lastBackOffAgo }: FailedPulls,
): EventDef[] {
  const image = pod.spec.containers.find((x) => x.name === container)!.image!;
  const source = kubeletSource(pod, container);
  const failing = { firstAgo: firstAgo - 1, lastAgo: lastAgo - 1, count: pulls };
  const backingOff = { firstAgo: firstAgo - 2, lastAgo: lastBackOffAgo, count: backOffs };
  const failed = (message: string, times: Pick<EventDef, 'firstAgo' | 'lastAgo' | 'count'>): EventDef => ({
    ...source,
    reason: 'Failed',
    type: 'Warning',
    message,
    ...times,
  });
  return [
    { ...source, reason: 'Pulling', message: `Pulling image "${image}"`, firstAgo, lastAgo, count: pulls },
    failed(`Failed to pull image "${image}": ${imageNotFound(image)}`, failing),
    failed('Error: ErrImagePull', failing),
    { ...source, reason: 'BackOff', message: `Back-off pulling image "${image}"`, ...backingOff },
    failed('Error: ImagePullBackOff', backingOff),
  ];
}

/**
 * The events of a node's kubelet starting and registering, `joinedAgo` seconds ago: Starting
 * `startedBefore` seconds before that, the three NodeHas* (twice, the last `lastStatusBefore`
 * seconds before it joined), NodeAllocatableEnforced, and the node controller's RegisteredNode.
 */
export function nodeStartEvents(
  node: BuiltNode,
  joinedAgo: number,
  { startedBefore, lastStatusBefore }: { startedBefore: number; lastStatusBefore: number },
): EventDef[] {
  const name = node.metadata.name;
  const kubelet = (reason: string, message: string, before: number, extra: Partial<EventDef> = {}): EventDef => ({
    object: node,
    reason,
    message,
    component: 'kubelet',
    host: name,
    firstAgo: joinedAgo + before,
    ...extra,
  });
  const status = (condition: string) =>
    kubelet(condition, `Node ${name} status is now: ${condition}`, startedBefore - 1, {
      count: 2,
      lastAgo: joinedAgo + lastStatusBefore,
    });
  return [
    kubelet('Starting', 'Starting kubelet.', startedBefore),
    status('NodeHasSufficientMemory'),
    status('NodeHasNoDiskPressure'),
    status('NodeHasSufficientPID'),
    kubelet('NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', startedBefore - 2),
    {
      object: node,
      reason: 'RegisteredNode',
      message: `Node ${name} event: Registered Node ${name} in Controller`,
      component: 'node-controller',
      firstAgo: joinedAgo - 4,
    },
  ];
}
