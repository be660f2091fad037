/**
 * The cause engine: runs after the per-node verdicts and links each symptom to the cause found
 * anywhere in the snapshot (another DaemonSet, a webhook, a node attribute, the revision, the
 * budget, the cluster's version). One rule per family of chains, each in its own file, each
 * code registered in src/model/reasons/causes.ts (docs/reasons.md). Causes of one kind seen from
 * several DaemonSets merge into one: an outage of one cause is one entry, not one per DaemonSet.
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import type { CauseCode } from '../../model/reasons/index.js';
import type { RootCause } from '../../model/results.js';
import { compareSeverity } from '../../model/severity.js';
import { compareText } from '../../model/order.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import type { NodeVerdict } from '../placement/index.js';
import { admissionCauses } from './admission.js';
import { CauseContext, type CauseDraft, type CauseOptions, nameList, refText } from './context.js';
import { hostPortCauses } from './host-port.js';
import { labelCauses } from './labels.js';
import { networkCauses } from './network.js';
import { nodePressureCauses } from './node-pressure.js';
import { podCIDRCauses } from './pod-cidr.js';
import { pullSecretCauses } from './pull-secret.js';
import { attributeCauses } from './node-attribute.js';
import { budgetCauses, revisionCauses } from './rollout.js';
import { selectsNoNodeCauses } from './selects-none.js';
import { versionCauses } from './versions.js';

export { CauseContext, type CauseOptions } from './context.js';

/** A rule: the causes behind one DaemonSet's symptoms on the given rows (all nodes, or one). */
type Rule = (c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]) => CauseDraft[];

/** The rules in the order their causes rank when severities tie: the most basic layer first. */
const RULES: readonly Rule[] = [
  networkCauses,
  podCIDRCauses,
  nodePressureCauses,
  labelCauses,
  admissionCauses,
  hostPortCauses,
  pullSecretCauses,
  budgetCauses,
  revisionCauses,
  attributeCauses,
  selectsNoNodeCauses,
  versionCauses,
];

const RANK: Record<CauseCode, number> = {
  NetworkAgentNotRunning: 0,
  CloudProviderNotInitialized: 1,
  NetworkNotReadyAgentRunning: 2,
  NoNetworkAgent: 3,
  NodeWithoutPodCIDR: 4,
  NodePressure: 5,
  LabellerNotRunning: 6,
  LabelNotWritten: 7,
  WebhookInjectedField: 8,
  HostPortHeldByDaemonSet: 9,
  PullSecretNotCarried: 10,
  BudgetHeldByDeadNodes: 11,
  RevisionFailing: 12,
  NodeAttributeSplit: 13,
  SelectsNoNode: 14,
  KnownUpstreamBug: 15,
  LegacyOnDeleteDefault: 16,
};

/** Causes about a whole DaemonSet rather than the nodes they name: kept for any node asked about. */
const DAEMONSET_WIDE: ReadonlySet<CauseCode> = new Set([
  'SelectsNoNode',
  'LabelNotWritten',
  'WebhookInjectedField',
  'KnownUpstreamBug',
  'LegacyOnDeleteDefault',
]);

function causeKey(d: CauseDraft): string {
  return JSON.stringify([d.code, d.cause.kind, d.cause.namespace ?? '', d.cause.name, d.chain]);
}

function union<T>(a: T[], b: T[], key: (x: T) => string): T[] {
  const seen = new Set(a.map(key));
  return [...a, ...b.filter((x) => !seen.has(key(x)) && seen.add(key(x)))];
}

/** Merges drafts of one cause, orders them, and writes each summary. */
export function finishCauses(drafts: CauseDraft[]): RootCause[] {
  const merged = new Map<string, CauseDraft>();
  for (const d of drafts) {
    const key = causeKey(d);
    const m = merged.get(key);
    if (!m) {
      merged.set(key, { ...d, nodes: [...d.nodes], affects: [...d.affects], evidence: [...d.evidence] });
      continue;
    }
    m.nodes = union(m.nodes, d.nodes, (x) => x);
    m.affects = union(m.affects, d.affects, refText);
    m.evidence = union(m.evidence, d.evidence, (x) => x).slice(0, 8);
  }
  return [...merged.values()]
    .map((d) => {
      const causeName = refText(d.cause);
      const affects = d.affects.filter((a) => refText(a) !== causeName || d.cause.kind !== 'DaemonSet');
      // A DaemonSet that is its own cause is named first: in scan's list it stands among others.
      const self =
        d.cause.kind === 'DaemonSet' && d.affects.some((a) => refText(a) === causeName) ? `${causeName}: ` : '';
      const where = `${self}${d.nodes.length && !DAEMONSET_WIDE.has(d.code) ? `${nameList(d.nodes)}: ` : ''}`;
      const tail = affects.length ? ` → affects ${nameList(affects.map((a) => a.name))}` : '';
      return {
        code: d.code,
        severity: d.severity,
        summary: `${where}${d.chain.join(' → ')}${tail}`,
        chain: d.chain,
        nodes: [...d.nodes].sort(),
        cause: d.cause,
        affects: d.affects.sort((a, b) => compareText(refText(a), refText(b))),
        evidence: d.evidence,
        fix: d.fix,
        ...(d.reference ? { reference: d.reference } : {}),
      };
    })
    .sort(
      (a, b) =>
        compareSeverity(a.severity, b.severity) ||
        RANK[a.code] - RANK[b.code] ||
        b.nodes.length - a.nodes.length ||
        compareText(a.summary, b.summary),
    );
}

/** The cause drafts behind one DaemonSet's symptoms (every node's rows unless `rows` narrows them). */
function drafts(c: CauseContext, ds: DaemonSet, rows?: NodeVerdict[]): CauseDraft[] {
  const all = c.rows(ds);
  const out = RULES.flatMap((rule) => (rule === networkCauses && rows ? rule(c, ds, rows) : rule(c, ds, all)));
  // A label chain explains why the DaemonSet selects no node; the bare "selects no node" would say it twice.
  const labelled = out.some((d) => d.code === 'LabellerNotRunning' || d.code === 'LabelNotWritten');
  return labelled ? out.filter((d) => d.code !== 'SelectsNoNode') : out;
}

/** Root causes behind the symptoms of the given DaemonSets, merged across them. */
export function causesOf(index: SnapshotIndex, daemonSets: DaemonSet[], opts: CauseOptions): RootCause[] {
  const c = new CauseContext(index, opts);
  return finishCauses(daemonSets.flatMap((ds) => drafts(c, ds)));
}

/** Root causes behind the symptoms of the given DaemonSets on one node. */
export function causesOnNode(
  index: SnapshotIndex,
  daemonSets: DaemonSet[],
  node: string,
  opts: CauseOptions,
): RootCause[] {
  const c = new CauseContext(index, opts);
  const n = index.nodesByName.get(node);
  if (!n) return [];
  // A partial snapshot holds one node's worth: only the rules that need no other node run.
  const out = daemonSets.flatMap((ds) =>
    c.partial ? networkCauses(c, ds, [c.verdictOn(ds, n)]) : drafts(c, ds, [c.verdictOn(ds, n)]),
  );
  return finishCauses(out.filter((d) => DAEMONSET_WIDE.has(d.code) || d.nodes.includes(node)));
}

/** The result with its root causes, when there are any (the field is optional in every kind but scan). */
export function withCauses<T extends object>(result: T, causes: RootCause[]): T & { causes?: RootCause[] } {
  return causes.length ? { ...result, causes } : result;
}
