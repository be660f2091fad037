/**
 * Host ports: the NodePorts filter (pkg/scheduler/framework/plugins/nodeports/node_ports.go,
 * `HostPortInfo` in pkg/scheduler/framework/types.go), docs/semantics.md §4.6.
 */
import type { Container, Pod, PodSpec } from '../model/k8s-types.js';

export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/**
 * The host ports a pod spec asks for: containers' `hostPort > 0` (and restartable init
 * containers', 1.34+). With `hostNetworkDefaults`, a hostNetwork spec's containerPorts count as
 * host ports, as Pod defaulting would set them (templates are not defaulted since 1.28).
 */
export function wantedHostPorts(spec: PodSpec | undefined, hostNetworkDefaults = false): HostPort[] {
  const containers: Container[] = [
    ...(spec?.containers ?? []),
    ...(spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  const out: HostPort[] = [];
  for (const c of containers) {
    for (const p of c.ports ?? []) {
      const port = p.hostPort ?? (hostNetworkDefaults && spec?.hostNetwork ? p.containerPort : 0);
      if (!port || port <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port });
    }
  }
  return out;
}

/** Two host ports conflict when protocol and port match and either IP is 0.0.0.0 or they are equal. */
export function portsConflict(a: HostPort, b: HostPort): boolean {
  return a.protocol === b.protocol && a.port === b.port && (a.ip === '0.0.0.0' || b.ip === '0.0.0.0' || a.ip === b.ip);
}

export function formatHostPort(p: HostPort): string {
  return `${p.ip}:${p.port}/${p.protocol}`;
}

/**
 * Each wanted port that another pod on the node already holds, with the holder. A hostNetwork
 * pod's containerPorts are its host ports (Pod defaulting, `kubernetes v1.35
 * pkg/apis/core/v1/defaults.go#SetDefaults_Pod`): a pod planned from a template has not been
 * defaulted yet.
 */
export function hostPortConflicts(pod: Pod, others: Pod[]): { port: HostPort; holder: string }[] {
  const wanted = wantedHostPorts(pod.spec, true);
  if (!wanted.length) return [];
  const out: { port: HostPort; holder: string }[] = [];
  for (const other of others) {
    for (const used of wantedHostPorts(other.spec, true)) {
      for (const w of wanted) {
        if (portsConflict(w, used))
          out.push({ port: w, holder: `${other.metadata?.namespace}/${other.metadata?.name}` });
      }
    }
  }
  return out;
}
