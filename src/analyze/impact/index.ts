/**
 * What breaks if a DaemonSet is deleted (`impact`): the pods the garbage collector removes (or
 * orphans), the role of the DaemonSet on its nodes and what depends on it there (pod
 * networking, Service routing, CSI volumes, extended resources, DNS, logs, metrics), the
 * Services and admission webhooks that only its pods back, and a risk with the reasons that set
 * it. Deletion semantics follow docs/semantics.md §5 (garbage collector, orphaning, adoption, drain).
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import { API_VERSION, type DeleteImpact, type Risk, type RiskReason } from '../../model/results.js';
import { objectKey, type SnapshotIndex } from '../../model/snapshot-index.js';
import { isMissing, type SnapshotKind } from '../../model/snapshot.js';
import { judgeAbsentKinds } from '../input-evidence.js';
import { isPodTerminal } from '../../k8s/podutil.js';
import { bySeverity } from '../../model/severity.js';
import { detectRoles } from '../../model/roles.js';
import { addRisk, agree, dependents, missing, plural, type Analysis, type Cascade } from './analysis.js';
import { deletionSection, orphanSection, revisionNames, unseenPodsSection } from './deletion.js';
import { budgetsSection, servicesSection, stakesSection, webhooksSection } from './dependents.js';
import { plans } from './plans.js';
import { ROLE_SECTIONS } from './roles/index.js';

export type { Cascade } from './analysis.js';

/** The kinds the analysis reads besides DaemonSets, Nodes and Pods. */
export const IMPACT_KINDS: readonly SnapshotKind[] = [
  'ControllerRevision',
  'Service',
  'EndpointSlice',
  'PodDisruptionBudget',
  'PriorityClass',
  'Namespace',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'CSIDriver',
];

const RISK_RANK: Record<Risk, number> = { critical: 3, high: 2, medium: 1, low: 0 };

function topRisk(risks: RiskReason[]): Risk {
  return risks.reduce<Risk>((r, x) => (RISK_RANK[x.risk] > RISK_RANK[r] ? x.risk : r), 'low');
}

function sortRisks(risks: RiskReason[]): RiskReason[] {
  return risks
    .map((r, i) => ({ r, i }))
    .sort((x, y) => RISK_RANK[y.r.risk] - RISK_RANK[x.r.risk] || x.i - y.i)
    .map((x) => x.r);
}

/**
 * What deleting `ds` with `kubectl delete --cascade=<cascade>` does and breaks, evaluated at
 * `now`. Pure: reads only the snapshot behind `index`.
 */
export function analyzeImpact(index: SnapshotIndex, ds: DaemonSet, cascade: Cascade, now: Date): DeleteImpact {
  const pods = dependents(index, ds);
  const live = pods.filter((p) => !isPodTerminal(p));
  const a: Analysis = {
    index,
    ds,
    cascade,
    now,
    pods,
    live,
    ns: ds.metadata?.namespace ?? '',
    name: ds.metadata?.name ?? '',
    ownKeys: new Set(pods.map(objectKey)),
    nodes: [...new Set(live.map((p) => p.spec?.nodeName).filter((n): n is string => Boolean(n)))].sort(),
    roles: detectRoles(ds, index.snapshot.csiDrivers.map((d) => d.metadata?.name ?? '').filter(Boolean)),
    findings: [],
    risks: [],
    notChecked: [],
    lostServices: new Set(),
    failClosed: [],
    podsUnseen: isMissing(index.snapshot, 'Pod') && !judgeAbsentKinds(['Pod'], [ds], 'impact').accepted.length,
  };
  if (missing(a, 'Node'))
    a.notChecked.push('whether the nodes are Ready, and what they advertise (no Node objects in the input)');
  if (missing(a, 'ControllerRevision'))
    a.notChecked.push('the ControllerRevisions that go with the DaemonSet (none in the input)');

  if (cascade === 'orphan') {
    const plain = analyzeImpact(index, ds, 'background', now);
    orphanSection(a, plain.riskReasons?.[0]);
    addRisk(
      a,
      'low',
      `--cascade=orphan deletes no pod: ${plural(live.length, 'pod')} ${agree(live.length, 'keeps', 'keep')} running, unmanaged`,
    );
  } else {
    // What breaks comes before how the pods go: findings keep this order within a severity.
    if (live.length) {
      for (const role of a.roles) ROLE_SECTIONS[role.role](a);
      servicesSection(a);
      webhooksSection(a);
    }
    if (a.podsUnseen) unseenPodsSection(a);
    deletionSection(a);
    if (live.length) budgetsSection(a);
    if (live.length || a.podsUnseen) stakesSection(a);
    if (!a.risks.length) {
      addRisk(
        a,
        'low',
        live.length
          ? `nothing found that depends on these pods: no node-agent role, and no Service or webhook backed only by them${a.notChecked.length ? ' (within what the input allows to check)' : ''}`
          : a.podsUnseen
            ? 'no node-agent role in the pod template (its pods are not in the input, so Services or webhooks they back cannot be checked)'
            : 'no running pod goes away',
      );
    }
  }

  const risks = sortRisks(a.risks);
  const planList = plans(a);
  const gone = cascade === 'orphan' ? [] : pods;
  return {
    apiVersion: API_VERSION,
    kind: 'DeleteImpact',
    daemonSet: { namespace: a.ns, name: a.name },
    cascade,
    risk: topRisk(risks),
    pods: gone.length,
    nodes: new Set(gone.map((p) => p.spec?.nodeName).filter(Boolean)).size,
    roles: a.roles.map((r) => r.role),
    findings: bySeverity(a.findings),
    alternatives: planList.map((p) => p.summary),
    notChecked: [...new Set(a.notChecked)],
    roleEvidence: a.roles.map((r) => ({ role: r.role, evidence: r.evidence })),
    riskReasons: risks,
    revisions: revisionNames(a).length,
    plans: planList,
  };
}
