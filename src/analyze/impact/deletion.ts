/**
 * What the delete itself does (docs/semantics.md §5.1): the pods the garbage collector deletes,
 * foreground deletion, pods that cannot be confirmed gone; with --cascade=orphan, the orphans,
 * what kubectl drain does with them and how a new DaemonSet adopts them (§5.2).
 */
import type { Pod } from '../../model/k8s-types.js';
import type { Risk, RiskReason } from '../../model/results.js';
import { parseRfc3339 } from '../../model/duration.js';
import { formatLabelSelector } from '../../k8s/labels.js';
import { isRollingUpdate } from '../../k8s/defaults.js';
import { nodeReadyStatus } from '../../k8s/podhealth.js';
import { LABEL_TEMPLATE_GENERATION, templateGeneration } from '../../k8s/revision.js';
import type { Role } from '../../model/roles.js';
import { addFinding, addRisk, limit, nameList, plural, podName, roleOf, type Analysis } from './analysis.js';
import { compareText } from '../../model/order.js';

/** The kubelet's default `terminationGracePeriodSeconds`. */
const DEFAULT_GRACE_SECONDS = 30;

function gracePeriods(pods: Pod[]): string {
  const counts = new Map<number, number>();
  for (const p of pods) {
    const g = p.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  const entries = [...counts.entries()].sort((x, y) => x[0] - y[0]);
  if (entries.length === 1) {
    const [g] = entries[0]!;
    if (g === 0) return 'each pod is killed at once (terminationGracePeriodSeconds 0)';
    return `each pod gets SIGTERM and up to ${g}s (terminationGracePeriodSeconds${g === DEFAULT_GRACE_SECONDS ? ', the default' : ''}) to stop before SIGKILL`;
  }
  return `each pod gets SIGTERM and up to its terminationGracePeriodSeconds before SIGKILL: ${entries.map(([g, n]) => `${g}s (${plural(n, 'pod')})`).join(', ')}`;
}

export function revisionNames(a: Analysis): string[] {
  return a.index
    .revisionsFor(a.ds)
    .map((r) => r.metadata?.name ?? '')
    .sort();
}

/** What each role breaks where it runs, when the input does not show where that is. */
const ROLE_RISK: Record<Role, { risk: Risk; what: string }> = {
  network: { risk: 'critical', what: 'the CNI agent: pods on its nodes lose the pod network' },
  'service-proxy': {
    risk: 'critical',
    what: 'the service proxy: Service routing on its nodes stops being kept up to date',
  },
  storage: { risk: 'high', what: 'a CSI node plugin: volumes on its nodes can no longer be mounted or unmounted' },
  device: { risk: 'high', what: 'a device plugin: its extended resources stop being advertised' },
  dns: { risk: 'high', what: 'the node-local DNS cache: lookups through it fail on its nodes' },
  logging: { risk: 'medium', what: 'a log collector: logs on its nodes are not shipped for the gap' },
  monitoring: { risk: 'medium', what: 'a node monitor: metrics of its nodes stop' },
  security: { risk: 'medium', what: 'a security agent: its nodes are not watched for the gap' },
};

/**
 * A bare manifest shows no pods, which is not "no pods": judges the risk by the DaemonSet's role
 * wherever it runs (a CNI agent is critical on every node it covers), and says so.
 */
export function unseenPodsSection(a: Analysis): void {
  a.notChecked.push(
    'which pods and nodes it runs on (no Pod or Node objects in the input): the risk is judged by its role wherever it runs',
  );
  addFinding(
    a,
    'PodsNotInInput',
    'info',
    "the input holds no Pod objects and no status that counts them: what is deleted on which nodes cannot be seen, so the risk is judged by the DaemonSet's role",
  );
  for (const role of a.roles) {
    const r = ROLE_RISK[role.role];
    addRisk(a, r.risk, `${r.what} (judged by its role: its pods are not in the input)`);
  }
}

export function deletionSection(a: Analysis): void {
  const revisions = revisionNames(a);
  if (a.podsUnseen) return;
  if (!a.pods.length) {
    addFinding(
      a,
      'NoPods',
      'info',
      `the DaemonSet has no pods: deleting it removes no pod${revisions.length ? `, only the object and its ${plural(revisions.length, 'ControllerRevision')}` : ''}`,
    );
    return;
  }
  const evidence = [gracePeriods(a.pods)];
  if (isRollingUpdate(a.ds)) {
    evidence.push(
      `the rolling-update budget (maxUnavailable ${a.ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1}) does not apply to deletion`,
    );
  }
  if (revisions.length)
    evidence.push(`ControllerRevisions deleted too, so there is no rollout history left: ${nameList(revisions, 5)}`);
  evidence.push(
    ...limit(
      a.pods.map((p) => `${p.spec?.nodeName ?? '(not scheduled)'}: ${p.metadata?.name}`),
      'more pods',
    ),
  );
  addFinding(
    a,
    'PodsDeleted',
    'warning',
    `the garbage collector deletes all ${plural(a.pods.length, 'pod')} on ${plural(a.nodes.length, 'node')} at once, and nothing re-creates them: the DaemonSet controller no longer has a DaemonSet to act on`,
    evidence,
  );

  if (a.cascade === 'foreground') {
    addFinding(
      a,
      'ForegroundDeletion',
      'info',
      'the DaemonSet stays visible with a deletionTimestamp and the foregroundDeletion finalizer until every pod is gone; meanwhile its controller does nothing (no creates, no deletes) and its status freezes',
      ['kubectl delete waits (--wait=true) until the DaemonSet is gone, i.e. until the last pod has terminated'],
    );
  }

  const stuck: string[] = [];
  for (const p of a.pods) {
    const node = p.spec?.nodeName;
    if (!node) continue;
    const ready = nodeReadyStatus(a.index.nodesByName.get(node));
    const since = p.metadata?.deletionTimestamp;
    const overdue = since ? Math.max(0, Math.round((a.now.getTime() - parseRfc3339(since)) / 60000)) : 0;
    if (ready !== 'True' && a.index.nodesByName.has(node)) {
      stuck.push(
        `${node} (Ready=${ready || 'unknown'}): ${p.metadata?.name}; force-delete: kubectl delete pod -n ${a.ns} ${p.metadata?.name} --grace-period=0 --force`,
      );
    } else if (since && overdue > 0) {
      stuck.push(`${node}: ${p.metadata?.name} already past its grace period by ${overdue}m`);
    }
  }
  if (stuck.length) {
    addFinding(
      a,
      'PodsStuckTerminating',
      'warning',
      `${plural(stuck.length, 'pod')} cannot be confirmed deleted by ${stuck.length === 1 ? 'its kubelet: it stays' : 'their kubelets: they stay'} Terminating until the node answers again or the pod is force-deleted${a.cascade === 'foreground' ? '; the DaemonSet stays in foreground deletion until then' : ''}`,
      limit(stuck),
    );
  }
}

/** The `pod-template-generation` values of the pods, with counts: `1 (3 pods), 2 (5 pods)`. */
export function generationCounts(pods: Pod[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of pods) {
    const g = p.metadata?.labels?.[LABEL_TEMPLATE_GENERATION] ?? '(none)';
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return new Map([...counts.entries()].sort((x, y) => Number(x[0]) - Number(y[0]) || compareText(x[0], y[0])));
}

/** A template generation that no pod carries, for the annotation of a re-created DaemonSet. */
export function freshGeneration(a: Analysis): number {
  let max = templateGeneration(a.ds) ?? 1;
  for (const g of generationCounts(a.pods).keys()) if (/^\d+$/.test(g)) max = Math.max(max, Number(g));
  return max + 1;
}

export function orphanSection(a: Analysis, plainRisk: RiskReason | undefined): void {
  const revisions = revisionNames(a);
  const evidence = [
    'a pod that is deleted or evicted is not replaced (the kubelet still restarts its containers)',
    'nodes that join later get no pod, and template changes can no longer be rolled out',
  ];
  if (roleOf(a, 'network'))
    evidence.push('nodes that join later get no CNI agent, so pods on the pod network cannot start there');
  if (plainRisk) evidence.push(`a plain delete (--cascade=background) would be ${plainRisk.risk}: ${plainRisk.reason}`);
  addFinding(
    a,
    'PodsOrphaned',
    a.live.length ? 'warning' : 'info',
    `no pod is deleted: the garbage collector removes the ownerReference from ${plural(a.pods.length, 'pod')} on ${plural(a.nodes.length, 'node')}${revisions.length ? ` and from ${plural(revisions.length, 'ControllerRevision')}` : ''}; the pods keep running with all their labels, but without a controller`,
    evidence,
  );
  if (!a.live.length) return;

  const byNode = new Map<string, Pod[]>();
  for (const p of a.live) {
    const n = p.spec?.nodeName;
    if (n) byNode.set(n, [...(byNode.get(n) ?? []), p]);
  }
  // kubectl's drain filters stop at the first refusal, and localStorageFilter runs before
  // unreplicatedFilter: an orphan with an emptyDir volume is refused for that first.
  const refusal = (p: Pod) =>
    (p.spec?.volumes ?? []).some((v) => v.emptyDir !== undefined)
      ? 'Pods with local storage (use --delete-emptydir-data to override)'
      : // kubectl's own constant already starts with "cannot delete" (k8s.io/kubectl pkg/drain/filters.go,
        // unmanagedFatal), so the printed message says it twice; this mirrors kubectl 1.35 as it prints.
        'cannot delete Pods that declare no controller (use --force to override)';
  const drain = [...byNode.entries()].map(([n, pods]) => {
    const groups = new Map<string, string[]>();
    for (const p of pods) groups.set(refusal(p), [...(groups.get(refusal(p)) ?? []), podName(p)]);
    const errors = [...groups.entries()]
      .sort(([x], [y]) => compareText(x, y))
      .map(([m, names]) => `cannot delete ${m}: ${names.join(', ')}`);
    // Several messages form a utilerrors aggregate, printed in brackets (in Go map order; sorted here).
    const text = errors.length > 1 ? `[${errors.join(', ')}]` : errors[0];
    return `kubectl drain ${n} --ignore-daemonsets → error: unable to drain node "${n}" due to error: ${text}, continuing command...`;
  });
  addFinding(
    a,
    'DrainRefusesOrphans',
    'warning',
    'kubectl drain refuses the orphaned pods: they are no longer DaemonSet-managed, so --ignore-daemonsets does not cover them, and --force deletes them for good',
    drain.length > 3 ? [...drain.slice(0, 3), `… the same on ${plural(drain.length - 3, 'more node')}`] : drain,
  );

  const gens = generationCounts(a.live);
  const atOne = gens.get('1') ?? 0;
  const fresh = freshGeneration(a);
  const current = templateGeneration(a.ds);
  const exported = current !== undefined ? (gens.get(String(current)) ?? 0) : 0;
  const quirk = [
    `selector: ${formatLabelSelector(a.ds.spec?.selector)} (adoption is by selector only, in namespace ${a.ns})`,
    `pod-template-generation of the pods: ${[...gens.entries()].map(([g, n]) => `${g} (${plural(n, 'pod')})`).join(', ')}`,
  ];
  if (atOne)
    quirk.push(
      `a DaemonSet created fresh starts at template generation 1: the ${plural(atOne, 'pod')} with pod-template-generation 1 would count as updated whatever its template, and never be rolled`,
    );
  if (current !== undefined && current !== 1 && exported)
    quirk.push(
      `re-applying this DaemonSet's own manifest keeps deprecated.daemonset.template.generation "${current}", which the ${plural(exported, 'pod')} with that generation match`,
    );
  quirk.push(
    `create the new DaemonSet with annotation deprecated.daemonset.template.generation: "${fresh}" (no pod carries it) so that the revision hash alone decides: same template → nothing restarts, changed template → pods are rolled`,
  );
  addFinding(
    a,
    'AdoptionTemplateGeneration',
    atOne || exported ? 'warning' : 'info',
    'a new DaemonSet with a matching selector adopts these pods; if its template differs, adopted pods whose pod-template-generation equals its template generation count as updated and are never replaced',
    quirk,
  );
}
