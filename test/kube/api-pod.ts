/**
 * Pods as the API server stores them after admission, and their status as the kubelet writes it.
 */
import type {
  Affinity,
  Container,
  ContainerPort,
  OwnerReference,
  PodCondition,
  PodStatus,
  Toleration,
  Volume,
} from '../../src/model/k8s-types.js';
import { internalIP } from './api-node.js';
import { clone, finishPodSpec, type Json, ordered } from './fields.js';
import { hex, suffix, uid } from './ids.js';
import { imageId, imageRef } from './images.js';
import { at } from './time.js';
import type { BuiltNode, BuiltPod, BuiltPodSpec } from './types.js';

/** The states podStatus can write (see there), with the fields each uses. */
export interface PodState {
  kind:
    | 'Running'
    | 'NotReady'
    | 'NodeLost'
    | 'CrashLoopBackOff'
    | 'CreateContainerConfigError'
    | 'ImagePullBackOff'
    | 'ContainerCreating'
    | 'Unschedulable'
    | 'Evicted'
    | 'Succeeded';
  observedGeneration?: number;
  message?: string;
  markedAgo?: number;
  restarts?: number;
  backoff?: string;
  exitCode?: number;
  reason?: string;
  lastStartedAgo?: number;
  lastFinishedAgo?: number;
  evictedAgo?: number;
  finishedAgo?: number;
}

/** A pod's timeline in seconds before NOW (see podStatus). */
export interface PodTimeline {
  created: number;
  scheduled: number;
  started: number;
  ready: number;
  sandbox?: number;
  initialized?: number;
  unready?: number;
}

/** What makePod builds a Pod from. */
export interface PodDef {
  name: string;
  generateName?: string;
  namespace: string;
  key: string;
  createdAgo: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  spec: BuiltPodSpec;
  deletedAgo?: number;
  grace?: number;
  /** The uid (default: derived from `key`) and resourceVersion (default: '', for a Versions to assign). */
  uid?: string;
  resourceVersion?: string;
  /** `metadata.managedFields`, as the raw API (or `--show-managed-fields`) returns them. */
  managedFields?: Json[];
  /** Whether the API server sets metadata.generation, as it does since PodObservedGenerationTracking (default: true). */
  generation?: boolean;
}

/** The values of the built-in priority classes. */
export const PRIORITIES: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/** The container fields the API server defaults (termination message, pull policy). */
export const CONTAINER_DEFAULTS: Json = {
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent',
};

/** The pod-spec fields the API server defaults, with the service account `serviceAccount` if any (`overrides` win). */
export function podSpecDefaults(serviceAccount: string | undefined, overrides: Json = {}): Json {
  return {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: serviceAccount,
    serviceAccount,
    securityContext: {},
    schedulerName: 'default-scheduler',
    ...overrides,
  };
}

/** The tolerations DefaultTolerationSeconds admission adds to an ordinary pod. */
export const NOT_READY_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** The projected service-account token volume the ServiceAccount admission plugin adds. */
export function apiAccessVolume(name: string): Volume {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    },
  };
}

/**
 * A pod spec as the API server stores it after admission: the service-account token
 * volume, pod-only defaults (hostPort for hostNetwork ports), priority.
 */
export function admitPodSpec(templateSpec: BuiltPodSpec, podKey: string): BuiltPodSpec {
  const spec: Json = clone(templateSpec);
  if (spec.automountServiceAccountToken !== false) {
    const vol = `kube-api-access-${suffix(`kube-api-access/${podKey}`)}`;
    spec.volumes = [...(spec.volumes ?? []), apiAccessVolume(vol)];
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
      c.volumeMounts = [
        ...(c.volumeMounts ?? []),
        { name: vol, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
      ];
    }
  }
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    if (spec.hostNetwork) for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
    if (c.ports)
      c.ports = c.ports.map((p: ContainerPort) => ordered(p, ['name', 'hostPort', 'containerPort', 'protocol']));
  }
  spec.priority = PRIORITIES[spec.priorityClassName ?? ''] ?? 0;
  spec.enableServiceLinks = true;
  spec.preemptionPolicy = 'PreemptLowerPriority';
  return spec as BuiltPodSpec;
}

/** The node affinity a daemon pod is pinned to its node with, added to `affinity` (docs/semantics.md §2.2). */
export function pinnedAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
  return {
    ...(affinity ?? {}),
    nodeAffinity: {
      ...(affinity?.nodeAffinity ?? {}),
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  };
}

/** The ownerReferences of an object controlled by `kind`/`name`/`uid`. */
export function controllerRef(kind: string, name: string, ownerUid: string, apiVersion = 'apps/v1'): OwnerReference[] {
  return [{ apiVersion, kind, name, uid: ownerUid, controller: true, blockOwnerDeletion: true }];
}

/** The QoS class of a pod spec. */
export function qosClass(spec: BuiltPodSpec): string {
  const cs = [...(spec.initContainers ?? []), ...spec.containers];
  const any = cs.some(
    (c) => Object.keys(c.resources?.requests ?? {}).length || Object.keys(c.resources?.limits ?? {}).length,
  );
  if (!any) return 'BestEffort';
  const guaranteed = spec.containers.every((c) => {
    const r = c.resources ?? {};
    return ['cpu', 'memory'].every((k) => r.limits?.[k] && (!r.requests?.[k] || r.requests[k] === r.limits[k]));
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** A pod condition, in the API's field order (`observedGeneration` null: without one, as kubelets before PodObservedGenerationTracking wrote them). */
export function podCondition(
  type: string,
  status: string,
  since: number,
  reason: string | undefined,
  message: string | undefined,
  observedGeneration: number | null = 1,
): PodCondition {
  return ordered(
    {
      type,
      observedGeneration: observedGeneration ?? undefined,
      status,
      lastProbeTime: null,
      lastTransitionTime: at(since),
      reason,
      message,
    },
    ['type', 'observedGeneration', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message'],
  );
}

/** The resources a container status reports (its spec's, when it has any). */
export function containerResourcesStatus(c: Container): Container['resources'] {
  const r = c.resources ?? {};
  if (!r.requests && !r.limits) return undefined;
  return clone(r);
}

/**
 * Pod status for a given state. `t` holds the timeline in seconds-ago: created, scheduled,
 * sandbox (PodReadyToStartContainers; default: started), started (init containers run 3 s each
 * from there, then the containers start 1 s later), ready, and optionally initialized
 * (Initialized=True) and unready (Ready=False of a started pod), both by default scheduled - 1.
 * State kinds:
 *   Running                      all containers running and Ready
 *   NotReady                     running, readiness probe failing (since t.started)
 *   NodeLost                     Running as last reported, Ready=False set by the node lifecycle controller at state.markedAgo
 *   CrashLoopBackOff             waiting CrashLoopBackOff, lastState terminated {state.exitCode, state.reason}
 *   CreateContainerConfigError   waiting with state.message
 *   ImagePullBackOff             waiting ImagePullBackOff
 *   ContainerCreating            bound, sandbox not ready
 *   Unschedulable                unbound, PodScheduled=False
 *   Evicted                      phase Failed, reason Evicted, state.message, at state.evictedAgo
 *   Succeeded                    completed at state.finishedAgo
 * `state.observedGeneration` (default 1) is the pod generation the kubelet reports.
 */
export function podStatus(
  pod: BuiltPod,
  state: PodState,
  t: PodTimeline,
  node: BuiltNode | undefined,
  podIP: string | undefined,
): PodStatus {
  const spec = pod.spec;
  const og = state.observedGeneration ?? 1;
  const c = (type: string, status: string, since: number, reason?: string, message?: string) =>
    podCondition(type, status, since, reason, message, og);
  const cid = (name: string, n = 0) => `containerd://${hex(`cid/${pod.metadata.name}/${name}/${n}`, 64)}`;
  const ips = (ip: string | undefined) => (ip ? [{ ip }] : undefined);
  const inits = spec.initContainers ?? [];
  const initDone = t.started - 3 * inits.length;
  const sandbox = t.sandbox ?? t.started;
  const initialized = t.initialized ?? t.scheduled - 1;
  const unready = t.unready ?? t.scheduled - 1;
  const c0 = spec.containers[0]!;

  // The conditions of a bound pod: sandbox, Initialized, Ready and ContainersReady, PodScheduled.
  type ConditionArgs = [status: string, since: number, reason?: string, message?: string];
  const conditions = (
    sandboxCondition: PodCondition,
    readyCondition: ConditionArgs,
    containersReady: ConditionArgs = readyCondition,
  ) => [
    sandboxCondition,
    c('Initialized', 'True', initialized, state.kind === 'Succeeded' ? 'PodCompleted' : undefined),
    c('Ready', ...readyCondition),
    c('ContainersReady', ...containersReady),
    c('PodScheduled', 'True', t.scheduled),
  ];
  const sandboxReady = () => c('PodReadyToStartContainers', 'True', sandbox);
  const notReady = (cs: Container[]): ConditionArgs => [
    'False',
    unready,
    'ContainersNotReady',
    `containers with unready status: [${cs.map((x) => x.name).join(' ')}]`,
  ];

  // The status of a container that has run (its image pulled), in its `restarts`th run.
  const ran = (
    x: Container,
    containerState: Json,
    {
      ready = false,
      started = false,
      restarts = 0,
      lastState = {},
    }: { ready?: boolean; started?: boolean; restarts?: number; lastState?: Json } = {},
  ) => ({
    name: x.name,
    state: containerState,
    lastState,
    ready,
    restartCount: restarts,
    image: imageRef(x.image!),
    imageID: imageId(x.image!),
    containerID: cid(x.name, restarts),
    started,
    resources: containerResourcesStatus(x),
  });
  const exited = (
    x: Container,
    exitCode: number,
    reason: string,
    startedAgo: number,
    finishedAgo: number,
    run = 0,
  ) => ({
    terminated: {
      exitCode,
      reason,
      startedAt: at(startedAgo),
      finishedAt: at(finishedAgo),
      containerID: cid(x.name, run),
    },
  });
  const running = (x: Container, ready: boolean) =>
    ran(x, { running: { startedAt: at(initDone - 1) } }, { ready, started: true });
  const terminated = (
    x: Container,
    exitCode: number,
    reason: string,
    startedAgo: number,
    finishedAgo: number,
    ready = false,
  ) => ran(x, exited(x, exitCode, reason, startedAgo, finishedAgo), { ready });
  const waiting = (x: Container, reason: string, message?: string) => ({
    name: x.name,
    state: { waiting: { reason, message } },
    lastState: {},
    ready: false,
    restartCount: 0,
    image: x.image,
    imageID: '',
    started: false,
    resources: containerResourcesStatus(x),
  });

  // The status of a pod bound to `node`, in the API's field order.
  const bound = (
    phase: string,
    podConditions: PodCondition[],
    containerStatuses: Json[],
    extra: Json = {},
  ): PodStatus => {
    const hostIP = internalIP(node!);
    return {
      observedGeneration: og,
      phase,
      conditions: podConditions,
      ...extra,
      hostIP,
      hostIPs: ips(hostIP),
      podIP,
      podIPs: ips(podIP),
      startTime: at(t.scheduled - 1),
      initContainerStatuses: inits.length
        ? inits.map((x, i) => terminated(x, 0, 'Completed', t.started - 3 * i, t.started - 3 * i - 2, true))
        : undefined,
      containerStatuses,
      qosClass: qosClass(spec),
    } as Json;
  };

  switch (state.kind) {
    case 'Unschedulable':
      return {
        observedGeneration: og,
        phase: 'Pending',
        conditions: [c('PodScheduled', 'False', t.scheduled, 'Unschedulable', state.message)],
        qosClass: qosClass(spec),
      } as PodStatus;

    case 'Running':
    case 'NodeLost':
      return bound(
        'Running',
        conditions(sandboxReady(), state.kind === 'NodeLost' ? ['False', state.markedAgo!] : ['True', t.ready], [
          'True',
          t.ready,
        ]),
        spec.containers.map((x) => running(x, true)),
      );

    case 'NotReady': {
      const bad = spec.containers.filter((x) => x.readinessProbe);
      return bound(
        'Running',
        conditions(sandboxReady(), notReady(bad)),
        spec.containers.map((x) => running(x, !bad.includes(x))),
      );
    }

    case 'CrashLoopBackOff': {
      const n = state.restarts!;
      const backOff = {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off ${state.backoff} restarting failed container=${c0.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        },
      };
      const lastState = exited(c0, state.exitCode!, state.reason!, state.lastStartedAgo!, state.lastFinishedAgo!, n);
      return bound(
        'Running',
        conditions(sandboxReady(), notReady([c0])),
        spec.containers.map((x) => (x !== c0 ? running(x, true) : ran(c0, backOff, { restarts: n, lastState }))),
      );
    }

    case 'CreateContainerConfigError':
    case 'ImagePullBackOff': {
      const message = state.kind === 'ImagePullBackOff' ? `Back-off pulling image "${c0.image}"` : state.message;
      return bound('Pending', conditions(sandboxReady(), notReady([c0])), [waiting(c0, state.kind, message)]);
    }

    case 'ContainerCreating':
      return bound(
        'Pending',
        conditions(c('PodReadyToStartContainers', 'False', t.scheduled), notReady(spec.containers)),
        spec.containers.map((x) => waiting(x, 'ContainerCreating')),
      );

    case 'Evicted':
      return bound(
        'Failed',
        [
          c('DisruptionTarget', 'True', state.evictedAgo!, 'TerminationByKubelet', state.message),
          ...conditions(c('PodReadyToStartContainers', 'False', state.evictedAgo! - 1), [
            'False',
            state.evictedAgo! - 1,
            'PodFailed',
          ]),
        ],
        spec.containers.map((x) => terminated(x, 137, 'Error', t.started - 1, state.evictedAgo! - 1)),
        { message: state.message, reason: 'Evicted' },
      );

    case 'Succeeded':
      return bound(
        'Succeeded',
        conditions(c('PodReadyToStartContainers', 'False', state.finishedAgo! - 1), [
          'False',
          state.finishedAgo! - 1,
          'PodCompleted',
        ]),
        spec.containers.map((x) => terminated(x, 0, 'Completed', t.started - 2, state.finishedAgo!)),
      );

    default:
      throw new Error(`unknown pod state ${JSON.stringify(state)}`);
  }
}

/**
 * A Pod without status: `key` names its uid (unless `uid` is given), `spec` is put in API order.
 * With `deletedAgo` + `grace`, graceful deletion was requested `deletedAgo` seconds ago.
 */
export function makePod(d: PodDef): BuiltPod {
  const {
    name,
    generateName,
    namespace,
    key,
    createdAgo,
    labels,
    annotations,
    ownerReferences,
    spec,
    deletedAgo,
    grace = 0,
  } = d;
  const deleting = deletedAgo !== undefined;
  const pod: Json = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: ordered(
      {
        name,
        generateName,
        namespace,
        uid: d.uid ?? uid(key),
        resourceVersion: d.resourceVersion ?? '',
        generation: d.generation === false ? undefined : deleting ? 2 : 1,
        creationTimestamp: at(createdAgo),
        deletionTimestamp: deleting ? at(deletedAgo - grace) : undefined,
        deletionGracePeriodSeconds: deleting ? grace : undefined,
        labels,
        annotations,
        ownerReferences,
        managedFields: d.managedFields,
      },
      [],
    ),
    spec: finishPodSpec(spec),
  };
  return pod as BuiltPod;
}
