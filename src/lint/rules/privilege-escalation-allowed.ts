/**
 * `privilege-escalation-allowed`: unprivileged containers disallow privilege escalation and drop
 * ALL capabilities (adding back only those they use).
 * Motivation: issue 14 §3; the Pod Security Standards' restricted profile
 * (allowPrivilegeEscalation false, capabilities drop ALL); the API validation
 * (pkg/apis/core/validation `ValidateSecurityContext`) that rejects `allowPrivilegeEscalation:
 * false` together with `privileged: true` or an added CAP_SYS_ADMIN, so the fix never suggests it then.
 */
import type { Container } from '../../model/k8s-types.js';
import type { LintRule, RuleFinding } from '../types.js';
import { containerLabel, findRole, HOST_PRIVILEGED_ROLES, roleText, templateContainers, yamlBlock } from '../template.js';

function added(c: Container): string[] {
  return c.securityContext?.capabilities?.add ?? [];
}

/** An added SYS_ADMIN makes `allowPrivilegeEscalation: false` invalid (the API server rejects it). */
function addsSysAdmin(c: Container): boolean {
  return added(c).some((cap) => cap === 'SYS_ADMIN' || cap === 'CAP_SYS_ADMIN');
}

/** The `privilege-escalation-allowed` rule, as the registry lists it. */
export const privilegeEscalationAllowed: LintRule = {
  meta: {
    id: 'privilege-escalation-allowed',
    severity: 'warning',
    severityNote: 'info for network (CNI) agents, CSI node plugins and service proxies, whose capabilities are their job',
    description:
      'Every container that is not privileged sets `allowPrivilegeEscalation: false` (unless it adds SYS_ADMIN, which forbids it) and drops ALL capabilities, adding back only those it uses.',
    rationale:
      "Without `allowPrivilegeEscalation: false` a setuid binary or file capability in the image can raise a process above the container's own privileges; without `drop: [ALL]` the container keeps the runtime's default capabilities (CHOWN, DAC_OVERRIDE, FOWNER, NET_RAW, SETUID, …) on every node whether it uses them or not. Both are what the restricted Pod Security Standard requires, and cost an agent nothing when it needs no more.",
    howToFix: 'Set `securityContext.allowPrivilegeEscalation: false` and `capabilities: {drop: [ALL], add: [<only what the agent uses, e.g. NET_ADMIN>]}` on each container.',
    example: 'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    securityContext:\n      runAsNonRoot: true\n      # allowPrivilegeEscalation and capabilities not set',
  },
  check(ds, ctx) {
    const role = findRole(ctx.roles(ds), ...HOST_PRIVILEGED_ROLES);
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { init: true })) {
      const sc = ref.container.securityContext;
      if (sc?.privileged === true) continue; // privileged-container judges those
      const escalation = sc?.allowPrivilegeEscalation !== false && !addsSysAdmin(ref.container);
      const keepsCaps = !(sc?.capabilities?.drop ?? []).some((c) => c === 'ALL');
      if (!escalation && !keepsCaps) continue;
      const missing = [escalation ? 'allows privilege escalation' : '', keepsCaps ? 'keeps the default capabilities (no drop: [ALL])' : ''].filter(Boolean).join(' and ');
      const add = added(ref.container);
      out.push({
        severity: role ? 'info' : 'warning',
        message: `${containerLabel(ref)} ${missing}${role ? `; as a ${roleText(role)} it needs its added capabilities, but no more` : ''}`,
        path: `${ref.path}.securityContext.${escalation ? 'allowPrivilegeEscalation' : 'capabilities'}`,
        fix: `disallow escalation and keep only the capabilities it uses:\n${yamlBlock({
          securityContext: {
            ...(addsSysAdmin(ref.container) ? {} : { allowPrivilegeEscalation: false }),
            capabilities: { drop: ['ALL'], ...(add.length ? { add } : {}) },
          },
        })}`,
      });
    }
    return out;
  },
};
