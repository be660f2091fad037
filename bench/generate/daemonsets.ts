/**
 * The DaemonSets of a generated cluster with their daemon pods (test/kube's makePod, pinned to
 * their node like the controller's), status counts and ControllerRevisions (makeDaemonSet).
 */
import { daemonPodTolerations } from '../../src/k8s/daemonpod.js';
import type { StatusCounts } from '../../src/model/results.js';
import { rolling, makeDaemonSet, type RevisionDef } from '../../test/kube/api-daemonset.js';
import { managedFieldsEntry } from '../../test/kube/api-meta.js';
import { controllerRef, makePod, pinnedAffinity, PRIORITIES } from '../../test/kube/api-pod.js';
import type { Json as KubeJson } from '../../test/kube/fields.js';
import { at, DAY, HOUR, MIN } from '../../test/kube/time.js';
import type { BuiltPodSpec, BuiltTemplate } from '../../test/kube/types.js';
import { Versions } from '../../test/kube/versions.js';
import type { EventLog, Involved } from './events.js';
import { type NodeInfo, podNet } from './nodes.js';
import type { Gen, Obj } from './random.js';
import { type DsShape, hashOf, isBlanket, podTemplate } from './shapes.js';
import { type PodState, podStatus } from './status.js';

/** A DaemonSet being generated: its shape, identity, templates and the status counts so far. */
export interface DsState extends StatusCounts {
  shape: DsShape;
  uid: string;
  generation: number;
  template: Obj;
  oldTemplate?: Obj;
  hash: string;
  oldHash?: string;
  createdAgo: number;
}

/** The DaemonSets of `shapes`: templates, revision hashes, uids, zero counts. */
export function daemonSetStates(shapes: DsShape[], g: Gen): DsState[] {
  return shapes.map((shape) => {
    const template = podTemplate(shape, shape.image);
    const oldTemplate = shape.oldImage ? podTemplate(shape, shape.oldImage) : undefined;
    const generation = shape.oldImage ? 3 : 1;
    return {
      shape,
      uid: g.r.uid(),
      generation,
      template,
      ...(oldTemplate ? { oldTemplate, oldHash: hashOf(JSON.stringify(oldTemplate)) } : {}),
      hash: hashOf(JSON.stringify(template)),
      createdAgo: 400 * DAY + g.r.int(100 * DAY),
      desired: 0,
      current: 0,
      ready: 0,
      updated: 0,
      available: 0,
      misscheduled: 0,
    };
  });
}

/** The fields the DaemonSet controller and the kubelet own on a daemon pod. */
function daemonPodManagedFields(ownerUid: string, created: number): KubeJson[] {
  return [
    managedFieldsEntry('kube-controller-manager', at(created), {
      'f:metadata': {
        'f:generateName': {},
        'f:labels': { '.': {}, 'f:controller-revision-hash': {}, 'f:pod-template-generation': {} },
        'f:ownerReferences': { '.': {}, [`k:{"uid":"${ownerUid}"}`]: {} },
      },
      'f:spec': {
        'f:affinity': {
          '.': {},
          'f:nodeAffinity': { '.': {}, 'f:requiredDuringSchedulingIgnoredDuringExecution': {} },
        },
        'f:containers': {},
        'f:tolerations': {},
      },
    }),
    managedFieldsEntry('kubelet', at(created - 5), {
      'f:status': {
        'f:conditions': {},
        'f:containerStatuses': {},
        'f:hostIP': {},
        'f:phase': {},
        'f:podIP': {},
        'f:startTime': {},
      },
    }),
  ];
}

/**
 * The daemon pods of every DaemonSet on every node it runs on (a few outdated, crash-looping,
 * pulling, pending on a full node), counted into the states; warnings go to `events`. Returns
 * how many pods were made.
 */
export function daemonPods(
  nodes: NodeInfo[],
  states: DsState[],
  g: Gen,
  events: EventLog,
  podNames: Set<string>,
  emitPod: (pod: Obj) => void,
): number {
  const { r } = g;
  let made = 0;
  for (const n of nodes) {
    for (const st of states) {
      const d = st.shape;
      if (!d.runs(n)) continue;
      // The unreachable:NoSchedule taint of a NotReady node keeps it out of the desired count of a
      // DaemonSet without a blanket toleration; its pod there counts as misscheduled.
      const excluded = n.notReady && !d.tolerations.some((t) => isBlanket(t));
      if (!excluded) st.desired++;
      // A node that joined seconds ago is desired already; the controller creates its pods next.
      if (n.justJoined) continue;
      const outdated = st.oldTemplate !== undefined && r.float() >= d.updatedShare;
      const template = outdated ? st.oldTemplate! : st.template;
      const hash = outdated ? st.oldHash! : st.hash;
      const name = r.uniqueName(`${d.name}-`, podNames);
      const created = outdated ? 90 * DAY + r.int(30 * DAY) : r.int(2 * HOUR) + 5 * MIN;
      let state: PodState = n.notReady ? 'nodeDown' : 'running';
      if (!outdated && r.chance(d.crashLoop)) state = 'crashloop';
      if (r.chance(d.imagePull)) state = 'imagepull';
      if (n.full && d.name === 'node-exporter') state = 'pending';
      const tspec = template['spec'] as KubeJson as BuiltPodSpec;
      const spec: KubeJson = {
        ...tspec,
        affinity: pinnedAffinity(undefined, n.name),
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
        priority: PRIORITIES[tspec.priorityClassName ?? ''] ?? 0,
        // The controller's own merge (AddOrUpdateDaemonPodTolerations), as ds-doctor models it.
        tolerations: daemonPodTolerations(tspec),
        ...(state === 'pending' ? {} : { nodeName: n.name }),
      };
      const podIP = d.hostNetwork ? n.ip : `${podNet(n)}.${2 + r.int(250)}`;
      const resourceVersion = g.rv();
      const pod = makePod({
        name,
        generateName: `${d.name}-`,
        namespace: d.namespace,
        key: '',
        uid: r.uid(),
        resourceVersion,
        generation: false,
        createdAgo: created,
        labels: {
          'controller-revision-hash': hash,
          [d.labelKey]: d.name,
          'pod-template-generation': String(outdated ? st.generation - 1 : st.generation),
        },
        ownerReferences: controllerRef('DaemonSet', d.name, st.uid),
        spec: spec as BuiltPodSpec,
        ...(g.managedFields ? { managedFields: daemonPodManagedFields(st.uid, created) } : {}),
      });
      const containers = pod.spec.containers;
      pod.status = podStatus(containers, state, created, n, podIP, g, 'Burstable');
      emitPod(pod as unknown as Obj);
      made++;
      const ref: Involved = { apiVersion: 'v1', kind: 'Pod', name, namespace: d.namespace, uid: pod.metadata.uid };
      // The controller counts a pod by its target node, bound or not.
      if (excluded) {
        st.misscheduled++;
      } else {
        st.current++;
        if (!outdated) st.updated++;
      }
      if (state === 'pending') {
        const others = nodes.length - 1;
        events.add(
          { ...ref, resourceVersion: g.rv() },
          'FailedScheduling',
          `0/${nodes.length} nodes are available: 1 Insufficient cpu, ${others} node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/${nodes.length} nodes are available: 1 No preemption victims found for incoming pod, ${others} Preemption is not helpful for scheduling.`,
          'Warning',
          40,
          30,
          'default-scheduler',
        );
      } else {
        n.cpuUsed += d.cpuMilli;
        n.podsUsed++;
        if (state === 'running' && !excluded) {
          st.ready++;
          st.available++;
        }
      }
      const c0 = containers[0]!;
      const containerRef = { ...ref, fieldPath: `spec.containers{${c0.name}}` };
      if (state === 'crashloop')
        events.add(
          containerRef,
          'BackOff',
          'Back-off restarting failed container',
          'Warning',
          60 + r.int(200),
          20,
          'kubelet',
        );
      if (state === 'imagepull') {
        const message = `Failed to pull image "${c0.image ?? ''}": rpc error: code = NotFound desc = failed to pull and unpack image: not found`;
        events.add(containerRef, 'Failed', message, 'Warning', 12, 40, 'kubelet');
      }
    }
  }
  return made;
}

/** Each DaemonSet with its status (makeDaemonSet), then all their ControllerRevisions, numbered in that order. */
export function daemonSetObjects(states: DsState[], g: Gen): { daemonSets: Obj[]; revisions: Obj[] } {
  const versions = new Versions(0);
  const daemonSets: Obj[] = [];
  const revisions: Obj[] = [];
  for (const st of states) {
    const d = st.shape;
    const rev = (template: Obj, hash: string, generation: number, createdAgo: number): RevisionDef => ({
      template: template as unknown as BuiltTemplate,
      hash,
      generation,
      revision: generation,
      createdAgo,
      uid: g.r.uid(),
    });
    const revs = st.oldTemplate
      ? [
          rev(st.oldTemplate, st.oldHash!, st.generation - 1, st.createdAgo),
          rev(st.template, st.hash, st.generation, 2 * HOUR + 10 * MIN),
        ]
      : [rev(st.template, st.hash, 1, st.createdAgo)];
    const made = makeDaemonSet(
      {
        namespace: d.namespace,
        name: d.name,
        createdAgo: st.createdAgo,
        labels: { [d.labelKey]: d.name },
        selector: { [d.labelKey]: d.name },
        updateStrategy: rolling(d.maxUnavailable),
        revs,
        uid: st.uid,
        status: {
          currentNumberScheduled: st.current,
          desiredNumberScheduled: st.desired,
          numberAvailable: st.available,
          numberMisscheduled: st.misscheduled,
          numberReady: st.ready,
          numberUnavailable: st.desired - st.available,
          observedGeneration: st.generation,
          updatedNumberScheduled: st.updated,
        },
      },
      versions,
    );
    made.ds.metadata.resourceVersion = g.rv();
    daemonSets.push(made.ds as unknown as Obj);
    revisions.push(...(made.revisions as unknown as Obj[]));
  }
  for (const cr of revisions) (cr['metadata'] as Obj)['resourceVersion'] = g.rv();
  return { daemonSets, revisions };
}
