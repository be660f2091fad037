/** The findings of a plan: what a reviewer must know before applying, each with a code and a fix. */
import type { DaemonSet } from '../../model/k8s-types.js';
import type { PlanFinding, PlanNode, PlanReport } from '../../model/results.js';
import { PLAN_FINDINGS } from '../../model/reasons/index.js';
import { detectRoles, type RoleMatch } from '../../model/roles.js';
import { wantedHostPorts } from '../../k8s/hostports.js';
import { compareText } from '../../model/order.js';

/** Roles whose outage on a node takes its workloads down with it. */
const CRITICAL_ROLES = new Set(['network', 'service-proxy', 'storage', 'dns']);

/** At most this many nodes are named in a finding's evidence. */
const EVIDENCE_NODES = 10;

function listed<T>(items: T[], line: (x: T) => string): string[] {
  const out = items.slice(0, EVIDENCE_NODES).map(line);
  if (items.length > EVIDENCE_NODES) out.push(`… and ${items.length - EVIDENCE_NODES} more node(s)`);
  return out;
}

function byGroup(nodes: PlanNode[]): string {
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.group || '(no group)', (counts.get(n.group || '(no group)') ?? 0) + 1);
  return [...counts]
    .sort((a, b) => compareText(a[0], b[0]))
    .map(([g, c]) => `${g}: ${c}`)
    .join(', ');
}

function finding(
  code: PlanFinding['code'],
  message: string,
  evidence: string[],
  fix: string,
  severity = PLAN_FINDINGS[code].severity,
): PlanFinding {
  return { code, severity, message, evidence, fix };
}

function lostNodes(report: PlanReport, roles: string[], viaUpdate: Set<string>): PlanFinding | undefined {
  const lost = report.nodes.filter((n) => n.effect === 'lose');
  if (!lost.length) return undefined;
  const critical = roles.length
    ? `; the DaemonSet is the nodes' ${roles.join(', ')} agent, so what runs there loses it too`
    : '';
  const byUpdate = lost.filter((n) => viaUpdate.has(n.node)).length;
  const how =
    byUpdate === lost.length
      ? 'the rolling update deletes these pods (an untolerated NoSchedule taint lets them run until then) and creates none'
      : `the controller deletes ${byUpdate ? `${lost.length - byUpdate} of ` : ''}these pods at once when the change is applied, not through the rolling update, so maxUnavailable does not limit it${byUpdate ? `; the rolling update deletes the other ${byUpdate}` : ''}`;
  return finding(
    'NodesLost',
    `${lost.length} node(s) lose their pod (${byGroup(lost)}): ${how}${critical}`,
    listed(lost, (n) => `node ${n.node}: ${n.message ?? n.reason ?? 'no longer matches the new spec'}`),
    'if these nodes must keep the agent, widen the nodeSelector, node affinity or tolerations of the manifest; otherwise drain what depends on it first',
  );
}

function pendingNodes(report: PlanReport): PlanFinding | undefined {
  const pending = report.nodes.filter((n) => n.settled.includes('new-pending'));
  if (!pending.length) return undefined;
  return finding(
    'PodsWillBePending',
    `the new pod will stay Pending on ${pending.length} node(s) (${byGroup(pending)}): the scheduler's filters refuse it there`,
    listed(
      pending,
      (n) => `node ${n.node}: ${(n.fit?.reasons ?? []).map((r) => r.message).join('; ') || 'not schedulable'}`,
    ),
    'lower the new requests or host ports to what these nodes have free, free room on them, or give the DaemonSet a priority class that can preempt',
  );
}

function deletionNeverConfirmed(report: PlanReport, waiting: Set<string>): PlanFinding | undefined {
  const stuck = report.nodes.filter((n) => waiting.has(n.node) && n.settled.includes('none'));
  if (!stuck.length) return undefined;
  return finding(
    'DeletionNeverConfirmed',
    `${stuck.length} node(s) (${byGroup(stuck)}) are unreachable: the pod deleted there stays Terminating because the kubelet never confirms it, and the controller creates no new pod while it exists`,
    listed(stuck, (n) => `node ${n.node}: ${n.before?.name ?? 'its pod'} stays Terminating (node Ready: Unknown)`),
    `recover those nodes, or remove them if they are gone for good; as a last resort force-delete the pod: kubectl delete pod -n ${report.daemonSet.namespace} ${stuck
      .map((n) => n.before?.name ?? 'POD')
      .slice(0, EVIDENCE_NODES)
      .join(' ')} --grace-period=0 --force`,
  );
}

function refused(report: PlanReport, refusal: string | undefined): PlanFinding | undefined {
  if (refusal === undefined) return undefined;
  const wanted = report.nodes.filter((n) => n.shouldRun);
  if (!wanted.length) return undefined;
  const security = /violates PodSecurity/.test(refusal);
  const some = report.nodes.some((n) => n.effect === 'gain' && n.settled.length > 1);
  return finding(
    'AdmissionRefused',
    `the API refuses ${some ? 'some of the new pods, so some nodes get none' : 'the new pods, so no node gets one'}: Error creating: ${refusal}`,
    [
      security
        ? `namespace ${report.daemonSet.namespace} enforces Pod Security (label pod-security.kubernetes.io/enforce)`
        : `a ResourceQuota of namespace ${report.daemonSet.namespace}`,
      ...listed(
        wanted,
        (n) =>
          `node ${n.node}: ${n.effect === 'replace' ? 'keeps its old pod or is left without one' : some ? 'may get no pod' : 'gets no pod'}`,
      ),
    ],
    security
      ? "make the pod template meet the namespace's Pod Security level, or run the DaemonSet in a namespace labelled pod-security.kubernetes.io/enforce=privileged"
      : 'raise the quota (kubectl describe resourcequota) or set the requests and limits it requires on every container',
  );
}

function stall(report: PlanReport): PlanFinding | undefined {
  const blocked = report.rollout.blockedAfter;
  if (blocked === undefined) return undefined;
  const kept = report.nodes.filter((n) => n.effect === 'replace' && n.settled.includes('old-kept'));
  if (!kept.length) return undefined;
  const budget =
    report.rollout.maxSurge > 0
      ? `maxSurge ${report.rollout.maxSurge}`
      : `maxUnavailable ${report.rollout.maxUnavailable}`;
  return finding(
    'RolloutWillStall',
    `the rolling update stops once ${blocked} node(s) hold a new pod that cannot become available (${budget} used up); up to ${kept.length} node(s) keep the old pod, which ones depends on the controller's order`,
    listed(kept, (n) => `node ${n.node}: may keep ${n.before?.name ?? 'its old pod'}`),
    'fix what keeps the new pods Pending before applying; the rollout does not resume on its own',
  );
}

function surgePorts(report: PlanReport, applied: DaemonSet): PlanFinding | undefined {
  if (report.rollout.maxSurge === 0 || report.rollout.toReplace === 0) return undefined;
  const ports = wantedHostPorts(applied.spec?.template?.spec, true);
  if (!ports.length) return undefined;
  return finding(
    'SurgeHostPortStall',
    `maxSurge ${report.rollout.maxSurge} with host port(s) ${ports.map((p) => `${p.port}/${p.protocol}`).join(', ')}: the surge pod must run beside the old pod, which holds the same port, so it cannot be scheduled and the rollout cannot progress`,
    [
      `spec.updateStrategy.rollingUpdate.maxSurge: ${report.rollout.maxSurge}`,
      ...ports.map((p) => `host port ${p.port}/${p.protocol}`),
    ],
    'set maxSurge: 0 and maxUnavailable: 1 (or more) for a DaemonSet with host ports',
  );
}

function roleOutage(report: PlanReport, roles: RoleMatch[]): PlanFinding | undefined {
  const { maxUnavailable, maxSurge, toReplace, strategy } = report.rollout;
  if (strategy !== 'RollingUpdate' || maxSurge > 0 || toReplace === 0 || maxUnavailable <= 1) return undefined;
  if (!roles.length) return undefined;
  const desired = report.nodes.filter((n) => n.shouldRun).length;
  const all = maxUnavailable >= desired;
  if (!all && maxUnavailable * 4 <= desired) return undefined;
  return finding(
    'RoleOutageRisk',
    `${roles.map((r) => r.role).join(', ')} agent with maxUnavailable ${maxUnavailable} of ${desired} node(s): ${all ? 'every node' : `${maxUnavailable} nodes`} can lose it at once during the rollout, and their workloads with it`,
    [
      ...roles.flatMap((r) => r.evidence.slice(0, 2)),
      `maxUnavailable resolves to ${maxUnavailable} of ${desired} desired`,
    ],
    'roll a critical agent a few nodes at a time: maxUnavailable: 1 (or a small percentage), or maxSurge: 1 with maxUnavailable: 0 when it uses no host port',
    all ? 'error' : 'warning',
  );
}

function preemption(report: PlanReport): PlanFinding | undefined {
  const helped = report.nodes.filter((n) => n.fit && !n.fit.fits && n.fit.reasons.some((r) => r.preemptionHelps));
  if (!helped.length) return undefined;
  return finding(
    'PreemptionMayHelp',
    `on ${helped.length} node(s) the new pod fits only by preempting lower-priority pods: the scheduler evicts them to make room`,
    listed(helped, (n) => `node ${n.node}: ${n.fit!.reasons.map((r) => r.message).join('; ')}`),
    'check that the evicted pods may go; otherwise lower the new requests',
  );
}

function manual(report: PlanReport): PlanFinding | undefined {
  if (report.rollout.strategy !== 'OnDelete' || report.rollout.toReplace === 0) return undefined;
  return finding(
    'OnDeleteManual',
    `updateStrategy OnDelete: ${report.rollout.toReplace} node(s) keep the old pod until it is deleted by hand`,
    [`${report.rollout.toReplace} pod(s) of an older revision`],
    'delete the old pods node by node (kubectl delete pod) to roll the change out',
  );
}

/** A change that keeps the template but changes how the rollout in progress goes on (index.ts#strategyOnly). */
export interface StrategyChange {
  /** The rollout fields before and after, as JSON (type, rollingUpdate, minReadySeconds). */
  from: string;
  to: string;
  /** Nodes the settled rollout replaces under the current spec, and under the new one. */
  before: string[];
  after: string[];
  /** Surge pods manage() deletes once the new spec allows no surge. */
  pruned: { node: string; pod: string }[];
  /** Nodes whose pod of the current revision is bound but unavailable now. */
  failing: string[];
}

/** What a strategy-only change does to the rollout in progress. */
function strategyOnlyChange(report: PlanReport, change: StrategyChange | undefined): PlanFinding | undefined {
  if (!change || report.change !== 'update' || report.templateDiff.length || !report.rollout.toReplace)
    return undefined;
  const unblocked = change.after.filter((n) => !change.before.includes(n));
  const { namespace: ns, name } = report.daemonSet;
  const { strategy, maxUnavailable, maxSurge } = report.rollout;
  const how = strategy === 'OnDelete' ? 'OnDelete' : `maxUnavailable ${maxUnavailable}, maxSurge ${maxSurge}`;
  return finding(
    'StrategyOnlyChange',
    `the pod template does not change, so no pod is replaced for this change itself, but the rollout in progress goes on under the new strategy (${how}): ${change.after.length} of ${report.rollout.toReplace} pod(s) of an older revision get replaced, ${
      unblocked.length
        ? `${unblocked.length} of them blocked under the current spec`
        : change.after.length < change.before.length
          ? `fewer than the ${change.before.length} under the current spec: the change holds back part of the rollout in progress`
          : `as under the current spec (${change.before.length})`
    }`,
    [
      `rollout spec: ${change.from} → ${change.to}`,
      ...(unblocked.length
        ? [
            `unblocked: ${unblocked.slice(0, EVIDENCE_NODES).join(', ')}${unblocked.length > EVIDENCE_NODES ? `, … and ${unblocked.length - EVIDENCE_NODES} more` : ''}`,
          ]
        : []),
      ...listedPruned(change.pruned),
      ...(change.failing.length
        ? [
            `${change.failing.length} pod(s) of the current revision are unavailable now (${change.failing.slice(0, EVIDENCE_NODES).join(', ')}): the plan takes the new pods to become available; if they fail the same way, the rollout stops again once they fill maxUnavailable`,
          ]
        : []),
    ],
    !unblocked.length
      ? change.after.length < change.before.length
        ? `keep the current strategy if the rollout in progress should finish on its own${strategy === 'OnDelete' ? '; under OnDelete, delete the old pods one node at a time' : ''}`
        : `it does not change where the rollout settles; clear what blocks it (ds-doctor rollout ${ns}/${name})`
      : change.failing.length
        ? `fix why the current revision's pods are unavailable first (ds-doctor rollout ${ns}/${name}); a larger budget only replaces more nodes with pods that may fail the same way`
        : `apply it, then follow the rollout: ds-doctor rollout ${ns}/${name}`,
    unblocked.length && change.failing.length ? 'warning' : 'info',
  );
}

function listedPruned(pruned: StrategyChange['pruned']): string[] {
  return listed(
    pruned,
    (p) =>
      `node ${p.node}: the surge pod ${p.pod} waiting next to the old pod is deleted (without surge the controller keeps only the oldest pod on a node)`,
  );
}

function metadataOnly(report: PlanReport, change: StrategyChange | undefined): PlanFinding | undefined {
  if (report.change !== 'update' || report.templateDiff.length) return undefined;
  if (change && report.rollout.toReplace) return undefined;
  const ongoing = report.rollout.toReplace;
  return finding(
    'MetadataOnlyChange',
    `the pod template does not change: the controller computes the same template hash, and this change replaces no pod${ongoing ? ` (${ongoing} pod(s) of an older revision are still to be replaced by the rollout in progress)` : ''}`,
    ['no difference in spec.template after the API defaults'],
    'nothing to do',
  );
}

/** Every finding of a plan, most severe first. */
export function planFindings(
  report: PlanReport,
  applied: DaemonSet,
  csiDrivers: string[],
  loseByUpdate: Set<string> = new Set(),
  waitsForDeletion: Set<string> = new Set(),
  refusal?: string,
  strategyChange?: StrategyChange,
): PlanFinding[] {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const roles = detectRoles(applied, csiDrivers).filter((r) => CRITICAL_ROLES.has(r.role));
  return [
    lostNodes(
      report,
      roles.map((r) => r.role),
      loseByUpdate,
    ),
    refused(report, refusal),
    pendingNodes(report),
    deletionNeverConfirmed(report, waitsForDeletion),
    stall(report),
    surgePorts(report, applied),
    roleOutage(report, roles),
    preemption(report),
    manual(report),
    strategyOnlyChange(report, strategyChange),
    metadataOnly(report, strategyChange),
  ]
    .filter((f): f is PlanFinding => f !== undefined)
    .sort((a, b) => rank[a.severity] - rank[b.severity] || compareText(a.code, b.code));
}
