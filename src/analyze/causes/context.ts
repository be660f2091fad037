/**
 * What every root-cause rule reads: the snapshot's index, the time, the per-node verdicts of any
 * DaemonSet (computed once, on first use) and the roles of each DaemonSet. Rules run after the
 * per-node verdicts and may ask for another DaemonSet's verdict on a node: that is how a symptom
 * in one object is linked to its cause in another.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import { compileDaemonPlacement } from '../../k8s/daemonpod.js';
import { formatTaint } from '../../k8s/taints.js';
import { nodeReadyStatus } from '../../k8s/podhealth.js';
import type { CauseObject, ObjectRef, RolloutDiagnosis, RootCause } from '../../model/results.js';
import { detectRoles, type Role } from '../../model/roles.js';
import { objectKey, type SnapshotIndex } from '../../model/snapshot-index.js';
import { daemonSetContext, diagnoseAllNodes, diagnoseNode, type NodeVerdict } from '../placement/index.js';
import { DEFAULT_STUCK_AFTER } from '../stuck.js';
import { diagnoseRollout } from '../rollout/index.js';

/**
 * A cause as a rule finds it: a RootCause without its summary, which the engine writes once it has
 * merged the drafts of one cause (its chain holds the steps without the nodes and the DaemonSets
 * it affects).
 */
export type CauseDraft = Omit<RootCause, 'summary'>;

export interface CauseOptions {
  now: Date;
  stuckAfter?: number;
  /**
   * The snapshot holds only part of the cluster (a live `why <ds> <node>` reads one node's
   * worth): rules that judge every node (an attribute split, a DaemonSet that selects no node)
   * do not run.
   */
  partial?: boolean;
}

export class CauseContext {
  readonly now: Date;
  readonly stuckAfter: number;
  readonly partial: boolean;
  private readonly roleMemo = new Map<string, Role[]>();
  private readonly verdictMemo = new Map<string, NodeVerdict>();

  constructor(
    readonly index: SnapshotIndex,
    opts: CauseOptions,
  ) {
    this.now = opts.now;
    this.stuckAfter = opts.stuckAfter ?? DEFAULT_STUCK_AFTER;
    this.partial = opts.partial ?? false;
  }

  /** Every node's verdict for a DaemonSet, in node-name order (memoised by the index). */
  rows(ds: DaemonSet): NodeVerdict[] {
    return diagnoseAllNodes(this.index, ds, this.now, this.stuckAfter);
  }

  /** One node's verdict for a DaemonSet. */
  verdictOn(ds: DaemonSet, node: Node): NodeVerdict {
    const key = `${objectKey(ds)}\0${node.metadata?.name ?? ''}`;
    let v = this.verdictMemo.get(key);
    if (!v) {
      v = diagnoseNode(this.index, daemonSetContext(this.index, ds), node, this.now, this.stuckAfter);
      this.verdictMemo.set(key, v);
    }
    return v;
  }

  /** The rollout diagnosis of a DaemonSet, computed once per index (scan asks for it too). */
  rollout(ds: DaemonSet): RolloutDiagnosis {
    return cachedRollout(this.index, ds, this.now, this.stuckAfter);
  }

  roles(ds: DaemonSet): Role[] {
    const key = objectKey(ds);
    let r = this.roleMemo.get(key);
    if (!r) {
      const drivers = this.index.snapshot.csiDrivers.map((d) => d.metadata?.name ?? '');
      r = detectRoles(ds, drivers).map((m) => m.role);
      this.roleMemo.set(key, r);
    }
    return r;
  }

  /** The DaemonSets of the snapshot with a role, in the snapshot's order. */
  withRole(role: Role): DaemonSet[] {
    return this.index.snapshot.daemonSets.filter((d) => this.roles(d).includes(role));
  }
}

/** `diagnoseRollout`, once per DaemonSet, time and stuck-after on an index. */
export function cachedRollout(index: SnapshotIndex, ds: DaemonSet, now: Date, stuckAfter: number): RolloutDiagnosis {
  return index.cached(`rollout:${objectKey(ds)}:${now.getTime()}:${stuckAfter}`, () =>
    diagnoseRollout(index, ds, now, stuckAfter),
  );
}

export function dsRef(ds: DaemonSet): ObjectRef {
  return { namespace: ds.metadata?.namespace ?? '', name: ds.metadata?.name ?? '' };
}

export function dsObject(ds: DaemonSet): CauseObject {
  return { kind: 'DaemonSet', ...dsRef(ds) };
}

export function refText(r: ObjectRef | CauseObject): string {
  return 'namespace' in r && r.namespace ? `${r.namespace}/${r.name}` : r.name;
}

/** "a, b and 3 more" for a list of names. */
export function nameList(names: readonly string[], max = 3): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

/** The kinds a rule produces, sorted most severe first, then by code and object. */
export type CauseList = RootCause[];

/** A reason as a short phrase for a chain: the untolerated taint named, else the scheduler-style phrase. */
export function reasonPhrase(r: { code: string; short: string; evidence: string[] }): string {
  const taint =
    r.code === 'UntoleratedTaint'
      ? r.evidence
          .find((e) => e.startsWith('node taint '))
          ?.replace(/^node taint /, '')
          .replace(/ \(added .*\)$/, '')
      : undefined;
  return taint ? `untolerated taint ${taint}` : r.short;
}

/**
 * The command that lets a DaemonSet onto a node whose NoSchedule/NoExecute taints alone keep it
 * off: a JSON patch that appends one toleration per taint, since a strategic merge would replace
 * the whole list (tolerations have no merge key in the PodSpec). Undefined when anything but
 * taints keeps it off.
 */
export function tolerationPatch(ds: DaemonSet, node: Node, why: string): string | undefined {
  const failures = compileDaemonPlacement(ds).evaluate(node).failures;
  const taints = failures.flatMap((f) => (f.kind === 'Taint' ? f.taints : []));
  if (!taints.length || failures.some((f) => f.kind !== 'Taint')) return undefined;
  const tolerations = [
    ...new Map(
      taints.map((t) => [`${t.key}:${t.effect}`, { key: t.key, operator: 'Exists', effect: t.effect }]),
    ).values(),
  ];
  const has = Array.isArray(ds.spec?.template?.spec?.tolerations);
  const ops = has
    ? tolerations.map((t) => ({ op: 'add', path: '/spec/template/spec/tolerations/-', value: t }))
    : [{ op: 'add', path: '/spec/template/spec/tolerations', value: tolerations }];
  return `tolerate ${taints.map(formatTaint).join(', ')} ${why}: kubectl patch daemonset ${ds.metadata?.name} -n ${ds.metadata?.namespace} --type json -p '${JSON.stringify(ops)}'`;
}

/** The runtime's and kubelet's words for a network that is not ready (CRI, kubelet, containerd, CRI-O). */
export const NETWORK_NOT_READY =
  /NetworkPluginNotReady|network plugin is not ready|cni plugin not initiali[sz]ed|NetworkReady=false|network is not ready|no networks found in \/etc\/cni\/net\.d|failed to find plugin .* in path|cni config uninitiali[sz]ed/i;

/** The node's own words that its network is not ready: its Ready condition or NetworkUnavailable. */
export function nodeNetworkText(node: Node | undefined): string | undefined {
  for (const c of node?.status?.conditions ?? []) {
    if (c.type === 'Ready' && c.status !== 'True' && NETWORK_NOT_READY.test(c.message ?? ''))
      return `node condition Ready=${c.status}${c.reason ? ` (${c.reason})` : ''}: ${c.message}`;
    if (c.type === 'NetworkUnavailable' && c.status === 'True')
      return `node condition NetworkUnavailable=True${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`;
  }
  return undefined;
}

/** Reasons that say a bound pod fails by itself (not the node, not the scheduler). */
const POD_FAILURES: ReadonlySet<string> = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'PodFailed',
  'OOMKilled',
  'CreateContainerConfigError',
  'ReadinessProbeFailing',
  'ContainerCreating',
]);

/** The row's pod fails by itself, stuck (an error reason), on a node that is Ready and whose network is up. */
export function failsByItself(c: CauseContext, r: NodeVerdict): boolean {
  const node = c.index.nodesByName.get(r.node);
  if (r.verdict !== 'Unhealthy' || !node || nodeReadyStatus(node) !== 'True' || nodeNetworkText(node)) return false;
  return r.reasons.some((x) => POD_FAILURES.has(x.code) && x.severity === 'error');
}

/** The reason that says how a failing pod fails. */
export function podFailure(r: NodeVerdict): NodeVerdict['reasons'][number] | undefined {
  return r.reasons.find((x) => POD_FAILURES.has(x.code) && x.severity === 'error');
}
