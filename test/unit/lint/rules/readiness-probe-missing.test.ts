import { readinessProbeMissing } from '../../../../src/lint/rules/readiness-probe-missing.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

/** No probe at all: the fix cannot borrow a liveness probe's endpoint. */
const noProbe = () =>
  goodDaemonSet().with((d) => {
    delete d.spec!.template!.spec!.containers![0]!.readinessProbe;
    delete d.spec!.template!.spec!.containers![0]!.livenessProbe;
  });
const PATH = 'spec.template.spec.containers[0].readinessProbe';

ruleTester(readinessProbeMissing, {
  valid: [
    { name: 'a probe', ds: goodDaemonSet().build() },
    {
      name: 'a helper sidecar (the CSI registrar) needs no probe of its own',
      ds: goodDaemonSet()
        .container({ name: 'registrar', image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.1' })
        .build(),
    },
    {
      name: "a placeholder that only sleeps (Longhorn's image pre-pull) needs no probe",
      ds: goodDaemonSet()
        .container({
          name: 'pre-pull',
          image: 'docker.io/longhornio/longhorn-share-manager:v1.12.1',
          command: ['sh', '-c', 'echo share-manager image pulled && sleep infinity'],
        })
        .build(),
    },
    {
      name: 'init containers run to completion and take no probe',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [{ name: 'install', image: 'example/install:1.0' }];
        })
        .build(),
    },
    {
      name: 'a script that runs once and then sleeps (an updater) needs no probe (issue 39)',
      ds: goodDaemonSet()
        .container({
          name: 'updater',
          image: 'debian:12.6',
          command: ['bash', '-c'],
          args: [
            'grep -q bpf /sys/kernel/security/lsm && sleep infinity\nupdate-grub && touch /sentinel/reboot-required',
          ],
        })
        .build(),
    },
    {
      name: "a liveness sidecar named for it (ceph-csi's liveness-prometheus) is a helper",
      ds: goodDaemonSet()
        .container({ name: 'liveness-prometheus', image: 'quay.io/cephcsi/cephcsi:v3.12.0', args: ['--type=liveness'] })
        .build(),
    },
    {
      name: 'the CSI registrar rebuilt under another image name (eks-distro node-driver-registrar) is still a helper',
      ds: goodDaemonSet()
        .container({
          name: 'node-driver-registrar',
          image: 'public.ecr.aws/eks-distro/kubernetes-csi/node-driver-registrar:v2.7.0-eks-1-23-13',
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'no probe with the default RollingUpdate',
      ds: noProbe()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.ports = [{ containerPort: 2020 }];
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          message: /moves on from a broken version immediately/,
          fix: /tcpSocket:\n\s+port: 2020/,
        },
      ],
    },
    {
      name: "a second agent container is not covered by the first one's probe (weave-npc next to weave)",
      ds: goodDaemonSet().container({ name: 'npc', image: 'example/npc:1.0' }).build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.containers[1].readinessProbe',
          message: /^container npc has no readiness probe \(the probe of agent does not cover it\)/,
        },
      ],
    },
    {
      name: 'a native sidecar (restartPolicy Always) is long-running: judged too',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [
            { name: 'shipper', image: 'example/shipper:1.0', restartPolicy: 'Always' },
          ];
        })
        .build(),
      findings: [{ severity: 'warning', path: 'spec.template.spec.initContainers[0].readinessProbe' }],
    },
    {
      name: 'DNS on UDP 53 only: never an invented /healthz on port 53, an exec probe instead',
      ds: noProbe()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.ports = [{ name: 'dns', containerPort: 53, protocol: 'UDP' }];
        })
        .build(),
      findings: [{ severity: 'warning', path: PATH, fix: /^(?![\s\S]*(healthz|port: 53))[\s\S]*exec:/ }],
    },
    {
      name: 'a named metrics port is preferred over the first port',
      ds: noProbe()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.ports = [
            { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
            { name: 'metrics', containerPort: 9253 },
          ];
        })
        .build(),
      findings: [{ severity: 'warning', path: PATH, fix: /tcpSocket:\n\s+port: metrics/ }],
    },
    {
      name: 'minReadySeconds softens it to info',
      ds: noProbe()
        .with((d) => {
          d.spec!.minReadySeconds = 30;
        })
        .build(),
      findings: [{ severity: 'info', path: PATH, message: /after minReadySeconds \(30s\)/ }],
    },
    {
      name: 'OnDelete: info',
      ds: noProbe()
        .with((d) => {
          d.spec!.updateStrategy = { type: 'OnDelete' };
        })
        .build(),
      findings: [{ severity: 'info', path: PATH, message: /nothing tells a broken agent from a working one/ }],
    },
    {
      name: 'a liveness probe is not a readiness probe',
      ds: noProbe()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.livenessProbe = { httpGet: { path: '/health', port: 8080 } };
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: PATH,
          fix: /its liveness probe already uses:\n.*\n\s+httpGet:\n\s+path: \/health\n\s+port: 8080/,
        },
      ],
    },
  ],
});
