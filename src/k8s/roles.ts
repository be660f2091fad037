/**
 * What a DaemonSet does on its nodes, inferred from its pod template: node networking (CNI),
 * service proxy, storage (CSI node plugin), device plugin, DNS cache, logging, monitoring,
 * security. Not an upstream algorithm: a set of evidence rules over the template (host paths,
 * capabilities, well-known images and sidecars), each role reported with the evidence found, so
 * that a reader can judge it. An ordinary application DaemonSet matches none.
 */
import type { Container, DaemonSet, PodSpec } from '../model/k8s-types.js';

export type Role = 'network' | 'service-proxy' | 'storage' | 'device' | 'dns' | 'logging' | 'monitoring' | 'security';

export const ROLES: readonly Role[] = ['network', 'service-proxy', 'storage', 'device', 'dns', 'logging', 'monitoring', 'security'];

export interface RoleMatch {
  role: Role;
  evidence: string[];
}

/** Image name patterns of well-known node agents, by role (matched against the image path, tag ignored). */
const KNOWN_IMAGES: Record<Role, RegExp> = {
  network: /(^|\/)(calico\/node|calico\/cni|cilium\/cilium|cilium-agent|flannel|flannel-cni-plugin|weave-kube|weave-npc|kube-ovn|antrea-agent|antrea\/antrea|amazon-k8s-cni|aws-node|azure-cni|azure-vnet|kindnetd|multus|canal|kube-router|ovn-kubernetes|netd|istio\/install-cni)(:|@|$)/,
  'service-proxy': /(^|\/)(kube-proxy)(:|@|$)/,
  storage: /(^|\/)(csi-node-driver-registrar|[\w.-]*csi[\w.-]*(driver|plugin|node)[\w.-]*|longhorn-manager|rook\/ceph|openebs[\w/-]*)(:|@|$)/,
  device: /(^|\/)(k8s-device-plugin|nvidia-device-plugin|[\w-]*device-plugin[\w-]*|sriov-network-device-plugin|intel-gpu-plugin)(:|@|$)/,
  dns: /(^|\/)(k8s-dns-node-cache|node-local-dns)(:|@|$)/,
  logging: /(^|\/)(fluent-bit|fluentd[\w-]*|fluent\/fluent-bit|vector|promtail|filebeat|logstash|splunk-otel-collector|logging-operator[\w/-]*|stackdriver-logging-agent|fluentd-elasticsearch)(:|@|$)/,
  monitoring: /(^|\/)(node-exporter|prometheus\/node-exporter|datadog\/agent|dd-agent|dcgm-exporter|cadvisor|newrelic-infrastructure|opentelemetry-collector[\w-]*|otel\/opentelemetry-collector[\w-]*|grafana\/agent|grafana\/alloy|metrics-agent|netdata)(:|@|$)/,
  security: /(^|\/)(falco|falcosecurity\/falco[\w-]*|tetragon|sysdig[\w/-]*|twistlock[\w/-]*|defender|crowdstrike[\w/-]*|falcon-sensor|aqua[\w/-]*enforcer|kube-bench|trivy-node|tracee|wazuh[\w-]*)(:|@|$)/,
};

function allContainers(spec: PodSpec | undefined): Container[] {
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
}

/** Image without registry-less tag or digest, e.g. "docker.io/calico/node". */
function imagePath(image: string): string {
  return image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
}

/** hostPath volumes of the template, as path strings. */
export function hostPaths(spec: PodSpec | undefined): string[] {
  return (spec?.volumes ?? []).map((v) => v.hostPath?.path).filter((p): p is string => typeof p === 'string');
}

function capabilities(c: Container): string[] {
  return c.securityContext?.capabilities?.add ?? [];
}

function hasPath(paths: string[], ...prefixes: string[]): string | undefined {
  return paths.find((p) => prefixes.some((x) => p === x || p.startsWith(`${x.replace(/\/$/, '')}/`)));
}

/**
 * Infers the roles of a DaemonSet. `csiDriverNames` (names of CSIDriver objects in the cluster)
 * confirm a storage role when a plugin directory carries a driver's name.
 */
export function detectRoles(ds: DaemonSet, csiDriverNames: readonly string[] = []): RoleMatch[] {
  const spec = ds.spec?.template?.spec;
  const containers = allContainers(spec);
  const paths = hostPaths(spec);
  const images = containers.map((c) => c.image ?? '').filter(Boolean);
  const name = ds.metadata?.name ?? '';
  const found = new Map<Role, string[]>();
  const add = (role: Role, evidence: string) => {
    const list = found.get(role) ?? [];
    if (!list.includes(evidence)) list.push(evidence);
    found.set(role, list);
  };

  for (const image of images) {
    for (const role of ROLES) {
      if (KNOWN_IMAGES[role].test(imagePath(image))) add(role, `image ${image}`);
    }
  }

  // Networking: CNI configuration or binaries on the host, or a hostNetwork agent with NET_ADMIN
  // that also owns the CNI's state directories.
  const cniPath = hasPath(paths, '/etc/cni/net.d', '/etc/cni', '/opt/cni/bin', '/opt/cni', '/var/lib/cni');
  if (cniPath) add('network', `hostPath ${cniPath} (CNI configuration/binaries)`);
  const netState = hasPath(paths, '/var/run/calico', '/var/lib/calico', '/var/run/cilium', '/run/flannel', '/var/run/openvswitch', '/sys/fs/bpf');
  const netAdmin = containers.some((c) => capabilities(c).includes('NET_ADMIN'));
  if (netState && spec?.hostNetwork && netAdmin) add('network', `hostNetwork with NET_ADMIN and hostPath ${netState}`);

  // Storage: the kubelet's plugin directories, the node-driver-registrar sidecar, a CSIDriver name.
  const pluginPath = hasPath(paths, '/var/lib/kubelet/plugins', '/var/lib/kubelet/plugins_registry');
  if (pluginPath) add('storage', `hostPath ${pluginPath} (CSI plugin registration)`);
  if (containers.some((c) => /node-driver-registrar/.test(c.image ?? '') || c.name === 'node-driver-registrar')) {
    add('storage', 'node-driver-registrar sidecar');
  }
  for (const driver of csiDriverNames) {
    if (paths.some((p) => p.includes(driver)) || containers.some((c) => (c.args ?? []).some((a) => a.includes(driver)))) {
      add('storage', `CSIDriver ${driver}`);
    }
  }

  // Devices: the device-plugin socket directory.
  const devicePath = hasPath(paths, '/var/lib/kubelet/device-plugins');
  if (devicePath) add('device', `hostPath ${devicePath} (device plugin socket)`);

  // Logging: container log directories on the host, with a collector image or several of them.
  const logPaths = paths.filter((p) => ['/var/log/pods', '/var/log/containers', '/var/lib/docker/containers'].some((x) => p === x || p.startsWith(`${x}/`)));
  if (logPaths.length) add('logging', `hostPath ${logPaths.join(', ')} (container logs)`);

  // Monitoring: the node_exporter shape (host /proc and /sys with hostPID) or a metrics port 9100.
  const procSys = hasPath(paths, '/proc') && hasPath(paths, '/sys');
  const metricsPort = containers.some((c) => (c.ports ?? []).some((p) => p.containerPort === 9100 || p.hostPort === 9100));
  if (procSys && (spec?.hostPID || metricsPort)) add('monitoring', 'reads the host /proc and /sys' + (metricsPort ? ' and serves metrics on port 9100' : ''));

  // kube-proxy by name in kube-system, even with a custom image.
  if (name === 'kube-proxy') add('service-proxy', 'DaemonSet named kube-proxy');

  return ROLES.filter((r) => found.has(r)).map((role) => ({ role, evidence: found.get(role)! }));
}

/** True when the DaemonSet looks like a node-level agent: any role, hostNetwork, or host paths. */
export function isNodeAgent(ds: DaemonSet): boolean {
  const spec = ds.spec?.template?.spec;
  return detectRoles(ds).length > 0 || spec?.hostNetwork === true || hostPaths(spec).length > 0;
}
