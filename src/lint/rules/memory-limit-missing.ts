/**
 * `memory-limit-missing`: every long-running container has a memory limit.
 * Motivation: the DaemonSet guide, 生产实践 "强制资源限制 … 尤其是内存" — without a memory limit a
 * leaking agent grows until the kernel's OOM killer or the kubelet's node-pressure eviction
 * picks victims, on every node at once.
 */
import { value } from '../../k8s/quantity.js';
import { isPlaceholder } from '../../model/roles.js';
import { isOneShot } from '../probes.js';
import type { LintRule, RuleFinding } from '../types.js';
import { containerLabel, findRole, roleText, runningRoles, templateContainers, yamlBlock } from '../template.js';

const MI = 1024 * 1024;

/** Twice the memory request, in Mi, as a starting limit; 256Mi when there is no request. */
function suggestedLimit(request: string | undefined): string {
  if (request === undefined) return '256Mi';
  try {
    return `${Math.max(64, Math.ceil((value(request) * 2) / MI))}Mi`;
  } catch {
    return '256Mi';
  }
}

/** The `memory-limit-missing` rule, as the registry lists it. */
export const memoryLimitMissing: LintRule = {
  meta: {
    id: 'memory-limit-missing',
    severity: 'warning',
    severityNote:
      "info for network (CNI) agents and node-local DNS caches, whose vendors leave memory unlimited on purpose: the OOM killer taking them takes the node's pod networking or DNS with them; not when the only network evidence is an init container copying CNI plugin binaries (the container runtime runs those, and nothing of the pod network runs in the long-running containers)",
    description:
      'Every container (and sidecar) of the pod template has a memory limit; containers that only wait (pause, `sleep infinity`) or run a task once and then sleep are not judged.',
    rationale:
      'An agent without a memory limit can take a node\'s memory when it leaks or buffers (a log collector behind a slow backend), and because a DaemonSet runs everywhere, it can do so on every node at once; the kernel OOM killer and the kubelet then pick victims among the node\'s other pods (DaemonSet guide, production practice "enforce resource limits, especially memory").',
    howToFix:
      'Set `resources.limits.memory` at or above the memory request (a starting point: twice the request, then tune). A cpu limit is not required: it only throttles.',
    example:
      'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    resources:\n      requests: {cpu: 50m, memory: 64Mi}\n      # no limits.memory',
  },
  check(ds, ctx) {
    const out: RuleFinding[] = [];
    // A limit turns a leak into an OOM kill; for these agents the kill is the worse outage.
    // Not when the network role comes only from init containers that copied CNI plugin binaries:
    // the runtime runs those binaries, and no long-running container here carries pod networking.
    const critical = findRole(runningRoles(ds, ctx.roles(ds)), 'network', 'dns');
    for (const ref of templateContainers(ds, { sidecars: true })) {
      // A container that only waits, or runs a task once and then sleeps, holds no growing state.
      if (isPlaceholder(ref.container) || isOneShot(ref.container)) continue;
      const res = ref.container.resources;
      if (res?.limits?.['memory'] !== undefined) continue;
      out.push({
        ...(critical ? { severity: 'info' as const } : {}),
        message: `${containerLabel(ref)} has no memory limit: one leaking or buffering copy can exhaust a node's memory, and the DaemonSet runs a copy on every node${critical ? `; as a ${roleText(critical)}, an OOM kill would cut the node's ${critical.role === 'dns' ? 'DNS' : 'pod networking'}, so vendors leave it unlimited on purpose: set one only with generous headroom` : ''}`,
        path: `${ref.path}.resources.limits.memory`,
        fix: `set a memory limit at or above the request (start at twice the request and tune):\n${yamlBlock({ resources: { limits: { memory: suggestedLimit(res?.requests?.['memory']) } } })}`,
      });
    }
    return out;
  },
};
