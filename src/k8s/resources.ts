/**
 * Pod resource requests and node fit: `PodRequests` (k8s.io/component-helpers/resource/helpers.go,
 * formerly pkg/api/v1/resource) and the NodeResourcesFit filter arithmetic
 * (pkg/scheduler/framework/plugins/noderesources/fit.go), docs/semantics.md §4.5.
 */
import type { Container, Node, Pod, PodSpec } from '../model/k8s-types.js';
import { resourceAmount } from './quantity.js';
import { isPodTerminal } from './podutil.js';
import { compareText } from '../model/order.js';

export type ResourceList = Map<string, number>;

function add(into: ResourceList, from: ResourceList): void {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
}

function maxInto(into: ResourceList, from: ResourceList): void {
  for (const [k, v] of from) into.set(k, Math.max(into.get(k) ?? 0, v));
}

/** A container's requests; limits stand in for missing requests (API defaulting on create). */
export function containerRequests(c: Container): ResourceList {
  const out: ResourceList = new Map();
  const requests = c.resources?.requests ?? {};
  const limits = c.resources?.limits ?? {};
  for (const [k, v] of Object.entries(limits)) {
    if (!(k in requests)) out.set(k, safeAmount(k, v));
  }
  for (const [k, v] of Object.entries(requests)) out.set(k, safeAmount(k, v));
  return out;
}

function safeAmount(resource: string, q: string): number {
  try {
    return resourceAmount(resource, q);
  } catch {
    return 0;
  }
}

const POD_LEVEL = (r: string) => r === 'cpu' || r === 'memory' || r.startsWith('hugepages-');

/**
 * `PodRequests`: max(sum of containers + sidecars, max over init containers of
 * (own request + sidecars started before it)), pod-level requests replacing cpu/memory/hugepages,
 * plus overhead.
 */
export function podRequests(spec: PodSpec | undefined): ResourceList {
  const reqs: ResourceList = new Map();
  for (const c of spec?.containers ?? []) add(reqs, containerRequests(c));
  const sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of spec?.initContainers ?? []) {
    const r = containerRequests(c);
    if (c.restartPolicy === 'Always') {
      add(reqs, r);
      add(sidecars, r);
      maxInto(initMax, sidecars);
    } else {
      const use: ResourceList = new Map(sidecars);
      add(use, r);
      maxInto(initMax, use);
    }
  }
  maxInto(reqs, initMax);
  const podLevel = spec?.resources?.requests;
  if (podLevel) {
    for (const [k, v] of Object.entries(podLevel)) if (POD_LEVEL(k)) reqs.set(k, safeAmount(k, v));
  }
  for (const [k, v] of Object.entries(spec?.overhead ?? {})) reqs.set(k, (reqs.get(k) ?? 0) + safeAmount(k, v));
  return reqs;
}

/** A node's allocatable resources in scheduler units. */
export function allocatable(node: Node): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of Object.entries(node.status?.allocatable ?? {})) out.set(k, safeAmount(k, v));
  return out;
}

/** Pods that take resources on a node for the scheduler: bound, not terminal (terminating ones count). */
export function podsUsingNode(pods: Pod[] | undefined, except?: Pod): Pod[] {
  return (pods ?? []).filter((p) => p !== except && !isPodTerminal(p));
}

export interface Shortage {
  resource: string;
  requested: number;
  allocatable: number;
  used: number;
  /** The biggest consumers on the node: [pod, amount]. */
  top: [string, number][];
}

export interface FitResult {
  tooManyPods?: { allowed: number; existing: number };
  shortages: Shortage[];
}

/**
 * NodeResourcesFit's Filter for one pod on one node: pod count first, then every non-zero
 * request against allocatable minus what the other pods request.
 */
export function fitsNode(pod: Pod, node: Node, others: Pod[]): FitResult {
  const alloc = allocatable(node);
  const result: FitResult = { shortages: [] };
  const allowedPods = alloc.get('pods') ?? 0;
  if (others.length + 1 > allowedPods) result.tooManyPods = { allowed: allowedPods, existing: others.length };
  const want = podRequests(pod.spec);
  const used: ResourceList = new Map();
  const perPod: [string, ResourceList][] = others.map((p) => [
    `${p.metadata?.namespace}/${p.metadata?.name}`,
    podRequests(p.spec),
  ]);
  for (const [, r] of perPod) add(used, r);
  const order = [
    'cpu',
    'memory',
    'ephemeral-storage',
    ...[...want.keys()].filter((k) => !['cpu', 'memory', 'ephemeral-storage', 'pods'].includes(k)).sort(),
  ];
  for (const resource of order) {
    const requested = want.get(resource) ?? 0;
    if (requested === 0) continue;
    const a = alloc.get(resource) ?? 0;
    const u = used.get(resource) ?? 0;
    if (requested > a - u) {
      const top = perPod
        .map(([name, r]): [string, number] => [name, r.get(resource) ?? 0])
        .filter(([, v]) => v > 0)
        .sort((x, y) => y[1] - x[1] || compareText(x[0], y[0]))
        .slice(0, 3);
      result.shortages.push({ resource, requested, allocatable: a, used: u, top });
    }
  }
  return result;
}
