/**
 * The rollout reasons, one function each: each returns its reason when the facts call for it,
 * or nothing. `rolloutReasons` lists them in the order they are reported.
 */
import type { KubeEvent } from '../../model/k8s-types.js';
import type { RolloutReason } from '../../model/results.js';
import { nodeReadyStatus } from '../../k8s/podhealth.js';
import { isPodAvailable } from '../../k8s/podutil.js';
import {
  classifyCreateError,
  createRetryNote,
  STATUS_NOT_WRITTEN_FIX,
  statusNotWrittenText,
  touchCommand,
} from '../create-errors.js';
import { statusDisagreement } from '../stale-status.js';
import { SLOT_TEXT, groupedEvidence, listNodes } from './budget.js';
import type { RolloutFacts } from './facts.js';

type ReasonOf = (f: RolloutFacts) => RolloutReason | undefined;

function failedCreateEvidence(e: KubeEvent): string {
  return `event FailedCreate${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}: ${(e.message ?? '').trim()}`;
}

function controllerNotObserved(f: RolloutFacts): RolloutReason | undefined {
  const generation = f.ds.metadata?.generation ?? 0;
  const observed = f.ds.status?.observedGeneration ?? 0;
  if (observed >= generation) return undefined;
  if (f.ctx.failedCreates.length)
    return {
      code: 'ControllerNotObserved',
      severity: 'info',
      message: statusNotWrittenText(observed, generation),
      evidence: [`metadata.generation ${generation}`, `status.observedGeneration ${observed}`],
      fix: STATUS_NOT_WRITTEN_FIX,
    };
  return {
    code: 'ControllerNotObserved',
    severity: 'warning',
    message: `the controller has not observed the latest spec yet (observedGeneration ${observed} < generation ${generation}): .status describes the previous spec`,
    evidence: [`metadata.generation ${generation}`, `status.observedGeneration ${observed}`],
    fix: 'wait a few seconds; if it lasts, check that kube-controller-manager is running (its daemonset-controller)',
  };
}

/** A maxUnavailable or maxSurge that does not parse: the controller's rollingUpdate returns the error. */
function invalidBudget(f: RolloutFacts): RolloutReason | undefined {
  if (f.verdict === 'Pending' || !f.budget.error) return undefined;
  return {
    code: 'InvalidBudget',
    severity: 'error',
    message: f.budget.error,
    evidence: [`spec.updateStrategy.rollingUpdate: ${JSON.stringify(f.ds.spec?.updateStrategy?.rollingUpdate)}`],
    fix: 'set maxUnavailable (and maxSurge) to an integer or a percentage such as "10%"',
  };
}

function newPodsUnavailable(f: RolloutFacts): RolloutReason | undefined {
  const newUnavailable = f.unavailableUses.filter((u) => u.slot === 'new-unavailable' || u.slot === 'old-and-new');
  if (!newUnavailable.length) return undefined;
  return {
    code: 'NewPodsUnavailable',
    severity: newUnavailable.some((u) => u.hard) ? 'error' : 'warning',
    message: `${newUnavailable.length} new pod(s) are not available`,
    evidence: newUnavailable.map((u) => `node ${u.node}: ${u.code}: ${u.message}`),
    fix: newUnavailable.every((u) => u.code === 'NodeNotReady')
      ? `the template is not the cause: the nodes are NotReady or unreachable (${listNodes(newUnavailable.map((u) => u.node))}); recover them, or delete the Node objects of machines that are gone for good (their pods are garbage-collected)`
      : newUnavailable.some((u) => u.hard)
        ? `fix the new template${f.rollback}`
        : 'wait: they are starting',
  };
}

function oldPodsUnavailable(f: RolloutFacts): RolloutReason | undefined {
  const oldUnavailable = f.unavailableUses.filter((u) => u.slot === 'old-unavailable');
  if (!oldUnavailable.length) return undefined;
  return {
    code: 'OldPodsUnavailable',
    severity: 'warning',
    message: f.manageBlocked
      ? `${oldUnavailable.length} old pod(s) are unavailable: the controller would replace them regardless of the budget, but not while it cannot create the missing pods`
      : `${oldUnavailable.length} old pod(s) are unavailable: the controller replaces them regardless of the budget, and since 1.31 each counts against maxUnavailable`,
    evidence: oldUnavailable.map((u) => `node ${u.node}: ${u.code}: ${u.message}`),
    fix: 'fix those nodes or pods; they hold budget until replaced and available',
  };
}

/** `NodesWithoutPod`, or `PodStuckTerminating` when a node waits for its old pod's deletion. */
function nodesWithoutPod(f: RolloutFacts): RolloutReason | undefined {
  const missing = f.unavailableUses.filter((u) => u.slot === 'no-pod');
  if (!missing.length) return undefined;
  return {
    code: missing.some((u) => u.code === 'PodTerminating') ? 'PodStuckTerminating' : 'NodesWithoutPod',
    severity: missing.some((u) => u.hard) ? 'error' : 'warning',
    message: `${missing.length} node(s) that should run a pod have none (or only a terminating one)`,
    evidence: groupedEvidence(missing),
    fix: missing.some((u) => u.hard) ? 'clear the blockers listed above' : 'wait for the controller to create them',
  };
}

/**
 * Nodes with pods of the DaemonSet that are NotReady or unreachable. Only the pods that are
 * unavailable (a budget use) hold budget; a pod that still reports Ready counts as available.
 */
function nodesNotReady(f: RolloutFacts): RolloutReason | undefined {
  const ready = (node: string) => nodeReadyStatus(f.index.nodesByName.get(node));
  const notReady = f.rows.filter((r) => ready(r.node) !== 'True' && (f.ctx.byNode.get(r.node)?.length ?? 0) > 0);
  if (!notReady.length) return undefined;
  // Under RollingUpdate the nodes the controller counts as unavailable; OnDelete has no budget, so
  // the pods' own availability.
  const podsUnavailable = (node: string) =>
    (f.ctx.byNode.get(node) ?? []).some((p) => !p.metadata?.deletionTimestamp && !isPodAvailable(p, f.minReady, f.now));
  const holding = new Set(
    f.strategy === 'OnDelete'
      ? notReady.map((r) => r.node).filter(podsUnavailable)
      : f.unavailableUses.map((u) => u.node),
  );
  const holds = f.strategy === 'RollingUpdate' && !f.surge;
  const unavailable = notReady.filter((r) => holding.has(r.node));
  const stillReady = notReady.filter((r) => !holding.has(r.node));
  const parts = [
    ...(unavailable.length
      ? [
          `${unavailable.length} ${unavailable.length === 1 ? `has an unavailable pod${holds ? ' that holds budget' : ''}` : `have unavailable pods${holds ? ' that hold budget' : ''}`} until ${unavailable.length === 1 ? 'the node recovers' : 'the nodes recover'}`,
        ]
      : []),
    ...(stillReady.length
      ? [
          `${stillReady.length} still ${stillReady.length === 1 ? 'has its pod' : 'have their pods'} Ready and available${f.strategy === 'RollingUpdate' ? ', holding no budget' : ''}`,
        ]
      : []),
  ];
  return {
    code: 'NodesNotReady',
    severity: unavailable.length ? 'warning' : 'info',
    message: `${notReady.length} node(s) with pods of this DaemonSet are NotReady or unreachable: ${parts.join('; ')}`,
    evidence: notReady.map(
      (r) => `node ${r.node}: Ready=${ready(r.node) || 'unknown'}${holding.has(r.node) ? '' : ', its pod still Ready'}`,
    ),
    fix: unavailable.length
      ? 'recover or remove those nodes; force-delete pods stuck terminating on nodes that are gone'
      : `nothing there holds the rollout now; find out why the node(s) are not Ready: kubectl describe node ${stillReady[0]!.node}`,
  };
}

function oldPodsTerminating(f: RolloutFacts): RolloutReason | undefined {
  if (!f.leaving.length || f.verdict === 'Complete') return undefined;
  return {
    code: 'OldPodsTerminating',
    severity: f.leaving.some((l) => l.hard) ? 'error' : 'info',
    message: `${f.leaving.length} node(s) run an available new pod while the old one is still terminating: they count as updated once it is gone`,
    evidence: f.leaving.map((l) => `node ${l.node}: pod ${l.pod?.metadata?.name}: ${l.message}`),
    fix: f.leaving.some((l) => l.hard)
      ? 'recover those nodes, or force-delete the old pods if the nodes are gone for good'
      : 'wait: the kubelet confirms the deletions',
  };
}

function surgeHostPortConflict(f: RolloutFacts): RolloutReason | undefined {
  const conflicts = f.hardUses.filter((u) => u.code === 'HostPortConflict');
  if (!f.surge || !conflicts.length) return undefined;
  return {
    code: 'SurgeHostPortConflict',
    severity: 'error',
    message:
      'maxSurge needs the new pod to run next to the old one, but both need the same host port: the surge pod can never be scheduled',
    evidence: conflicts.map((u) => `node ${u.node}: ${u.message}`),
    fix: 'set spec.updateStrategy.rollingUpdate to {maxSurge: 0, maxUnavailable: 1} (or a percentage)',
  };
}

/** The API refuses pods: a blocked manage() replaces no old pod, a blocked surge starts no node. */
function failedCreate(f: RolloutFacts): RolloutReason | undefined {
  if (!(f.manageBlocked || f.surgeBlocked) || f.verdict === 'Complete') return undefined;
  if (!(f.candidates.length > 0 || f.uses.some((u) => u.slot === 'old-unavailable'))) return undefined;
  const events = f.createFailures.length ? f.createFailures : f.ctx.failedCreates;
  const c = classifyCreateError(events[0]?.message ?? '', f.ns, f.ctx.namespaceLabels);
  const refused = f.refusedNodes;
  return {
    code: 'FailedCreate',
    severity: 'error',
    message: f.manageBlocked
      ? `the API refuses to create the pod of ${refused.length} node(s) that have none (${c.summary}): while a create fails, the controller's sync ends before the rolling update, so no old pod is replaced on any node`
      : `each new pod is created next to the old one before that goes, and the API refuses to create it: ${c.summary}`,
    evidence: f.manageBlocked
      ? [
          `node(s) without a pod: ${refused
            .slice(0, 5)
            .map((u) => u.node)
            .join(', ')}${refused.length > 5 ? `, … (${refused.length - 5} more)` : ''}`,
          ...events.slice(0, 2).map(failedCreateEvidence),
        ]
      : events.slice(0, 3).map(failedCreateEvidence),
    fix: `${!f.manageBlocked && c.kind === 'ResourceQuota' ? `${c.fix}; a surge needs room for one more pod per surging node` : c.fix}; ${createRetryNote(f.ns, f.name)}`,
  };
}

/**
 * The budget holds back only nodes that wait for it: with maxSurge 0 every unavailable old pod is
 * replaced regardless (TestDaemonSetUpdatesAllOldPodsNotReady), so with no candidate left there
 * is nothing it stops.
 */
function budgetExhausted(f: RolloutFacts): RolloutReason | undefined {
  if (f.verdict === 'Complete' || f.used < f.limit || f.limit <= 0 || f.manageBlocked || !f.candidates.length)
    return undefined;
  return {
    code: 'BudgetExhausted',
    severity: f.verdict === 'Stuck' ? 'error' : 'info',
    message: f.surge
      ? `${f.used} of maxSurge ${f.limit} surge pods are waiting to become available: no more nodes start until one does`
      : `${f.used} node(s) are unavailable, maxUnavailable is ${f.limit}: no more old pods are replaced until one becomes available`,
    evidence: f.uses.map((u) => `node ${u.node}: ${SLOT_TEXT[u.slot]} (${u.code})`),
    fix:
      f.verdict !== 'Stuck'
        ? 'wait'
        : f.surge
          ? 'clear the blockers; a larger maxSurge would only start more pods that fail the same way'
          : f.uses.every((u) => nodeReadyStatus(f.index.nodesByName.get(u.node)) !== 'True')
            ? // Nodes that do not answer, not pods that fail: more budget lets the live nodes roll.
              'the budget is held by nodes that are NotReady or unreachable, not by pods that fail: recover them or delete the Node objects of machines that are gone for good; raising maxUnavailable past them lets the rollout go on over the other nodes'
            : 'clear the blockers; raising maxUnavailable would only let more nodes fail the same way',
  };
}

function onDeleteStrategy(f: RolloutFacts): RolloutReason | undefined {
  if (f.strategy !== 'OnDelete' || f.oldPods <= 0) return undefined;
  const outdatedNodes = f.rows.filter((r) => r.pod && !r.pod.updated && r.verdict !== 'Excluded');
  return {
    code: 'OnDeleteStrategy',
    severity: 'info',
    message: `updateStrategy is OnDelete: ${f.oldPods} node(s) keep the old revision until their pod is deleted`,
    evidence: outdatedNodes.slice(0, 20).map((r) => `node ${r.node}: pod ${r.pod!.name} (revision ${r.pod!.revision})`),
    fix: `roll one canary node first, check it, then the rest one at a time: kubectl delete pod -n ${f.ns} <pod>`,
  };
}

/**
 * `.status` that disagrees with the pods although the controller has observed the spec: kubectl
 * rollout status reads `.status` and keeps waiting (kubernetes#53023: with minReadySeconds a pod
 * that became available raised no event, so numberAvailable stayed stale until PR #77208, 1.15).
 */
function staleStatus(f: RolloutFacts): RolloutReason | undefined {
  const { ds, verdict } = f;
  const diffs = statusDisagreement(ds, f.status);
  if (!diffs.length) return undefined;
  const minReady = ds.spec?.minReadySeconds ?? 0;
  return {
    code: 'StaleStatus',
    severity: 'warning',
    message: `.status disagrees with the pods (${diffs.join(', ')}): the controller has not caught up, so kubectl rollout status (which reads .status) ${verdict === 'Complete' ? 'still waits although the pods say the rollout is complete' : 'reports other numbers than the pods'}`,
    evidence: [
      ...diffs.map((d) => `status.${d}`),
      `status.observedGeneration ${ds.status?.observedGeneration ?? 0}, metadata.generation ${ds.metadata?.generation ?? 0}: the controller has seen this spec`,
      ...(minReady > 0
        ? [
            `minReadySeconds ${minReady}: before Kubernetes 1.15 a pod becoming available after minReadySeconds raised no event, so the count stayed stale (kubernetes#53023)`,
          ]
        : []),
    ],
    fix: `make the controller recount (any update of the DaemonSet re-queues it): ${touchCommand(f.ns, f.name)}; if .status still lags, check kube-controller-manager (its daemonset-controller logs) and clock skew between nodes and the control plane`,
  };
}

/** A DaemonSet being deleted: the controller does nothing for it, so this is the whole answer. */
function daemonSetDeleting(f: RolloutFacts): RolloutReason | undefined {
  const meta = f.ds.metadata;
  if (!f.deleting || !meta?.deletionTimestamp) return undefined;
  const pods = [...f.ctx.byNode.values()].flat().length;
  const finalizers = meta.finalizers ?? [];
  const gc = finalizers.includes('foregroundDeletion')
    ? 'the garbage collector deletes its pods first (foreground deletion), then the DaemonSet'
    : finalizers.includes('orphan')
      ? 'the garbage collector removes the owner reference from its pods (orphan deletion), which keep running, then deletes the DaemonSet'
      : finalizers.length
        ? `it goes when its finalizers (${finalizers.join(', ')}) are removed by whatever set them`
        : 'it goes as soon as the API server processes the deletion';
  return {
    code: 'DaemonSetDeleting',
    severity: 'error',
    message: `the DaemonSet is being deleted (since ${meta.deletionTimestamp}): the controller does nothing for it, so no pod is created, replaced or counted and no rollout happens; ${gc}`,
    evidence: [
      `metadata.deletionTimestamp: ${meta.deletionTimestamp}`,
      ...(finalizers.length ? [`finalizers: ${finalizers.join(', ')}`] : []),
      `${pods} pod(s) of it in the input; .status is as the controller last wrote it (desiredNumberScheduled ${f.ds.status?.desiredNumberScheduled ?? 0}, currentNumberScheduled ${f.ds.status?.currentNumberScheduled ?? 0})`,
    ],
    fix: `wait for the deletion to finish (kubectl get daemonset ${f.name} -n ${f.ns} until it is NotFound), then apply the DaemonSet again to run it`,
  };
}

/** The reasons of a RollingUpdate DaemonSet whose spec the controller has observed, in report order. */
const ROLLING_UPDATE_REASONS: readonly ReasonOf[] = [
  newPodsUnavailable,
  oldPodsUnavailable,
  nodesWithoutPod,
  nodesNotReady,
  oldPodsTerminating,
  surgeHostPortConflict,
  failedCreate,
  budgetExhausted,
];

/** Every reason that applies, in report order. */
export function rolloutReasons(f: RolloutFacts): RolloutReason[] {
  if (f.deleting) return [daemonSetDeleting(f)].filter((r): r is RolloutReason => r !== undefined);
  const rolling = f.verdict !== 'Pending' && f.strategy === 'RollingUpdate' ? ROLLING_UPDATE_REASONS : [];
  const onDelete =
    f.strategy !== 'OnDelete' ? [] : f.verdict === 'Pending' ? [onDeleteStrategy] : [onDeleteStrategy, nodesNotReady];
  const all: readonly ReasonOf[] = [controllerNotObserved, invalidBudget, ...rolling, ...onDelete, staleStatus];
  return all.map((reason) => reason(f)).filter((r): r is RolloutReason => r !== undefined);
}
