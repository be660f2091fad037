/** What to do next about a rollout, most useful first, and how long it has left. */
import type { Pod } from '../../model/k8s-types.js';
import type { RolloutBlocker, RolloutReason } from '../../model/results.js';
import { formatDuration, parseRfc3339 } from '../../model/duration.js';
import { findUpdatedPodsOnNode } from '../../k8s/rollingupdate.js';
import { nodeReadyStatus } from '../../k8s/podhealth.js';
import { isPodAvailable, podCondition } from '../../k8s/podutil.js';
import { classifyCreateError, createRetryNote } from '../create-errors.js';
import { listNodes } from './budget.js';
import type { RolloutFacts } from './facts.js';

/**
 * The fix of a blocker. `recreated`: the node does not report and the DaemonSet tolerates its
 * taints, so once its pod is gone the controller creates another there, which cannot start either.
 */
function blockerFix(
  code: string,
  ns: string,
  name: string,
  pod: string | undefined,
  node: string,
  rollback: string,
  createFix: string,
  recreated = false,
): string {
  switch (code) {
    case 'ImagePullBackOff':
      return `fix the image in the template and re-apply${rollback}`;
    case 'CrashLoopBackOff':
    case 'OOMKilled':
    case 'CreateContainerConfigError':
    case 'ReadinessProbeFailing':
      return `read the new pod's logs (kubectl logs -n ${ns} ${pod} --previous), fix and re-apply${rollback}`;
    case 'InsufficientResource':
    case 'TooManyPods':
      return `the new template does not fit on node ${node}: lower its requests, free room on the node${rollback}`;
    case 'HostPortConflict':
      return `surge cannot work with host ports: set spec.updateStrategy.rollingUpdate to {maxSurge: 0, maxUnavailable: 1}`;
    case 'PodTerminating':
      return recreated
        ? `the old pod cannot finish terminating on node ${node}, which does not report: recover the node, or if it is gone for good delete its Node object: kubectl delete node ${node} (its pods are garbage-collected; force-deleting the pod only moves the problem: no taint keeps the DaemonSet off the node, so the controller creates a new pod there, which cannot start either)`
        : `the old pod cannot finish terminating on node ${node}: recover the node or force-delete the pod: kubectl delete pod -n ${ns} ${pod} --grace-period=0 --force`;
    case 'NodeNotReady':
      return `fix node ${node} (kubectl describe node ${node}); until then it holds one unit of maxUnavailable`;
    case 'FailedCreate':
      return createFix;
    default:
      return `see: ds-doctor why ${ns}/${name} ${node}`;
  }
}

/** One next step per distinct fix, naming the nodes it applies to (the first five fixes). */
function blockerSteps(
  blockers: RolloutBlocker[],
  ns: string,
  name: string,
  rollback: string,
  createFix: string,
  recreated: (node: string) => boolean,
): string[] {
  const steps = new Map<string, { nodes: string[]; pods: string[] }>();
  for (const b of blockers) {
    // A pod name in the fix makes every step distinct; group the ones that do not name it.
    const fix = blockerFix(b.code, ns, name, b.pod, b.node, rollback, createFix, recreated(b.node));
    const generic = blockerFix(b.code, ns, name, b.pod, '<node>', rollback, createFix, recreated(b.node));
    const key = fix === generic ? fix : `${b.node}\u0000${fix}`;
    const s = steps.get(key) ?? { nodes: [], pods: [] };
    s.nodes.push(b.node);
    if (b.pod) s.pods.push(b.pod);
    steps.set(key, s);
  }
  return [...steps.entries()].slice(0, 5).map(([key, s]) => {
    const fix = key.includes('\u0000') ? key.split('\u0000')[1]! : key;
    const where =
      s.nodes.length > 1
        ? `nodes ${listNodes(s.nodes)}`
        : `node ${s.nodes[0]}${s.pods[0] ? ` (pod ${s.pods[0]})` : ''}`;
    return `${where}: ${fix}`;
  });
}

/** Under OnDelete: delete one canary pod, then the others one node at a time. */
function onDeleteSteps(f: RolloutFacts): string[] {
  if (f.strategy !== 'OnDelete' || f.oldPods <= 0) return [];
  const outdatedPods = f.rows.filter((r) => r.pod && !r.pod.updated && r.verdict !== 'Excluded');
  const first = outdatedPods[0];
  if (!first) return [];
  const steps = [
    `canary: kubectl delete pod -n ${f.ns} ${first.pod!.name}   # node ${first.node}; wait until ds-doctor why ${f.ns}/${f.name} ${first.node} says Healthy`,
  ];
  if (outdatedPods.length > 1) {
    steps.push(
      `then one node at a time: ${outdatedPods
        .slice(1, 6)
        .map((r) => r.pod!.name)
        .join(', ')}${outdatedPods.length > 6 ? `, … (${outdatedPods.length - 6} more)` : ''}`,
    );
  }
  return steps;
}

/** Next steps, most useful first. */
export function nextSteps(f: RolloutFacts, reasons: RolloutReason[]): string[] {
  const { ns, name, verdict } = f;
  const steps: string[] = [];
  const refusal = classifyCreateError(f.ctx.failedCreates[0]?.message ?? '', ns, f.ctx.namespaceLabels);
  const createFix = f.ctx.failedCreates.length
    ? `${refusal.fix}; ${createRetryNote(ns, name)}`
    : `fix what refuses the pod (see: ds-doctor why ${ns}/${name})`;
  const recreated = (n: string) => {
    const node = f.index.nodesByName.get(n);
    return node !== undefined && nodeReadyStatus(node) !== 'True' && f.ctx.placement.evaluate(node).shouldRun;
  };
  steps.push(...blockerSteps(f.blockers, ns, name, f.rollback, createFix, recreated));
  steps.push(...onDeleteSteps(f));
  if (
    verdict === 'Progressing' &&
    !f.budget.forcedOne &&
    f.status.desired >= 20 &&
    f.budget.maxUnavailable === 1 &&
    !f.surge
  ) {
    steps.push(
      `maxUnavailable 1 on ${f.status.desired} nodes rolls one node at a time; consider a percentage such as "10%"`,
    );
  }
  const refused = reasons.find((r) => r.code === 'FailedCreate');
  if (refused && !steps.some((s) => s.endsWith(refused.fix))) steps.push(refused.fix);
  if (verdict === 'Stuck' && !f.blockers.length && !refused)
    steps.push(`no single node explains it: run ds-doctor why ${ns}/${name}`);
  return steps;
}

/** Average seconds a new pod took from creation to available, over the updated available pods. */
function observedPace(pods: Pod[], minReady: number, now: Date): number | undefined {
  const times = pods
    .filter((p) => isPodAvailable(p, minReady, now))
    .map((p) => {
      const ready = parseRfc3339(podCondition(p, 'Ready')?.lastTransitionTime ?? '');
      const created = parseRfc3339(p.metadata?.creationTimestamp ?? '');
      return ready - created + minReady * 1000;
    })
    .filter((ms) => Number.isFinite(ms) && ms >= 0);
  if (!times.length) return undefined;
  return times.reduce((a, b) => a + b, 0) / times.length / 1000;
}

/** Time left, from the pace observed for the pods already updated. */
export function remainingEstimate(f: RolloutFacts): string | undefined {
  if (f.verdict !== 'Progressing' || f.strategy !== 'RollingUpdate') return undefined;
  const { hash, generation } = f.ctx.revision;
  const updatedPods = [...f.ctx.byNode.values()]
    .flat()
    .filter((p) => !p.metadata?.deletionTimestamp && findUpdatedPodsOnNode([p], hash, generation).newPod);
  const pace = observedPace(updatedPods, f.minReady, f.now);
  const perBatch = Math.max(1, f.surge ? f.budget.maxSurge : f.budget.maxUnavailable);
  const batches = Math.ceil(Math.max(0, f.outdated) / perBatch);
  if (pace !== undefined && batches > 0) {
    return `about ${formatDuration(batches * pace * 1000)} left: ${f.outdated} node(s) to go, ${perBatch} at a time, ~${formatDuration(pace * 1000)} per node observed`;
  }
  if (batches > 0)
    return `${f.outdated} node(s) to go, ${perBatch} at a time (no finished node yet to measure the pace)`;
  return undefined;
}
