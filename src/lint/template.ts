/**
 * Helpers the lint rules share: the template's containers with their JSON paths, role
 * lookups, and YAML fix snippets.
 */
import yaml from 'js-yaml';
import type { Container, DaemonSet, NodeSelectorTerm, PodSpec } from '../model/k8s-types.js';
import { hostPaths, kernelDriverLoader, type AgentRole, type RoleMatch } from '../model/roles.js';
import type { LintContext, RuleFinding } from './types.js';

/** JSON path of the pod template's spec. */
export const POD_SPEC = 'spec.template.spec';

/** A container of the pod template and where it sits. */
export interface ContainerRef {
  container: Container;
  /** JSON path, e.g. `spec.template.spec.initContainers[1]`. */
  path: string;
  init: boolean;
}

/** The template's pod spec (an empty one when the manifest has none). */
export function podSpec(ds: DaemonSet): PodSpec {
  return ds.spec?.template?.spec ?? {};
}

/**
 * Containers of the template with their paths: regular containers, and init containers when
 * `init` is set. Restartable init containers (sidecars, `restartPolicy: Always`) run for the
 * pod's whole life, so they count as long-running with `sidecars`.
 */
export function templateContainers(
  ds: DaemonSet,
  options: { init?: boolean; sidecars?: boolean } = {},
): ContainerRef[] {
  const spec = podSpec(ds);
  const out: ContainerRef[] = (spec.containers ?? []).map((container, i) => ({
    container,
    path: `${POD_SPEC}.containers[${i}]`,
    init: false,
  }));
  (spec.initContainers ?? []).forEach((container, i) => {
    const sidecar = container.restartPolicy === 'Always';
    if (options.init || (options.sidecars && sidecar))
      out.push({ container, path: `${POD_SPEC}.initContainers[${i}]`, init: !sidecar });
  });
  return out;
}

/** "container x" or "init container x", for messages. */
export function containerLabel(ref: ContainerRef): string {
  return `${ref.init ? 'init container' : 'container'} ${ref.container.name}`;
}

/** The first of `roles` the DaemonSet plays, with its evidence. */
export function findRole(matches: RoleMatch<AgentRole>[], ...roles: AgentRole[]): RoleMatch<AgentRole> | undefined {
  return matches.find((m) => roles.includes(m.role));
}

/** "network agent (image calico/node:v3.28.1)": a role and its first piece of evidence. */
export function roleText(match: RoleMatch<AgentRole>): string {
  // Digests make messages unreadable and say nothing about the role.
  return `${ROLE_NOUN[match.role]} (${(match.evidence[0] ?? 'detected').replace(/@sha256:[0-9a-f]+/, '')})`;
}

const ROLE_NOUN: Record<AgentRole, string> = {
  network: 'network (CNI) agent',
  'service-proxy': 'service proxy',
  storage: 'storage (CSI) node plugin',
  device: 'device plugin',
  dns: 'node-local DNS cache',
  logging: 'log collector',
  monitoring: 'monitoring agent',
  security: 'security agent',
  'node-reboot': 'node-reboot agent',
  'local-volume': 'local-volume provisioner',
  'host-network': 'host-network agent',
  'driver-installer': 'driver installer',
  labeller: 'node labeller',
  'secrets-store-provider': 'Secrets Store CSI provider',
};

/**
 * Roles whose agents really need host-level privileges: a CNI agent programs the host's
 * network, a CSI node plugin mounts with Bidirectional propagation, kube-proxy rewrites
 * iptables/IPVS. For them privileged, root and a writable root filesystem are information.
 */
export const HOST_PRIVILEGED_ROLES: readonly AgentRole[] = ['network', 'storage', 'service-proxy'];

/**
 * Roles that exist only through the kubelet's directories on the host, so that a template without
 * any host access cannot be doing their work: a CSI node plugin registers through a socket in the
 * kubelet's plugins_registry and publishes volumes under /var/lib/kubelet/pods (the kubelet plugin
 * watcher; kubernetes-csi "Deploying a CSI driver"); a device plugin dials the kubelet's socket in
 * /var/lib/kubelet/device-plugins and serves its own there (the device plugin API,
 * k8s.io/kubelet/pkg/apis/deviceplugin).
 */
const KUBELET_PLUGIN_ROLES: readonly AgentRole[] = ['storage', 'device'];

/**
 * The roles as lint judges them: a kubelet plugin role (CSI node plugin, device plugin) known only
 * from an image name is dropped when the template has no host access at all (no hostPath volume,
 * hostNetwork or hostPID), since such an agent cannot register with the kubelet (a metrics exporter
 * shipped under a storage vendor's image name, say). Any structural evidence keeps the role.
 */
export function evidencedRoles(ds: DaemonSet, matches: RoleMatch<AgentRole>[]): RoleMatch<AgentRole>[] {
  const spec = podSpec(ds);
  if (hostPaths(spec).length || spec.hostNetwork || spec.hostPID) return matches;
  return matches.filter(
    (m) => !KUBELET_PLUGIN_ROLES.includes(m.role) || !m.evidence.every((e) => e.startsWith('image ')),
  );
}

/**
 * Roles whose agents must run on every node, NoExecute taints included: the node's networking,
 * storage and DNS depend on them; monitors, problem detectors and security agents exist to see
 * every node, the broken and evacuated ones above all; a log collector ships the logs of the pods
 * being evicted; device plugins, driver installers and labellers serve hardware on whatever node
 * carries it, dedicated (tainted) nodes above all; a Secrets Store CSI provider serves the
 * secrets-store CSI node plugin, which tolerates every taint, on the same node.
 */
export const EVERYWHERE_ROLES: readonly AgentRole[] = [
  ...HOST_PRIVILEGED_ROLES,
  'secrets-store-provider',
  'dns',
  'monitoring',
  'security',
  'logging',
  'device',
  'driver-installer',
  'labeller',
];

/**
 * The monitoring match of a problem detector (node-problem-detector, or any agent reading
 * /dev/kmsg): it needs root and privileged to read the kernel log device.
 */
export function problemDetector(matches: RoleMatch<AgentRole>[]): RoleMatch<AgentRole> | undefined {
  return matches.find(
    (m) => m.role === 'monitoring' && m.evidence.some((e) => /\/dev\/kmsg|node-problem-detector/.test(e)),
  );
}

/**
 * The role whose job needs uid 0: host-privileged roles, device plugins (device nodes), node-local
 * DNS (iptables and a link-local interface), security agents (every process), reboot agents
 * (nsenter into PID 1), local-volume provisioners (cleaning block devices), driver installers
 * (loading a kernel module), problem detectors and Secrets Store CSI providers (their socket goes in
 * a root-owned host directory: hostPath volumes are not chowned to the pod's fsGroup). Not
 * labellers: one that reads devices is privileged, which run-as-non-root accounts for by itself.
 */
export function rootRole(matches: RoleMatch<AgentRole>[]): RoleMatch<AgentRole> | undefined {
  return (
    findRole(
      matches,
      ...HOST_PRIVILEGED_ROLES,
      'device',
      'dns',
      'security',
      'node-reboot',
      'local-volume',
      'driver-installer',
      'secrets-store-provider',
    ) ?? problemDetector(matches)
  );
}

/**
 * The role whose job needs `privileged: true`, with the reason: host-privileged roles, a reboot
 * agent (nsenter into PID 1's namespaces), a local-volume provisioner (block devices and mount
 * propagation), a security agent that loads a kernel driver, a problem detector (/dev/kmsg).
 */
export function privilegedRole(ds: DaemonSet, matches: RoleMatch<AgentRole>[]): RoleMatch<AgentRole> | undefined {
  const host = findRole(matches, ...HOST_PRIVILEGED_ROLES, 'node-reboot', 'local-volume', 'driver-installer');
  if (host) return host;
  const security = findRole(matches, 'security');
  const loader = kernelDriverLoader(ds);
  if (security && loader) return { role: 'security', evidence: [loader] };
  return findRole(matches, 'device', 'labeller', 'security') ?? problemDetector(matches);
}

/** A value as an indented YAML block (stable key order, no line folding). */
export function yamlBlock(value: unknown): string {
  return yaml.dump(value, { noRefs: true, lineWidth: -1, sortKeys: false }).replace(/\n$/, '');
}

/**
 * One finding for the containers whose setting the DaemonSet's role justifies (e.g. privileged
 * in a CNI agent): info, listing them, at the first one's path.
 */
export function roleJustified(
  match: RoleMatch<AgentRole>,
  refs: ContainerRef[],
  setting: string,
  field: string,
): RuleFinding {
  const names = refs.map(containerLabel).join(', ');
  return {
    severity: 'info',
    message: `${names}: ${setting}, as a ${roleText(match)} usually needs; accepted, but keep the image trusted and pinned`,
    path: `${refs[0]!.path}.${field}`,
    fix: 'nothing required; to record the decision, add the annotation ds-doctor.io/ignore with this rule id',
  };
}

/**
 * Why the DaemonSet counts as a node-level agent (a detected role, hostNetwork, a hostPath,
 * kube-system), as a phrase; undefined for an ordinary application DaemonSet.
 */
export function nodeAgentEvidence(ds: DaemonSet, ctx: LintContext): string | undefined {
  const role = ctx.roles(ds)[0];
  if (role) return `a ${roleText(role)}`;
  const host = hostAccessEvidence(ds);
  if (host) return host;
  if (ds.metadata?.namespace === 'kube-system') return 'a kube-system DaemonSet';
  return undefined;
}

/**
 * Why a DaemonSet without a known role is still a node-level agent, not an application: it uses
 * the host's PID namespace or mounts a host path (with `network`, the host network too, which
 * applications such as relays also use). Undefined when it does none.
 */
export function hostAccessEvidence(ds: DaemonSet, network = true): string | undefined {
  const spec = podSpec(ds);
  if (network && spec.hostNetwork) return 'a node-level agent (hostNetwork)';
  if (spec.hostPID) return 'a node-level agent (hostPID)';
  const paths = hostPaths(spec);
  if (paths.length) return `a node-level agent (hostPath ${paths[0]})`;
  return undefined;
}

/** The well-known node label the kubelet sets from its operating system (runtime.GOOS). */
const OS_LABEL = 'kubernetes.io/os';

/** A required node-affinity term that admits only Windows nodes. */
function windowsOnlyTerm(term: NodeSelectorTerm): boolean {
  return (term.matchExpressions ?? []).some(
    (r) =>
      r.key === OS_LABEL &&
      r.operator === 'In' &&
      (r.values ?? []).length > 0 &&
      r.values!.every((v) => v === 'windows'),
  );
}

/**
 * Why the pod runs only on Windows nodes, or undefined: `spec.os.name: windows`, a nodeSelector or
 * every required node-affinity term admitting only `kubernetes.io/os=windows`, or HostProcess
 * containers (`windowsOptions.hostProcess`, a Windows-only mode). There the Linux security fields
 * do not apply: `runAsUser`, `runAsGroup`, `readOnlyRootFilesystem`, `allowPrivilegeEscalation`,
 * `capabilities` and `privileged` "cannot be set when spec.os.name is windows" (core/v1
 * SecurityContext; kubernetes pkg/apis/core/validation validateWindows rejects them), and the
 * kubelet on Windows judges runAsNonRoot by the user name (ContainerAdministrator), not uid 0
 * (kubernetes pkg/kubelet/kuberuntime/security_context_windows.go verifyRunAsNonRoot).
 */
export function windowsPodEvidence(ds: DaemonSet): string | undefined {
  const spec = podSpec(ds);
  const os = (spec as PodSpec & { os?: { name?: string } }).os?.name;
  if (os === 'windows') return 'spec.os.name: windows';
  if (spec.nodeSelector?.[OS_LABEL] === 'windows') return `nodeSelector ${OS_LABEL}: windows`;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length && terms.every(windowsOnlyTerm)) return `required node affinity ${OS_LABEL} In [windows]`;
  const hostProcess = (sc: unknown) =>
    (sc as { windowsOptions?: { hostProcess?: boolean } } | undefined)?.windowsOptions?.hostProcess === true;
  if (
    hostProcess(spec.securityContext) ||
    templateContainers(ds, { init: true }).some((r) => hostProcess(r.container.securityContext))
  )
    return 'windowsOptions.hostProcess: true';
  return undefined;
}

/** A host path of the CNI: its configuration (/etc/cni), binaries (/opt/cni) or state (/var/lib/cni). */
const CNI_HOST_PATH = /^\/(etc\/cni|opt\/cni|var\/lib\/cni)(\/|$)/;

/** Whether `c` mounts a hostPath volume of the template under one of the CNI's host paths. */
function mountsCniPath(spec: PodSpec, c: Container): boolean {
  const byName = new Map((spec.volumes ?? []).filter((v) => v.hostPath?.path).map((v) => [v.name, v.hostPath!.path]));
  return (c.volumeMounts ?? []).some((m) => CNI_HOST_PATH.test(byName.get(m.name) ?? ''));
}

/**
 * The init containers that make the DaemonSet a network agent when nothing else does: its only
 * network evidence is a CNI binary directory (/opt/cni…), which only init containers (not
 * sidecars) mount. The container runtime executes a plugin binary from that directory for each pod
 * sandbox, outside this pod; once copied, nothing of the node's pod networking runs in the
 * DaemonSet's long-running containers (the CNI specification: plugins are executables the runtime
 * invokes). Empty when the network role comes from anything else: the CNI configuration, a known
 * image, a state directory, a long-running container mounting the CNI directories.
 */
export function cniBinaryInstallers(ds: DaemonSet, matches: RoleMatch<AgentRole>[]): ContainerRef[] {
  const network = findRole(matches, 'network');
  if (!network || !network.evidence.every((e) => /^hostPath \S+ \(CNI configuration\/binaries\)$/.test(e))) return [];
  const spec = podSpec(ds);
  const cniPaths = hostPaths(spec).filter((p) => CNI_HOST_PATH.test(p));
  if (!cniPaths.every((p) => /^\/opt\/cni(\/|$)/.test(p))) return [];
  if (templateContainers(ds, { sidecars: true }).some((r) => mountsCniPath(spec, r.container))) return [];
  return templateContainers(ds, { init: true }).filter((r) => r.init && mountsCniPath(spec, r.container));
}

/**
 * The roles that bear on the DaemonSet's long-running containers: without the network role when
 * it comes only from init containers installing CNI plugin binaries (`cniBinaryInstallers`).
 */
export function runningRoles(ds: DaemonSet, matches: RoleMatch<AgentRole>[]): RoleMatch<AgentRole>[] {
  return cniBinaryInstallers(ds, matches).length ? matches.filter((m) => m.role !== 'network') : matches;
}
