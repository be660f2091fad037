/**
 * What deleting a DaemonSet of role `device` breaks on its nodes.
 * A device plugin: the extended resources its nodes advertise, and the pods that request them.
 */
import { objectKey } from '../../../model/snapshot-index.js';
import { isPodTerminal } from '../../../k8s/podutil.js';
import { podRequests } from '../../../k8s/resources.js';
import { formatAmount } from '../../../k8s/quantity.js';
import {
  addFinding,
  addRisk,
  agree,
  byName,
  limit,
  missing,
  nameList,
  plural,
  podName,
  type Analysis,
} from '../analysis.js';
import { compareText } from '../../../model/order.js';

/** Extended resources (`domain/name`, not the kubernetes.io ones) a node advertises, with amounts. */
function extendedResources(a: Analysis, node: string): [string, string][] {
  const alloc = a.index.nodesByName.get(node)?.status?.allocatable ?? {};
  return Object.entries(alloc)
    .filter(([k, v]) => k.includes('/') && !/(^|\.)kubernetes\.io\//.test(k) && v !== '0')
    .sort(([x], [y]) => compareText(x, y));
}

/** Which of the advertised resources this plugin provides: the ones whose vendor its images or name mention. */
function advertisedBy(a: Analysis, candidates: string[]): { resources: string[]; how: string } {
  const text = [a.name, ...(a.ds.spec?.template?.spec?.containers ?? []).map((c) => c.image ?? '')]
    .join(' ')
    .toLowerCase();
  const vendor = candidates.filter((r) =>
    r
      .split('/')[0]!
      .split('.')
      .some(
        (label) => label.length >= 3 && !['com', 'org', 'net', 'gpu', 'k8s'].includes(label) && text.includes(label),
      ),
  );
  if (vendor.length) return { resources: vendor, how: 'its image or name names the vendor' };
  return { resources: candidates, how: 'advertised on its nodes; not attributed to a vendor' };
}

export function deviceRole(a: Analysis): void {
  if (missing(a, 'Node')) {
    a.notChecked.push('which extended resources the device plugin advertises (no Node objects in the input)');
  }
  const advertised = new Map<string, string[]>();
  for (const n of a.nodes) {
    for (const [r, v] of extendedResources(a, n)) advertised.set(r, [...(advertised.get(r) ?? []), `${n}: ${v}`]);
  }
  const { resources, how } = advertisedBy(a, [...advertised.keys()].sort());
  if (!resources.length) {
    addFinding(
      a,
      'ExtendedResourceLost',
      'warning',
      `the device plugin stops on ${plural(a.nodes.length, 'node')}, but none of them advertises an extended resource`,
      [`nodes: ${nameList(a.nodes, 10)}`],
    );
    addRisk(a, 'medium', 'device plugin (no extended resource found on its nodes)');
    return;
  }
  const evidence = resources.map((r) => `${r} (${how}): ${advertised.get(r)!.join(', ')}`);
  const consumers: string[] = [];
  let running = 0;
  let pending = 0;
  // Running consumers by node, then the ones still waiting to be scheduled.
  const pods = [...a.index.snapshot.pods]
    .filter((p) => !a.ownKeys.has(objectKey(p)) && !isPodTerminal(p))
    .sort(
      (x, y) =>
        (x.spec?.nodeName ? 0 : 1) - (y.spec?.nodeName ? 0 : 1) ||
        compareText(x.spec?.nodeName ?? '', y.spec?.nodeName ?? '') ||
        byName(x, y),
    );
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
    addFinding(
      a,
      'ExtendedResourceLost',
      'error',
      `${message}; ${plural(running, 'running pod')} ${agree(running, 'keeps the devices it has', 'keep the devices they have')}, ${plural(pending, 'pending pod')} will not schedule, and a consumer that is re-created has nowhere to go`,
      [...evidence, ...limit(consumers, 'more pods')],
    );
    addRisk(
      a,
      'high',
      `device plugin: ${plural(running + pending, 'pod')} ${agree(running + pending, 'requests', 'request')} ${names}`,
    );
  } else {
    addFinding(a, 'ExtendedResourceLost', 'warning', `${message}; no pod requests it now`, evidence);
    addRisk(a, 'medium', `device plugin for ${names} (no pod requests it now)`);
  }
}
