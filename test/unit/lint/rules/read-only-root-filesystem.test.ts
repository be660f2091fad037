import { readOnlyRootFilesystem } from '../../../../src/lint/rules/read-only-root-filesystem.js';
import { deviceWithCniInstaller, goodDaemonSet, ruleTester, WINDOWS_PINS, windowsOrLinux } from '../rule-tester.js';

const C0 = 'spec.template.spec.containers[0]';

/** The good agent without any securityContext: on Linux each Linux-only security rule reports it. */
const noSecurityContext = () =>
  goodDaemonSet().with((d) => {
    delete d.spec!.template!.spec!.containers![0]!.securityContext;
  });

/**
 * A container under an image name that reads like a CSI node plugin's, with no host access unless
 * `hostPath` is given (an exporter shipped by a storage vendor has this shape).
 */
const csiNamedImage = (hostPath?: string) =>
  goodDaemonSet('disk-exporter', 'storage').with((d) => {
    const spec = d.spec!.template!.spec!;
    spec.containers![0]!.image = 'example/csi-node-exporter:1.0.0';
    delete spec.containers![0]!.securityContext;
    if (hostPath) {
      spec.containers![0]!.volumeMounts = [{ name: 'host', mountPath: hostPath }];
      spec.volumes = [{ name: 'host', hostPath: { path: hostPath } }];
    }
  });

ruleTester(readOnlyRootFilesystem, {
  valid: [
    { name: 'read-only root filesystem', ds: goodDaemonSet().build() },
    // readOnlyRootFilesystem "cannot be set when spec.os.name is windows" (core/v1 SecurityContext; validateWindows).
    ...WINDOWS_PINS.map(([how, pin]) => ({
      name: `a Windows pod (${how}) is not judged`,
      ds: pin(noSecurityContext()).build(),
    })),
  ],
  invalid: [
    {
      name: 'node affinity that admits Linux nodes too: judged',
      ds: windowsOrLinux(noSecurityContext()).build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.readOnlyRootFilesystem`,
          message: /writable root filesystem/,
        },
      ],
    },
    {
      name: 'not set',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { runAsNonRoot: true };
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.readOnlyRootFilesystem`,
          message: /writable root filesystem/,
          fix: /readOnlyRootFilesystem: true/,
        },
      ],
    },
    {
      name: 'explicitly false, and an init container without it',
      ds: goodDaemonSet()
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { readOnlyRootFilesystem: false };
          d.spec!.template!.spec!.initContainers = [{ name: 'setup', image: 'busybox:1.36' }];
        })
        .build(),
      findings: [
        { severity: 'warning', path: `${C0}.securityContext.readOnlyRootFilesystem` },
        {
          severity: 'warning',
          path: 'spec.template.spec.initContainers[0].securityContext.readOnlyRootFilesystem',
          message: /init container setup/,
        },
      ],
    },
    {
      name: 'a log collector: its buffers belong on a hostPath or emptyDir',
      ds: goodDaemonSet('fluent-bit', 'logging')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.image = 'fluent/fluent-bit:3.0';
          d.spec!.template!.spec!.containers![0]!.securityContext = {};
        })
        .build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.readOnlyRootFilesystem`,
          message: /buffer and position files/,
        },
      ],
    },
    {
      // A CSI node plugin registers through the kubelet's plugins_registry and publishes volumes
      // under /var/lib/kubelet/pods (kubelet plugin watcher; kubernetes-csi "Deploying a CSI
      // driver"): with no host access at all, the image name alone does not make one (batch 6 of
      // docs/lint-precision.md).
      name: 'a CSI-like image name without any host access is not a CSI node plugin: warned',
      ds: csiNamedImage().build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.readOnlyRootFilesystem`,
          message: /^container disk-exporter has a writable root filesystem$/,
        },
      ],
    },
    {
      name: 'the same image with a host path mounted keeps the CSI node plugin role: info',
      ds: csiNamedImage('/dev').build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.readOnlyRootFilesystem`,
          message: /root filesystem writable, as a storage \(CSI\) node plugin \(image example\/csi-node-exporter/,
        },
      ],
    },
    {
      name: 'kube-proxy: info',
      ds: goodDaemonSet('kube-proxy', 'kube-system')
        .with((d) => {
          d.spec!.template!.spec!.containers![0]!.securityContext = { privileged: true };
        })
        .build(),
      findings: [{ severity: 'info', path: `${C0}.securityContext.readOnlyRootFilesystem`, message: /service proxy/ }],
    },
    {
      name: "a security agent's kernel driver loader builds the module in its filesystem: info",
      ds: goodDaemonSet('falco', 'falco')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers![0]!.image = 'docker.io/falcosecurity/falco:0.44.1';
          spec.initContainers = [
            { name: 'falco-driver-loader', image: 'docker.io/falcosecurity/falco-driver-loader:0.44.1' },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: 'spec.template.spec.initContainers[0].securityContext.readOnlyRootFilesystem',
          message: /init container falco-driver-loader: root filesystem writable, as a security agent/,
        },
      ],
    },
    {
      // The CNI specification: the runtime executes the copied plugin binary, outside this pod; the
      // installer keeps the network role's convention, the device plugin is judged as one (batch 5
      // of docs/lint-precision.md).
      name: 'a device plugin whose init container only installs a CNI plugin binary: the plugin is warned, the installer is info',
      ds: deviceWithCniInstaller().build(),
      findings: [
        {
          severity: 'warning',
          path: `${C0}.securityContext.readOnlyRootFilesystem`,
          message: /^container macvtap has a writable root filesystem$/,
        },
        {
          severity: 'info',
          path: 'spec.template.spec.initContainers[0].securityContext.readOnlyRootFilesystem',
          message:
            /^init container install-cni: root filesystem writable, as a network \(CNI\) agent \(hostPath \/opt\/cni\/bin/,
        },
      ],
    },
    {
      name: 'the init container writes the CNI configuration too: a network agent, one info for both',
      ds: deviceWithCniInstaller(true).build(),
      findings: [
        {
          severity: 'info',
          path: `${C0}.securityContext.readOnlyRootFilesystem`,
          message:
            /^container macvtap, init container install-cni: root filesystem writable, as a network \(CNI\) agent/,
        },
      ],
    },
    {
      name: 'a driver installer: info; its pause container is not judged',
      ds: goodDaemonSet('nvidia-driver-installer', 'kube-system')
        .with((d) => {
          const spec = d.spec!.template!.spec!;
          spec.containers = [{ name: 'pause', image: 'registry.k8s.io/pause:3.10' }];
          spec.volumes = [{ name: 'root', hostPath: { path: '/' } }];
          spec.initContainers = [
            {
              name: 'installer',
              image: 'example/installer:1.0',
              securityContext: { privileged: true },
              volumeMounts: [{ name: 'root', mountPath: '/root' }],
            },
          ];
        })
        .build(),
      findings: [
        {
          severity: 'info',
          path: 'spec.template.spec.initContainers[0].securityContext.readOnlyRootFilesystem',
          message: /^init container installer: root filesystem writable, as a driver installer/,
        },
      ],
    },
  ],
});
