/**
 * The DaemonSet controller's side of a node's answer: why it would not create a pod there
 * (nodeName, taints, node affinity/selector: the predicates of
 * pkg/controller/daemon/daemon_controller.go#predicates), and why it has not created one where it
 * should (deletion, an empty selector, FailedCreate, an unobserved spec, a node that just joined).
 */
import type { DaemonSet, KubeEvent, Node, Taint } from '../../model/k8s-types.js';
import { formatDuration, parseRfc3339 } from '../../model/duration.js';
import { type PredicateFailure, TAINT_NOT_READY, TAINT_UNREACHABLE, SYSTEM_TAINT_KEYS } from '../../k8s/daemonpod.js';
import { formatTaint, formatTaintBraces, formatToleration, tolerationFor } from '../../k8s/taints.js';
import {
  classifyCreateError,
  createRetryNote,
  STATUS_NOT_WRITTEN_FIX,
  statusNotWrittenText,
} from '../create-errors.js';
import type { DaemonSetContext, RawReason } from './context.js';

/** " last seen 5m ago" for an event with a valid lastTimestamp, else nothing. */
function lastSeen(e: KubeEvent, now: Date): string {
  const t = parseRfc3339(e.lastTimestamp ?? '');
  return Number.isNaN(t) ? '' : ` last seen ${formatDuration(now.getTime() - t)} ago`;
}

/** The taints kubeadm and most distributions put on control-plane nodes. */
const CONTROL_PLANE_TAINT_KEYS: readonly string[] = [
  'node-role.kubernetes.io/control-plane',
  'node-role.kubernetes.io/master',
];

export const TOLERATION_YAML = (t: ReturnType<typeof tolerationFor>) =>
  `add to spec.template.spec.tolerations: - ${formatToleration(t)}`;

export function taintReason(taint: Taint, node: Node, hasPod: boolean, networkAgent = false): RawReason {
  const nodeName = node.metadata?.name ?? '';
  const t = formatTaint(taint);
  const short = `node(s) had untolerated taint ${formatTaintBraces(taint)}`;
  if ((taint.key === TAINT_NOT_READY || taint.key === TAINT_UNREACHABLE) && taint.effect === 'NoSchedule') {
    const state = taint.key === TAINT_NOT_READY ? 'NotReady' : 'unreachable';
    const cond = node.status?.conditions?.find((c) => c.type === 'Ready');
    // The network agent kept off a node that is NotReady for want of a network is the CNI deadlock.
    const deadlock = networkAgent && !hasPod && /network|cni/i.test(cond?.message ?? '');
    return {
      code: 'UntoleratedTaint',
      severity: deadlock ? 'error' : 'warning',
      short,
      message: `node ${nodeName} is ${state} and carries ${t}; the automatic DaemonSet tolerations cover ${taint.key} only with effect NoExecute, so the controller creates no new pod here${hasPod ? ' (the existing pod keeps running)' : ''}${deadlock ? '. The node is NotReady because its network is not ready, and this network agent cannot start there until it is: a deadlock' : ''}`,
      evidence: [
        `node taint ${t}${taint.timeAdded ? ` (added ${taint.timeAdded})` : ''}`,
        `node condition Ready=${cond?.status ?? 'missing'}${cond?.reason ? ` (${cond.reason})` : ''}${cond?.message ? `: ${cond.message}` : ''}`,
      ],
      fix: `if this agent must run before the node is Ready (CNI, CSI, kube-proxy), ${TOLERATION_YAML({ key: taint.key, operator: 'Exists', effect: 'NoSchedule' })} (CNI agents commonly use a blanket {operator: Exists}); otherwise nothing to do: the pod is created when the node becomes Ready`,
    };
  }
  const system = SYSTEM_TAINT_KEYS.includes(taint.key);
  // Staying off the control plane is the usual choice, not a gap, except for the network agent.
  const controlPlane = CONTROL_PLANE_TAINT_KEYS.includes(taint.key) && !networkAgent;
  const noExecute = taint.effect === 'NoExecute';
  return {
    code: 'UntoleratedTaint',
    severity: system || controlPlane ? 'info' : 'warning',
    short,
    message: `node ${nodeName} has taint ${t} that the DaemonSet does not tolerate${noExecute ? ' (NoExecute: an existing pod is deleted)' : ''}${controlPlane ? ': it stays off the control plane, as most DaemonSets do' : ''}`,
    evidence: [`node taint ${t}`],
    fix: `if the DaemonSet should run on this node, ${TOLERATION_YAML(tolerationFor(taint))}`,
  };
}

export function predicateReasons(f: PredicateFailure, node: Node, hasPod: boolean, networkAgent = false): RawReason[] {
  const nodeName = node.metadata?.name ?? '';
  switch (f.kind) {
    case 'NodeName':
      return [
        {
          code: 'NodeNameMismatch',
          severity: 'info',
          message: `the template pins spec.nodeName to ${f.want}`,
          evidence: [`spec.template.spec.nodeName: ${f.want}`],
          fix: 'remove spec.template.spec.nodeName: a DaemonSet places its pods itself',
        },
      ];
    case 'Taint':
      return f.taints.map((t) => taintReason(t, node, hasPod, networkAgent));
    case 'NodeAffinity': {
      const out: RawReason[] = [];
      for (const m of f.match.selectorMismatches) {
        out.push({
          code: 'NodeSelectorMismatch',
          severity: 'info',
          short: "node(s) didn't match Pod's node affinity/selector",
          message:
            m.have === undefined
              ? `node ${nodeName} has no label ${m.key} (nodeSelector wants ${m.key}=${m.want})`
              : `node ${nodeName} has ${m.key}=${m.have} (nodeSelector wants ${m.key}=${m.want})`,
          evidence: [
            `nodeSelector ${m.key}=${m.want}`,
            m.have === undefined ? `node label ${m.key}: absent` : `node label ${m.key}=${m.have}`,
          ],
          fix: `if the DaemonSet should run here: kubectl label node ${nodeName} ${m.key}=${m.want}${m.have !== undefined ? ' --overwrite' : ''}; otherwise nothing to do`,
        });
      }
      if (f.match.affinityFailed) {
        const failures = f.match.termMismatches.flatMap((t) => t.failures.map((x) => `term ${t.index}: ${x}`));
        out.push({
          code: 'NodeAffinityMismatch',
          severity: failures.some((x) => x.includes('invalid:')) ? 'warning' : 'info',
          short: "node(s) didn't match Pod's node affinity/selector",
          message: `node ${nodeName} matches none of the required node affinity terms`,
          evidence: failures.length
            ? failures
            : ['requiredDuringSchedulingIgnoredDuringExecution has no usable terms: nothing matches'],
          fix: 'if the DaemonSet should run here, label the node to satisfy one term, or relax spec.template.spec.affinity.nodeAffinity',
        });
      }
      return out;
    }
  }
}

/**
 * An empty selector: syncDaemonSet emits SelectingAll and returns before it looks at any node
 * (kubernetes v1.35 pkg/controller/daemon/daemon_controller.go#syncDaemonSet).
 */
export function selectsAll(ds: DaemonSet): boolean {
  const sel = ds.spec?.selector;
  return Boolean(sel) && !Object.keys(sel?.matchLabels ?? {}).length && !(sel?.matchExpressions ?? []).length;
}

export function selectingAllReason(): RawReason {
  return {
    code: 'SelectingAll',
    severity: 'error',
    message: 'This daemon set is selecting all pods. A non-empty selector is required.',
    evidence: [
      'spec.selector: {}',
      'the controller stops before it looks at any node: it creates and deletes no pod anywhere',
    ],
    fix: 'set spec.selector.matchLabels to the template labels (the selector is immutable: re-create the DaemonSet)',
  };
}

/** Why the controller has not created a pod on a node where one should run. */
export function missingReasons(ctx: DaemonSetContext, node: Node, now: Date): RawReason[] {
  const ds = ctx.ds;
  const ref = `daemonset/${ctx.name} -n ${ctx.namespace}`;
  if (ds.metadata?.deletionTimestamp) {
    return [
      {
        code: 'DaemonSetDeleting',
        severity: 'error',
        message: `the DaemonSet is being deleted (since ${ds.metadata.deletionTimestamp}): the controller creates no pods`,
        evidence: [
          `metadata.deletionTimestamp: ${ds.metadata.deletionTimestamp}`,
          ...(ds.metadata.finalizers?.length ? [`finalizers: ${ds.metadata.finalizers.join(', ')}`] : []),
        ],
        fix: 'wait for the deletion to finish, then re-create the DaemonSet',
      },
    ];
  }
  if (selectsAll(ds)) return [selectingAllReason()];
  const reasons: RawReason[] = [];
  const recent = ctx.failedCreates.slice(0, 3);
  const seen = new Set<string>();
  for (const e of recent) {
    const c = classifyCreateError(e.message ?? '', ctx.namespace, ctx.namespaceLabels);
    if (seen.has(c.kind)) continue;
    seen.add(c.kind);
    reasons.push({
      code: 'FailedCreate',
      severity: 'error',
      short: `pod creation failed: ${c.kind}`,
      message: `the controller cannot create the pod: ${c.summary}`,
      evidence: [
        `event FailedCreate${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}${lastSeen(e, now)}: ${(e.message ?? '').trim()}`,
      ],
      fix: `${c.fix}; ${createRetryNote(ctx.namespace, ctx.name)}`,
    });
  }
  const generation = ds.metadata?.generation ?? 0;
  const observed = ds.status?.observedGeneration ?? 0;
  if (observed < generation && recent.length) {
    reasons.push({
      code: 'ControllerNotObserved',
      severity: 'info',
      message: statusNotWrittenText(observed, generation),
      evidence: [`metadata.generation: ${generation}`, `status.observedGeneration: ${observed}`],
      fix: STATUS_NOT_WRITTEN_FIX,
    });
  } else if (observed < generation) {
    reasons.push({
      code: 'ControllerNotObserved',
      severity: 'warning',
      message: `the controller has not yet processed the latest spec (observedGeneration ${observed} < generation ${generation})`,
      evidence: [`metadata.generation: ${generation}`, `status.observedGeneration: ${observed}`],
      fix: 'wait a few seconds; if it persists, check that kube-controller-manager is running and healthy (its daemonset-controller logs)',
    });
  }
  if (reasons.length) return reasons;
  const nodeCreated = parseRfc3339(node.metadata?.creationTimestamp ?? '');
  const nodeAge = Number.isNaN(nodeCreated) ? undefined : now.getTime() - nodeCreated;
  if (nodeAge !== undefined && nodeAge < 60_000) {
    return [
      {
        code: 'NotYetCreated',
        severity: 'info',
        message: `node ${node.metadata?.name} joined ${formatDuration(nodeAge)} ago: the controller creates the pod on its next sync`,
        evidence: [`node creationTimestamp: ${node.metadata?.creationTimestamp}`],
        fix: 'nothing to do yet; check again in a minute',
      },
    ];
  }
  const evidence = [`no pod of ${ctx.namespace}/${ctx.name} targets node ${node.metadata?.name}`];
  if (!ctx.eventsAvailable) evidence.push('events not available in the input: a FailedCreate cause cannot be seen');
  else evidence.push('no FailedCreate event on the DaemonSet');
  return [
    {
      code: 'NotYetCreated',
      severity: 'error',
      message: `the controller should run a pod on node ${node.metadata?.name} but none exists`,
      evidence,
      fix: `check events (kubectl get events -n ${ctx.namespace} --field-selector involvedObject.name=${ctx.name}) and that kube-controller-manager runs the daemonset controller; kubectl describe ${ref}`,
    },
  ];
}
