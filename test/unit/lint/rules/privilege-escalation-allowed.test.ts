import { privilegeEscalationAllowed } from '../../../../src/lint/rules/privilege-escalation-allowed.js';
import type { SecurityContext } from '../../../../src/model/k8s-types.js';
import { goodDaemonSet, ruleTester, WINDOWS_PINS, windowsOrLinux } from '../rule-tester.js';

/** The good agent without any securityContext: on Linux each Linux-only security rule reports it. */
const noSecurityContext = () =>
  goodDaemonSet().with((d) => {
    delete d.spec!.template!.spec!.containers![0]!.securityContext;
  });

const sc = (securityContext: SecurityContext, image?: string) =>
  goodDaemonSet().with((d) => {
    const c = d.spec!.template!.spec!.containers![0]!;
    c.securityContext = securityContext;
    if (image) c.image = image;
  });
const PATH = 'spec.template.spec.containers[0].securityContext';

ruleTester(privilegeEscalationAllowed, {
  valid: [
    // allowPrivilegeEscalation and capabilities "cannot be set when spec.os.name is windows" (validateWindows).
    ...WINDOWS_PINS.map(([how, pin]) => ({
      name: `a Windows pod (${how}) is not judged`,
      ds: pin(noSecurityContext()).build(),
    })),
    {
      name: 'escalation off and ALL dropped',
      ds: sc({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }).build(),
    },
    {
      name: 'ALL dropped, NET_ADMIN added back (node-local DNS)',
      ds: sc({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } }).build(),
    },
    {
      name: 'SYS_ADMIN added: allowPrivilegeEscalation false would be rejected by the API server',
      ds: sc({ capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } }).build(),
    },
    { name: "a privileged container is privileged-container's to judge", ds: sc({ privileged: true }).build() },
    {
      name: 'drop: [all] in lower case: runtimes compare capability names without case',
      ds: sc({ allowPrivilegeEscalation: false, capabilities: { drop: ['all'], add: ['DAC_READ_SEARCH'] } }).build(),
    },
    {
      name: 'every default capability added back: drop ALL would change nothing (the Aqua enforcer shape)',
      ds: sc({
        allowPrivilegeEscalation: false,
        capabilities: {
          add: [
            'SYS_ADMIN',
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
          ],
        },
      }).build(),
    },
    {
      name: 'a pause container is not judged',
      ds: goodDaemonSet().container({ name: 'pause', image: 'registry.k8s.io/pause:3.10' }).build(),
    },
  ],
  invalid: [
    {
      name: 'node affinity that admits Linux nodes too: judged',
      ds: windowsOrLinux(noSecurityContext()).build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation',
          message: /keeps the default capabilities/,
        },
      ],
    },
    {
      name: 'nothing set',
      ds: sc({ runAsNonRoot: true, runAsUser: 65534 }).build(),
      findings: [
        {
          severity: 'warning',
          path: `${PATH}.allowPrivilegeEscalation`,
          message: /^container agent allows privilege escalation and keeps the default capabilities/,
          fix: /allowPrivilegeEscalation: false\n\s+capabilities:\n\s+drop:\n\s+- ALL$/,
        },
      ],
    },
    {
      name: 'escalation off, capabilities kept: the added ones stay in the fix',
      ds: sc({ allowPrivilegeEscalation: false, capabilities: { add: ['NET_ADMIN'] } }).build(),
      findings: [
        {
          severity: 'warning',
          path: `${PATH}.capabilities`,
          message: /keeps the default capabilities/,
          fix: /drop:\n\s+- ALL\n\s+add:\n\s+- NET_ADMIN/,
        },
      ],
    },
    {
      name: 'SYS_ADMIN added without drop ALL: the fix does not set allowPrivilegeEscalation',
      ds: sc({ capabilities: { add: ['SYS_ADMIN'] } }).build(),
      findings: [{ severity: 'warning', path: `${PATH}.capabilities`, fix: /^(?![\s\S]*allowPrivilegeEscalation)/ }],
    },
    {
      name: 'a CNI agent: info',
      ds: sc({ capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } }, 'docker.io/flannel/flannel:v0.25.6').build(),
      findings: [{ severity: 'info', path: `${PATH}.allowPrivilegeEscalation`, message: /as a network \(CNI\) agent/ }],
    },
  ],
});
