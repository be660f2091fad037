import { notReadyTolerationMissing } from '../../../../src/lint/rules/not-ready-toleration-missing.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const cni = () =>
  goodDaemonSet('calico-node', 'kube-system').with((d) => {
    d.spec!.template!.spec!.containers![0]!.image = 'docker.io/calico/node:v3.28.1';
  });
const PATH = 'spec.template.spec.tolerations';

ruleTester(notReadyTolerationMissing, {
  valid: [
    { name: 'an application DaemonSet is not judged', ds: goodDaemonSet().build() },
    { name: "a keyless Exists (the CNI vendors' form)", ds: cni().tolerate({ operator: 'Exists' }).build() },
    {
      name: 'a keyless Exists for NoSchedule',
      ds: cni().tolerate({ operator: 'Exists', effect: 'NoSchedule' }).build(),
    },
    {
      name: 'the not-ready key, every effect',
      ds: cni().tolerate({ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }).build(),
    },
    {
      name: 'the not-ready key for NoSchedule',
      ds: cni().tolerate({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }).build(),
    },
    {
      // sriov-cni: it copies a secondary plugin's binary; the node's readiness waits for the CNI configuration, not for it.
      name: 'an installer of plugin binaries only (/opt/cni/bin) is not what a NotReady node waits for',
      ds: goodDaemonSet('sriov-cni', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.volumes = [{ name: 'cnibin', hostPath: { path: '/opt/cni/bin' } }];
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'no tolerations: the automatic ones cover not-ready only for NoExecute',
      ds: cni().build(),
      findings: [
        {
          severity: 'error',
          path: PATH,
          message: /network \(CNI\) agent .* does not tolerate node\.kubernetes\.io\/not-ready:NoSchedule .* deadlock/,
          fix: /key: node\.kubernetes\.io\/not-ready\n\s+operator: Exists\n\s+effect: NoSchedule/,
        },
      ],
    },
    {
      name: 'a keyless Exists for NoExecute only (issue 14 §5: it covers NoExecute taints only)',
      ds: cni()
        .tolerate(
          { operator: 'Exists', effect: 'NoExecute' },
          { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
        )
        .build(),
      findings: [{ severity: 'error', path: PATH }],
    },
    {
      name: 'the not-ready key for NoExecute only',
      ds: cni().tolerate({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }).build(),
      findings: [{ severity: 'error', path: PATH }],
    },
    {
      name: 'an agent that writes the CNI configuration (/etc/cni/net.d) is',
      ds: goodDaemonSet('my-cni', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.volumes = [
            { name: 'cnibin', hostPath: { path: '/opt/cni/bin' } },
            { name: 'cninet', hostPath: { path: '/etc/cni/net.d' } },
          ];
        })
        .build(),
      findings: [{ severity: 'error', path: PATH, message: /network \(CNI\) agent \(hostPath \/etc\/cni\/net\.d/ }],
    },
  ],
});
