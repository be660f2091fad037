// Role detection (src/model/roles.ts): every detector with the manifests of real agents, and the
// false positives an evidence rule must not produce: an ordinary application DaemonSet is no
// node agent, and a hostNetwork daemon with NET_ADMIN is not a CNI by that alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Volume } from '../../src/model/k8s-types.js';
import {
  csiDriversServed,
  detectAgentRoles,
  detectRoles,
  isNodeAgent,
  isPlaceholder,
  kernelDriverLoader,
  type Role,
} from '../../src/model/roles.js';
import { daemonSet as builder, type DaemonSetBuilder } from '../builders.js';

/** A DaemonSet without the builder's default container, so that only the containers a test adds count. */
function daemonSet(name: string, namespace = 'default'): DaemonSetBuilder {
  return builder(name, namespace).with((ds) => {
    ds.spec!.template!.spec!.containers = [];
  });
}

function hostPath(name: string, path: string): Volume {
  return { name, hostPath: { path } };
}

function volumes(b: DaemonSetBuilder, ...v: Volume[]): DaemonSetBuilder {
  return b.with((ds) => {
    ds.spec!.template!.spec!.volumes = [...(ds.spec!.template!.spec!.volumes ?? []), ...v];
  });
}

function roles(b: DaemonSetBuilder, drivers: string[] = []): Role[] {
  return detectRoles(b.build(), drivers).map((r) => r.role);
}

function evidence(b: DaemonSetBuilder, role: Role, drivers: string[] = []): string[] {
  return detectRoles(b.build(), drivers).find((r) => r.role === role)?.evidence ?? [];
}

test('an ordinary application DaemonSet has no role and is no node agent', () => {
  const app = daemonSet('edge-cache', 'shop').container({
    name: 'edge-cache',
    image: 'registry.example.com/shop/edge-cache:7.5',
    ports: [{ containerPort: 6081 }],
  });
  assert.deepEqual(roles(app), []);
  assert.equal(isNodeAgent(app.build()), false);
});

describe('network: known CNI images', () => {
  const cases: [image: string, expected: Role[]][] = [
    ['docker.io/calico/node:v3.28.1', ['network']],
    ['quay.io/cilium/cilium:v1.16.1', ['network']],
    ['docker.io/flannel/flannel:v0.25.6', ['network']],
    ['registry.k8s.io/kindnetd:v20240813', ['network']],
    ['602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:v1.18.3', ['network']],
    ['ghcr.io/k8snetworkplumbingwg/multus-cni:v4.1.0', []],
  ];
  for (const [image, expected] of cases) {
    test(`${image} is ${expected.length ? 'a CNI by its image' : 'not a CNI by its image alone'}`, () => {
      const ds = daemonSet('agent', 'kube-system').container({ name: 'agent', image });
      assert.deepEqual(roles(ds), expected, image);
    });
  }
  // multus-cni is a meta-plugin image name the list does not know; its /etc/cni mount finds it.
  test('multus-cni with an /etc/cni mount is a CNI', () => {
    const multus = volumes(
      daemonSet('multus', 'kube-system').container({
        name: 'multus',
        image: 'ghcr.io/k8snetworkplumbingwg/multus-cni:v4.1.0',
      }),
      hostPath('cni', '/etc/cni/net.d'),
    );
    assert.deepEqual(roles(multus), ['network']);
  });
});

test('network: CNI host paths are evidence, with the path named', () => {
  const ds = volumes(daemonSet('my-cni', 'kube-system'), hostPath('bin', '/opt/cni/bin'));
  assert.deepEqual(evidence(ds, 'network'), ['hostPath /opt/cni/bin (CNI configuration/binaries)']);
});

test('network: hostNetwork + NET_ADMIN counts only with a CNI state directory', () => {
  const speaker = daemonSet('speaker', 'metallb-system')
    .hostNetwork()
    .container({
      name: 'speaker',
      image: 'quay.io/metallb/speaker:v0.14.8',
      securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW', 'SYS_ADMIN'] } },
    });
  assert.deepEqual(roles(speaker), [], 'a load-balancer speaker is not a CNI');
  const agent = volumes(
    daemonSet('net-agent', 'kube-system')
      .hostNetwork()
      .container({
        name: 'net-agent',
        image: 'registry.example.com/net-agent:1',
        securityContext: { capabilities: { add: ['NET_ADMIN'] } },
      }),
    hostPath('state', '/var/run/cilium'),
  );
  assert.deepEqual(evidence(agent, 'network'), ['hostNetwork with NET_ADMIN and hostPath /var/run/cilium']);
  const noHostNet = volumes(
    daemonSet('net-agent', 'kube-system').container({
      name: 'net-agent',
      image: 'registry.example.com/net-agent:1',
      securityContext: { capabilities: { add: ['NET_ADMIN'] } },
    }),
    hostPath('state', '/var/run/cilium'),
  );
  assert.deepEqual(roles(noHostNet), []);
});

test('service-proxy: kube-proxy by image, arch-suffixed image, command and name', () => {
  assert.deepEqual(
    roles(daemonSet('proxy', 'kube-system').container({ name: 'proxy', image: 'registry.k8s.io/kube-proxy:v1.34.2' })),
    ['service-proxy'],
  );
  assert.deepEqual(
    roles(
      daemonSet('proxy', 'kube-system').container({ name: 'proxy', image: 'registry.k8s.io/kube-proxy-amd64:v1.20.0' }),
    ),
    ['service-proxy'],
  );
  const custom = daemonSet('proxy', 'kube-system').container({
    name: 'proxy',
    image: 'registry.example.com/k8s/proxy:1.34',
    command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf'],
  });
  assert.deepEqual(evidence(custom, 'service-proxy'), ['container proxy runs /usr/local/bin/kube-proxy']);
  assert.deepEqual(
    roles(
      daemonSet('kube-proxy', 'kube-system').container({ name: 'kube-proxy', image: 'registry.example.com/proxy:1' }),
    ),
    ['service-proxy'],
  );
});

test('service-proxy: replacements that say so (kube-router, Cilium kube-proxy replacement)', () => {
  const router = daemonSet('kube-router', 'kube-system').container({
    name: 'kube-router',
    image: 'docker.io/cloudnativelabs/kube-router:v2.2.0',
    args: ['--run-router=true', '--run-firewall=true', '--run-service-proxy=true'],
  });
  assert.ok(roles(router).includes('service-proxy'));
  const cilium = daemonSet('cilium', 'kube-system').container({
    name: 'cilium-agent',
    image: 'quay.io/cilium/cilium:v1.16.1',
    env: [{ name: 'KUBE_PROXY_REPLACEMENT', value: 'true' }],
  });
  assert.deepEqual(roles(cilium), ['network', 'service-proxy']);
  const routerNoProxy = daemonSet('kube-router', 'kube-system').container({
    name: 'kube-router',
    image: 'docker.io/cloudnativelabs/kube-router:v2.2.0',
    args: ['--run-service-proxy=false'],
  });
  assert.ok(!roles(routerNoProxy).includes('service-proxy'));
  // An exporter named after kube-proxy is not kube-proxy.
  assert.deepEqual(
    roles(daemonSet('proxy-metrics').container({ name: 'm', image: 'registry.example.com/kube-proxy-exporter:1' })),
    [],
  );
});

test('storage: plugin directory, registrar sidecar and the CSIDriver it names', () => {
  const ebs = volumes(
    daemonSet('ebs-csi-node', 'kube-system')
      .container({ name: 'ebs-plugin', image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.35.0' })
      .container({
        name: 'node-driver-registrar',
        image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1',
        env: [{ name: 'DRIVER_REG_SOCK_PATH', value: '/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock' }],
      }),
    hostPath('plugin-dir', '/var/lib/kubelet/plugins/ebs.csi.aws.com/'),
    hostPath('registration-dir', '/var/lib/kubelet/plugins_registry/'),
  );
  assert.deepEqual(roles(ebs), ['storage']);
  assert.ok(evidence(ebs, 'storage', ['ebs.csi.aws.com']).includes('CSIDriver ebs.csi.aws.com'));
  assert.ok(evidence(ebs, 'storage').includes('node-driver-registrar sidecar'));
  assert.ok(
    !evidence(ebs, 'storage', ['efs.csi.aws.com']).includes('CSIDriver efs.csi.aws.com'),
    'a CSIDriver the template never names',
  );
});

test('csiDriversServed: from the plugin directory, registration flags and known CSIDriver names', () => {
  const byDir = volumes(daemonSet('csi'), hostPath('p', '/var/lib/kubelet/plugins/pd.csi.storage.gke.io'));
  assert.deepEqual(csiDriversServed(byDir.build()), ['pd.csi.storage.gke.io']);
  const byFlag = daemonSet('csi').container({
    name: 'registrar',
    image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1',
    args: ['--kubelet-registration-path=/var/lib/kubelet/plugins/disk.csi.azure.com/csi.sock'],
  });
  assert.deepEqual(csiDriversServed(byFlag.build()), ['disk.csi.azure.com']);
  const byName = daemonSet('csi').container({
    name: 'plugin',
    image: 'example/csi:1',
    args: ['--drivername=nfs.csi.k8s.io'],
  });
  assert.deepEqual(csiDriversServed(byName.build(), ['nfs.csi.k8s.io', 'smb.csi.k8s.io']), ['nfs.csi.k8s.io']);
  // The kubelet's own CSI directory and the whole plugins directory name no driver.
  const kubelet = volumes(
    daemonSet('csi'),
    hostPath('k', '/var/lib/kubelet/plugins/kubernetes.io/csi'),
    hostPath('all', '/var/lib/kubelet/plugins'),
  );
  assert.deepEqual(csiDriversServed(kubelet.build()), []);
});

test('device: the device-plugin socket directory and known plugin images', () => {
  const nvidia = volumes(
    daemonSet('nvidia-device-plugin-daemonset', 'kube-system').container({
      name: 'ctr',
      image: 'nvcr.io/nvidia/k8s-device-plugin:v0.16.2',
    }),
    hostPath('dp', '/var/lib/kubelet/device-plugins'),
  );
  assert.deepEqual(evidence(nvidia, 'device'), [
    'image nvcr.io/nvidia/k8s-device-plugin:v0.16.2',
    'hostPath /var/lib/kubelet/device-plugins (device plugin socket)',
  ]);
  const sriov = daemonSet('sriov').container({
    name: 'dp',
    image: 'ghcr.io/k8snetworkplumbingwg/sriov-network-device-plugin:v3.7.0',
  });
  assert.deepEqual(roles(sriov), ['device']);
  // A GPU workload that merely uses the device is not a plugin.
  assert.deepEqual(
    roles(
      daemonSet('gpu-burn').container({
        name: 'burn',
        image: 'nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04',
        resources: { limits: { 'nvidia.com/gpu': '1' } },
      }),
    ),
    [],
  );
});

test('dns: node-local-dns by image and by its -localip flag', () => {
  assert.deepEqual(
    roles(
      daemonSet('node-local-dns', 'kube-system').container({
        name: 'node-cache',
        image: 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.1',
      }),
    ),
    ['dns'],
  );
  const flagged = daemonSet('dns-cache', 'kube-system').container({
    name: 'cache',
    image: 'registry.example.com/dns-cache:1',
    args: ['-localip', '169.254.20.10,10.96.0.10', '-conf', '/etc/Corefile'],
  });
  assert.deepEqual(evidence(flagged, 'dns'), ['container cache serves node-local DNS (-localip)']);
  // A CoreDNS Deployment-style image in a DaemonSet is not flagged without the node-cache signs.
  assert.deepEqual(
    roles(daemonSet('coredns').container({ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.3' })),
    [],
  );
});

test('logging: collectors by image, container-log and host-log mounts', () => {
  assert.deepEqual(
    roles(daemonSet('fluent-bit', 'logging').container({ name: 'fluent-bit', image: 'fluent/fluent-bit:3.0' })),
    ['logging'],
  );
  assert.deepEqual(
    roles(
      daemonSet('aws-for-fluent-bit').container({
        name: 'fb',
        image: 'public.ecr.aws/aws-observability/aws-for-fluent-bit:2.32.2',
      }),
    ),
    ['logging'],
  );
  const byMount = volumes(daemonSet('shipper'), hostPath('pods', '/var/log/pods'));
  assert.deepEqual(evidence(byMount, 'logging'), ['hostPath /var/log/pods (container logs)']);
  const journal = volumes(daemonSet('shipper'), hostPath('journal', '/var/log/journal'));
  assert.deepEqual(evidence(journal, 'logging'), ['hostPath /var/log/journal (the systemd journal)']);
});

// Issue 39: network-policy agents and SR-IOV device plugins mount /var/log to write their own logs.
test('logging: the whole host /var/log alone is not a log collector', () => {
  const npm = volumes(
    daemonSet('azure-npm', 'kube-system')
      .hostNetwork()
      .container({
        name: 'azure-npm',
        image: 'mcr.microsoft.com/containernetworking/azure-npm:v1.6.29',
        securityContext: { capabilities: { add: ['NET_ADMIN'] } },
      }),
    hostPath('log', '/var/log'),
  );
  assert.deepEqual(roles(npm), []);
  assert.deepEqual(
    detectAgentRoles(npm.build()).map((r) => r.role),
    ['host-network'],
  );
});

test('logging: false positives: an app log directory, node-problem-detector, a "vector" database', () => {
  assert.deepEqual(roles(volumes(daemonSet('web'), hostPath('logs', '/var/log/web'))), []);
  const npd = volumes(
    daemonSet('node-problem-detector', 'kube-system').container({
      name: 'npd',
      image: 'registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.19',
    }),
    hostPath('log', '/var/log'),
  );
  assert.deepEqual(
    roles(npd),
    ['monitoring'],
    'node-problem-detector raises node conditions: a monitor, not a log collector',
  );
  assert.deepEqual(
    roles(daemonSet('embeddings').container({ name: 'db', image: 'registry.example.com/vector-db:2' })),
    [],
  );
});

test('monitoring: node_exporter shape and known agents; host /proc and /sys alone are not enough', () => {
  const exporter = volumes(
    daemonSet('host-metrics').container({
      name: 'm',
      image: 'registry.example.com/metrics:1',
      ports: [{ containerPort: 9100, hostPort: 9100 }],
    }),
    hostPath('proc', '/proc'),
    hostPath('sys', '/sys'),
  );
  assert.deepEqual(evidence(exporter, 'monitoring'), ['reads the host /proc and /sys and serves metrics on port 9100']);
  assert.deepEqual(roles(daemonSet('dd').container({ name: 'agent', image: 'gcr.io/datadoghq/agent:7.57.2' })), []);
  assert.deepEqual(roles(daemonSet('dd').container({ name: 'agent', image: 'datadog/agent:7.57.2' })), ['monitoring']);
  const procOnly = volumes(daemonSet('sysinfo'), hostPath('proc', '/proc'), hostPath('sys', '/sys'));
  assert.deepEqual(roles(procOnly), [], 'no hostPID, no metrics port');
});

test('security: known agents and the kernel-tracing shape; tracing mounts without hostPID are not enough', () => {
  assert.deepEqual(
    roles(
      daemonSet('falco', 'falco').container({ name: 'falco', image: 'docker.io/falcosecurity/falco-no-driver:0.38.2' }),
    ),
    ['security'],
  );
  const tracer = volumes(
    daemonSet('runtime-guard').with((ds) => {
      ds.spec!.template!.spec!.hostPID = true;
    }),
    hostPath('debugfs', '/sys/kernel/debug'),
  );
  assert.deepEqual(evidence(tracer, 'security'), ['hostPID with hostPath /sys/kernel/debug (kernel tracing/LSM)']);
  assert.deepEqual(roles(volumes(daemonSet('perf'), hostPath('debugfs', '/sys/kernel/debug'))), []);
});

test('roles come in a fixed order and evidence is not repeated', () => {
  const both = volumes(
    daemonSet('cilium', 'kube-system').container({
      name: 'cilium-agent',
      image: 'quay.io/cilium/cilium:v1.16.1',
      env: [{ name: 'KUBE_PROXY_REPLACEMENT', value: 'true' }],
    }),
    hostPath('cni', '/etc/cni/net.d'),
    hostPath('cni2', '/etc/cni/net.d'),
  );
  const found = detectRoles(both.build());
  assert.deepEqual(
    found.map((r) => r.role),
    ['network', 'service-proxy'],
  );
  const net = found[0]!.evidence;
  assert.equal(new Set(net).size, net.length);
});

// Issue 14 §3: the roles lint tells apart (detectAgentRoles), never by a manifest name alone;
// detectRoles (impact's view) keeps to its eight roles.
test("node-reboot: kured's image, or a reboot flag with hostPID or the host D-Bus; a name alone is not enough", () => {
  const kured = daemonSet('kured', 'kube-system')
    .with((d) => {
      d.spec!.template!.spec!.hostPID = true;
    })
    .container({
      name: 'kured',
      image: 'ghcr.io/kubereboot/kured:1.23.0',
      command: ['/usr/bin/kured', '--reboot-sentinel=/sentinel/reboot-required'],
    });
  assert.deepEqual(
    detectAgentRoles(kured.build()).map((r) => r.role),
    ['node-reboot'],
  );
  assert.deepEqual(detectAgentRoles(kured.build()).find((r) => r.role === 'node-reboot')!.evidence, [
    'image ghcr.io/kubereboot/kured:1.23.0',
    'container kured reboots the node (--reboot-sentinel) with hostPID',
  ]);
  assert.deepEqual(roles(kured), [], "impact's roles are unchanged");
  const flagOnly = daemonSet('rebooter').container({
    name: 'r',
    image: 'registry.example.com/r:1',
    args: ['--reboot-days=mon'],
  });
  assert.deepEqual(detectAgentRoles(flagOnly.build()), [], 'a reboot flag without hostPID or D-Bus');
  assert.deepEqual(
    detectAgentRoles(daemonSet('kured').container({ name: 'kured', image: 'registry.example.com/web:1' }).build()),
    [],
    'the name kured alone',
  );
});

test('local-volume: the provisioner image, or host /dev with a propagated discovery directory', () => {
  const byImage = daemonSet('lvp').container({
    name: 'p',
    image: 'registry.k8s.io/sig-storage/local-volume-provisioner:v2.7.0',
  });
  assert.deepEqual(
    detectAgentRoles(byImage.build()).map((r) => r.role),
    ['local-volume'],
  );
  const shape = volumes(
    daemonSet('disks').container({
      name: 'p',
      image: 'registry.example.com/p:1',
      volumeMounts: [{ name: 'disks', mountPath: '/mnt/disks', mountPropagation: 'HostToContainer' }],
    }),
    hostPath('disks', '/mnt/disks'),
    hostPath('dev', '/dev'),
  );
  assert.deepEqual(detectAgentRoles(shape.build()).find((r) => r.role === 'local-volume')?.evidence, [
    'hostPath /dev and discovery directory /mnt/disks mounted with mount propagation',
  ]);
  const noPropagation = volumes(
    daemonSet('disks').container({
      name: 'p',
      image: 'registry.example.com/p:1',
      volumeMounts: [{ name: 'disks', mountPath: '/mnt/disks' }],
    }),
    hostPath('disks', '/mnt/disks'),
    hostPath('dev', '/dev'),
  );
  assert.deepEqual(detectAgentRoles(noPropagation.build()), []);
});

test('dns: coredns-nodecache by image, and any hostNetwork DNS server on port 53', () => {
  assert.deepEqual(
    roles(daemonSet('nodecache').container({ name: 'c', image: 'ghcr.io/contentful-labs/coredns-nodecache:latest' })),
    ['dns'],
  );
  const port53 = daemonSet('dns')
    .hostNetwork()
    .container({ name: 'c', image: 'registry.example.com/dns:1', ports: [{ containerPort: 53, protocol: 'UDP' }] });
  assert.deepEqual(evidence(port53, 'dns'), ["serves DNS on the host's port 53 (hostNetwork)"]);
  assert.deepEqual(
    roles(
      daemonSet('dns').container({ name: 'c', image: 'registry.example.com/dns:1', ports: [{ containerPort: 53 }] }),
    ),
    [],
    'port 53 on the pod network is an ordinary DNS server',
  );
});

test('monitoring: a problem detector reads /dev/kmsg', () => {
  assert.deepEqual(
    evidence(
      volumes(
        daemonSet('npd').container({ name: 'c', image: 'registry.example.com/detector:1' }),
        hostPath('kmsg', '/dev/kmsg'),
      ),
      'monitoring',
    ),
    ['hostPath /dev/kmsg (reads the kernel log)'],
  );
});

test("kernelDriverLoader: Falco's driver-loader init container", () => {
  const falco = daemonSet('falco')
    .container({ name: 'falco', image: 'docker.io/falcosecurity/falco:0.44.1' })
    .with((d) => {
      d.spec!.template!.spec!.initContainers = [
        { name: 'falco-driver-loader', image: 'docker.io/falcosecurity/falco-driver-loader:0.44.1' },
      ];
    });
  assert.equal(
    kernelDriverLoader(falco.build()),
    'init container falco-driver-loader (docker.io/falcosecurity/falco-driver-loader) loads the kernel driver',
  );
  assert.equal(
    kernelDriverLoader(
      daemonSet('tracee').container({ name: 'tracee', image: 'docker.io/aquasec/tracee:0.24.1' }).build(),
    ),
    undefined,
  );
});

// Issue 39: roles from strong evidence.
test('host-network: hostNetwork with NET_ADMIN or NET_RAW, when no CNI evidence explains it', () => {
  const vip = daemonSet('kube-vip', 'kube-system')
    .hostNetwork()
    .container({
      name: 'kube-vip',
      image: 'ghcr.io/kube-vip/kube-vip:v0.4.1',
      securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } },
    });
  assert.deepEqual(detectAgentRoles(vip.build()), [
    { role: 'host-network', evidence: ['container kube-vip adds NET_ADMIN, NET_RAW on the host network'] },
  ]);
  const podNet = daemonSet('app').container({
    name: 'app',
    image: 'example/app:1',
    securityContext: { capabilities: { add: ['NET_ADMIN'] } },
  });
  assert.deepEqual(detectAgentRoles(podNet.build()), [], 'NET_ADMIN in the pod network namespace changes only the pod');
});

test("network: a dataplane on the host network with the pods' network namespaces, or a CNI state directory with privileged", () => {
  const netpol = volumes(
    daemonSet('kube-network-policies', 'kube-system')
      .hostNetwork()
      .container({
        name: 'netpol',
        image: 'registry.k8s.io/networking/kube-network-policies:v1.1.1',
        securityContext: { privileged: true },
      }),
    hostPath('netns', '/var/run/netns'),
  );
  assert.deepEqual(evidence(netpol, 'network'), ['hostNetwork with hostPath /var/run/netns (pod network namespaces)']);
  // Calico VPP: /dev, a propagated /run/netns and the Calico state directory: a CNI, not a local-volume provisioner.
  const vpp = volumes(
    daemonSet('calico-vpp-node', 'calico-vpp-dataplane')
      .hostNetwork()
      .container({
        name: 'vpp',
        image: 'docker.io/calicovpp/vpp:v3.28.0',
        securityContext: { privileged: true },
        volumeMounts: [{ name: 'netns', mountPath: '/run/netns/', mountPropagation: 'Bidirectional' }],
      }),
    hostPath('devices', '/dev'),
    hostPath('netns', '/run/netns'),
    hostPath('calico', '/var/run/calico'),
  );
  assert.deepEqual(
    detectAgentRoles(vpp.build()).map((r) => r.role),
    ['network'],
  );
});

test('storage vs device: plugins_registry with the device-plugin directory is a device plugin (SR-IOV), not CSI', () => {
  const sriov = volumes(
    daemonSet('kube-sriov-device-plugin', 'kube-system').container({
      name: 'dp',
      image: 'registry.example.com/sriov-dp:3.7',
    }),
    hostPath('devicesock', '/var/lib/kubelet/device-plugins'),
    hostPath('registry', '/var/lib/kubelet/plugins_registry'),
    hostPath('log', '/var/log'),
  );
  assert.deepEqual(roles(sriov), ['device']);
  const csi = volumes(daemonSet('csi'), hostPath('registry', '/var/lib/kubelet/plugins_registry'));
  assert.deepEqual(roles(csi), ['storage']);
});

test('driver-installer: privileged init containers writing to the host, then only pause', () => {
  const installer = (readOnly: boolean) =>
    volumes(
      daemonSet('nvidia-driver-installer', 'kube-system')
        .container({ name: 'pause', image: 'gke.gcr.io/pause:3.8' })
        .with((d) => {
          d.spec!.template!.spec!.initContainers = [
            {
              name: 'nvidia-driver-installer',
              image: 'cos-nvidia-installer:fixed',
              securityContext: { privileged: true },
              volumeMounts: [{ name: 'root', mountPath: '/root', readOnly }],
            },
          ];
        }),
      hostPath('root', '/'),
    );
  assert.deepEqual(detectAgentRoles(installer(false).build()), [
    {
      role: 'driver-installer',
      evidence: ['init container nvidia-driver-installer writes to the host, then pause only waits'],
    },
  ]);
  assert.deepEqual(
    detectAgentRoles(installer(true).build()),
    [],
    'an init container that only reads the host installs nothing',
  );
  const serving = installer(false).container({ name: 'exporter', image: 'example/exporter:1' });
  assert.deepEqual(detectAgentRoles(serving.build()), [], 'a main container that does work makes it something else');
});

test('labeller: node-feature-discovery and vendor labellers by image, command or configuration directory', () => {
  assert.deepEqual(
    detectAgentRoles(
      daemonSet('nfd-worker')
        .container({ name: 'worker', image: 'registry.k8s.io/nfd/node-feature-discovery:v0.16.4' })
        .build(),
    ).map((r) => r.role),
    ['labeller'],
  );
  const amd = daemonSet('amdgpu-labeller').container({
    name: 'lr',
    image: 'example/gpu-tools:1',
    command: ['./k8s-node-labeller', '-vram'],
  });
  assert.deepEqual(detectAgentRoles(amd.build()), [
    { role: 'labeller', evidence: ['container lr runs a node labeller'] },
  ]);
  const byDir = volumes(
    daemonSet('features').container({ name: 'f', image: 'example/f:1' }),
    hostPath('nfd', '/etc/kubernetes/node-feature-discovery/features.d'),
  );
  assert.deepEqual(detectAgentRoles(byDir.build()), [
    {
      role: 'labeller',
      evidence: ['hostPath /etc/kubernetes/node-feature-discovery/features.d (node-feature-discovery)'],
    },
  ]);
  assert.deepEqual(roles(amd), [], "impact's roles are unchanged");
});

test('security: hostPID with tracing capabilities, or privileged with the kernel modules, when no other role explains it', () => {
  const hostPid = (b: DaemonSetBuilder) =>
    b.with((d) => {
      d.spec!.template!.spec!.hostPID = true;
    });
  const enforcer = volumes(
    hostPid(
      daemonSet('enforcer').container({
        name: 'e',
        image: 'example/enforcer:5',
        securityContext: { privileged: true },
      }),
    ),
    hostPath('modules', '/lib/modules'),
  );
  assert.deepEqual(evidence(enforcer, 'security'), [
    'hostPID with container e privileged and hostPath /lib/modules (kernel modules)',
  ]);
  const tracer = hostPid(
    daemonSet('sensor').container({
      name: 's',
      image: 'example/sensor:1',
      securityContext: { capabilities: { add: ['BPF', 'PERFMON'] } },
    }),
  );
  assert.deepEqual(evidence(tracer, 'security'), ['hostPID with container s adding BPF, PERFMON']);
  // Sonobuoy's systemd-logs: hostPID and privileged to nsenter the host and read its journal.
  const nsenter = volumes(
    hostPid(
      daemonSet('systemd-logs').container({
        name: 'l',
        image: 'example/logs:1',
        securityContext: { privileged: true },
      }),
    ),
    hostPath('root', '/'),
  );
  assert.deepEqual(roles(nsenter), []);
  const noHostPid = volumes(
    daemonSet('enforcer').container({ name: 'e', image: 'example/enforcer:5', securityContext: { privileged: true } }),
    hostPath('modules', '/lib/modules'),
  );
  assert.deepEqual(roles(noHostPid), []);
});

test('isPlaceholder: pause and sleep-only containers', () => {
  assert.equal(
    isPlaceholder({
      name: 'pause',
      image: 'gke.gcr.io/pause:3.8@sha256:880e63f94b145e46f1b1082bb71b85e21f16b99b180b9996407d61240ceb9830',
    }),
    true,
  );
  assert.equal(
    isPlaceholder({
      name: 'pre-pull',
      image: 'example/share-manager:1',
      command: ['sh', '-c', 'echo share-manager image pulled && sleep infinity'],
    }),
    true,
  );
  assert.equal(
    isPlaceholder({ name: 'agent', image: 'example/agent:1', command: ['sh', '-c', '/agent --serve; sleep infinity'] }),
    false,
  );
  assert.equal(isPlaceholder({ name: 'agent', image: 'example/pause-exporter:1' }), false);
});
