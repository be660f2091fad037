/**
 * Causes read off the rolling update: a new revision that fails on every node it reached (the
 * template change is the cause; `kubectl rollout undo --to-revision` restores the one that worked,
 * kubernetes v1.35.4 staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go), and an update
 * budget held by pods on nodes that are NotReady or unreachable (pkg/controller/daemon/update.go
 * #rollingUpdate counts them unavailable; a node with no daemon pod is not in its loop at all).
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import { compileDaemonPlacement } from '../../k8s/daemonpod.js';
import { nodeReadyStatus } from '../../k8s/podhealth.js';
import { formatTaint } from '../../k8s/taints.js';
import type { NodeVerdict } from '../placement/index.js';
import {
  type CauseContext,
  type CauseDraft,
  dsObject,
  dsRef,
  failsByItself,
  nameList,
  nodeNetworkText,
  podFailure,
} from './context.js';

export function revisionCauses(c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]): CauseDraft[] {
  const newRows = rows.filter((r) => r.pod?.updated);
  const judged = newRows.filter((r) => r.verdict === 'Healthy' || failsByItself(c, r));
  const failing = judged.filter((r) => r.verdict !== 'Healthy');
  if (!failing.length || failing.length !== judged.length) return [];
  const rollout = c.rollout(ds);
  const current = rollout.revisions.find((r) => r.current);
  const oldHealthy = rows.filter((r) => r.pod && !r.pod.updated && r.verdict === 'Healthy');
  // The revision the healthy old pods run, else the newest older one.
  const older = rollout.revisions.filter((r) => !r.current);
  const target = older.find((r) => oldHealthy.some((o) => o.pod!.revision === r.hash)) ?? older[0];
  if (!target && !oldHealthy.length) return [];
  const ns = ds.metadata?.namespace ?? '';
  const name = ds.metadata?.name ?? '';
  const main = podFailure(failing[0]!)!;
  // The change that matters most: an image, else the first line of the diff.
  const change = rollout.templateDiff.find((d) => /\.image: /.test(d)) ?? rollout.templateDiff[0];
  const revText = current
    ? `revision ${current.revision}${current.images.length ? ` (${current.images.join(', ')})` : ''}`
    : 'the current revision';
  const targetText = target
    ? `revision ${target.revision}${target.images.length ? ` (${target.images.join(', ')})` : ''}`
    : 'the previous revision';
  return [
    {
      code: 'RevisionFailing',
      severity: 'error',
      chain: [
        `${revText} fails on every node it reached (${main.short})`,
        `${targetText} was healthy${oldHealthy.length ? ` and still runs on ${oldHealthy.length} node(s)` : ''}`,
      ],
      nodes: failing.map((r) => r.node),
      cause: dsObject(ds),
      affects: [dsRef(ds)],
      evidence: [
        ...rollout.templateDiff.slice(0, 4).map((d) => `changed: ${d}`),
        ...failing.slice(0, 3).map((r) => `node ${r.node}: ${podFailure(r)?.message ?? r.verdict}`),
      ],
      fix: target
        ? `roll back: kubectl rollout undo daemonset/${name} -n ${ns} --to-revision=${target.revision}; then fix the change (${change ?? 'see the template diff'}) before re-applying`
        : `roll back to the previous template (kubectl rollout undo daemonset/${name} -n ${ns}), then fix the change before re-applying`,
    },
  ];
}

export function budgetCauses(c: CauseContext, ds: DaemonSet): CauseDraft[] {
  const rollout = c.rollout(ds);
  if (rollout.verdict !== 'Stuck' || rollout.strategy !== 'RollingUpdate' || rollout.maxSurge > 0) return [];
  // With every pod updated nothing waits for the budget, but kubectl rollout status still waits
  // for the pods on dead nodes to become available.
  const done = rollout.updated >= rollout.desired;
  // Units held on NotReady or unreachable nodes that will not free themselves (a node that just
  // joined and waits for its first pod holds no pod to speak of).
  const dead = rollout.budgetInUse.filter((u) => {
    const node = c.index.nodesByName.get(u.node);
    // A node NotReady for want of its network has its own chain (network.ts), which says more.
    return node && u.pod !== '' && nodeReadyStatus(node) !== 'True' && !nodeNetworkText(node) && !u.resolvesOnItsOwn;
  });
  // The dead nodes alone hold the whole budget, and nothing else in use is a failure of its own
  // (a crashing new pod is the revision's cause, and more budget would only spread it).
  const others = rollout.budgetInUse.filter((u) => !dead.includes(u));
  if (!dead.length || (!done && dead.length < rollout.maxUnavailable) || others.some((u) => !u.resolvesOnItsOwn))
    return [];
  const ns = ds.metadata?.namespace ?? '';
  const name = ds.metadata?.name ?? '';
  const deadNodes = [...new Set(dead.map((u) => u.node))];
  const raiseTo = deadNodes.length + Math.max(rollout.maxUnavailable, 1);
  // Whether the controller would create a pod again on a dead node once its pod is gone.
  const recreated = deadNodes.filter((n) => {
    const node = c.index.nodesByName.get(n);
    return node && compileDaemonPlacement(ds).evaluate(node).shouldRun;
  });
  const taints = [
    ...new Set(deadNodes.flatMap((n) => (c.index.nodesByName.get(n)?.spec?.taints ?? []).map(formatTaint))),
  ];
  const states = deadNodes.map((n) => `${n} Ready=${nodeReadyStatus(c.index.nodesByName.get(n)) || 'Unknown'}`);
  const deleteNodes = `if the machines are gone for good: kubectl delete node ${deadNodes.join(' ')} (their pods are garbage-collected and the ${dead.length} unit(s) are freed)`;
  if (done) {
    return [
      {
        code: 'BudgetHeldByDeadNodes',
        severity: 'warning',
        chain: [
          `every pod is updated; ${dead.length} on NotReady/unreachable node(s) cannot become available`,
          'kubectl rollout status waits until the nodes return or their Node objects are deleted',
        ],
        nodes: deadNodes,
        cause: dsObject(ds),
        affects: [dsRef(ds)],
        evidence: [
          `${rollout.updated} of ${rollout.desired} updated, ${rollout.available} available; unavailable on ${nameList(states, 5)}`,
        ],
        fix: `the template is not the cause: recover ${nameList(deadNodes)}; ${deleteNodes}`,
        reference:
          'kubernetes v1.35.4 staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go#DaemonSetStatusViewer.Status',
      },
    ];
  }
  return [
    {
      code: 'BudgetHeldByDeadNodes',
      severity: 'error',
      chain: [
        `rollout stuck: maxUnavailable ${rollout.maxUnavailable} is held by pods on ${deadNodes.length} NotReady/unreachable node(s)`,
        'those pods count as unavailable until the nodes return or their Node objects are deleted',
      ],
      nodes: deadNodes,
      cause: dsObject(ds),
      affects: [dsRef(ds)],
      evidence: [
        `budget in use ${rollout.budgetUsed} of maxUnavailable ${rollout.maxUnavailable}; ${dead.length} unit(s) on ${nameList(states, 5)}`,
        ...(taints.length ? [`their taints: ${taints.join(', ')}`] : []),
        recreated.length
          ? `deleting their pods does not help: ${taints.length ? "the DaemonSet tolerates these nodes' taints" : 'no taint keeps the DaemonSet off these nodes'}, so the controller creates the pods again on ${nameList(recreated)}`
          : 'once their pods are gone, these nodes no longer count: the controller creates no pod on a node whose NoSchedule taint it does not tolerate',
      ],
      fix: [
        deleteNodes,
        `otherwise raise the budget past them: kubectl patch daemonset ${name} -n ${ns} --type merge -p '{"spec":{"updateStrategy":{"rollingUpdate":{"maxUnavailable":${raiseTo}}}}}' (the rollout goes on ${Math.max(rollout.maxUnavailable, 1)} node(s) at a time; set it back afterwards)`,
      ].join('; '),
      reference:
        'kubernetes v1.35.4 pkg/controller/podgc/gc_controller.go#gcOrphaned (pods of deleted nodes are deleted)',
    },
  ];
}
