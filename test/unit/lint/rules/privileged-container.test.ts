import { privilegedContainer } from '../../../../src/lint/rules/privileged-container.js';
import { goodDaemonSet, ruleTester } from '../rule-tester.js';

const C0 = 'spec.template.spec.containers[0]';
const privileged = { privileged: true };

ruleTester(privilegedContainer, {
  valid: [
    { name: 'not privileged', ds: goodDaemonSet().build() },
    {
      name: 'privileged: false',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { privileged: false };
        })
        .build(),
    },
    {
      name: 'capabilities instead of privileged (the Cilium agent shape)',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = {
            capabilities: { add: ['NET_ADMIN', 'SYS_ADMIN'], drop: ['ALL'] },
          };
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'an application DaemonSet: error, drop ALL',
      ds: goodDaemonSet('app', 'shop')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: `${C0}.securityContext.privileged`,
          message: /container app is privileged: .*application DaemonSet should not need it/,
          fix: /privileged: false[\s\S]*drop:\n\s+- ALL/,
        },
      ],
    },
    {
      name: 'a CNI agent: info, one finding for all its privileged containers',
      ds: goodDaemonSet('calico-node', 'kube-system')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'docker.io/calico/node:v3.28.0';
          spec.containers![0]!.securityContext = privileged;
          spec.initContainers = [
            { name: 'install-cni', image: 'docker.io/calico/cni:v3.28.0', securityContext: privileged },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.privileged`,
          message: /container calico-node, init container install-cni: privileged, as a network \(CNI\) agent/,
        },
      ],
    },
    {
      name: 'kube-proxy: info',
      ds: goodDaemonSet('kube-proxy', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'registry.k8s.io/kube-proxy:v1.30.2';
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [{ severity: 'info', path: `${C0}.securityContext.privileged`, message: /service proxy/ }],
    },
    {
      name: 'a CSI node plugin: info',
      ds: goodDaemonSet('csi-node', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
          d.spec!.template!.spec!.volumes = [
            { name: 'plugins', hostPath: { path: '/var/lib/kubelet/plugins/ebs.csi.aws.com' } },
          ];
        })
        .build(),
      findings: [
        { severity: 'info', path: `${C0}.securityContext.privileged`, message: /storage \(CSI\) node plugin/ },
      ],
    },
    {
      name: 'a log collector: error, read-only mounts instead',
      ds: goodDaemonSet('fluent-bit', 'logging')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'fluent/fluent-bit:3.0.7';
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: `${C0}.securityContext.privileged`,
          message: /log collector.*mount \/var\/log .*readOnly: true/,
        },
      ],
    },
    {
      name: 'node-exporter: error, it needs no capability',
      ds: goodDaemonSet('node-exporter', 'monitoring')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'quay.io/prometheus/node-exporter:v1.8.1';
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: `${C0}.securityContext.privileged`,
          message: /monitoring agent.*needs no capability/,
        },
      ],
    },
    {
      name: 'node-local DNS: warning (more than it needs, not a danger out of place), NET_ADMIN instead',
      ds: goodDaemonSet('node-local-dns', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.1';
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.privileged`,
          message: /NET_ADMIN/,
          fix: /add:\n\s+- NET_ADMIN/,
        },
      ],
    },
    {
      // Issue 39: runtime-security agents enter every process's namespaces (Tracee, NeuVector).
      name: 'a security agent: info, its job',
      ds: goodDaemonSet('falco', 'falco')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'falcosecurity/falco:0.38.1';
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [
        { severity: 'info', path: `${C0}.securityContext.privileged`, message: /privileged, as a security agent/ },
      ],
    },
    {
      name: 'an unknown agent with hostPID, privileged and the kernel modules is a security agent: info',
      ds: goodDaemonSet('enforcer', 'guard')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.hostPID = true;
          spec.containers![0]!.securityContext = privileged;
          spec.volumes = [{ name: 'modules', hostPath: { path: '/lib/modules' } }];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.privileged`,
          message:
            /as a security agent \(hostPID with container enforcer privileged and hostPath \/lib\/modules \(kernel modules\)\)/,
        },
      ],
    },
    {
      name: 'a node-level agent whose role is unknown: warning, not "an application"',
      ds: goodDaemonSet('tuner', 'kube-system')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.volumes = [{ name: 'sys', hostPath: { path: '/sys' } }];
          spec.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.privileged`,
          message: /privileged in a node-level agent \(hostPath \/sys\) whose role lint cannot infer: .*getpcaps/,
        },
      ],
    },
    {
      name: 'hostNetwork alone does not make a node agent (a relay on the host network): error',
      ds: goodDaemonSet('relay', 'shop')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.hostNetwork = true;
          spec.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: `${C0}.securityContext.privileged`,
          message: /application DaemonSet should not need it/,
        },
      ],
    },
    {
      name: 'a host-network agent (hostNetwork with NET_ADMIN): warning, NET_ADMIN suffices',
      ds: goodDaemonSet('lb-speaker', 'lb')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.hostNetwork = true;
          spec.containers![0]!.securityContext = { privileged: true, capabilities: { add: ['NET_ADMIN'] } };
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.privileged`,
          message: /host-network agent .*needs NET_ADMIN/,
          fix: /add:\n\s+- NET_ADMIN\n\s+- NET_RAW/,
        },
      ],
    },
    {
      name: 'a driver installer (privileged init containers writing to the host, then pause): info',
      ds: goodDaemonSet('nvidia-driver-installer', 'kube-system')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers = [{ name: 'pause', image: 'registry.k8s.io/pause:3.10' }];
          spec.volumes = [{ name: 'root', hostPath: { path: '/' } }];
          spec.initContainers = [
            {
              name: 'installer',
              image: 'example/installer:1.0',
              securityContext: privileged,
              volumeMounts: [{ name: 'root', mountPath: '/root' }],
            },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: 'spec.template.spec.initContainers[0].securityContext.privileged',
          message:
            /privileged, as a driver installer \(init container installer writes to the host, then pause only waits\)/,
        },
      ],
    },
    // Issue 14 §3: roles whose job needs privileged get information, detected by evidence.
    {
      name: 'a node-reboot agent (kured: hostPID, nsenter into PID 1): info',
      ds: goodDaemonSet('kured', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.hostPID = true;
        })
        .with((d) => {
          const c = d.spec!.template!.spec!.containers![0]!;
          c.image = 'ghcr.io/kubereboot/kured:1.23.0';
          c.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.privileged`,
          message: /privileged, as a node-reboot agent \(image ghcr\.io\/kubereboot\/kured:1\.23\.0\)/,
        },
      ],
    },
    {
      name: 'a reboot agent under another image, by its reboot flag and hostPID: info',
      ds: goodDaemonSet('rebooter', 'ops')
        .with((d) => {
          d.spec!.template!.spec!.hostPID = true;
        })
        .with((d) => {
          const c = d.spec!.template!.spec!.containers![0]!;
          c.args = ['--reboot-command=/bin/systemctl reboot'];
          c.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.privileged`,
          message: /node-reboot agent \(container rebooter reboots the node \(--reboot-command\) with hostPID\)/,
        },
      ],
    },
    {
      name: 'a local-volume provisioner (host /dev, discovery directory with propagation): info',
      ds: goodDaemonSet('local-volume-provisioner', 'default')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'registry.example.com/disk-provisioner:2.0';
          spec.containers![0]!.securityContext = privileged;
          spec.containers![0]!.volumeMounts = [
            { name: 'disks', mountPath: '/mnt/fast-disks', mountPropagation: 'HostToContainer' },
            { name: 'dev', mountPath: '/dev' },
          ];
          spec.volumes = [
            { name: 'disks', hostPath: { path: '/mnt/fast-disks' } },
            { name: 'dev', hostPath: { path: '/dev' } },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.privileged`,
          message: /local-volume provisioner \(hostPath \/dev and discovery directory \/mnt\/fast-disks/,
        },
      ],
    },
    {
      name: "a security agent that loads a kernel driver (Falco's driver loader): info",
      ds: goodDaemonSet('falco', 'falco')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'docker.io/falcosecurity/falco:0.44.1';
          spec.containers![0]!.securityContext = privileged;
          spec.initContainers = [
            {
              name: 'falco-driver-loader',
              image: 'docker.io/falcosecurity/falco-driver-loader:0.44.1',
              securityContext: privileged,
            },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.privileged`,
          message:
            /container falco, init container falco-driver-loader: privileged, as a security agent \(init container falco-driver-loader .* loads the kernel driver\)/,
        },
      ],
    },
    {
      name: 'a problem detector reading /dev/kmsg: info',
      ds: goodDaemonSet('node-problem-detector', 'kube-system')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.19';
          spec.containers![0]!.securityContext = privileged;
          spec.volumes = [{ name: 'kmsg', hostPath: { path: '/dev/kmsg' } }];
        })
        .build(),
      findings: [{ severity: 'info', path: `${C0}.securityContext.privileged`, message: /as a monitoring agent/ }],
    },
    {
      // A device plugin dials the kubelet's socket in /var/lib/kubelet/device-plugins and serves its
      // own there (device plugin API): with no host access at all, an image name alone does not
      // make one (batch 6 of docs/lint-precision.md).
      name: 'a device-plugin-like image name without any host access is judged as an unknown role',
      ds: goodDaemonSet('exporter', 'monitoring')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'example/gpu-device-plugin-exporter:1.0.0';
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [{ severity: 'error', path: `${C0}.securityContext.privileged` }],
    },
    {
      // Issue 39: the device cgroup denies an unprivileged container the host's device nodes, and a
      // plugin cannot request the devices it advertises.
      name: 'a device plugin: info, it opens the devices it advertises',
      ds: goodDaemonSet('gpu-plugin', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'rocm/k8s-device-plugin:1.25.2.8';
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
          // The kubelet's socket directory, where a device plugin registers (device plugin API).
          d.spec!.template!.spec!.containers![0]!.volumeMounts = [
            { name: 'device-plugin', mountPath: '/var/lib/kubelet/device-plugins' },
          ];
          d.spec!.template!.spec!.volumes = [
            { name: 'device-plugin', hostPath: { path: '/var/lib/kubelet/device-plugins' } },
          ];
        })
        .build(),
      findings: [
        { severity: 'info', path: `${C0}.securityContext.privileged`, message: /privileged, as a device plugin/ },
      ],
    },
    {
      name: 'a node labeller (its command runs one): info',
      ds: goodDaemonSet('gpu-labeller', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'example/gpu-tools:1.4.2';
          d.spec!.template!.spec!.containers![0]!.args = ['./k8s-node-labeller', '-vram'];
          d.spec!.template!.spec!.containers![0]!.securityContext = privileged;
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.privileged`,
          message: /privileged, as a node labeller \(container gpu-labeller runs a node labeller\)/,
        },
      ],
    },
    {
      name: 'a privileged init container of an application',
      ds: goodDaemonSet('app', 'shop')
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [
            { name: 'sysctl', image: 'busybox:1.36', securityContext: privileged },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'error',
          path: 'spec.template.spec.initContainers[0].securityContext.privileged',
          message: /init container sysctl is privileged/,
        },
      ],
    },
    {
      // "Create a Windows HostProcess Pod": HostProcess runs as a host account with the host's
      // network, files and processes; privileged cannot be set on Windows, so this is its form there.
      name: 'a Windows service proxy as HostProcess (the sig-windows-tools kube-proxy shape): info',
      ds: goodDaemonSet('kube-proxy-windows', 'kube-system')
        .nodeSelector({ 'kubernetes.io/os': 'windows' })
        .hostNetwork()
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'sigwindowstools/kube-proxy:v1.34.2-calico-hostprocess';
          spec.securityContext = { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\system' } };
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: 'spec.template.spec.securityContext.windowsOptions.hostProcess',
          message:
            /^the pod's containers run as HostProcess containers \(as NT AUTHORITY\\system\), as a service proxy/,
        },
      ],
    },
    {
      name: 'a HostProcess container of an unknown role: warning, a less privileged host account',
      ds: goodDaemonSet('win-agent')
        .hostNetwork()
        .with((d) => {
          Object.assign(d.spec!.template!.spec!.containers![0]!, {
            securityContext: { windowsOptions: { hostProcess: true } },
          });
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.windowsOptions.hostProcess`,
          message:
            /^container win-agent runs as a HostProcess container \(as a host account\) in a DaemonSet whose role lint cannot infer: .*baseline Pod Security Standard forbids$/,
          fix: /windowsOptions:\n\s+hostProcess: true\n\s+runAsUserName: NT AUTHORITY\\Local service$/,
        },
      ],
    },
  ],
});
