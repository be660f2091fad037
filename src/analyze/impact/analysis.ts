/**
 * What every part of the impact analysis shares: the facts about one DaemonSet and one cascade
 * mode (`Analysis`), how findings and risks are added, and the small text helpers.
 */
import type { DaemonSet, KubeObject, Pod } from '../../model/k8s-types.js';
import type { DeleteImpact, ImpactCode, ImpactFinding, Risk, RiskReason, Severity } from '../../model/results.js';
import { controllerRef, objectKey, type SnapshotIndex } from '../../model/snapshot-index.js';
import { isMissing, type SnapshotKind } from '../../model/snapshot.js';
import { isPodTerminal } from '../../k8s/podutil.js';
import type { Role, RoleMatch } from '../../model/roles.js';
import { compareText } from '../../model/order.js';

/** How `kubectl delete --cascade` treats the dependents: delete them (background, foreground) or orphan them. */
export type Cascade = DeleteImpact['cascade'];

/** Evidence lists longer than this are cut, with a count of what was left out. */
const MAX_LINES = 10;

/** Everything the sections share about one DaemonSet and one cascade mode. */
export interface Analysis {
  index: SnapshotIndex;
  ds: DaemonSet;
  ns: string;
  name: string;
  cascade: Cascade;
  now: Date;
  /** Dependents: pods whose controller ownerReference is this DaemonSet, by node then name. */
  pods: Pod[];
  /** Dependents that are not Succeeded/Failed: the ones whose loss matters. */
  live: Pod[];
  /** `namespace/name` of every dependent, to tell them from other pods. */
  ownKeys: Set<string>;
  /** Nodes with a live pod, sorted. */
  nodes: string[];
  roles: RoleMatch[];
  findings: ImpactFinding[];
  risks: RiskReason[];
  notChecked: string[];
  /** The input holds no Pod objects and the status does not say there are none (a bare manifest). */
  podsUnseen: boolean;
  /** Services (`namespace/name`) that keep no endpoint once the pods are gone. */
  lostServices: Set<string>;
  /** Fail-closed webhooks that lose their backend: configuration kind, name and webhook index. */
  failClosed: { kind: string; config: string; index: number; webhook: string }[];
}

export function byName(a: KubeObject, b: KubeObject): number {
  return compareText(objectKey(a), objectKey(b));
}

export function podName(p: Pod): string {
  return `${p.metadata?.namespace}/${p.metadata?.name}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The verb form that agrees with a count: `uses` for 1, `use` otherwise. */
export function agree(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** Keeps at most MAX_LINES lines, saying how many were left out. */
export function limit(lines: string[], what = 'more'): string[] {
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} ${what}`];
}

/** `a, b, c` with at most `max` names and a count of the rest. */
export function nameList(names: string[], max = 3): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

export function addFinding(
  a: Analysis,
  code: ImpactCode,
  severity: Severity,
  message: string,
  evidence: string[] = [],
): void {
  a.findings.push({ code, severity, message, evidence });
}

export function addRisk(a: Analysis, risk: Risk, reason: string): void {
  a.risks.push({ risk, reason });
}

export function missing(a: Analysis, kind: SnapshotKind): boolean {
  return isMissing(a.index.snapshot, kind);
}

/** Pods whose controller ref names this DaemonSet: what the garbage collector deletes or orphans. */
export function dependents(index: SnapshotIndex, ds: DaemonSet): Pod[] {
  const uid = ds.metadata?.uid;
  return index
    .podsControlledBy('DaemonSet', ds)
    .filter((p) => {
      const ref = controllerRef(p);
      return ref?.kind === 'DaemonSet' && (uid && ref.uid ? ref.uid === uid : ref.name === ds.metadata?.name);
    })
    .sort((x, y) => compareText(x.spec?.nodeName ?? '', y.spec?.nodeName ?? '') || byName(x, y));
}

/** Pods of other workloads on the given nodes that are still running or starting. */
export function othersOn(a: Analysis, nodes: string[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const n of nodes) {
    const pods = (a.index.podsByNode.get(n) ?? [])
      .filter((p) => !a.ownKeys.has(objectKey(p)) && !isPodTerminal(p))
      .sort(byName);
    out.set(n, pods);
  }
  return out;
}

export function roleOf(a: Analysis, role: Role): RoleMatch | undefined {
  return a.roles.find((r) => r.role === role);
}

/** Per-node lines `node: N pods (a, b, c)` for the nodes that have any; `qualifier` follows the noun. */
export function perNodeLines(byNode: Map<string, Pod[]>, qualifier = ''): string[] {
  const lines: string[] = [];
  for (const [n, pods] of byNode) {
    if (pods.length) lines.push(`${n}: ${plural(pods.length, 'pod')}${qualifier} (${nameList(pods.map(podName))})`);
  }
  return limit(lines, 'more nodes');
}

export function count(byNode: Map<string, Pod[]>): number {
  let n = 0;
  for (const pods of byNode.values()) n += pods.length;
  return n;
}
