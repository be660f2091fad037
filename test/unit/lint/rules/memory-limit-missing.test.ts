import { memoryLimitMissing } from '../../../../src/lint/rules/memory-limit-missing.js';
import { deviceWithCniInstaller, goodDaemonSet, ruleTester } from '../rule-tester.js';

const C0 = 'spec.template.spec.containers[0]';

ruleTester(memoryLimitMissing, {
  valid: [
    { name: 'memory limit set', ds: goodDaemonSet().build() },
    {
      name: 'no cpu limit is fine: it only throttles',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.resources = { requests: { cpu: '1' }, limits: { memory: '1Gi' } };
        })
        .build(),
    },
    {
      name: 'a pause container and a run-once script that then sleeps are not judged (issue 39)',
      ds: goodDaemonSet()
        .container({ name: 'pause', image: 'registry.k8s.io/pause:3.10' })
        .container({
          name: 'updater',
          image: 'debian:12.6',
          command: ['bash', '-c'],
          args: [
            'grep -q bpf /sys/kernel/security/lsm && sleep infinity\nupdate-grub 2>&1 && touch /sentinel/reboot-required',
          ],
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'requests without limits: the suggested limit is twice the request',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.resources = { requests: { cpu: '100m', memory: '100Mi' } };
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.resources.limits.memory`,
          message: /no memory limit/,
          fix: /memory: 200Mi/,
        },
      ],
    },
    {
      name: 'no resources: a placeholder limit',
      ds: goodDaemonSet()
        .with((d) => {
          delete d.spec!.template!.spec!.containers![0]!.resources;
        })
        .build(),
      findings: [{ severity: 'warning', path: `${C0}.resources.limits.memory`, fix: /memory: 256Mi/ }],
    },
    {
      // Issue 14 §3: Calico, flannel, aws-node, Weave and node-local DNS publish no memory limit on purpose.
      name: "a CNI agent: info, an OOM kill would cut the node's pod networking",
      ds: goodDaemonSet('calico-node', 'kube-system')
        .with((d) => {
          const c = d.spec!.template!.spec!.containers![0]!;
          c.image = 'docker.io/calico/node:v3.28.1';
          c.resources = { requests: { cpu: '250m' } };
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.resources.limits.memory`,
          message: /as a network \(CNI\) agent .*cut the node's pod networking/,
        },
      ],
    },
    {
      // The CNI specification: a plugin is an executable the container runtime runs for each pod
      // sandbox. Once the init container has copied it to /opt/cni/bin, no long-running container of
      // this pod carries the node's pod networking, so an OOM kill here cuts none: judged as the
      // device plugin it runs (batch 5 of docs/lint-precision.md).
      name: 'a device plugin whose init container only installs a CNI plugin binary: a warning',
      ds: deviceWithCniInstaller().build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.resources.limits.memory`,
          message:
            /^container macvtap has no memory limit: one leaking or buffering copy can exhaust a node's memory, and the DaemonSet runs a copy on every node$/,
        },
      ],
    },
    {
      name: 'the init container writes the CNI configuration too: a network agent, info',
      ds: deviceWithCniInstaller(true).build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.resources.limits.memory`,
          message: /as a network \(CNI\) agent .*cut the node's pod networking/,
        },
      ],
    },
    {
      name: 'the long-running container mounts the CNI binary directory itself: a network agent, info',
      ds: deviceWithCniInstaller()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.volumeMounts!.push({
            name: 'cni-bin',
            mountPath: '/host/opt/cni/bin',
          });
        })
        .build(),
      findings: [{ severity: 'info', path: `${C0}.resources.limits.memory`, message: /as a network \(CNI\) agent/ }],
    },
    {
      name: 'a node-local DNS cache: info',
      ds: goodDaemonSet('node-local-dns', 'kube-system')
        .with((d) => {
          const c = d.spec!.template!.spec!.containers![0]!;
          c.image = 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.1';
          c.resources = { requests: { cpu: '25m', memory: '5Mi' } };
        })
        .build(),
      findings: [{ severity: 'info', path: `${C0}.resources.limits.memory`, message: /node's DNS/ }],
    },
    {
      name: 'only a cpu limit',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.resources = { requests: { memory: '1Gi' }, limits: { cpu: '1' } };
        })
        .build(),
      findings: [{ severity: 'warning', path: `${C0}.resources.limits.memory`, fix: /memory: 2048Mi/ }],
    },
    {
      name: 'a script that starts a daemon in the background and sleeps is long-running: judged',
      ds: goodDaemonSet()
        .container({
          name: 'shipper',
          image: 'example/shipper:1.0.0',
          command: ['sh', '-c', '/shipper --serve &\nsleep infinity'],
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: 'spec.template.spec.containers[1].resources.limits.memory',
          message: /container shipper has no memory limit/,
        },
      ],
    },
  ],
});
