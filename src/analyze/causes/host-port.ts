/**
 * Host port chain: the DaemonSet's pods cannot be placed because a host port they ask for is
 * already taken on the node (the scheduler's NodePorts filter, kubernetes v1.35.4
 * pkg/scheduler/framework/plugins/nodeports/node_ports.go#Fits) → the holder is a pod of another
 * DaemonSet. Such a holder is not in the way by chance: its controller keeps one pod on every node
 * it selects and creates it again when it is deleted
 * (pkg/controller/daemon/daemon_controller.go#podsShouldBeOnNode), so the port stays taken on every
 * node both select until one of the two DaemonSets asks for another port. One cause names the
 * other DaemonSet and every node it holds the port on (sustainable-computing-io/kepler#71: hostPort
 * 9102 of ovnkube-master on every control-plane node).
 */
import type { DaemonSet, Pod } from '../../model/k8s-types.js';
import { formatHostPort, hostPortConflicts } from '../../k8s/hostports.js';
import type { NodeVerdict } from '../placement/index.js';
import { type CauseContext, type CauseDraft, dsRef, nameList } from './context.js';

/** The DaemonSet that controls a pod, by its controller reference: namespace and name. */
function owningDaemonSet(p: Pod): { namespace: string; name: string; uid?: string } | undefined {
  const ref = (p.metadata?.ownerReferences ?? []).find((o) => o.controller && o.kind === 'DaemonSet');
  return ref?.name ? { namespace: p.metadata?.namespace ?? '', name: ref.name, uid: ref.uid } : undefined;
}

export function hostPortCauses(c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]): CauseDraft[] {
  const template = { spec: ds.spec?.template?.spec } as Pod;
  const self = ds.metadata?.uid;
  const byHolder = new Map<
    string,
    { namespace: string; name: string; nodes: string[]; ports: Set<string>; pods: string[] }
  >();
  for (const r of rows) {
    if (!r.reasons.some((x) => x.code === 'HostPortConflict' && x.severity === 'error')) continue;
    const others = (c.index.podsByNode.get(r.node) ?? []).filter(
      (p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
    );
    for (const conflict of hostPortConflicts(template, others)) {
      const holder = c.index.podsByKey.get(conflict.holder);
      const owner = holder && owningDaemonSet(holder);
      // The DaemonSet's own old pod (surge with host ports) has its own reason.
      if (
        !owner ||
        (self && owner.uid === self) ||
        (owner.namespace === ds.metadata?.namespace && owner.name === ds.metadata?.name)
      )
        continue;
      const key = `${owner.namespace}/${owner.name}`;
      const entry = byHolder.get(key) ?? { ...owner, nodes: [], ports: new Set<string>(), pods: [] };
      if (!entry.nodes.includes(r.node)) entry.nodes.push(r.node);
      entry.ports.add(formatHostPort(conflict.port));
      if (entry.pods.length < 3 && !entry.pods.includes(conflict.holder)) entry.pods.push(conflict.holder);
      byHolder.set(key, entry);
    }
  }
  const name = ds.metadata?.name ?? '';
  const ns = ds.metadata?.namespace ?? '';
  return [...byHolder.values()].map((h) => {
    const ports = [...h.ports].sort();
    const inInput = c.index.daemonSetsByKey.has(`${h.namespace}/${h.name}`);
    return {
      code: 'HostPortHeldByDaemonSet' as const,
      severity: 'error' as const,
      chain: [
        `host port ${ports.join(', ')} is held there by DaemonSet ${h.namespace}/${h.name}`,
        'its controller keeps that pod on the node, so the port stays taken',
      ],
      nodes: h.nodes,
      cause: { kind: 'DaemonSet', namespace: h.namespace, name: h.name },
      affects: [dsRef(ds)],
      evidence: [
        `${h.nodes.length} node(s) where ${name}'s pod cannot be placed for the port: ${nameList(h.nodes)}`,
        `held by pod(s) ${nameList(h.pods)} (controlled by DaemonSet ${h.namespace}/${h.name}${inInput ? '' : ', not in the input'})`,
      ],
      fix: `deleting or moving the holder pod does not help: DaemonSet ${h.namespace}/${h.name} creates it again on the same node; give one of the two DaemonSets another host port, or none where the port need not be on the host (spec.template.spec.containers[].ports[].hostPort), for ${name}: kubectl edit daemonset ${name} -n ${ns}`,
    };
  });
}
