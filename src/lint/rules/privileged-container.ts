/**
 * `privileged-container`: no container runs privileged unless the DaemonSet's role needs it.
 * Motivation: the DaemonSet guide, 生产实践 "安全上下文最小化"; peer-tools §14 item 11 (host
 * access is expected for node agents, not a blanket danger) — so a CNI agent, CSI node plugin
 * or kube-proxy gets information, and anything else gets the capability it probably needs.
 */
import type { AgentRole, RoleMatch } from '../../model/roles.js';
import type { LintRule, RuleFinding } from '../types.js';
import {
  containerLabel,
  hostAccessEvidence,
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

/** The `privileged-container` rule, as the registry lists it. */
export const privilegedContainer: LintRule = {
  meta: {
    id: 'privileged-container',
    severity: 'error',
    severityNote:
      'info for the roles that need it: network (CNI) agents, CSI node plugins, service proxies, node-reboot agents (nsenter into PID 1), local-volume provisioners (block devices), driver installers (kernel modules), device plugins and node labellers (host device nodes), security agents, problem detectors (/dev/kmsg); warning for node-local DNS caches and host-network agents, which need less, and for node-level agents whose role is unknown',
    description: "No container runs with `securityContext.privileged: true` unless the DaemonSet's role needs it.",
    rationale:
      'A privileged container has every capability and every host device, on every node the DaemonSet covers: one compromised agent is root on the whole fleet. Node agents need host access, but most need far less than privileged (DaemonSet guide, production practice "minimal security context").',
    howToFix:
      'Set `privileged: false`, `allowPrivilegeEscalation: false`, drop ALL capabilities and add back only what the agent uses (the finding names it per role: none for node-exporter, read-only mounts for a log collector, NET_ADMIN for node-local DNS).',
    example:
      'containers:\n  - name: log-shipper\n    image: example/log-shipper:2.1.0\n    securityContext:\n      privileged: true',
  },
  check(ds, ctx) {
    const refs = templateContainers(ds, { init: true }).filter((r) => r.container.securityContext?.privileged === true);
    if (!refs.length) return [];
    const roles = ctx.roles(ds);
    const needsIt = privilegedRole(ds, roles);
    if (needsIt) return [roleJustified(needsIt, refs, 'privileged', 'securityContext.privileged')];
    const role = roles[0];
    // A node-level agent (host PID namespace or paths) whose role is unknown is no application.
    const agent = role ? undefined : hostAccessEvidence(ds, false);
    const { needs, add } = advice(role, agent);
    return refs.map((ref): RuleFinding => ({
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
  },
};
