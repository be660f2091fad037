import { runAsNonRoot } from '../../../../src/lint/rules/run-as-non-root.js';
import { goodDaemonSet, ruleTester, secretsStoreProvider, WINDOWS_PINS, windowsOrLinux } from '../rule-tester.js';

const C0 = 'spec.template.spec.containers[0]';

/** The good agent without any securityContext: on Linux each Linux-only security rule reports it. */
const noSecurityContext = () =>
  goodDaemonSet().with((d) => {
    delete d.spec!.template!.spec!.containers![0]!.securityContext;
  });

ruleTester(runAsNonRoot, {
  valid: [
    // uid-based: runAsUser cannot be set on Windows, where the kubelet judges runAsNonRoot by the user name (security_context_windows.go).
    ...WINDOWS_PINS.map(([how, pin]) => ({
      name: `a Windows pod (${how}) is not judged`,
      ds: pin(noSecurityContext()).build(),
    })),
    { name: 'runAsNonRoot with a uid', ds: goodDaemonSet().build() },
    {
      name: 'a non-zero runAsUser alone',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { runAsUser: 1000 };
        })
        .build(),
    },
    {
      name: 'pod-level securityContext (the node-exporter chart shape)',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.securityContext = { runAsNonRoot: true, runAsUser: 65534 };
          d.spec!.template!.spec!.containers![0]!.securityContext = { readOnlyRootFilesystem: true };
        })
        .build(),
    },
  ],
  invalid: [
    {
      name: 'node affinity that admits Linux nodes too: judged',
      ds: windowsOrLinux(noSecurityContext()).build(),
      findings: [{ severity: 'warning', path: `${C0}.securityContext.runAsNonRoot`, message: /may run as root/ }],
    },
    {
      // hostPath volumes are not chowned to fsGroup: files and directories created on the host are writable only by root.
      name: 'a Secrets Store CSI provider creates its socket in a root-owned host directory: info',
      ds: secretsStoreProvider('mcr.microsoft.com/oss/v2/azure/secrets-store/provider-azure:v1.8.2')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = {
            runAsUser: 0,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          };
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.runAsNonRoot`,
          message:
            /may run as root, as a Secrets Store CSI provider \(hostPath \/var\/run\/secrets-store-csi-providers /,
        },
      ],
    },
    // Issue 14 §3: roles whose job needs uid 0 get information.
    ...(
      [
        ['a node-reboot agent (kured)', 'ghcr.io/kubereboot/kured:1.23.0', /node-reboot agent/],
        ['a runtime-security agent (Falco)', 'docker.io/falcosecurity/falco:0.44.1', /security agent/],
        ['a node-local DNS cache', 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.1', /node-local DNS cache/],
        [
          'a local-volume provisioner',
          'registry.k8s.io/sig-storage/local-volume-provisioner:v2.7.0',
          /local-volume provisioner/,
        ],
        [
          'a problem detector',
          'registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.19',
          /monitoring agent/,
        ],
      ] as const
    ).map(([name, image, message]) => ({
      name: `${name}: info`,
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = image;
          delete d.spec!.template!.spec!.containers![0]!.securityContext;
        })
        .build(),
      findings: [{ severity: 'info' as const, path: `${C0}.securityContext.runAsNonRoot`, message }],
    })),
    {
      name: 'a node monitor that reads /proc and /sys (node-exporter) does not need root: warning',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'quay.io/prometheus/node-exporter:v1.8.2';
          delete d.spec!.template!.spec!.containers![0]!.securityContext;
        })
        .build(),
      findings: [{ severity: 'warning', path: `${C0}.securityContext.runAsNonRoot` }],
    },
    {
      name: 'no securityContext: the image decides',
      ds: goodDaemonSet()
        .with((d) => {
          delete d.spec!.template!.spec!.containers![0]!.securityContext;
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.runAsNonRoot`,
          message: /may run as root/,
          fix: /runAsNonRoot: true\n\s+runAsUser: 65534/,
        },
      ],
    },
    {
      name: 'explicit uid 0',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { runAsUser: 0 };
        })
        .build(),
      findings: [
        { severity: 'warning', path: `${C0}.securityContext.runAsNonRoot`, message: /runs as root \(runAsUser 0\)/ },
      ],
    },
    {
      name: 'runAsNonRoot with runAsUser 0: the kubelet refuses to start it',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { runAsNonRoot: true, runAsUser: 0 };
        })
        .build(),
      findings: [{ severity: 'error', path: `${C0}.securityContext.runAsUser`, message: /CreateContainerConfigError/ }],
    },
    {
      name: 'pod-level runAsNonRoot, container-level uid 0',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.securityContext = { runAsNonRoot: true };
          d.spec!.template!.spec!.containers![0]!.securityContext = { runAsUser: 0 };
        })
        .build(),
      findings: [{ severity: 'error', path: `${C0}.securityContext.runAsUser` }],
    },
    {
      name: 'a log collector: uid 0 only if the logs need it',
      ds: goodDaemonSet('fluent-bit', 'logging')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'fluent/fluent-bit:3.0';
          delete d.spec!.template!.spec!.containers![0]!.securityContext;
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.runAsNonRoot`,
          message: /log collector that reads root-owned 0640 log files needs uid 0.*drop ALL capabilities/,
        },
      ],
    },
    {
      name: 'a device plugin writes the kubelet socket directory: info',
      ds: goodDaemonSet('nvidia-device-plugin', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'nvcr.io/nvidia/k8s-device-plugin:v0.15.0';
          delete d.spec!.template!.spec!.containers![0]!.securityContext;
          // The kubelet's socket directory, where a device plugin registers (device plugin API).
          d.spec!.template!.spec!.containers![0]!.volumeMounts = [
            { name: 'device-plugin', mountPath: '/var/lib/kubelet/device-plugins' },
          ];
          d.spec!.template!.spec!.volumes = [
            { name: 'device-plugin', hostPath: { path: '/var/lib/kubelet/device-plugins' } },
          ];
        })
        .build(),
      findings: [{ severity: 'info', path: `${C0}.securityContext.runAsNonRoot`, message: /device plugin/ }],
    },
    {
      name: 'a CNI agent: one info for every root container',
      ds: goodDaemonSet('cilium', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'quay.io/cilium/cilium:v1.15.6';
          delete d.spec!.template!.spec!.containers![0]!.securityContext;
          d.spec!.template!.spec!.initContainers = [{ name: 'mount-bpf-fs', image: 'quay.io/cilium/cilium:v1.15.6' }];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.runAsNonRoot`,
          message: /container cilium, init container mount-bpf-fs: may run as root, as a network \(CNI\) agent/,
        },
      ],
    },
    // Issue 39: what the kernel needs uid 0 for is information, not a warning.
    {
      name: 'added capabilities: Kubernetes sets no ambient capabilities, so they need uid 0: info',
      ds: goodDaemonSet('speaker', 'lb')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = {
            capabilities: { drop: ['ALL'], add: ['NET_RAW'] },
          };
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.runAsNonRoot`,
          message: /may run as root, which it needs: it adds NET_RAW, and Kubernetes sets no ambient capabilities/,
        },
      ],
    },
    {
      name: 'a log collector reading container logs: info',
      ds: goodDaemonSet('fluent-bit', 'logging')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'fluent/fluent-bit:3.0.7';
          spec.containers![0]!.securityContext = { readOnlyRootFilesystem: true };
          spec.volumes = [{ name: 'pods', hostPath: { path: '/var/log/pods' } }];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.runAsNonRoot`,
          message: /a log collector reads the container logs under hostPath \/var\/log\/pods/,
        },
      ],
    },
    {
      name: "a monitor reading the container runtime's state (cAdvisor): info",
      ds: goodDaemonSet('cadvisor', 'cadvisor')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'ghcr.io/google/cadvisor:0.54.0';
          spec.containers![0]!.securityContext = {};
          spec.volumes = [{ name: 'docker', hostPath: { path: '/var/lib/docker' } }];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.runAsNonRoot`,
          message: /container runtime's state or socket under hostPath \/var\/lib\/docker/,
        },
      ],
    },
    {
      name: 'a monitor reading a world-readable file under /var/run (utmp) still gets the warning',
      ds: goodDaemonSet('host-metrics')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'quay.io/signalfx/splunk-otel-collector:0.158.0';
          spec.containers![0]!.securityContext = {};
          spec.volumes = [{ name: 'utmp', hostPath: { path: '/var/run/utmp' } }];
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.runAsNonRoot`,
          message: /may run as root \(no runAsNonRoot/,
        },
      ],
    },
    {
      name: "the container runtime's socket is root-only whatever the role (a metrics agent of unknown role): info",
      ds: goodDaemonSet('cloudwatch-agent', 'amazon-cloudwatch')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.securityContext = {};
          spec.volumes = [{ name: 'dockersock', hostPath: { path: '/var/run/docker.sock' } }];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.runAsNonRoot`,
          message: /under hostPath \/var\/run\/docker\.sock, which only root may read/,
        },
      ],
    },
  ],
});
