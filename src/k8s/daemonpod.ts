/**
 * What the DaemonSet controller injects into its pods and how it decides per node:
 * `AddOrUpdateDaemonPodTolerations`, `GetTargetNodeName` (pkg/controller/daemon/util/daemonset_util.go),
 * `AddOrUpdateTolerationInPodSpec` (pkg/apis/core/v1/helper/helpers.go), and
 * `NewPod` / `predicates` / `NodeShouldRunDaemonPod` (pkg/controller/daemon/daemon_controller.go).
 */
import type { DaemonSet, Node, Pod, PodSpec, Taint, Toleration } from '../model/k8s-types.js';
import { matchRequiredNodeAffinity, type AffinityMatch } from './nodeaffinity.js';
import { untoleratedTaints } from './taints.js';
import { memoizedPerObject } from '../model/memo.js';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';

/** Taints the node lifecycle controller manages (not set by users). */
export const SYSTEM_TAINT_KEYS: readonly string[] = [
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_PID_PRESSURE,
  TAINT_UNSCHEDULABLE,
  TAINT_NETWORK_UNAVAILABLE,
  'node.kubernetes.io/out-of-service',
  'node.cloudprovider.kubernetes.io/uninitialized',
  'node.cloudprovider.kubernetes.io/shutdown',
];

/** The tolerations every daemon pod gets, in upstream order (AddOrUpdateDaemonPodTolerations). */
export function defaultDaemonTolerations(hostNetwork: boolean): Toleration[] {
  const list: Toleration[] = [
    { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) list.push({ key: TAINT_NETWORK_UNAVAILABLE, operator: 'Exists', effect: 'NoSchedule' });
  return list;
}

function sameToleration(a: Toleration, b: Toleration): boolean {
  // MatchToleration: key, effect, operator and value (no normalisation of "" vs "Equal").
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.effect ?? '') === (b.effect ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '')
  );
}

/**
 * `AddOrUpdateTolerationInPodSpec`: a matching toleration is replaced by `toleration`
 * (so a user's tolerationSeconds is dropped), otherwise it is appended.
 */
export function addOrUpdateToleration(tolerations: Toleration[], toleration: Toleration): Toleration[] {
  let updated = false;
  const out = tolerations.map((t) => {
    if (sameToleration(t, toleration)) {
      updated = true;
      return { ...toleration };
    }
    return t;
  });
  if (!updated) out.push({ ...toleration });
  return out;
}

/** The template's tolerations merged with the automatic daemon tolerations. */
export function daemonPodTolerations(spec: PodSpec | undefined): Toleration[] {
  let list = [...(spec?.tolerations ?? [])];
  for (const t of defaultDaemonTolerations(spec?.hostNetwork === true)) list = addOrUpdateToleration(list, t);
  return list;
}

/** `NewPod(ds, nodeName)`: the hypothetical pod the controller evaluates for a node. */
export function newDaemonPod(ds: DaemonSet, nodeName: string): Pod {
  const template = ds.spec?.template ?? {};
  const spec: PodSpec = { ...(template.spec ?? {}) };
  spec.nodeName = nodeName;
  spec.tolerations = daemonPodTolerations(template.spec);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...(template.metadata ?? {}), namespace: ds.metadata?.namespace },
    spec,
  };
}

/** One reason the controller's predicates keep a daemon pod off a node. */
export type PredicateFailure =
  | { kind: 'NodeName'; want: string }
  | { kind: 'NodeAffinity'; match: AffinityMatch }
  | { kind: 'Taint'; taints: Taint[] };

export interface ShouldRunResult {
  shouldRun: boolean;
  shouldContinueRunning: boolean;
  failures: PredicateFailure[];
  /** The tolerations of the pod the controller would create. */
  tolerations: Toleration[];
}

/** The controller's placement decision for one DaemonSet, prepared once and asked per node. */
export interface DaemonPlacement {
  /** The tolerations of the pod the controller would create. */
  tolerations: Toleration[];
  evaluate(node: Node): ShouldRunResult;
}

/**
 * Prepares `NodeShouldRunDaemonPod` for a DaemonSet: the hypothetical pod (NewPod) is built
 * once, then each node is checked against it, once. Node readiness, cordon, resources and ports
 * are deliberately ignored, exactly as upstream ignores them. One compiled placement per
 * DaemonSet object, shared by every analysis of a run (placement, status recomputation,
 * rollout, lint), each answer kept per node: scan asks the same DaemonSet × node question
 * several times.
 */
export const compileDaemonPlacement: (ds: DaemonSet) => DaemonPlacement = memoizedPerObject(compilePlacement);

function compilePlacement(ds: DaemonSet): DaemonPlacement {
  const pod = newDaemonPod(ds, '');
  const tolerations = pod.spec!.tolerations!;
  const templateNodeName = ds.spec?.template?.spec?.nodeName;
  return { tolerations, evaluate: memoizedPerObject(decide) };

  function decide(node: Node): ShouldRunResult {
    const nodeName = node.metadata?.name ?? '';
    const failures: PredicateFailure[] = [];
    const nameMismatch = Boolean(templateNodeName) && templateNodeName !== nodeName;
    if (nameMismatch) failures.push({ kind: 'NodeName', want: templateNodeName! });
    const affinity = matchRequiredNodeAffinity(pod.spec, node);
    if (!affinity.matches) failures.push({ kind: 'NodeAffinity', match: affinity });
    const taints = untoleratedTaints(node.spec?.taints, tolerations, ['NoSchedule', 'NoExecute']);
    if (taints.length) failures.push({ kind: 'Taint', taints });
    if (nameMismatch || !affinity.matches) {
      return { shouldRun: false, shouldContinueRunning: false, failures, tolerations };
    }
    if (taints.length) {
      const noExecute = taints.some((t) => t.effect === 'NoExecute');
      return { shouldRun: false, shouldContinueRunning: !noExecute, failures, tolerations };
    }
    return { shouldRun: true, shouldContinueRunning: true, failures, tolerations };
  }
}

/**
 * `GetTargetNodeName(pod)`: spec.nodeName, else the single value of the first
 * `metadata.name In [x]` matchFields requirement of the required node affinity.
 */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const req of term.matchFields ?? []) {
      if (req.key === 'metadata.name' && req.operator === 'In' && req.values?.length === 1) return req.values[0];
    }
  }
  return undefined;
}
