/**
 * `privileged-container`: no container runs privileged unless the DaemonSet's role needs it.
 * Motivation: the DaemonSet guide, 生产实践 "安全上下文最小化"; peer-tools §14 item 11 (host
 * access is expected for node agents, not a blanket danger) — so a CNI agent, CSI node plugin
 * or kube-proxy gets information, and anything else gets the capability it probably needs.
 * A Windows HostProcess container is the Windows form of it: it runs as a host account with the
 * host's network, file system and processes (kubernetes.io "Create a Windows HostProcess Pod"), and
 * the baseline Pod Security Standard forbids it as it forbids privileged; `privileged` itself cannot
 * be set on Windows, so HostProcess is what this rule judges there.
 */
import type { AgentRole, RoleMatch } from '../../model/roles.js';
import type { DaemonSet } from '../../model/k8s-types.js';
import type { LintRule, RuleFinding } from '../types.js';
import {
  containerLabel,
  hostAccessEvidence,
  POD_SPEC,
  podSpec,
  privilegedRole,
  roleJustified,
  roleText,
  templateContainers,
  yamlBlock,
} from '../template.js';

/** What an agent of each role needs instead of privileged, and the capabilities to add. */
const INSTEAD: Partial<Record<AgentRole, { needs: string; add?: string[] }>> = {
  logging: {
    needs:
      "a log collector only reads the host's log directories: drop privileged and mount /var/log (and /var/lib/docker/containers) with readOnly: true",
  },
  monitoring: {
    needs:
      'a node metrics agent needs no capability: hostPID/hostNetwork and read-only mounts of /proc, /sys and / (mountPropagation: HostToContainer) are enough',
  },
  dns: {
    needs: 'a node-local DNS cache needs NET_ADMIN (its iptables rules and link-local interface), not privileged',
    add: ['NET_ADMIN'],
  },
  'host-network': {
    needs:
      "a host-network agent needs NET_ADMIN (and NET_RAW for raw sockets) to change the host's network, not every device",
    add: ['NET_ADMIN', 'NET_RAW'],
  },
};

/**
 * Roles whose agents need some host privilege, where privileged is more than needed rather than
 * a danger out of place: a warning. So is a node-level agent whose role lint cannot infer.
 */
const MILDER: readonly AgentRole[] = ['dns', 'host-network'];

function advice(role: RoleMatch<AgentRole> | undefined, agent: string | undefined): { needs: string; add?: string[] } {
  const known = role ? INSTEAD[role.role] : undefined;
  if (known) return known;
  if (agent) return { needs: 'check which capabilities it uses (getpcaps on its process) and add only those' };
  return { needs: 'an application DaemonSet should not need it: add only the capabilities it uses and drop ALL' };
}

/** `windowsOptions` of a pod or container security context (typed loosely: Windows-only fields). */
function windowsOptions(sc: unknown): { hostProcess?: boolean; runAsUserName?: string } | undefined {
  return (sc as { windowsOptions?: { hostProcess?: boolean; runAsUserName?: string } } | undefined)?.windowsOptions;
}

/**
 * Findings for HostProcess containers: one at the pod's `windowsOptions.hostProcess` when the pod
 * sets it (every container inherits it), else one per container that sets it. Info when the role
 * needs host privileges (as for privileged), a warning otherwise: a HostProcess pod is a host agent
 * by construction (it requires hostNetwork), so never an application's error.
 */
function hostProcessFindings(ds: DaemonSet, needsIt: RoleMatch<AgentRole> | undefined): RuleFinding[] {
  const spec = podSpec(ds);
  const pod = windowsOptions(spec.securityContext);
  const sites = pod?.hostProcess
    ? [
        {
          subject: "the pod's containers run as HostProcess containers",
          path: `${POD_SPEC}.securityContext.windowsOptions.hostProcess`,
          user: pod.runAsUserName,
        },
      ]
    : templateContainers(ds, { init: true })
        .filter((r) => windowsOptions(r.container.securityContext)?.hostProcess === true)
        .map((r) => ({
          subject: `${containerLabel(r)} runs as a HostProcess container`,
          path: `${r.path}.securityContext.windowsOptions.hostProcess`,
          user: windowsOptions(r.container.securityContext)?.runAsUserName ?? pod?.runAsUserName,
        }));
  return sites.map(({ subject, path, user }): RuleFinding => {
    const as = user ? `as ${user}` : 'as a host account';
    if (needsIt)
      return {
        severity: 'info',
        message: `${subject} (${as}), as a ${roleText(needsIt)} usually needs; accepted, but keep the image trusted and pinned`,
        path,
        fix: 'nothing required; to record the decision, add the annotation ds-doctor.io/ignore with this rule id',
      };
    return {
      severity: 'warning',
      message: `${subject} (${as}) in a DaemonSet whose role lint cannot infer: it has the Windows host's network, file system and processes on every node the DaemonSet covers, which the baseline Pod Security Standard forbids`,
      path,
      fix: `run it as a regular Windows container (no hostProcess, no hostNetwork) unless it must change the host; otherwise as the least privileged host account that can do its job:\n${yamlBlock(
        {
          securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local service' } },
        },
      )}`,
    };
  });
}

/** The `privileged-container` rule, as the registry lists it. */
export const privilegedContainer: LintRule = {
  meta: {
    id: 'privileged-container',
    severity: 'error',
    severityNote:
      'info for the roles that need it: network (CNI) agents, CSI node plugins, service proxies, node-reboot agents (nsenter into PID 1), local-volume provisioners (block devices), driver installers (kernel modules), device plugins and node labellers (host device nodes), security agents, problem detectors (/dev/kmsg); warning for node-local DNS caches and host-network agents, which need less, and for node-level agents whose role is unknown, HostProcess containers included',
    description:
      "No container runs with `securityContext.privileged: true`, or as a Windows HostProcess container (`windowsOptions.hostProcess`), unless the DaemonSet's role needs it.",
    rationale:
      'A privileged container has every capability and every host device, on every node the DaemonSet covers: one compromised agent is root on the whole fleet. Node agents need host access, but most need far less than privileged (DaemonSet guide, production practice "minimal security context").',
    howToFix:
      'Set `privileged: false`, `allowPrivilegeEscalation: false`, drop ALL capabilities and add back only what the agent uses (the finding names it per role: none for node-exporter, read-only mounts for a log collector, NET_ADMIN for node-local DNS).',
    example:
      'containers:\n  - name: log-shipper\n    image: example/log-shipper:2.1.0\n    securityContext:\n      privileged: true',
  },
  check(ds, ctx) {
    const refs = templateContainers(ds, { init: true }).filter((r) => r.container.securityContext?.privileged === true);
    const roles = ctx.roles(ds);
    const needsIt = privilegedRole(ds, roles);
    const hostProcess = hostProcessFindings(ds, needsIt);
    if (!refs.length) return hostProcess;
    if (needsIt) return [roleJustified(needsIt, refs, 'privileged', 'securityContext.privileged'), ...hostProcess];
    const role = roles[0];
    // A node-level agent (host PID namespace or paths) whose role is unknown is no application.
    const agent = role ? undefined : hostAccessEvidence(ds, false);
    const { needs, add } = advice(role, agent);
    const privileged = refs.map((ref): RuleFinding => ({
      severity: (role && MILDER.includes(role.role)) || agent ? 'warning' : 'error',
      message: `${containerLabel(ref)} is privileged${role ? ` in a ${roleText(role)}` : agent ? ` in ${agent} whose role lint cannot infer` : ''}: it gets every capability and host device on every node; ${needs}`,
      path: `${ref.path}.securityContext.privileged`,
      fix: `replace privileged with the least it needs:\n${yamlBlock({
        securityContext: {
          privileged: false,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'], ...(add ? { add } : {}) },
        },
      })}`,
    }));
    return [...privileged, ...hostProcess];
  },
};
