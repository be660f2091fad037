/**
 * `privilege-escalation-allowed`: unprivileged containers disallow privilege escalation and drop
 * ALL capabilities (adding back only those they use).
 * Motivation: issue 14 §3; the Pod Security Standards' restricted profile
 * (allowPrivilegeEscalation false, capabilities drop ALL); the API validation
 * (pkg/apis/core/validation `ValidateSecurityContext`) that rejects `allowPrivilegeEscalation:
 * false` together with `privileged: true` or an added CAP_SYS_ADMIN, so the fix never suggests it then.
 */
import type { Container } from '../../model/k8s-types.js';
import { isPlaceholder } from '../../model/roles.js';
import type { LintRule, RuleFinding } from '../types.js';
import {
  containerLabel,
  findRole,
  HOST_PRIVILEGED_ROLES,
  roleText,
  templateContainers,
  windowsPodEvidence,
  yamlBlock,
} from '../template.js';

function added(c: Container): string[] {
  return c.securityContext?.capabilities?.add ?? [];
}

/**
 * The capabilities a container runtime grants by default (containerd's and CRI-O's default set,
 * the one Docker documents): `drop: [ALL]` takes these away.
 */
const DEFAULT_CAPABILITIES = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FSETID',
  'FOWNER',
  'MKNOD',
  'NET_RAW',
  'SETGID',
  'SETUID',
  'SETFCAP',
  'SETPCAP',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'KILL',
  'AUDIT_WRITE',
];

function capName(cap: string): string {
  return cap.toUpperCase().replace(/^CAP_/, '');
}

/** True when the container drops ALL (runtimes compare capability names without regard to case) or adds back every default one anyway. */
function dropsDefaults(c: Container): boolean {
  if ((c.securityContext?.capabilities?.drop ?? []).some((cap) => capName(cap) === 'ALL')) return true;
  const add = new Set(added(c).map(capName));
  return DEFAULT_CAPABILITIES.every((cap) => add.has(cap));
}

/** An added SYS_ADMIN makes `allowPrivilegeEscalation: false` invalid (the API server rejects it). */
function addsSysAdmin(c: Container): boolean {
  return added(c).some((cap) => capName(cap) === 'SYS_ADMIN');
}

/** The `privilege-escalation-allowed` rule, as the registry lists it. */
export const privilegeEscalationAllowed: LintRule = {
  meta: {
    id: 'privilege-escalation-allowed',
    severity: 'warning',
    severityNote:
      'info for network (CNI) agents, CSI node plugins, service proxies and driver installers, whose capabilities are their job',
    description:
      'Every container that is not privileged sets `allowPrivilegeEscalation: false` (unless it adds SYS_ADMIN, which forbids it) and drops ALL capabilities, adding back only those it uses. Windows pods (`spec.os.name`, a `kubernetes.io/os: windows` selector, HostProcess) are not judged: the fields cannot be set there.',
    rationale:
      "Without `allowPrivilegeEscalation: false` a setuid binary or file capability in the image can raise a process above the container's own privileges; without `drop: [ALL]` the container keeps the runtime's default capabilities (CHOWN, DAC_OVERRIDE, FOWNER, NET_RAW, SETUID, …) on every node whether it uses them or not. Both are what the restricted Pod Security Standard requires, and cost an agent nothing when it needs no more.",
    howToFix:
      'Set `securityContext.allowPrivilegeEscalation: false` and `capabilities: {drop: [ALL], add: [<only what the agent uses, e.g. NET_ADMIN>]}` on each container.',
    example:
      'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    securityContext:\n      runAsNonRoot: true\n      # allowPrivilegeEscalation and capabilities not set',
  },
  check(ds, ctx) {
    // allowPrivilegeEscalation and capabilities cannot be set on Windows (validateWindows).
    if (windowsPodEvidence(ds)) return [];
    const role = findRole(ctx.roles(ds), ...HOST_PRIVILEGED_ROLES, 'driver-installer');
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { init: true })) {
      const sc = ref.container.securityContext;
      if (sc?.privileged === true) continue; // privileged-container judges those
      if (isPlaceholder(ref.container)) continue; // pause or sleep: no binary to escalate with
      const escalation = sc?.allowPrivilegeEscalation !== false && !addsSysAdmin(ref.container);
      // A container that adds every default capability back gains nothing from drop: [ALL].
      const keepsCaps = !dropsDefaults(ref.container);
      if (!escalation && !keepsCaps) continue;
      const missing = [
        escalation ? 'allows privilege escalation' : '',
        keepsCaps ? 'keeps the default capabilities (no drop: [ALL])' : '',
      ]
        .filter(Boolean)
        .join(' and ');
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
