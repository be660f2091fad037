/**
 * What breaks if a DaemonSet is deleted (`impact`): the pods the garbage collector removes (or
 * orphans), the role of the DaemonSet on its nodes and what depends on it there (pod
 * networking, Service routing, CSI volumes, extended resources, DNS, logs, metrics), the
 * Services and admission webhooks that only its pods back, and a risk with the reasons that set
 * it. Deletion semantics follow docs/semantics.md §5 (garbage collector, orphaning, adoption, drain).
 */
import type {
  DaemonSet, KubeObject, LabelSelector, Pod, Service, WebhookConfiguration,
} from '../model/k8s-types.js';
import {
  API_VERSION, type DeleteImpact, type ImpactCode, type ImpactFinding, type ImpactPlan, type Risk, type RiskReason, type Severity,
} from '../model/results.js';
import { controllerRef, objectKey, type SnapshotIndex } from '../model/snapshot-index.js';
import { isMissing, type SnapshotKind } from '../model/snapshot.js';
import { parseRfc3339 } from '../model/duration.js';
import { judgeAbsentKinds } from './input-evidence.js';
import { compileLabelSelector, formatLabelSelector } from '../k8s/labels.js';
import { isPodTerminal } from '../k8s/podutil.js';
import { nodeReadyStatus } from '../k8s/podhealth.js';
import { podRequests } from '../k8s/resources.js';
import { formatAmount } from '../k8s/quantity.js';
import { LABEL_TEMPLATE_GENERATION, templateGeneration } from '../k8s/revision.js';
import { csiDriversServed, detectRoles, type Role, type RoleMatch } from '../k8s/roles.js';

/** How `kubectl delete --cascade` treats the dependents: delete them (background, foreground) or orphan them. */
export type Cascade = DeleteImpact['cascade'];

/** The kinds the analysis reads besides DaemonSets, Nodes and Pods. */
export const IMPACT_KINDS: readonly SnapshotKind[] = [
  'ControllerRevision', 'Service', 'EndpointSlice', 'PodDisruptionBudget', 'PriorityClass', 'Namespace',
  'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'CSIDriver',
];

const RISK_RANK: Record<Risk, number> = { critical: 3, high: 2, medium: 1, low: 0 };
const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
/** Evidence lists longer than this are cut, with a count of what was left out. */
const MAX_LINES = 10;
/** The kubelet's default `terminationGracePeriodSeconds`. */
const DEFAULT_GRACE_SECONDS = 30;

/** Everything the sections below share about one DaemonSet and one cascade mode. */
interface Analysis {
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

function byName(a: KubeObject, b: KubeObject): number {
  return objectKey(a).localeCompare(objectKey(b));
}

function podName(p: Pod): string {
  return `${p.metadata?.namespace}/${p.metadata?.name}`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The verb form that agrees with a count: `uses` for 1, `use` otherwise. */
function agree(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** Keeps at most MAX_LINES lines, saying how many were left out. */
function limit(lines: string[], what = 'more'): string[] {
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} ${what}`];
}

/** `a, b, c` with at most `max` names and a count of the rest. */
function nameList(names: string[], max = 3): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

function addFinding(a: Analysis, code: ImpactCode, severity: Severity, message: string, evidence: string[] = []): void {
  a.findings.push({ code, severity, message, evidence });
}

function addRisk(a: Analysis, risk: Risk, reason: string): void {
  a.risks.push({ risk, reason });
}

function missing(a: Analysis, kind: SnapshotKind): boolean {
  return isMissing(a.index.snapshot, kind);
}

/** Pods whose controller ref names this DaemonSet: what the garbage collector deletes or orphans. */
function dependents(index: SnapshotIndex, ds: DaemonSet): Pod[] {
  const uid = ds.metadata?.uid;
  return index.podsControlledBy('DaemonSet', ds)
    .filter((p) => {
      const ref = controllerRef(p);
      return ref?.kind === 'DaemonSet' && (uid && ref.uid ? ref.uid === uid : ref.name === ds.metadata?.name);
    })
    .sort((x, y) => (x.spec?.nodeName ?? '').localeCompare(y.spec?.nodeName ?? '') || byName(x, y));
}

/** Pods of other workloads on the given nodes that are still running or starting. */
function othersOn(a: Analysis, nodes: string[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const n of nodes) {
    const pods = (a.index.podsByNode.get(n) ?? [])
      .filter((p) => !a.ownKeys.has(objectKey(p)) && !isPodTerminal(p))
      .sort(byName);
    out.set(n, pods);
  }
  return out;
}

function roleOf(a: Analysis, role: Role): RoleMatch | undefined {
  return a.roles.find((r) => r.role === role);
}

/** Per-node lines `node: N pods (a, b, c)` for the nodes that have any; `qualifier` follows the noun. */
function perNodeLines(byNode: Map<string, Pod[]>, qualifier = ''): string[] {
  const lines: string[] = [];
  for (const [n, pods] of byNode) {
    if (pods.length) lines.push(`${n}: ${plural(pods.length, 'pod')}${qualifier} (${nameList(pods.map(podName))})`);
  }
  return limit(lines, 'more nodes');
}

function count(byNode: Map<string, Pod[]>): number {
  let n = 0;
  for (const pods of byNode.values()) n += pods.length;
  return n;
}

// ---------------------------------------------------------------------------------------------
// What the delete itself does (docs/semantics.md §5.1).

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

function revisionNames(a: Analysis): string[] {
  return a.index.revisionsFor(a.ds).map((r) => r.metadata?.name ?? '').sort();
}

/** What each role breaks where it runs, when the input does not show where that is. */
const ROLE_RISK: Record<Role, { risk: Risk; what: string }> = {
  network: { risk: 'critical', what: 'the CNI agent: pods on its nodes lose the pod network' },
  'service-proxy': { risk: 'critical', what: 'the service proxy: Service routing on its nodes stops being kept up to date' },
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
function unseenPodsSection(a: Analysis): void {
  a.notChecked.push('which pods and nodes it runs on (no Pod or Node objects in the input): the risk is judged by its role wherever it runs');
  addFinding(a, 'PodsNotInInput', 'info', 'the input holds no Pod objects and no status that counts them: what is deleted on which nodes cannot be seen, so the risk is judged by the DaemonSet\'s role');
  for (const role of a.roles) {
    const r = ROLE_RISK[role.role];
    addRisk(a, r.risk, `${r.what} (judged by its role: its pods are not in the input)`);
  }
}

function deletionSection(a: Analysis): void {
  const revisions = revisionNames(a);
  if (a.podsUnseen) return;
  if (!a.pods.length) {
    addFinding(a, 'NoPods', 'info', `the DaemonSet has no pods: deleting it removes no pod${revisions.length ? `, only the object and its ${plural(revisions.length, 'ControllerRevision')}` : ''}`);
    return;
  }
  const evidence = [gracePeriods(a.pods)];
  const strategy = a.ds.spec?.updateStrategy;
  if ((strategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    evidence.push(`the rolling-update budget (maxUnavailable ${strategy?.rollingUpdate?.maxUnavailable ?? 1}) does not apply to deletion`);
  }
  if (revisions.length) evidence.push(`ControllerRevisions deleted too, so there is no rollout history left: ${nameList(revisions, 5)}`);
  evidence.push(...limit(a.pods.map((p) => `${p.spec?.nodeName ?? '(not scheduled)'}: ${p.metadata?.name}`), 'more pods'));
  addFinding(a, 'PodsDeleted', 'warning',
    `the garbage collector deletes all ${plural(a.pods.length, 'pod')} on ${plural(a.nodes.length, 'node')} at once, and nothing re-creates them: the DaemonSet controller no longer has a DaemonSet to act on`,
    evidence);

  if (a.cascade === 'foreground') {
    addFinding(a, 'ForegroundDeletion', 'info',
      'the DaemonSet stays visible with a deletionTimestamp and the foregroundDeletion finalizer until every pod is gone; meanwhile its controller does nothing (no creates, no deletes) and its status freezes',
      ['kubectl delete waits (--wait=true) until the DaemonSet is gone, i.e. until the last pod has terminated']);
  }

  const stuck: string[] = [];
  for (const p of a.pods) {
    const node = p.spec?.nodeName;
    if (!node) continue;
    const ready = nodeReadyStatus(a.index.nodesByName.get(node));
    const since = p.metadata?.deletionTimestamp;
    const overdue = since ? Math.max(0, Math.round((a.now.getTime() - parseRfc3339(since)) / 60000)) : 0;
    if (ready !== 'True' && a.index.nodesByName.has(node)) {
      stuck.push(`${node} (Ready=${ready || 'unknown'}): ${p.metadata?.name}; force-delete: kubectl delete pod -n ${a.ns} ${p.metadata?.name} --grace-period=0 --force`);
    } else if (since && overdue > 0) {
      stuck.push(`${node}: ${p.metadata?.name} already past its grace period by ${overdue}m`);
    }
  }
  if (stuck.length) {
    addFinding(a, 'PodsStuckTerminating', 'warning',
      `${plural(stuck.length, 'pod')} cannot be confirmed deleted by ${stuck.length === 1 ? 'its kubelet: it stays' : 'their kubelets: they stay'} Terminating until the node answers again or the pod is force-deleted${a.cascade === 'foreground' ? '; the DaemonSet stays in foreground deletion until then' : ''}`,
      limit(stuck));
  }
}

/** The `pod-template-generation` values of the pods, with counts: `1 (3 pods), 2 (5 pods)`. */
function generationCounts(pods: Pod[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of pods) {
    const g = p.metadata?.labels?.[LABEL_TEMPLATE_GENERATION] ?? '(none)';
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return new Map([...counts.entries()].sort((x, y) => Number(x[0]) - Number(y[0]) || x[0].localeCompare(y[0])));
}

/** A template generation that no pod carries, for the annotation of a re-created DaemonSet. */
function freshGeneration(a: Analysis): number {
  let max = templateGeneration(a.ds) ?? 1;
  for (const g of generationCounts(a.pods).keys()) if (/^\d+$/.test(g)) max = Math.max(max, Number(g));
  return max + 1;
}

function orphanSection(a: Analysis, plainRisk: RiskReason | undefined): void {
  const revisions = revisionNames(a);
  const evidence = [
    'a pod that is deleted or evicted is not replaced (the kubelet still restarts its containers)',
    'nodes that join later get no pod, and template changes can no longer be rolled out',
  ];
  if (roleOf(a, 'network')) evidence.push('nodes that join later get no CNI agent, so pods on the pod network cannot start there');
  if (plainRisk) evidence.push(`a plain delete (--cascade=background) would be ${plainRisk.risk}: ${plainRisk.reason}`);
  addFinding(a, 'PodsOrphaned', a.live.length ? 'warning' : 'info',
    `no pod is deleted: the garbage collector removes the ownerReference from ${plural(a.pods.length, 'pod')} on ${plural(a.nodes.length, 'node')}${revisions.length ? ` and from ${plural(revisions.length, 'ControllerRevision')}` : ''}; the pods keep running with all their labels, but without a controller`,
    evidence);
  if (!a.live.length) return;

  const byNode = new Map<string, Pod[]>();
  for (const p of a.live) {
    const n = p.spec?.nodeName;
    if (n) byNode.set(n, [...(byNode.get(n) ?? []), p]);
  }
  // kubectl's drain filters stop at the first refusal, and localStorageFilter runs before
  // unreplicatedFilter: an orphan with an emptyDir volume is refused for that first.
  const refusal = (p: Pod) => ((p.spec?.volumes ?? []).some((v) => v.emptyDir !== undefined)
    ? 'Pods with local storage (use --delete-emptydir-data to override)'
    // kubectl's own constant already starts with "cannot delete" (k8s.io/kubectl pkg/drain/filters.go,
    // unmanagedFatal), so the printed message says it twice; this mirrors kubectl 1.35 as it prints.
    : 'cannot delete Pods that declare no controller (use --force to override)');
  const drain = [...byNode.entries()].map(([n, pods]) => {
    const groups = new Map<string, string[]>();
    for (const p of pods) groups.set(refusal(p), [...(groups.get(refusal(p)) ?? []), podName(p)]);
    const errors = [...groups.entries()].sort(([x], [y]) => x.localeCompare(y)).map(([m, names]) => `cannot delete ${m}: ${names.join(', ')}`);
    // Several messages form a utilerrors aggregate, printed in brackets (in Go map order; sorted here).
    const text = errors.length > 1 ? `[${errors.join(', ')}]` : errors[0];
    return `kubectl drain ${n} --ignore-daemonsets → error: unable to drain node "${n}" due to error: ${text}, continuing command...`;
  });
  addFinding(a, 'DrainRefusesOrphans', 'warning',
    'kubectl drain refuses the orphaned pods: they are no longer DaemonSet-managed, so --ignore-daemonsets does not cover them, and --force deletes them for good',
    drain.length > 3 ? [...drain.slice(0, 3), `… the same on ${plural(drain.length - 3, 'more node')}`] : drain);

  const gens = generationCounts(a.live);
  const atOne = gens.get('1') ?? 0;
  const fresh = freshGeneration(a);
  const current = templateGeneration(a.ds);
  const exported = current !== undefined ? gens.get(String(current)) ?? 0 : 0;
  const quirk = [
    `selector: ${formatLabelSelector(a.ds.spec?.selector)} (adoption is by selector only, in namespace ${a.ns})`,
    `pod-template-generation of the pods: ${[...gens.entries()].map(([g, n]) => `${g} (${plural(n, 'pod')})`).join(', ')}`,
  ];
  if (atOne) quirk.push(`a DaemonSet created fresh starts at template generation 1: the ${plural(atOne, 'pod')} with pod-template-generation 1 would count as updated whatever its template, and never be rolled`);
  if (current !== undefined && current !== 1 && exported) quirk.push(`re-applying this DaemonSet's own manifest keeps deprecated.daemonset.template.generation "${current}", which the ${plural(exported, 'pod')} with that generation match`);
  quirk.push(`create the new DaemonSet with annotation deprecated.daemonset.template.generation: "${fresh}" (no pod carries it) so that the revision hash alone decides: same template → nothing restarts, changed template → pods are rolled`);
  addFinding(a, 'AdoptionTemplateGeneration', atOne || exported ? 'warning' : 'info',
    'a new DaemonSet with a matching selector adopts these pods; if its template differs, adopted pods whose pod-template-generation equals its template generation count as updated and are never replaced',
    quirk);
}

// ---------------------------------------------------------------------------------------------
// What the pods did on their nodes, by role.

function networkRole(a: Analysis): void {
  const onNet = new Map([...othersOn(a, a.nodes)].map(([n, pods]) => [n, pods.filter((p) => !p.spec?.hostNetwork)]));
  const k = count(onNet);
  addFinding(a, 'NodeNetworkingLost', 'error',
    `pod networking is no longer managed on ${plural(a.nodes.length, 'node')}: new pods there cannot start (sandbox creation fails while the CNI configuration points at an agent that is gone), and the ${plural(k, 'running pod')} on the pod network there keep their interfaces but nothing maintains their routes, network policy or IP allocation`,
    [
      ...perNodeLines(onNet, ' on the pod network'),
      'if the agent removes its CNI configuration when it stops, the kubelet reports NetworkReady=false ("cni plugin not initialized") and the node turns NotReady',
      'hostNetwork pods are not affected',
    ]);
  addRisk(a, 'critical', `node networking (CNI agent) on ${plural(a.nodes.length, 'node')}, ${plural(k, 'pod')} on the pod network there`);
}

/** Services kube-proxy programs: everything but headless and ExternalName ones. */
function proxiedServices(a: Analysis): Service[] {
  return a.index.snapshot.services
    .filter((s) => s.spec?.type !== 'ExternalName' && s.spec?.clusterIP !== 'None')
    .sort(byName);
}

function serviceProxyRole(a: Analysis): void {
  const evidence: string[] = [];
  let lbLocal: Service[] = [];
  if (missing(a, 'Service')) {
    a.notChecked.push('which Services kube-proxy routes on these nodes (no Service objects in the input)');
  } else {
    const services = proxiedServices(a);
    const types = new Map<string, number>();
    for (const s of services) types.set(s.spec?.type ?? 'ClusterIP', (types.get(s.spec?.type ?? 'ClusterIP') ?? 0) + 1);
    const byType = ['ClusterIP', 'NodePort', 'LoadBalancer'].filter((t) => types.has(t)).map((t) => `${types.get(t)} ${t}`);
    evidence.push(`${plural(services.length, 'Service')} routed through it${byType.length ? `: ${byType.join(', ')}` : ''}`);
    const external = services.filter((s) => s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer');
    if (external.length) evidence.push(`reached from outside through these nodes: ${nameList(external.map(objectKey), 5)}`);
    lbLocal = external.filter((s) => s.spec?.externalTrafficPolicy === 'Local');
  }
  evidence.push(`nodes: ${nameList(a.nodes, 10)}`);
  addFinding(a, 'ServiceRoutingFrozen', 'error',
    `Service routing is no longer updated on ${plural(a.nodes.length, 'node')}: the iptables/IPVS rules already there stay but freeze, so endpoint changes (restarted pods with new IPs, scaling, new Services) are not routed from those nodes, and a node that reboots has no Service routing at all`,
    evidence);
  addRisk(a, 'critical', `Service routing (service proxy) on ${plural(a.nodes.length, 'node')}`);
  if (lbLocal.length) {
    addFinding(a, 'LoadBalancerHealthChecksFail', 'error',
      'load balancers take these nodes out of rotation: the health check node port of externalTrafficPolicy: Local Services is served by kube-proxy, so with it gone the checks fail on every node',
      [
        ...limit(lbLocal.map((s) => {
          const hc = (s.spec as { healthCheckNodePort?: number } | undefined)?.healthCheckNodePort;
          return `${objectKey(s)} (${s.spec?.type}, externalTrafficPolicy: Local${hc ? `, healthCheckNodePort ${hc}` : ''})`;
        })),
        'many cloud load balancers also check kube-proxy\'s /healthz (port 10256) for externalTrafficPolicy: Cluster Services',
      ]);
    addRisk(a, 'critical', `load-balancer health checks of ${plural(lbLocal.length, 'Service')} with externalTrafficPolicy: Local`);
  }
}

interface VolumeUse {
  pod: Pod;
  node: string;
  what: string;
  /** True for an inline CSI volume of one of the plugin's drivers; false for a claim. */
  certain: boolean;
}

function volumeUses(a: Analysis, drivers: string[]): VolumeUse[] {
  const uses: VolumeUse[] = [];
  for (const [node, pods] of othersOn(a, a.nodes)) {
    for (const pod of pods) {
      for (const v of pod.spec?.volumes ?? []) {
        const csi = v['csi'] as { driver?: string } | undefined;
        if (csi?.driver && drivers.includes(csi.driver)) uses.push({ pod, node, what: `inline CSI volume ${v.name} (${csi.driver})`, certain: true });
        else if (v.persistentVolumeClaim) uses.push({ pod, node, what: `claim ${v.persistentVolumeClaim.claimName}`, certain: false });
        else if (v['ephemeral']) uses.push({ pod, node, what: `generic ephemeral volume ${v.name}`, certain: false });
      }
    }
  }
  return uses;
}

function storageRole(a: Analysis): void {
  const snapshot = a.index.snapshot;
  const known = snapshot.csiDrivers.map((d) => d.metadata?.name ?? '').filter(Boolean).sort();
  const drivers = csiDriversServed(a.ds, known);
  const driverText = drivers.length ? `CSI driver ${drivers.join(', ')}` : 'its CSI driver (name not found in the template)';
  // Claims name no driver; without PersistentVolumes they are attributed to this plugin only when
  // no other CSI driver is known (a CSIDriver object or another node plugin in the snapshot).
  const others = new Set(known.filter((d) => !drivers.includes(d)));
  for (const other of snapshot.daemonSets) {
    if (other === a.ds) continue;
    for (const d of csiDriversServed(other, known)) if (!drivers.includes(d)) others.add(d);
  }
  const uses = volumeUses(a, drivers);
  const claims = uses.filter((u) => !u.certain);
  const attributed = others.size === 0;
  if (missing(a, 'CSIDriver')) a.notChecked.push(`the CSIDriver object of the plugin (no CSIDriver objects in the input: the driver name comes from the plugin directory${drivers.length ? `, ${drivers.join(', ')}` : ''})`);
  if (claims.length) {
    a.notChecked.push(`which CSI driver backs each PersistentVolumeClaim (PersistentVolumeClaims and PersistentVolumes are not read): ${attributed ? `claims on these nodes are counted against ${driverText}, the only CSI driver in the input` : `claims may also be on ${[...others].sort().join(', ')}`}`);
  }
  const counted = uses.filter((u) => u.certain || attributed);
  const podsCounted = new Set(counted.map((u) => objectKey(u.pod)));
  const lines = limit(uses.map((u) => `${u.node}: ${podName(u.pod)} (${u.what})`), 'more volumes');
  const message = `${driverText} stops serving ${plural(a.nodes.length, 'node')}: volumes already mounted keep working, but new mounts and unmounts fail, so a pod there that starts, is re-created or is deleted hangs in ContainerCreating (FailedMount) or Terminating`;
  if (podsCounted.size) {
    addFinding(a, 'VolumeOperationsStop', 'error', `${message}; ${plural(podsCounted.size, 'pod')} there ${agree(podsCounted.size, 'uses', 'use')} its volumes`, lines);
    addRisk(a, 'critical', `storage: ${plural(podsCounted.size, 'pod')} on these nodes ${agree(podsCounted.size, 'uses', 'use')} volumes of ${driverText}`);
  } else if (claims.length) {
    const podsWithClaims = new Set(claims.map((u) => objectKey(u.pod))).size;
    addFinding(a, 'VolumeOperationsStop', 'warning', `${message}; ${plural(podsWithClaims, 'pod')} there ${agree(podsWithClaims, 'has', 'have')} claims that may be on it`, lines);
    addRisk(a, 'high', `storage: ${plural(podsWithClaims, 'pod')} on these nodes ${agree(podsWithClaims, 'has', 'have')} claims that may use ${driverText}`);
  } else {
    addFinding(a, 'VolumeOperationsStop', 'warning', `${message}; no pod there uses its volumes now`, [`nodes: ${nameList(a.nodes, 10)}`]);
    addRisk(a, 'medium', `storage: new volumes of ${driverText} cannot be mounted on ${plural(a.nodes.length, 'node')} (no pod uses one now)`);
  }
}

/** Extended resources (`domain/name`, not the kubernetes.io ones) a node advertises, with amounts. */
function extendedResources(a: Analysis, node: string): [string, string][] {
  const alloc = a.index.nodesByName.get(node)?.status?.allocatable ?? {};
  return Object.entries(alloc)
    .filter(([k, v]) => k.includes('/') && !/(^|\.)kubernetes\.io\//.test(k) && v !== '0')
    .sort(([x], [y]) => x.localeCompare(y));
}

/** Which of the advertised resources this plugin provides: the ones whose vendor its images or name mention. */
function advertisedBy(a: Analysis, candidates: string[]): { resources: string[]; how: string } {
  const text = [a.name, ...(a.ds.spec?.template?.spec?.containers ?? []).map((c) => c.image ?? '')].join(' ').toLowerCase();
  const vendor = candidates.filter((r) => r.split('/')[0]!.split('.').some((label) => label.length >= 3 && !['com', 'org', 'net', 'gpu', 'k8s'].includes(label) && text.includes(label)));
  if (vendor.length) return { resources: vendor, how: 'its image or name names the vendor' };
  return { resources: candidates, how: 'advertised on its nodes; not attributed to a vendor' };
}

function deviceRole(a: Analysis): void {
  if (missing(a, 'Node')) {
    a.notChecked.push('which extended resources the device plugin advertises (no Node objects in the input)');
  }
  const advertised = new Map<string, string[]>();
  for (const n of a.nodes) {
    for (const [r, v] of extendedResources(a, n)) advertised.set(r, [...(advertised.get(r) ?? []), `${n}: ${v}`]);
  }
  const { resources, how } = advertisedBy(a, [...advertised.keys()].sort());
  if (!resources.length) {
    addFinding(a, 'ExtendedResourceLost', 'warning', `the device plugin stops on ${plural(a.nodes.length, 'node')}, but none of them advertises an extended resource`, [`nodes: ${nameList(a.nodes, 10)}`]);
    addRisk(a, 'medium', 'device plugin (no extended resource found on its nodes)');
    return;
  }
  const evidence = resources.map((r) => `${r} (${how}): ${advertised.get(r)!.join(', ')}`);
  const consumers: string[] = [];
  let running = 0;
  let pending = 0;
  // Running consumers by node, then the ones still waiting to be scheduled.
  const pods = [...a.index.snapshot.pods].filter((p) => !a.ownKeys.has(objectKey(p)) && !isPodTerminal(p))
    .sort((x, y) => (x.spec?.nodeName ? 0 : 1) - (y.spec?.nodeName ? 0 : 1) || (x.spec?.nodeName ?? '').localeCompare(y.spec?.nodeName ?? '') || byName(x, y));
  for (const p of pods) {
    const reqs = podRequests(p.spec);
    const wanted = resources.filter((r) => (reqs.get(r) ?? 0) > 0);
    if (!wanted.length) continue;
    const amount = wanted.map((r) => `${r}: ${formatAmount(r, reqs.get(r)!)}`).join(', ');
    const node = p.spec?.nodeName;
    if (node && a.nodes.includes(node)) {
      running++;
      consumers.push(`${node}: ${podName(p)} requests ${amount} (keeps its devices while it runs)`);
    } else if (!node) {
      pending++;
      consumers.push(`${podName(p)} requests ${amount} (not scheduled yet: will not schedule on these nodes)`);
    }
  }
  const names = resources.join(', ');
  const message = `${names} stops being advertised on ${plural(a.nodes.length, 'node')}: the kubelet marks the devices unhealthy and the nodes' allocatable ${names} drops to 0, so new pods requesting it no longer schedule there`;
  if (running + pending) {
    addFinding(a, 'ExtendedResourceLost', 'error', `${message}; ${plural(running, 'running pod')} ${agree(running, 'keeps the devices it has', 'keep the devices they have')}, ${plural(pending, 'pending pod')} will not schedule, and a consumer that is re-created has nowhere to go`, [...evidence, ...limit(consumers, 'more pods')]);
    addRisk(a, 'high', `device plugin: ${plural(running + pending, 'pod')} ${agree(running + pending, 'requests', 'request')} ${names}`);
  } else {
    addFinding(a, 'ExtendedResourceLost', 'warning', `${message}; no pod requests it now`, evidence);
    addRisk(a, 'medium', `device plugin for ${names} (no pod requests it now)`);
  }
}

function dnsRole(a: Analysis): void {
  const clients = new Map([...othersOn(a, a.nodes)].map(([n, pods]) => [n, pods.filter((p) => !p.spec?.hostNetwork || p.spec.dnsPolicy === 'ClusterFirstWithHostNet')]));
  addFinding(a, 'NodeDnsLost', 'error',
    `the node-local DNS cache stops on ${plural(a.nodes.length, 'node')}: pods there that resolve through its link-local address (the kubelet's clusterDNS) fail lookups until it returns; where it only intercepts the kube-dns Service address, it removes its rules on exit and lookups fall back to kube-dns`,
    perNodeLines(clients, ' using cluster DNS'));
  addRisk(a, 'high', `node-local DNS on ${plural(a.nodes.length, 'node')}`);
}

function loggingRole(a: Analysis): void {
  const others = othersOn(a, a.nodes);
  const k = count(others);
  addFinding(a, 'LogsNotCollected', 'warning',
    `container logs on ${plural(a.nodes.length, 'node')} are not collected while no collector runs: what ${plural(k, 'pod')} there ${agree(k, 'writes', 'write')} in the gap is shipped later only if a collector returns before the kubelet rotates the files away (by default 5 files of 10Mi per container) and before their pods are deleted, and only if it keeps its read positions on the host`,
    perNodeLines(others));
  addRisk(a, 'medium', `logging: logs of ${plural(k, 'pod')} on ${plural(a.nodes.length, 'node')} are lost for the gap`);
}

function monitoringRole(a: Analysis): void {
  addFinding(a, 'MetricsGap', 'warning',
    `metrics from ${plural(a.nodes.length, 'node')} stop: scrapes of these pods fail (up == 0), alerts on missing targets fire, and dashboards show a gap`,
    [`nodes: ${nameList(a.nodes, 10)}`]);
  a.notChecked.push('ServiceMonitors and PodMonitors that scrape these pods (Prometheus Operator objects are not read)');
  addRisk(a, 'medium', `monitoring: metrics of ${plural(a.nodes.length, 'node')} stop`);
}

function securityRole(a: Analysis): void {
  addFinding(a, 'SecurityAgentGone', 'warning',
    `runtime security is off on ${plural(a.nodes.length, 'node')} for the gap: nothing there detects or blocks activity until the agent returns`,
    [`nodes: ${nameList(a.nodes, 10)}`]);
  addRisk(a, 'medium', `security agent on ${plural(a.nodes.length, 'node')}`);
}

const ROLE_SECTIONS: Record<Role, (a: Analysis) => void> = {
  network: networkRole,
  'service-proxy': serviceProxyRole,
  storage: storageRole,
  device: deviceRole,
  dns: dnsRole,
  logging: loggingRole,
  monitoring: monitoringRole,
  security: securityRole,
};

// ---------------------------------------------------------------------------------------------
// Services, webhooks, budgets and priority.

function endpointSliceEvidence(a: Analysis, svc: Service): string[] {
  const slices = a.index.snapshot.endpointSlices
    .filter((s) => s.metadata?.namespace === a.ns && s.metadata?.labels?.['kubernetes.io/service-name'] === svc.metadata?.name)
    .sort(byName);
  return slices.map((s) => {
    const eps = s.endpoints ?? [];
    const ours = eps.filter((e) => e.targetRef?.kind === 'Pod' && a.ownKeys.has(`${e.targetRef.namespace ?? a.ns}/${e.targetRef.name}`)).length;
    return `EndpointSlice ${s.metadata?.name}: ${plural(eps.length, 'endpoint')}, ${ours} of them pods of this DaemonSet`;
  });
}

function servicesSection(a: Analysis): void {
  if (missing(a, 'Service')) {
    a.notChecked.push('Services that would lose all their endpoints (no Service objects in the input)');
    return;
  }
  const nsPods = (a.index.podsByNamespace.get(a.ns) ?? []).filter((p) => !isPodTerminal(p) && !p.metadata?.deletionTimestamp);
  for (const svc of a.index.snapshot.services.filter((s) => s.metadata?.namespace === a.ns).sort(byName)) {
    const sel = svc.spec?.selector;
    if (!sel || !Object.keys(sel).length) continue;
    const selector = compileLabelSelector({ matchLabels: sel });
    if (!selector.ok) continue;
    const ours = a.live.filter((p) => selector.matches(p.metadata?.labels));
    if (!ours.length) continue;
    const remaining = nsPods.filter((p) => !a.ownKeys.has(objectKey(p)) && selector.matches(p.metadata?.labels));
    const key = objectKey(svc);
    const type = svc.spec?.type ?? 'ClusterIP';
    const headless = svc.spec?.clusterIP === 'None';
    const selText = formatLabelSelector({ matchLabels: sel });
    if (!remaining.length) {
      a.lostServices.add(key);
      const external = type === 'NodePort' || type === 'LoadBalancer';
      addFinding(a, 'ServiceLosesAllEndpoints', external ? 'error' : 'warning',
        `Service ${key} (${headless ? 'headless' : type}) loses all its endpoints: its selector ${selText} matches only ${ours.length === 1 ? 'this pod' : `these ${ours.length} pods`}, so ${headless ? 'its DNS name resolves to nothing' : 'connections to it are refused'}`,
        endpointSliceEvidence(a, svc));
      addRisk(a, external ? 'high' : 'medium', `Service ${key} loses all endpoints`);
      continue;
    }
    // With a Local traffic policy, a node only uses endpoints on itself.
    const local = svc.spec?.internalTrafficPolicy === 'Local' ? 'internalTrafficPolicy'
      : (type === 'NodePort' || type === 'LoadBalancer') && svc.spec?.externalTrafficPolicy === 'Local' ? 'externalTrafficPolicy' : undefined;
    if (!local) continue;
    const bare = a.nodes.filter((n) => !remaining.some((p) => p.spec?.nodeName === n));
    if (!bare.length) continue;
    addFinding(a, 'ServiceLosesLocalEndpoints', 'warning',
      `Service ${key} has ${local}: Local, so on ${plural(bare.length, 'node')} where only these pods served it, ${local === 'internalTrafficPolicy' ? 'traffic from pods on those nodes is dropped' : 'external traffic to those nodes is dropped'} (${plural(remaining.length, 'other endpoint')} elsewhere)`,
      [`nodes: ${nameList(bare, 10)}`]);
    addRisk(a, 'medium', `Service ${key} loses its local endpoints on ${plural(bare.length, 'node')}`);
  }
}

type Webhook = NonNullable<WebhookConfiguration['webhooks']>[number];
type WebhookRule = NonNullable<Webhook['rules']>[number];

function ruleCovers(rule: WebhookRule, group: string, resource: string): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);
  return has(rule.operations, 'CREATE') && has(rule.apiGroups, group)
    && (rule.resources ?? []).some((r) => r === '*' || r === '*/*' || r === resource)
    && (rule.scope === undefined || rule.scope === '*' || rule.scope === 'Namespaced');
}

function selects(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  const compiled = compileLabelSelector(selector ?? {});
  return compiled.ok && compiled.matches(labels);
}

function ruleText(wh: Webhook): string {
  const rules = (wh.rules ?? []).map((r) => `${(r.operations ?? []).join(',')} ${(r.resources ?? []).join(',')}${(r.apiGroups ?? []).some((g) => g !== '') ? ` (${(r.apiGroups ?? []).map((g) => g || 'core').join(',')})` : ''}`);
  return rules.length ? rules.join('; ') : '(no rules)';
}

/** The resources whose creation in the DaemonSet's namespace the webhook intercepts: pods, the DaemonSet itself. */
function blocksRecovery(a: Analysis, wh: Webhook): string[] {
  const nsObj = a.index.snapshot.namespaces.find((n) => n.metadata?.name === a.ns);
  const nsLabels = nsObj?.metadata?.labels ?? { 'kubernetes.io/metadata.name': a.ns };
  if (!selects(wh.namespaceSelector, nsLabels)) return [];
  const out: string[] = [];
  const podLabels = a.ds.spec?.template?.metadata?.labels;
  if ((wh.rules ?? []).some((r) => ruleCovers(r, '', 'pods')) && selects(wh.objectSelector, podLabels)) out.push('pods');
  if ((wh.rules ?? []).some((r) => ruleCovers(r, 'apps', 'daemonsets')) && selects(wh.objectSelector, a.ds.metadata?.labels)) out.push('daemonsets');
  return out;
}

function webhooksSection(a: Analysis): void {
  const kinds = [
    { kind: 'ValidatingWebhookConfiguration' as const, list: a.index.snapshot.validatingWebhooks, resource: 'validatingwebhookconfiguration' },
    { kind: 'MutatingWebhookConfiguration' as const, list: a.index.snapshot.mutatingWebhooks, resource: 'mutatingwebhookconfiguration' },
  ];
  const absent = kinds.filter((k) => missing(a, k.kind)).map((k) => k.kind);
  if (absent.length) a.notChecked.push(`admission webhooks served by these pods (no ${absent.join(' or ')} objects in the input)`);
  for (const { kind, list, resource } of kinds) {
    for (const cfg of [...list].sort(byName)) {
      (cfg.webhooks ?? []).forEach((wh, i) => {
        const svc = wh.clientConfig?.service;
        const key = `${svc?.namespace ?? ''}/${svc?.name ?? ''}`;
        if (!svc || !a.lostServices.has(key)) return;
        const policy = wh.failurePolicy ?? 'Fail';
        const scope = wh.namespaceSelector && (Object.keys(wh.namespaceSelector.matchLabels ?? {}).length || wh.namespaceSelector.matchExpressions?.length)
          ? `namespaces matching ${formatLabelSelector(wh.namespaceSelector)}` : 'every namespace';
        const evidence = [
          `${kind} ${cfg.metadata?.name}, webhook ${wh.name}: failurePolicy ${policy}${wh.failurePolicy ? '' : ' (the default)'}`,
          `intercepts: ${ruleText(wh)} in ${scope}${wh.objectSelector && formatLabelSelector(wh.objectSelector) !== '<all>' ? `, objects matching ${formatLabelSelector(wh.objectSelector)}` : ''}`,
          `calls Service ${key}${svc.path ? ` path ${svc.path}` : ''}, which loses all its endpoints`,
        ];
        if (policy === 'Fail') {
          a.failClosed.push({ kind: resource, config: cfg.metadata?.name ?? '', index: i, webhook: wh.name });
          addFinding(a, 'WebhookFailClosed', 'error',
            `admission webhook "${wh.name}" fails closed and only these pods serve it: every request it intercepts is rejected cluster-wide ("failed calling webhook \\"${wh.name}\\"") until a pod serves it again`,
            evidence);
          addRisk(a, 'critical', `fail-closed admission webhook "${wh.name}" is served only by these pods`);
          const blocked = blocksRecovery(a, wh);
          if (blocked.length) {
            addFinding(a, 'WebhookBlocksRecovery', 'error',
              `"${wh.name}" also intercepts CREATE of ${blocked.join(' and ')} in namespace ${a.ns}: once these pods are gone, neither the DaemonSet controller nor a re-created DaemonSet can create the pods that would serve it again, a deadlock that only relaxing or removing the webhook breaks`,
              [`re-applying the DaemonSet fails in admission, or its pods fail with FailedCreate events`]);
          }
        } else {
          addFinding(a, 'WebhookSkipped', 'warning',
            `admission webhook "${wh.name}" fails open: while these pods are gone, requests it intercepts are admitted without it (${kind.startsWith('Validating') ? 'its policy is not enforced' : 'its mutations are not applied'})`,
            evidence);
          addRisk(a, 'medium', `admission webhook "${wh.name}" is skipped while these pods are gone`);
        }
      });
    }
  }
}

function budgetsSection(a: Analysis): void {
  if (missing(a, 'PodDisruptionBudget')) {
    a.notChecked.push('PodDisruptionBudgets that select these pods, which would not protect them from deletion anyway (no PodDisruptionBudget objects in the input)');
    return;
  }
  for (const pdb of a.index.snapshot.podDisruptionBudgets.filter((p) => p.metadata?.namespace === a.ns).sort(byName)) {
    const compiled = compileLabelSelector(pdb.spec?.selector);
    if (!compiled.ok) continue;
    const n = a.live.filter((p) => compiled.matches(p.metadata?.labels)).length;
    if (!n) continue;
    const budget = pdb.spec?.minAvailable !== undefined ? `minAvailable ${pdb.spec.minAvailable}` : `maxUnavailable ${pdb.spec?.maxUnavailable ?? '?'}`;
    addFinding(a, 'PdbDoesNotApply', 'info',
      `PodDisruptionBudget ${objectKey(pdb)} selects ${`${n} of these pods`} but does not protect them here: budgets only guard evictions (kubectl drain, the eviction API), and deleting a DaemonSet deletes its pods directly`,
      [`selector ${formatLabelSelector(pdb.spec?.selector)}, ${budget}`]);
  }
}

function stakesSection(a: Analysis): void {
  const pc = a.ds.spec?.template?.spec?.priorityClassName;
  if (pc === 'system-node-critical' || pc === 'system-cluster-critical') {
    const value = a.index.snapshot.priorityClasses.find((p) => p.metadata?.name === pc)?.value;
    addRisk(a, 'high', `priorityClassName ${pc}${value !== undefined ? ` (${value})` : ''}: marked as critical to ${pc === 'system-node-critical' ? 'every node it runs on' : 'the cluster'}`);
  }
  if (a.ns === 'kube-system') addRisk(a, 'high', 'runs in kube-system, the namespace of cluster components');
}

// ---------------------------------------------------------------------------------------------
// Safer alternatives.

/**
 * The node to take the DaemonSet off first: a Ready worker (never a control-plane node) where
 * the fewest other pods run, then by name.
 */
function canaryNode(a: Analysis): string {
  const others = othersOn(a, a.nodes);
  const score = (n: string): number[] => {
    const node = a.index.nodesByName.get(n);
    const labels = node?.metadata?.labels ?? {};
    const controlPlane = 'node-role.kubernetes.io/control-plane' in labels || 'node-role.kubernetes.io/master' in labels;
    return [controlPlane ? 1 : 0, nodeReadyStatus(node) === 'True' ? 0 : 1, others.get(n)?.length ?? 0];
  };
  const ranked = a.nodes.map((n) => ({ n, s: score(n) }))
    .sort((x, y) => x.s[0]! - y.s[0]! || x.s[1]! - y.s[1]! || x.s[2]! - y.s[2]! || x.n.localeCompare(y.n));
  return ranked[0]?.n ?? '<node>';
}

function labelSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 63).replace(/[^A-Za-z0-9]+$/, '');
}

const ON_DELETE_PATCH = `'{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}'`;

function plans(a: Analysis): ImpactPlan[] {
  const out: ImpactPlan[] = [];
  const target = `daemonset -n ${a.ns} ${a.name}`;
  for (const w of a.failClosed) {
    out.push({
      summary: `Relax admission webhook "${w.webhook}" first: with failurePolicy Ignore the API keeps admitting requests while its pods are gone`,
      commands: [`kubectl patch ${w.kind} ${w.config} --type json -p '[{"op":"replace","path":"/webhooks/${w.index}/failurePolicy","value":"Ignore"}]'`],
      caveats: ['while it is Ignore, requests it would have rejected or changed go through unchecked'],
    });
  }
  const fresh = freshGeneration(a);
  const gens = generationCounts(a.live);
  out.push({
    summary: a.cascade === 'orphan'
      ? `Save the manifest first, so that a re-created DaemonSet adopts the orphaned pods (by selector ${formatLabelSelector(a.ds.spec?.selector)}) and manages them again`
      : `Orphan, then re-create: --cascade=orphan keeps all ${plural(a.live.length, 'pod')} running; a new DaemonSet with the same selector (${formatLabelSelector(a.ds.spec?.selector)}) adopts them and rolls them onto its template under its update strategy`,
    commands: [
      `kubectl get ${target} -o json | jq 'del(.metadata.uid, .metadata.resourceVersion, .metadata.creationTimestamp, .metadata.generation, .metadata.managedFields, .status) | .metadata.annotations["deprecated.daemonset.template.generation"] = "${fresh}"' > ${a.name}.json`,
      `kubectl delete ${target} --cascade=orphan`,
      `kubectl create -f ${a.name}.json`,
    ],
    caveats: [
      `the pod-template-generation quirk: an adopted pod counts as updated when its pod-template-generation equals the new DaemonSet's template generation (1 for a fresh one, else its deprecated.daemonset.template.generation annotation) even if its template differs, and is never rolled${gens.size ? ` (the pods carry ${[...gens.keys()].join(', ')})` : ''}; the annotation "${fresh}" set above matches no pod, so the revision hash decides`,
      'until the new DaemonSet exists, nothing replaces a deleted pod, nodes that join get none, and kubectl drain refuses the pods without --force',
      'adopted pods on nodes the new DaemonSet does not select are deleted at once',
    ],
  });
  const canary = canaryNode(a);
  const label = `ds-doctor/${labelSafe(a.name)}`;
  out.push({
    summary: `Narrow the nodeSelector to take it off a canary pool first: remove it from ${canary} only, watch what breaks there, then widen`,
    commands: [
      `kubectl patch ${target} --type merge -p ${ON_DELETE_PATCH}`,
      `kubectl label nodes --all ${label}=keep`,
      `kubectl label node ${canary} ${label}-`,
      `kubectl patch ${target} --type merge -p '{"spec":{"template":{"spec":{"nodeSelector":{"${label}":"keep"}}}}}'`,
    ],
    caveats: [
      `the controller deletes the pod on ${canary} as soon as the node no longer matches; OnDelete first keeps the template change from restarting the pods on every other node`,
      `nodes that join later lack the label and get no pod until labelled; undo with kubectl label node ${canary} ${label}=keep`,
    ],
  });
  const first = a.live.find((p) => p.spec?.nodeName === canary);
  out.push({
    summary: 'Switch to OnDelete and replace pods node by node instead of deleting: a template change then reaches a node only when you delete its pod, so you choose the order and stop at the first failure',
    commands: [
      `kubectl patch ${target} --type merge -p ${ON_DELETE_PATCH}`,
      `kubectl delete pod -n ${a.ns} ${first?.metadata?.name ?? '<pod>'}`,
    ],
    caveats: ['the controller re-creates every pod you delete from the current template: this replaces or upgrades the agent, it does not remove it'],
  });
  return out;
}

// ---------------------------------------------------------------------------------------------

function topRisk(risks: RiskReason[]): Risk {
  return risks.reduce<Risk>((r, x) => (RISK_RANK[x.risk] > RISK_RANK[r] ? x.risk : r), 'low');
}

function sortRisks(risks: RiskReason[]): RiskReason[] {
  return risks.map((r, i) => ({ r, i })).sort((x, y) => RISK_RANK[y.r.risk] - RISK_RANK[x.r.risk] || x.i - y.i).map((x) => x.r);
}

/**
 * What deleting `ds` with `kubectl delete --cascade=<cascade>` does and breaks, evaluated at
 * `now`. Pure: reads only the snapshot behind `index`.
 */
export function analyzeImpact(index: SnapshotIndex, ds: DaemonSet, cascade: Cascade, now: Date): DeleteImpact {
  const pods = dependents(index, ds);
  const live = pods.filter((p) => !isPodTerminal(p));
  const a: Analysis = {
    index, ds, cascade, now, pods, live,
    ns: ds.metadata?.namespace ?? '',
    name: ds.metadata?.name ?? '',
    ownKeys: new Set(pods.map(objectKey)),
    nodes: [...new Set(live.map((p) => p.spec?.nodeName).filter((n): n is string => Boolean(n)))].sort(),
    roles: detectRoles(ds, index.snapshot.csiDrivers.map((d) => d.metadata?.name ?? '').filter(Boolean)),
    findings: [], risks: [], notChecked: [], lostServices: new Set(), failClosed: [],
    podsUnseen: isMissing(index.snapshot, 'Pod') && !judgeAbsentKinds(['Pod'], [ds], 'impact').accepted.length,
  };
  if (missing(a, 'Node')) a.notChecked.push('whether the nodes are Ready, and what they advertise (no Node objects in the input)');
  if (missing(a, 'ControllerRevision')) a.notChecked.push('the ControllerRevisions that go with the DaemonSet (none in the input)');

  if (cascade === 'orphan') {
    const plain = analyzeImpact(index, ds, 'background', now);
    orphanSection(a, plain.riskReasons?.[0]);
    addRisk(a, 'low', `--cascade=orphan deletes no pod: ${plural(live.length, 'pod')} ${agree(live.length, 'keeps', 'keep')} running, unmanaged`);
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
      addRisk(a, 'low', live.length
        ? `nothing found that depends on these pods: no node-agent role, and no Service or webhook backed only by them${a.notChecked.length ? ' (within what the input allows to check)' : ''}`
        : a.podsUnseen
          ? 'no node-agent role in the pod template (its pods are not in the input, so Services or webhooks they back cannot be checked)'
          : 'no running pod goes away');
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
    findings: a.findings.map((f, i) => ({ f, i })).sort((x, y) => SEVERITY_RANK[x.f.severity] - SEVERITY_RANK[y.f.severity] || x.i - y.i).map((x) => x.f),
    alternatives: planList.map((p) => p.summary),
    notChecked: [...new Set(a.notChecked)],
    roleEvidence: a.roles.map((r) => ({ role: r.role, evidence: r.evidence })),
    riskReasons: risks,
    revisions: revisionNames(a).length,
    plans: planList,
  };
}
