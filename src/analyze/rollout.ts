/**
 * `rollout`: is the rolling update complete, progressing or stuck, and why. Re-runs the
 * controller's budget loop (`rollingUpdate` in pkg/controller/daemon/update.go, docs/semantics.md
 * §3.3 non-surge and §3.4 surge, with the 1.31 rule that unavailable old pods count against
 * maxUnavailable), classifies every node that uses the budget with the placement engine's
 * reasons, and decides whether anything can move without someone acting.
 */
import type { ControllerRevision, DaemonSet, KubeEvent, Pod } from '../model/k8s-types.js';
import {
  API_VERSION, type Reason, type RevisionInfo, type StatusCounts, type RolloutBlocker, type RolloutDiagnosis, type RolloutReason,
} from '../model/results.js';
import type { SnapshotIndex } from '../model/snapshot-index.js';
import { ageOf, formatDuration, parseRfc3339 } from '../model/duration.js';
import { recomputeStatus } from '../k8s/status.js';
import { findUpdatedPodsOnNode, rollingBudget, allowsSurge } from '../k8s/rollingupdate.js';
import { compareDaemonPodAge, isPodAvailable, podCondition } from '../k8s/podutil.js';
import { isPodUpdated, revisionHash, revisionTemplate } from '../k8s/revision.js';
import { nodeReadyStatus } from '../k8s/podhealth.js';
import { daemonSetContext, diagnoseAllNodes, diagnosePod } from './placement.js';
import { classifyCreateError, createRetryNote, touchCommand } from './create-errors.js';
import { DEFAULT_STUCK_AFTER, isPastStuckAfter, isStuck } from './stuck.js';
import { rollbackAdvice } from '../k8s/rollback.js';
import { statusDisagreement } from './stale-status.js';
import { diffTemplates, templateImages } from './template-diff.js';


/** Why a node counts against the budget. */
type Slot = 'no-pod' | 'duplicates' | 'old-and-new' | 'new-unavailable' | 'old-unavailable' | 'surging' | 'old-terminating';

interface BudgetUse {
  node: string;
  slot: Slot;
  pod?: Pod;
  /** Will not resolve without someone acting. */
  hard: boolean;
  code: string;
  message: string;
}

const SLOT_TEXT: Record<Slot, string> = {
  'no-pod': 'no live pod',
  duplicates: 'more than one pod of a revision',
  'old-and-new': 'old and new pod side by side',
  'new-unavailable': 'new pod not available',
  'old-unavailable': 'old pod unavailable',
  surging: 'new pod surging next to the old one',
  'old-terminating': 'old pod still terminating next to the available new one',
};

/** Whether the state of a node that uses the budget will resolve on its own. */
function classify(node: string, slot: Slot, pod: Pod | undefined, ownReasons: Reason[], now: Date, stuckAfter: number, minReady: number, nodeReady: string): BudgetUse {
  const reasons = ownReasons.filter((r) => r.code !== 'OutdatedRevision' && (r.severity !== 'info' || r.code === 'NotAvailableYet'));
  // A node whose only pods are being deleted waits for the deletion, whatever state the pod was
  // in (a crashing pod terminates like any other): it is stuck when the kubelet cannot confirm
  // it (past its grace period on a node that does not report) or it has lasted past stuckAfter.
  const terminating = slot === 'no-pod' && pod?.metadata?.deletionTimestamp ? reasons.find((r) => r.code === 'PodTerminating') : undefined;
  if (terminating) {
    const grace = pod!.metadata!.deletionGracePeriodSeconds ?? pod!.spec?.terminationGracePeriodSeconds ?? 30;
    // deletionTimestamp is the time of the delete call plus the grace period.
    const terminatingFor = (now.getTime() - parseRfc3339(pod!.metadata!.deletionTimestamp!)) / 1000 + grace;
    const hard = terminatingFor > stuckAfter || (terminating.severity === 'error' && nodeReady !== 'True' && nodeReady !== '');
    return { node, slot, hard, pod: pod!, code: 'PodTerminating', message: terminating.message };
  }
  const main = reasons[0];
  // The same judgement as the placement verdicts' (stuck.ts), so that why, scan and rollout agree.
  let hard = isStuck(reasons, pod, now, stuckAfter, minReady);
  // A pod terminating on a node that does not report will never finish on its own.
  if (reasons.some((r) => r.code === 'PodTerminating' && r.severity === 'error') && nodeReady !== 'True') hard = true;
  if (!main && slot === 'no-pod' && isPastStuckAfter(pod, now, stuckAfter, minReady)) hard = true;
  // An unavailable old pod is always replaced by the controller, whatever its trouble: that is
  // progress, unless its deletion cannot complete because the node does not report.
  if (slot === 'old-unavailable') hard = nodeReady !== 'True' && nodeReady !== '';
  return {
    node, slot, hard,
    ...(pod ? { pod } : {}),
    code: main?.code ?? (slot === 'no-pod' ? 'NotYetCreated' : 'NotAvailableYet'),
    message: main?.message ?? SLOT_TEXT[slot],
  };
}

function kubectlStatus(ds: DaemonSet): string {
  const name = ds.metadata?.name ?? '';
  if ((ds.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') {
    return 'error: rollout status is only available for RollingUpdate strategy type';
  }
  const st = ds.status ?? {};
  if ((ds.metadata?.generation ?? 0) <= (st.observedGeneration ?? 0)) {
    const desired = st.desiredNumberScheduled ?? 0;
    if ((st.updatedNumberScheduled ?? 0) < desired) {
      return `Waiting for daemon set "${name}" rollout to finish: ${st.updatedNumberScheduled ?? 0} out of ${desired} new pods have been updated...`;
    }
    if ((st.numberAvailable ?? 0) < desired) {
      return `Waiting for daemon set "${name}" rollout to finish: ${st.numberAvailable ?? 0} of ${desired} updated pods are available...`;
    }
    return `daemon set "${name}" successfully rolled out`;
  }
  return 'Waiting for daemon set spec update to be observed...';
}

function revisionInfo(revs: ControllerRevision[], dsName: string, currentHash: string, now: Date): RevisionInfo[] {
  return [...revs]
    .sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))
    .map((r) => {
      const hash = revisionHash(r, dsName);
      const created = r.metadata?.creationTimestamp;
      const cause = r.metadata?.annotations?.['kubernetes.io/change-cause'];
      return {
        revision: r.revision ?? 0,
        name: r.metadata?.name ?? '',
        hash,
        ...(created ? { age: ageOf(created, now) } : {}),
        ...(cause ? { changeCause: cause } : {}),
        current: hash === currentHash,
        images: templateImages(revisionTemplate(r)),
      };
    });
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

function blockerFix(code: string, ns: string, name: string, pod: string | undefined, node: string, rollback: string, createFix: string): string {
  switch (code) {
    case 'ImagePullBackOff': return `fix the image in the template and re-apply${rollback}`;
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
      return `the old pod cannot finish terminating on node ${node}: recover the node or force-delete the pod: kubectl delete pod -n ${ns} ${pod} --grace-period=0 --force`;
    case 'NodeNotReady':
      return `fix node ${node} (kubectl describe node ${node}); until then it holds one unit of maxUnavailable`;
    case 'FailedCreate':
      return createFix;
    default:
      return `see: ds-doctor why ${ns}/${name} ${node}`;
  }
}

/**
 * Evidence lines for nodes that hold budget, one per distinct cause; a blocker's message is
 * already printed with the blockers, so it is referred to, not repeated.
 */
function groupedEvidence(uses: BudgetUse[]): string[] {
  const groups = new Map<string, string[]>();
  for (const u of uses) {
    const key = u.hard ? `${u.code} (see the blockers)` : `${u.code}: ${u.message}`;
    groups.set(key, [...(groups.get(key) ?? []), u.node]);
  }
  return [...groups.entries()].map(([key, nodes]) => `${nodes.length > 1 ? `nodes ${listNodes(nodes)}` : `node ${nodes[0]}`}: ${key}`);
}

function listNodes(nodes: string[]): string {
  return `${nodes.slice(0, 5).join(', ')}${nodes.length > 5 ? `, … (${nodes.length - 5} more)` : ''}`;
}

/** One next step per distinct fix, naming the nodes it applies to (the first five fixes). */
function blockerSteps(blockers: RolloutBlocker[], ns: string, name: string, rollback: string, createFix: string): string[] {
  const steps = new Map<string, { nodes: string[]; pods: string[] }>();
  for (const b of blockers) {
    // A pod name in the fix makes every step distinct; group the ones that do not name it.
    const fix = blockerFix(b.code, ns, name, b.pod, b.node, rollback, createFix);
    const generic = blockerFix(b.code, ns, name, b.pod, '<node>', rollback, createFix);
    const key = fix === generic ? fix : `${b.node}\u0000${fix}`;
    const s = steps.get(key) ?? { nodes: [], pods: [] };
    s.nodes.push(b.node);
    if (b.pod) s.pods.push(b.pod);
    steps.set(key, s);
  }
  return [...steps.entries()].slice(0, 5).map(([key, s]) => {
    const fix = key.includes('\u0000') ? key.split('\u0000')[1]! : key;
    const where = s.nodes.length > 1 ? `nodes ${listNodes(s.nodes)}` : `node ${s.nodes[0]}${s.pods[0] ? ` (pod ${s.pods[0]})` : ''}`;
    return `${where}: ${fix}`;
  });
}

/**
 * `.status` that disagrees with the pods although the controller has observed the spec: kubectl
 * rollout status reads `.status` and keeps waiting (kubernetes#53023: with minReadySeconds a pod
 * that became available raised no event, so numberAvailable stayed stale until PR #77208, 1.15).
 */
function staleStatusReason(ds: DaemonSet, status: StatusCounts, verdict: RolloutDiagnosis['verdict'], ns: string, name: string): RolloutReason | undefined {
  const diffs = statusDisagreement(ds, status);
  if (!diffs.length) return undefined;
  const minReady = ds.spec?.minReadySeconds ?? 0;
  return {
    code: 'StaleStatus', severity: 'warning',
    message: `.status disagrees with the pods (${diffs.join(', ')}): the controller has not caught up, so kubectl rollout status (which reads .status) ${verdict === 'Complete' ? 'still waits although the pods say the rollout is complete' : 'reports other numbers than the pods'}`,
    evidence: [
      ...diffs.map((d) => `status.${d}`),
      `status.observedGeneration ${ds.status?.observedGeneration ?? 0}, metadata.generation ${ds.metadata?.generation ?? 0}: the controller has seen this spec`,
      ...(minReady > 0 ? [`minReadySeconds ${minReady}: before Kubernetes 1.15 a pod becoming available after minReadySeconds raised no event, so the count stayed stale (kubernetes#53023)`] : []),
    ],
    fix: `make the controller recount (any update of the DaemonSet re-queues it): ${touchCommand(ns, name)}; if .status still lags, check kube-controller-manager (its daemonset-controller logs) and clock skew between nodes and the control plane`,
  };
}

function failedCreateEvidence(e: KubeEvent): string {
  return `event FailedCreate${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}: ${(e.message ?? '').trim()}`;
}

/** Diagnoses the rollout of one DaemonSet. `stuckAfter` is in seconds. */
export function diagnoseRollout(index: SnapshotIndex, ds: DaemonSet, now: Date, stuckAfter = DEFAULT_STUCK_AFTER): RolloutDiagnosis {
  const ctx = daemonSetContext(index, ds);
  const ns = ctx.namespace;
  const name = ctx.name;
  const rows = diagnoseAllNodes(index, ds, now, stuckAfter);
  const rollback = rollbackAdvice(ctx.rollback, ns, name);
  const rowByNode = new Map(rows.map((r) => [r.node, r]));
  const status = recomputeStatus(index, ds, ctx.revision.hash, ctx.revision.generation, now);
  const strategy = (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'OnDelete' ? 'OnDelete' : 'RollingUpdate';
  const budget = rollingBudget(ds, status.desired);
  const surge = allowsSurge(ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const reasons: RolloutReason[] = [];
  // Load warnings too (duplicates kept, kinds taken as collected with none), as why and scan give them.
  const notes = [...ctx.notes, ...index.snapshot.warnings];

  // The controller's loop runs over every node entry that has pods, plus desired nodes without.
  const shouldRunNodes = new Set(index.snapshot.nodes.filter((n) => ctx.placement.evaluate(n).shouldRun).map((n) => n.metadata?.name ?? ''));
  const nodeNames = new Set<string>([...ctx.byNode.keys(), ...shouldRunNodes]);
  const uses: BudgetUse[] = [];
  const candidates: string[] = [];
  let numSurge = 0;
  // Creations refused since the current revision (quota, admission). In surge mode every step
  // starts with a new pod next to the old one, so these stop it where nothing is deleted first.
  const revisionSince = parseRfc3339(ctx.revision.revision?.metadata?.creationTimestamp ?? '');
  const createFailures = ctx.failedCreates.filter((e) => Number.isNaN(revisionSince) || parseRfc3339(e.lastTimestamp ?? e.eventTime ?? '') >= revisionSince);
  const surgeBlocked = surge && createFailures.length > 0;
  // Nodes whose new pod is available while the old pod is still terminating: the controller has
  // nothing left to do there (findUpdatedPodsOnNode skips terminating pods), but the status
  // looks at the oldest pod and counts the node as updated only once the old one is gone. They
  // hold no budget.
  const leaving: BudgetUse[] = [];
  for (const nodeName of [...nodeNames].sort()) {
    const node = index.nodesByName.get(nodeName);
    const row = rowByNode.get(nodeName);
    const pods = ctx.byNode.get(nodeName) ?? [];
    const ready = nodeReadyStatus(node);
    const shouldRun = shouldRunNodes.has(nodeName);
    const { ok, newPod, oldPod } = findUpdatedPodsOnNode(pods, ctx.revision.hash, ctx.revision.generation);
    // The reasons of the pod that holds the budget (not necessarily the node's deciding pod).
    const use = (slot: Slot, pod?: Pod) => {
      const own = pod && node ? diagnosePod(index, ctx, node, pod, now).reasons : row?.reasons ?? [];
      uses.push(classify(nodeName, slot, pod, own, now, stuckAfter, minReady, ready));
    };
    if (newPod && !oldPod && shouldRun && node && isPodAvailable(newPod, minReady, now)) {
      const gone = pods.find((p) => p.metadata?.deletionTimestamp && !isPodUpdated(p, ctx.revision.hash, ctx.revision.generation) && compareDaemonPodAge(p, newPod) < 0);
      if (gone) {
        const terminating = diagnosePod(index, ctx, node, gone, now).reasons.find((r) => r.code === 'PodTerminating');
        leaving.push({
          node: nodeName, slot: 'old-terminating', pod: gone, code: 'PodTerminating',
          // It goes when the kubelet confirms; past its grace period on a node that does not report, it will not.
          hard: terminating?.severity === 'error' && ready !== 'True',
          message: terminating?.message ?? SLOT_TEXT['old-terminating'],
        });
      }
    }
    if (!surge) {
      if (!ok) use('duplicates');
      else if (!newPod && !oldPod) { if (shouldRun || pods.length) use('no-pod', pods[0]); }
      else if (newPod && oldPod) use('old-and-new', newPod);
      else if (newPod) { if (!isPodAvailable(newPod, minReady, now)) use('new-unavailable', newPod); }
      else if (!isPodAvailable(oldPod!, minReady, now)) use('old-unavailable', oldPod);
      else candidates.push(nodeName);
    } else {
      if (!ok) { numSurge++; use('duplicates'); continue; }
      if (!oldPod) {
        if (!newPod && shouldRun) use('no-pod', pods[0]);
        else if (newPod && !isPodAvailable(newPod, minReady, now)) use('new-unavailable', newPod);
        continue;
      }
      if (!newPod) {
        if (!isPodAvailable(oldPod, minReady, now)) use('old-unavailable', oldPod);
        else if (shouldRun) candidates.push(nodeName);
        continue;
      }
      if (!isPodAvailable(newPod, minReady, now)) {
        numSurge++;
        use('surging', newPod);
      }
    }
  }
  // manage() runs before rollingUpdate() and returns the create error (updateDaemonSet in
  // pkg/controller/daemon/daemon_controller.go): while the API refuses the pod of a node that has
  // none, every sync stops there and no old pod is replaced anywhere, unavailable ones included.
  const refusedNodes = uses.filter((u) => u.slot === 'no-pod' && u.code === 'FailedCreate' && u.hard);
  const manageBlocked = strategy === 'RollingUpdate' && refusedNodes.length > 0;
  // Refused creates keep unavailable old pods in place: surging, their replacement is a new pod
  // created next to them; a blocked manage() replaces none at all.
  for (const u of uses) {
    if (u.slot === 'old-unavailable' && (manageBlocked || (surgeBlocked && shouldRunNodes.has(u.node)))) u.hard = true;
  }
  const unavailableUses = uses.filter((u) => u.slot !== 'surging');
  const used = surge ? numSurge : unavailableUses.length;
  const limit = surge ? budget.maxSurge : budget.maxUnavailable;
  const hardUses = uses.filter((u) => u.hard);
  const transient = uses.filter((u) => !u.hard);

  const blockers: RolloutBlocker[] = [...hardUses, ...leaving.filter((l) => l.hard)].map((u) => ({
    node: u.node, pod: u.pod?.metadata?.name ?? '', code: u.code, message: `${SLOT_TEXT[u.slot]}: ${u.message}`,
  }));

  let verdict: RolloutDiagnosis['verdict'];
  const generation = ds.metadata?.generation ?? 0;
  const observed = ds.status?.observedGeneration ?? 0;
  const outdated = status.desired - status.updated;
  // Nodes whose pod is of an old revision; a node without a pod is not waiting for anyone to delete one.
  const oldPods = status.current - status.updated;
  if (observed < generation) {
    verdict = 'Pending';
    reasons.push({
      code: 'ControllerNotObserved', severity: 'warning',
      message: `the controller has not observed the latest spec yet (observedGeneration ${observed} < generation ${generation}): .status describes the previous spec`,
      evidence: [`metadata.generation ${generation}`, `status.observedGeneration ${observed}`],
      fix: 'wait a few seconds; if it lasts, check that kube-controller-manager is running (its daemonset-controller)',
    });
  } else if (budget.error) {
    verdict = 'Stuck';
    reasons.push({ code: 'InvalidBudget', severity: 'error', message: budget.error, evidence: [`spec.updateStrategy.rollingUpdate: ${JSON.stringify(ds.spec?.updateStrategy?.rollingUpdate)}`], fix: 'set maxUnavailable (and maxSurge) to an integer or a percentage such as "10%"' });
  } else if (strategy === 'OnDelete') {
    // OnDelete leaves old pods to the user; pods missing or unavailable are the controller's and
    // the kubelet's to sort out, or are blocked like under RollingUpdate.
    verdict = oldPods > 0 ? 'Manual' : status.available >= status.desired ? 'Complete' : transient.length > 0 ? 'Progressing' : 'Stuck';
  } else if (status.updated >= status.desired && status.available >= status.desired) {
    verdict = 'Complete';
  } else {
    // Progress is possible when a transient state will resolve, or budget is left for a candidate.
    const canDeleteMore = candidates.length > 0 && used < limit && !surgeBlocked && !manageBlocked;
    verdict = transient.length > 0 || canDeleteMore || leaving.some((l) => !l.hard) ? 'Progressing' : 'Stuck';
  }

  if (verdict !== 'Pending' && strategy === 'RollingUpdate') {
    const newUnavailable = unavailableUses.filter((u) => u.slot === 'new-unavailable' || u.slot === 'old-and-new');
    if (newUnavailable.length) {
      reasons.push({
        code: 'NewPodsUnavailable', severity: newUnavailable.some((u) => u.hard) ? 'error' : 'warning',
        message: `${newUnavailable.length} new pod(s) are not available`,
        evidence: newUnavailable.map((u) => `node ${u.node}: ${u.code}: ${u.message}`),
        fix: newUnavailable.some((u) => u.hard) ? `fix the new template${rollback}` : 'wait: they are starting',
      });
    }
    const oldUnavailable = unavailableUses.filter((u) => u.slot === 'old-unavailable');
    if (oldUnavailable.length) {
      reasons.push({
        code: 'OldPodsUnavailable', severity: 'warning',
        message: manageBlocked
          ? `${oldUnavailable.length} old pod(s) are unavailable: the controller would replace them regardless of the budget, but not while it cannot create the missing pods`
          : `${oldUnavailable.length} old pod(s) are unavailable: the controller replaces them regardless of the budget, and since 1.31 each counts against maxUnavailable`,
        evidence: oldUnavailable.map((u) => `node ${u.node}: ${u.code}: ${u.message}`),
        fix: 'fix those nodes or pods; they hold budget until replaced and available',
      });
    }
    const missing = unavailableUses.filter((u) => u.slot === 'no-pod');
    if (missing.length) {
      reasons.push({
        code: missing.some((u) => u.code === 'PodTerminating') ? 'PodStuckTerminating' : 'NodesWithoutPod', severity: missing.some((u) => u.hard) ? 'error' : 'warning',
        message: `${missing.length} node(s) that should run a pod have none (or only a terminating one)`,
        evidence: groupedEvidence(missing),
        fix: missing.some((u) => u.hard) ? 'clear the blockers listed above' : 'wait for the controller to create them',
      });
    }
    const notReady = rows.filter((r) => nodeReadyStatus(index.nodesByName.get(r.node)) !== 'True' && (ctx.byNode.get(r.node)?.length ?? 0) > 0);
    if (notReady.length) {
      reasons.push({
        code: 'NodesNotReady', severity: 'warning',
        message: `${notReady.length} node(s) with pods of this DaemonSet are NotReady or unreachable: their pods are unavailable and hold budget until the nodes recover`,
        evidence: notReady.map((r) => `node ${r.node}: Ready=${nodeReadyStatus(index.nodesByName.get(r.node)) || 'unknown'}`),
        fix: 'recover or remove those nodes; force-delete pods stuck terminating on nodes that are gone',
      });
    }
    if (leaving.length && verdict !== 'Complete') {
      reasons.push({
        code: 'OldPodsTerminating', severity: leaving.some((l) => l.hard) ? 'error' : 'info',
        message: `${leaving.length} node(s) run an available new pod while the old one is still terminating: they count as updated once it is gone`,
        evidence: leaving.map((l) => `node ${l.node}: pod ${l.pod?.metadata?.name}: ${l.message}`),
        fix: leaving.some((l) => l.hard) ? 'recover those nodes, or force-delete the old pods if the nodes are gone for good' : 'wait: the kubelet confirms the deletions',
      });
    }
    if (surge && hardUses.some((u) => u.code === 'HostPortConflict')) {
      reasons.push({
        code: 'SurgeHostPortConflict', severity: 'error',
        message: 'maxSurge needs the new pod to run next to the old one, but both need the same host port: the surge pod can never be scheduled',
        evidence: hardUses.filter((u) => u.code === 'HostPortConflict').map((u) => `node ${u.node}: ${u.message}`),
        fix: 'set spec.updateStrategy.rollingUpdate to {maxSurge: 0, maxUnavailable: 1} (or a percentage)',
      });
    }
    if ((manageBlocked || surgeBlocked) && verdict !== 'Complete' && (candidates.length > 0 || uses.some((u) => u.slot === 'old-unavailable'))) {
      const events = createFailures.length ? createFailures : ctx.failedCreates;
      const c = classifyCreateError(events[0]?.message ?? '', ns);
      reasons.push({
        code: 'FailedCreate', severity: 'error',
        message: manageBlocked
          ? `the API refuses to create the pod of ${refusedNodes.length} node(s) that have none (${c.summary}): while a create fails, the controller's sync ends before the rolling update, so no old pod is replaced on any node`
          : `each new pod is created next to the old one before that goes, and the API refuses to create it: ${c.summary}`,
        evidence: manageBlocked
          ? [
            `node(s) without a pod: ${refusedNodes.slice(0, 5).map((u) => u.node).join(', ')}${refusedNodes.length > 5 ? `, … (${refusedNodes.length - 5} more)` : ''}`,
            ...events.slice(0, 2).map(failedCreateEvidence),
          ]
          : events.slice(0, 3).map(failedCreateEvidence),
        fix: `${!manageBlocked && c.kind === 'ResourceQuota' ? `${c.fix}; a surge needs room for one more pod per surging node` : c.fix}; ${createRetryNote(ns, name)}`,
      });
    }
    // The budget holds back only nodes that wait for it: with maxSurge 0 every unavailable old pod is
    // replaced regardless (TestDaemonSetUpdatesAllOldPodsNotReady), so with no candidate left there
    // is nothing it stops.
    if (verdict !== 'Complete' && used >= limit && limit > 0 && !manageBlocked && candidates.length > 0) {
      reasons.push({
        code: 'BudgetExhausted', severity: verdict === 'Stuck' ? 'error' : 'info',
        message: surge
          ? `${used} of maxSurge ${limit} surge pods are waiting to become available: no more nodes start until one does`
          : `${used} node(s) are unavailable, maxUnavailable is ${limit}: no more old pods are replaced until one becomes available`,
        evidence: uses.map((u) => `node ${u.node}: ${SLOT_TEXT[u.slot]} (${u.code})`),
        fix: verdict !== 'Stuck'
          ? 'wait'
          : surge
            ? 'clear the blockers; a larger maxSurge would only start more pods that fail the same way'
            : 'clear the blockers; raising maxUnavailable would only let more nodes fail the same way',
      });
    }
  }
  if (strategy === 'OnDelete' && oldPods > 0) {
    const outdatedNodes = rows.filter((r) => r.pod && !r.pod.updated && r.verdict !== 'Excluded');
    reasons.push({
      code: 'OnDeleteStrategy', severity: 'info',
      message: `updateStrategy is OnDelete: ${oldPods} node(s) keep the old revision until their pod is deleted`,
      evidence: outdatedNodes.slice(0, 20).map((r) => `node ${r.node}: pod ${r.pod!.name} (revision ${r.pod!.revision})`),
      fix: `roll one canary node first, check it, then the rest one at a time: kubectl delete pod -n ${ns} <pod>`,
    });
  }

  // Next steps, most useful first.
  const nextSteps: string[] = [];
  const refusal = classifyCreateError(ctx.failedCreates[0]?.message ?? '', ns);
  const createFix = ctx.failedCreates.length ? `${refusal.fix}; ${createRetryNote(ns, name)}` : `fix what refuses the pod (see: ds-doctor why ${ns}/${name})`;
  nextSteps.push(...blockerSteps(blockers, ns, name, rollback, createFix));
  if (strategy === 'OnDelete' && oldPods > 0) {
    const outdatedPods = rows.filter((r) => r.pod && !r.pod.updated && r.verdict !== 'Excluded');
    const first = outdatedPods[0];
    if (first) {
      nextSteps.push(`canary: kubectl delete pod -n ${ns} ${first.pod!.name}   # node ${first.node}; wait until ds-doctor why ${ns}/${name} ${first.node} says Healthy`);
      if (outdatedPods.length > 1) {
        nextSteps.push(`then one node at a time: ${outdatedPods.slice(1, 6).map((r) => r.pod!.name).join(', ')}${outdatedPods.length > 6 ? `, … (${outdatedPods.length - 6} more)` : ''}`);
      }
    }
  }
  if (verdict === 'Progressing' && !budget.forcedOne && status.desired >= 20 && budget.maxUnavailable === 1 && !surge) {
    nextSteps.push(`maxUnavailable 1 on ${status.desired} nodes rolls one node at a time; consider a percentage such as "10%"`);
  }
  const refused = reasons.find((r) => r.code === 'FailedCreate');
  if (refused && !nextSteps.some((s) => s.endsWith(refused.fix))) nextSteps.push(refused.fix);
  if (verdict === 'Stuck' && !blockers.length && !refused) nextSteps.push(`no single node explains it: run ds-doctor why ${ns}/${name}`);

  // Time left, from the pace observed for the pods already updated.
  let estimate: string | undefined;
  if (verdict === 'Progressing' && strategy === 'RollingUpdate') {
    const updatedPods = [...ctx.byNode.values()].flat().filter((p) => !p.metadata?.deletionTimestamp && findUpdatedPodsOnNode([p], ctx.revision.hash, ctx.revision.generation).newPod);
    const pace = observedPace(updatedPods, minReady, now);
    const perBatch = Math.max(1, surge ? budget.maxSurge : budget.maxUnavailable);
    const batches = Math.ceil(Math.max(0, outdated) / perBatch);
    if (pace !== undefined && batches > 0) {
      estimate = `about ${formatDuration(batches * pace * 1000)} left: ${outdated} node(s) to go, ${perBatch} at a time, ~${formatDuration(pace * 1000)} per node observed`;
    } else if (batches > 0) {
      estimate = `${outdated} node(s) to go, ${perBatch} at a time (no finished node yet to measure the pace)`;
    }
  }

  const revisions = revisionInfo(index.revisionsFor(ds), name, ctx.revision.hash, now);
  const currentRev = revisions.find((r) => r.current);
  const previous = revisions.find((r) => !r.current && (!currentRev || r.revision < currentRev.revision));
  const revObjects = index.revisionsFor(ds);
  const prevObj = previous ? revObjects.find((r) => r.metadata?.name === previous.name) : undefined;
  const templateDiff = prevObj ? diffTemplates(revisionTemplate(prevObj), ds.spec?.template) : [];
  if (!revObjects.length) notes.push('no ControllerRevisions in the input: the revision history and the template diff cannot be shown');
  const stale = staleStatusReason(ds, status, verdict, ns, name);
  if (stale) reasons.push(stale);

  return {
    apiVersion: API_VERSION,
    kind: 'RolloutDiagnosis',
    daemonSet: { namespace: ns, name },
    strategy,
    verdict,
    desired: status.desired,
    updated: status.updated,
    available: status.available,
    unavailable: status.unavailable,
    maxUnavailable: budget.maxUnavailable,
    maxSurge: budget.maxSurge,
    blockers,
    reasons,
    kubectlStatus: kubectlStatus(ds),
    revisions,
    templateDiff,
    nextSteps,
    ...(estimate ? { estimate } : {}),
    budgetUsed: used,
    budgetInUse: uses.map((u) => ({ node: u.node, pod: u.pod?.metadata?.name ?? '', state: SLOT_TEXT[u.slot], code: u.code, resolvesOnItsOwn: !u.hard })),
    ...(notes.length ? { notes } : {}),
  };
}
