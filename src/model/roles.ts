/**
 * What a DaemonSet does on its nodes, inferred from its pod template: node networking (CNI),
 * service proxy, storage (CSI node plugin), device plugin, DNS cache, logging, monitoring,
 * security. Not an upstream algorithm: a set of evidence rules over the template (host paths,
 * capabilities, well-known images and sidecars), each role reported with the evidence found, so
 * that a reader can judge it. An ordinary application DaemonSet matches none.
 */
import type { Container, DaemonSet, PodSpec } from './k8s-types.js';

export type Role = 'network' | 'service-proxy' | 'storage' | 'device' | 'dns' | 'logging' | 'monitoring' | 'security';

export const ROLES: readonly Role[] = [
  'network',
  'service-proxy',
  'storage',
  'device',
  'dns',
  'logging',
  'monitoring',
  'security',
];

export interface RoleMatch<R extends string = Role> {
  role: R;
  evidence: string[];
}

/**
 * Roles that lint tells apart beyond `Role` (whose callers, such as impact, handle exactly the
 * roles above): a node-reboot agent (kured, Flatcar's update agent), a local-volume provisioner,
 * a host-network agent (a hostNetwork daemon that adds NET_ADMIN or NET_RAW: a network policy
 * enforcer, a load-balancer speaker, ip-masq-agent), a driver installer (init containers that
 * write a driver to the host, then a pause container) and a node labeller (node-feature-discovery,
 * GPU feature discovery, vendor labellers that write node labels). Their jobs contradict other
 * rules (a reboot agent enters PID 1's namespaces, a provisioner cleans block devices as root, an
 * installer loads a kernel module) without making them network, storage or security agents for
 * everything else. A Secrets Store CSI provider serves the secrets-store CSI node plugin on the
 * same node through a socket in a root-owned host directory: it must be wherever that plugin is,
 * without being a CSI node plugin itself (it mounts no volume and needs no privilege).
 */
export type AgentRole =
  Role | 'node-reboot' | 'local-volume' | 'host-network' | 'driver-installer' | 'labeller' | 'secrets-store-provider';

export const AGENT_ROLES: readonly AgentRole[] = [
  ...ROLES,
  'node-reboot',
  'local-volume',
  'host-network',
  'driver-installer',
  'labeller',
  'secrets-store-provider',
];

/** Image name patterns of well-known node agents, by role (matched against the image path, tag ignored). */
const KNOWN_IMAGES: Record<AgentRole, RegExp> = {
  network:
    /(^|\/)(calico\/node|calico\/cni|cilium\/cilium|cilium-agent|flannel|flannel-cni-plugin|weave-kube|weave-npc|kube-ovn|antrea-agent|antrea\/antrea|amazon-k8s-cni|aws-node|azure-cni|azure-vnet|kindnetd|multus|canal|kube-router|ovn-kubernetes|netd|istio\/install-cni)(:|@|$)/,
  'service-proxy': /(^|\/)(kube-proxy(-amd64|-arm64)?)(:|@|$)/,
  storage:
    /(^|\/)(csi-node-driver-registrar|[\w.-]*csi[\w.-]*(driver|plugin|node)[\w.-]*|longhorn-manager|rook\/ceph|openebs[\w/-]*)(:|@|$)/,
  device:
    /(^|\/)(k8s-device-plugin|nvidia-device-plugin|[\w-]*device-plugin[\w-]*|sriov-network-device-plugin|intel-gpu-plugin)(:|@|$)/,
  dns: /(^|\/)(k8s-dns-node-cache|node-local-dns|coredns-nodecache)(:|@|$)/,
  logging:
    /(^|\/)(fluent-bit|aws-for-fluent-bit|fluentd[\w-]*|fluent\/fluent-bit|vector|promtail|filebeat|logstash|logging-operator[\w/-]*|stackdriver-logging-agent|fluentd-elasticsearch)(:|@|$)/,
  monitoring:
    /(^|\/)(node-exporter|prometheus\/node-exporter|datadog\/agent|dd-agent|dcgm-exporter|cadvisor|newrelic-infrastructure|opentelemetry-collector[\w-]*|otel\/opentelemetry-collector[\w-]*|splunk-otel-collector|grafana\/agent|grafana\/alloy|metrics-agent|netdata|node-problem-detector)(:|@|$)/,
  security:
    /(^|\/)(falco|falcosecurity\/falco[\w-]*|tetragon|sysdig[\w/-]*|twistlock[\w/-]*|defender|crowdstrike[\w/-]*|falcon-sensor|aqua[\w/-]*enforcer|kube-bench|trivy-node|tracee|wazuh[\w-]*)(:|@|$)/,
  'node-reboot': /(^|\/)(kured|kubereboot\/kured|flatcar-linux-update-operator|container-linux-update-operator)(:|@|$)/,
  'local-volume':
    /(^|\/)(local-volume-provisioner|local-path-provisioner|lvm-localpv[\w-]*|topolvm[\w-]*|lvm-driver)(:|@|$)/,
  // Structural evidence only: capabilities with hostNetwork (below).
  'host-network': /$^/,
  // Structural evidence only: init containers writing to the host, then pause (below).
  'driver-installer': /$^/,
  labeller: /(^|\/)([\w-]*feature-discovery[\w-]*|[\w-]*label(l)?er[\w-]*)(:|@|$)/,
  // Structural evidence only: the driver's provider directory (below).
  'secrets-store-provider': /$^/,
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

/** Every command word, argument and literal env value of a container, for flag lookups. */
function words(c: Container): string[] {
  return [...(c.command ?? []), ...(c.args ?? []), ...(c.env ?? []).map((e) => e.value ?? '')];
}

/** The kubelet's per-driver plugin directory; `kubernetes.io` is the kubelet's own CSI state, not a driver. */
const PLUGIN_DIR = /^\/var\/lib\/kubelet\/plugins\/([A-Za-z0-9][A-Za-z0-9.-]*)(\/|$)/;

/**
 * The CSI driver names a node plugin serves, as its template shows them: the per-driver plugin
 * directory it mounts (`/var/lib/kubelet/plugins/<driver>/`) or passes to node-driver-registrar
 * (`--kubelet-registration-path=/var/lib/kubelet/plugins/<driver>/csi.sock`), and any of the
 * `known` CSIDriver names its host paths, flags or env values mention. Sorted, unique.
 */
export function csiDriversServed(ds: DaemonSet, known: readonly string[] = []): string[] {
  const spec = ds.spec?.template?.spec;
  const paths = hostPaths(spec);
  const flags = allContainers(spec).flatMap(words);
  const names = new Set<string>();
  for (const p of [...paths, ...flags.map((w) => w.replace(/^--?[\w-]+=/, ''))]) {
    const m = PLUGIN_DIR.exec(p);
    if (m && m[1] !== 'kubernetes.io' && m[1] !== 'csi.sock') names.add(m[1]!);
  }
  // A CSIDriver object of the cluster whose name the template mentions (path, flag or env).
  for (const driver of known) {
    if ([...paths, ...flags].some((x) => x.includes(driver))) names.add(driver);
  }
  return [...names].sort();
}

function hasPath(paths: string[], ...prefixes: string[]): string | undefined {
  return paths.find((p) => prefixes.some((x) => p === x || p.startsWith(`${x.replace(/\/$/, '')}/`)));
}

/**
 * Infers the roles of a DaemonSet. `csiDriverNames` (names of CSIDriver objects in the cluster)
 * confirm a storage role when a plugin directory carries a driver's name.
 */
export function detectRoles(ds: DaemonSet, csiDriverNames: readonly string[] = []): RoleMatch[] {
  return detectAgentRoles(ds, csiDriverNames).filter((m): m is RoleMatch =>
    (ROLES as readonly string[]).includes(m.role),
  );
}

/** The host paths the containers mount with mount propagation (HostToContainer or Bidirectional). */
function propagatedHostPaths(spec: PodSpec | undefined): string[] {
  const byName = new Map((spec?.volumes ?? []).filter((v) => v.hostPath?.path).map((v) => [v.name, v.hostPath!.path]));
  return allContainers(spec).flatMap((c) =>
    (c.volumeMounts ?? [])
      .filter((m) => m.mountPropagation === 'HostToContainer' || m.mountPropagation === 'Bidirectional')
      .map((m) => byName.get(m.name))
      .filter((p): p is string => typeof p === 'string'),
  );
}

/**
 * The init container that builds or loads a kernel module or eBPF probe for a runtime-security
 * agent (Falco's falco-driver-loader), which needs privileged to insert it; undefined when none.
 */
export function kernelDriverLoader(ds: DaemonSet): string | undefined {
  const loader = (ds.spec?.template?.spec?.initContainers ?? []).find(
    (c) => /(^|\/)[\w-]*driver-loader$/.test(imagePath(c.image ?? '')) || /driver-loader/.test(c.name ?? ''),
  );
  return loader
    ? `init container ${loader.name} (${imagePath(loader.image ?? '')}) loads the kernel driver`
    : undefined;
}

/** A container that only waits: a pause image, or a command that only sleeps (an image pre-pull). */
export function isPlaceholder(c: Container): boolean {
  const line = [...(c.command ?? []), ...(c.args ?? [])].join(' ').trim();
  return (
    /(^|\/)pause(:|@|$)/.test(imagePath(c.image ?? '')) ||
    /^(\/bin\/)?(ba)?sh -c (echo [^;&|]*(&&|;)\s*)?sleep\s+(infinity|inf|\d+)\s*$/.test(line) ||
    /^sleep (infinity|inf)$/.test(line)
  );
}

/**
 * Why the template is a driver installer: init containers that write to the host (a writable
 * hostPath mount) with privileged, while every regular container only waits (pause or sleep).
 * Undefined otherwise.
 */
export function driverInstallerEvidence(spec: PodSpec | undefined): string | undefined {
  const main = spec?.containers ?? [];
  if (!main.length || !main.every(isPlaceholder)) return undefined;
  const host = new Set((spec?.volumes ?? []).filter((v) => v.hostPath?.path).map((v) => v.name));
  const writer = (spec?.initContainers ?? []).find(
    (c) =>
      c.securityContext?.privileged === true &&
      (c.volumeMounts ?? []).some((m) => host.has(m.name) && m.readOnly !== true),
  );
  if (!writer) return undefined;
  return `init container ${writer.name} writes to the host, then ${main.map((c) => c.name).join(', ')} only wait${main.length === 1 ? 's' : ''}`;
}

/** Like `detectRoles`, with the roles only lint tells apart (`AgentRole`). */
export function detectAgentRoles(ds: DaemonSet, csiDriverNames: readonly string[] = []): RoleMatch<AgentRole>[] {
  const spec = ds.spec?.template?.spec;
  const containers = allContainers(spec);
  const paths = hostPaths(spec);
  const images = containers.map((c) => c.image ?? '').filter(Boolean);
  const name = ds.metadata?.name ?? '';
  const found = new Map<AgentRole, string[]>();
  const add = (role: AgentRole, evidence: string) => {
    const list = found.get(role) ?? [];
    if (!list.includes(evidence)) list.push(evidence);
    found.set(role, list);
  };

  for (const image of images) {
    for (const role of AGENT_ROLES) {
      if (KNOWN_IMAGES[role].test(imagePath(image))) add(role, `image ${image}`);
    }
  }

  // Networking: CNI configuration or binaries on the host, or a hostNetwork agent with NET_ADMIN
  // that also owns the CNI's state directories.
  const cniPath = hasPath(paths, '/etc/cni/net.d', '/etc/cni', '/opt/cni/bin', '/opt/cni', '/var/lib/cni');
  if (cniPath) add('network', `hostPath ${cniPath} (CNI configuration/binaries)`);
  const netState = hasPath(
    paths,
    '/var/run/calico',
    '/var/lib/calico',
    '/var/run/cilium',
    '/run/flannel',
    '/var/run/openvswitch',
    '/sys/fs/bpf',
  );
  const netAdmin = containers.some((c) => capabilities(c).includes('NET_ADMIN'));
  const privileged = containers.some((c) => c.securityContext?.privileged === true);
  if (netState && spec?.hostNetwork && netAdmin) add('network', `hostNetwork with NET_ADMIN and hostPath ${netState}`);
  else if (netState && spec?.hostNetwork && privileged && !found.has('network'))
    add('network', `hostNetwork with privileged and hostPath ${netState}`);
  // The host's named network namespaces (where CNI plugins and network-policy dataplanes find
  // pods' namespaces) from the host network: a pod-network dataplane.
  const netns = hasPath(paths, '/run/netns', '/var/run/netns');
  if (netns && spec?.hostNetwork && !found.has('network'))
    add('network', `hostNetwork with hostPath ${netns} (pod network namespaces)`);

  // Storage: the kubelet's plugin directories, the node-driver-registrar sidecar, a CSIDriver name.
  // plugins_registry alone is the kubelet's plugin watcher, which device plugins and DRA drivers
  // use too: it counts only without the device-plugin directory.
  const devicePath = hasPath(paths, '/var/lib/kubelet/device-plugins');
  const pluginPath =
    hasPath(paths, '/var/lib/kubelet/plugins') ??
    (devicePath ? undefined : hasPath(paths, '/var/lib/kubelet/plugins_registry'));
  if (pluginPath) add('storage', `hostPath ${pluginPath} (CSI plugin registration)`);
  if (containers.some((c) => /node-driver-registrar/.test(c.image ?? '') || c.name === 'node-driver-registrar')) {
    add('storage', 'node-driver-registrar sidecar');
  }
  const served = csiDriversServed(ds, csiDriverNames);
  for (const driver of csiDriverNames) {
    if (served.includes(driver)) add('storage', `CSIDriver ${driver}`);
  }

  // Secrets Store CSI providers: the secrets-store CSI node plugin dials each provider's socket in
  // its provider directory at every mount of a secrets-store volume (the driver's
  // --provider-volume=/var/run/secrets-store-csi-providers, and the older
  // /etc/kubernetes/secrets-store-csi-providers it still reads). The driver itself mounts that
  // directory too, beside the kubelet's plugin directories; a provider mounts it alone, so an image
  // name that looks like a CSI driver (secrets-store-csi-driver-provider-aws) yields to it.
  const providerDir = hasPath(
    paths,
    '/var/run/secrets-store-csi-providers',
    '/run/secrets-store-csi-providers',
    '/etc/kubernetes/secrets-store-csi-providers',
  );
  if (providerDir && (found.get('storage') ?? []).every((e) => e.startsWith('image '))) {
    found.delete('storage');
    add('secrets-store-provider', `hostPath ${providerDir} (provider socket)`);
  }

  // Devices: the device-plugin socket directory.
  if (devicePath) add('device', `hostPath ${devicePath} (device plugin socket)`);

  // Logging: container log directories on the host, with a collector image or several of them.
  const logPaths = paths.filter((p) =>
    ['/var/log/pods', '/var/log/containers', '/var/lib/docker/containers'].some(
      (x) => p === x || p.startsWith(`${x}/`),
    ),
  );
  if (logPaths.length) add('logging', `hostPath ${logPaths.join(', ')} (container logs)`);
  // The journal is what collectors read; the whole host /var/log is not evidence by itself:
  // network-policy agents, device plugins and CSI plugins mount it to write their own logs.
  // node-problem-detector reads the journal to raise node conditions, not to ship logs.
  const journal = paths.filter((p) => ['/var/log/journal', '/run/log/journal'].includes(p.replace(/\/$/, '')));
  const problemDetector = images.some((i) => /(^|\/)node-problem-detector$/.test(imagePath(i)));
  if (journal.length && !problemDetector) add('logging', `hostPath ${journal.join(', ')} (the systemd journal)`);

  // Monitoring: the node_exporter shape (host /proc and /sys with hostPID) or a metrics port 9100.
  const procSys = hasPath(paths, '/proc') && hasPath(paths, '/sys');
  const metricsPort = containers.some((c) =>
    (c.ports ?? []).some((p) => p.containerPort === 9100 || p.hostPort === 9100),
  );
  if (procSys && (spec?.hostPID || metricsPort))
    add('monitoring', 'reads the host /proc and /sys' + (metricsPort ? ' and serves metrics on port 9100' : ''));

  // kube-proxy by name in kube-system, even with a custom image.
  if (name === 'kube-proxy') add('service-proxy', 'DaemonSet named kube-proxy');
  // kube-proxy binaries under other image names, and the replacements that take over its job.
  for (const c of containers) {
    const w = words(c);
    if (/(^|\/)kube-proxy$/.test(c.command?.[0] ?? ''))
      add('service-proxy', `container ${c.name} runs ${c.command![0]}`);
    const flag = w.find(
      (x) => /^--run-service-proxy(=true)?$/.test(x) || /^--kube-proxy-replacement(=(true|strict))?$/.test(x),
    );
    if (flag) add('service-proxy', `container ${c.name} replaces kube-proxy (${flag})`);
    const env = (c.env ?? []).find((e) => e.name === 'KUBE_PROXY_REPLACEMENT' && /^(true|strict)$/.test(e.value ?? ''));
    if (env) add('service-proxy', `container ${c.name} replaces kube-proxy (env KUBE_PROXY_REPLACEMENT=${env.value})`);
    // node-local-dns (k8s-dns-node-cache) is told which link-local address to serve on.
    if (w.some((x) => /^-localip(=|$)/.test(x))) add('dns', `container ${c.name} serves node-local DNS (-localip)`);
  }

  // Security: kernel tracing or LSM interfaces of the host together with the host PID namespace
  // is how runtime-security agents (eBPF or kprobe based) watch every process.
  // The host's /proc mounted shows every process of the host's PID namespace, as hostPID does
  // (proc(5): a procfs shows the PID namespace it was mounted for).
  const kernelPath = hasPath(paths, '/sys/kernel/security', '/sys/kernel/debug', '/sys/kernel/tracing');
  const hostProc = paths.some((p) => p.replace(/\/$/, '') === '/proc');
  if (kernelPath && spec?.hostPID) add('security', `hostPID with hostPath ${kernelPath} (kernel tracing/LSM)`);
  else if (kernelPath && hostProc) add('security', `host /proc with hostPath ${kernelPath} (kernel tracing/LSM)`);

  // Problem detectors read the kernel log to raise node conditions.
  const kmsg = hasPath(paths, '/dev/kmsg');
  if (kmsg) add('monitoring', 'hostPath /dev/kmsg (reads the kernel log)');

  // A DNS server on the host's port 53 is a node-local DNS cache, whatever its image.
  const port53 = containers.some((c) => (c.ports ?? []).some((p) => p.containerPort === 53 || p.hostPort === 53));
  if (port53 && spec?.hostNetwork) add('dns', "serves DNS on the host's port 53 (hostNetwork)");

  // Reboot agents: hostPID to nsenter PID 1 (or the host's D-Bus) plus a reboot flag.
  for (const c of containers) {
    const flag = words(c).find((w) => /^--?reboot[\w-]*(=|$)/.test(w));
    if (flag && (spec?.hostPID || hasPath(paths, '/var/run/dbus', '/run/dbus')))
      add(
        'node-reboot',
        `container ${c.name} reboots the node (${flag.replace(/=.*/, '')}) with ${spec?.hostPID ? 'hostPID' : 'the host D-Bus'}`,
      );
  }

  // Local-volume provisioners: the host /dev and a discovery directory mounted with propagation,
  // outside the kubelet's CSI plugin directories.
  // The network namespaces directory is propagated for pods' namespaces, not for volumes.
  const discovery = propagatedHostPaths(spec).find(
    (p) =>
      !p.startsWith('/var/lib/kubelet') && !hasPath([p], '/run/netns', '/var/run/netns') && p.replace(/\/$/, '') !== '',
  );
  if (paths.some((p) => p.replace(/\/$/, '') === '/dev') && discovery && !pluginPath && !found.has('network'))
    add('local-volume', `hostPath /dev and discovery directory ${discovery} mounted with mount propagation`);

  // Host-network agents: capabilities that change the host's network, used from its namespace.
  if (spec?.hostNetwork && !found.has('network')) {
    for (const c of containers) {
      const caps = capabilities(c).filter((x) => ['NET_ADMIN', 'NET_RAW', 'CAP_NET_ADMIN', 'CAP_NET_RAW'].includes(x));
      if (caps.length) add('host-network', `container ${c.name} adds ${caps.join(', ')} on the host network`);
    }
  }

  // Driver installers: init containers that write to the host, then a main container that only waits.
  const installer = driverInstallerEvidence(spec);
  if (installer) add('driver-installer', installer);

  // Node labellers: node-feature-discovery and vendor labellers, by container name, command or their configuration directory.
  for (const c of containers) {
    const run = `${c.name ?? ''} ${(c.command ?? []).join(' ')} ${(c.args ?? []).slice(0, 1).join(' ')}`;
    if (/feature-discovery|label(l)?er\b/.test(run)) add('labeller', `container ${c.name} runs a node labeller`);
  }
  const nfd = hasPath(paths, '/etc/kubernetes/node-feature-discovery');
  if (nfd) add('labeller', `hostPath ${nfd} (node-feature-discovery)`);

  // Security agents without a known image: hostPID with the capabilities to trace or inspect
  // other processes (ptrace, eBPF, perf events), or privileged with the host's kernel modules,
  // when no other role explains them. Privileged with hostPID alone is any node agent (nsenter).
  if (spec?.hostPID && !found.size) {
    const tracer = containers.find((c) => capabilities(c).some((x) => /^(CAP_)?(SYS_PTRACE|BPF|PERFMON)$/.test(x)));
    const modules = hasPath(paths, '/lib/modules', '/usr/lib/modules');
    const loader = modules ? containers.find((c) => c.securityContext?.privileged === true) : undefined;
    if (tracer) add('security', `hostPID with container ${tracer.name} adding ${capabilities(tracer).join(', ')}`);
    else if (loader)
      add('security', `hostPID with container ${loader.name} privileged and hostPath ${modules} (kernel modules)`);
  }

  return AGENT_ROLES.filter((r) => found.has(r)).map((role) => ({ role, evidence: found.get(role)! }));
}

/** True when the DaemonSet looks like a node-level agent: any role, hostNetwork, or host paths. */
export function isNodeAgent(ds: DaemonSet): boolean {
  const spec = ds.spec?.template?.spec;
  return detectRoles(ds).length > 0 || spec?.hostNetwork === true || hostPaths(spec).length > 0;
}
