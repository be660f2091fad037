#!/usr/bin/env node
// Generates the test fixtures fixtures/demo/ and fixtures/cluster-info-dump/.
//
// Evaluation instant ("now") of both fixtures: 2026-11-29T12:00:00Z.
// Every timestamp below is computed relative to that instant, so tests run with
//   ds-doctor ... --now 2026-11-29T12:00:00Z
//
// The output is fully deterministic: uids, names, hashes, IPs and resourceVersions
// are derived from object names (sha256 / FNV-32a), never from the clock or
// Math.random. Run with:   npm run fixtures   (or node dist/scripts/make-demo.js after a build)
//
// fixtures/demo/ is what `kubectl get <kind> -A -o yaml` writes (one `kind: List`
// file per kind). fixtures/cluster-info-dump/ is what
// `kubectl cluster-info dump --all-namespaces --output-directory=DIR` writes.
// The story of each fixture is told in its README.md.

import fs from 'node:fs';
import path from 'node:path';
import {
  CONTAINER_DEFAULTS,
  DAY,
  clearGenerated,
  EBS_NODE_VOLUMES,
  HOUR,
  M5_XLARGE,
  MIN,
  NODE_EXPORTER_SELECTOR,
  NOT_READY_TOLERATIONS,
  NOW_ISO,
  ROOT,
  Versions,
  admitPodSpec,
  ago,
  at,
  byKey,
  clone,
  controllerRef,
  crashLoop,
  daemonPod,
  daemonSetStatus,
  ebsNodeLabels,
  ebsPluginContainer,
  ebsRegistrarContainer,
  ec2InstanceId,
  failedPullEvents,
  failedSchedulingMessage,
  fieldEnv,
  filterReasons,
  finishEvents,
  finishTemplate,
  freeResource,
  hostPath,
  httpProbe,
  kubeProxyTemplate,
  kubeletConditions,
  kubeletSource,
  lifecycleTaints,
  listYaml,
  makeDaemonSet,
  makeEvent,
  makeNamespace,
  makeNode,
  makePod,
  nodeCondition,
  nodeExporterLabels,
  nodeExporterTemplate,
  nodeImages,
  nodeStartEvents,
  ordered,
  podIPAllocator,
  podSpecDefaults,
  podStatus,
  pulledMessage,
  rolling,
  sha,
  suffix,
  systemPriorityClasses,
  templateHash,
  uid,
  writeFile,
  type BuiltEvent,
  type DaemonSetDef,
  type EventDef,
  type IPAllocator,
  type InstanceType,
  type Json,
  type MadeDaemonSet,
  type PodState,
  type PodTimeline,
} from './lib/fixtures.js';
import type { Taint } from '../src/model/k8s-types.js';
import { isPodReady as podReady } from '../src/k8s/podutil.js';
import { NOW } from '../test/kube/time.js';
import type { BuiltNode, BuiltPod, BuiltPodSpec } from '../test/kube/types.js';

/** One node of the demo cluster, before its conditions and images are known. */
interface NodeEntry {
  name: string;
  ip: string;
  zone: string;
  type: InstanceType;
  joinedAgo: number;
  podNet: number;
  labels?: Record<string, string>;
  taints?: Taint[];
  ready?: boolean;
  notReadyMessage?: string;
  unschedulable?: boolean;
}
/** A DaemonSet as built here: its definition, the object and its revisions. */
type BuiltDs = MadeDaemonSet & { def: DaemonSetDef };
/** A pod's timeline, optionally with its last write (seconds ago). */
type Timeline = PodTimeline & { lastWrite?: number };
/** Where and how a DaemonSet's pod runs on a node: its revision index, state and creation. */
interface Placed {
  rev: number;
  state: PodState;
  created: number;
}

// ---------------------------------------------------------------------------
// Object builders used by both fixtures
// ---------------------------------------------------------------------------

/**
 * The pod timeline of this file's kubelet (see podStatus): Initialized once the init containers
 * are done (3 s each from the sandbox), or at binding for a pod without a sandbox; a pod whose
 * containers never started is NotReady since binding.
 */
function demoTimeline(t: Timeline, state: PodState, spec: BuiltPodSpec): PodTimeline {
  const noSandbox = state.kind === 'ContainerCreating';
  return {
    ...t,
    initialized: noSandbox ? t.scheduled : t.started - 3 * (spec.initContainers?.length ?? 0),
    unready: noSandbox || state.kind === 'ImagePullBackOff' ? t.scheduled : t.scheduled - 1,
  };
}

/**
 * A pod created by the DaemonSet controller for `node` from revision `revIdx` of `b`
 * ({ds, revs}); `t` holds its timeline (seconds ago) and optionally its last write.
 */
function makeDaemonPod(
  b: MadeDaemonSet,
  revIdx: number,
  node: BuiltNode,
  state: PodState,
  t: Timeline,
  versions: Versions,
  ipFor: IPAllocator,
): BuiltPod {
  const rev = b.revs[revIdx]!;
  const pod = daemonPod(b.ds, rev, node, { state, t: demoTimeline(t, state, rev.template.spec), ipFor });
  return versions.add(pod, t.lastWrite ?? t.ready ?? t.scheduled);
}

/** A ClusterIP (or headless) Service. */
function makeService(s: Json, versions: Versions): Json {
  const key = `Service/${s.namespace}/${s.name}`;
  const svc = {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: ordered(
      {
        name: s.name,
        namespace: s.namespace,
        uid: uid(key),
        resourceVersion: '',
        creationTimestamp: at(s.createdAgo),
        labels: s.labels,
        annotations: s.annotations,
      },
      [],
    ),
    spec: ordered(
      {
        ports: s.ports,
        selector: s.selector,
        clusterIP: s.clusterIP,
        clusterIPs: [s.clusterIP],
        type: 'ClusterIP',
        sessionAffinity: 'None',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        internalTrafficPolicy: 'Cluster',
      },
      [],
    ),
    status: { loadBalancer: {} },
  };
  return versions.add(svc, s.createdAgo);
}

/** The `default/kubernetes` Service of the API server. */
function kubernetesService(createdAgo: number, versions: Versions): Json {
  return makeService(
    {
      namespace: 'default',
      name: 'kubernetes',
      createdAgo,
      labels: { component: 'apiserver', provider: 'kubernetes' },
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
      clusterIP: '10.96.0.1',
    },
    versions,
  );
}

// ---------------------------------------------------------------------------
// Task 1: fixtures/demo — a 9-node cluster, six DaemonSets
// ---------------------------------------------------------------------------

function buildDemo() {
  const versions = new Versions(4_180_000);
  const CLUSTER_AGE = 120 * DAY;
  const REGION = 'us-east-1';

  // ----- nodes ---------------------------------------------------------------
  const M5 = M5_XLARGE;
  const G5: InstanceType = {
    instanceType: 'g5.12xlarge',
    capacity: {
      cpu: '48',
      'ephemeral-storage': '203070420Ki',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: '195865816Ki',
      'nvidia.com/gpu': '4',
      pods: '110',
    },
    allocatable: {
      cpu: '47810m',
      'ephemeral-storage': '187149065093',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: '193154264Ki',
      'nvidia.com/gpu': '4',
      pods: '110',
    },
  };
  const WORKER5_JOINED = 20 * MIN;
  const CORDONED = 3 * HOUR;
  const GPU_JOINED = 30 * DAY;
  const NOT_READY_MSG =
    'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
  const nodeDefs: NodeEntry[] = [
    {
      name: 'cp-1',
      ip: '10.0.1.10',
      zone: 'us-east-1a',
      type: M5,
      joinedAgo: CLUSTER_AGE,
      podNet: 112,
      labels: {
        'node-role.kubernetes.io/control-plane': '',
        'node.kubernetes.io/exclude-from-external-load-balancers': '',
      },
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    },
    {
      name: 'gpu-1',
      ip: '10.0.1.41',
      zone: 'us-east-1a',
      type: G5,
      joinedAgo: GPU_JOINED,
      podNet: 201,
      labels: { 'node-pool': 'gpu', 'nvidia.com/gpu.present': 'true' },
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
    },
    {
      name: 'gpu-2',
      ip: '10.0.2.42',
      zone: 'us-east-1b',
      type: G5,
      joinedAgo: GPU_JOINED - 95,
      podNet: 202,
      labels: { 'node-pool': 'gpu', 'nvidia.com/gpu.present': 'true' },
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
    },
    { name: 'worker-1', ip: '10.0.1.21', zone: 'us-east-1a', type: M5, joinedAgo: CLUSTER_AGE - 6 * MIN, podNet: 121 },
    { name: 'worker-2', ip: '10.0.2.22', zone: 'us-east-1b', type: M5, joinedAgo: CLUSTER_AGE - 7 * MIN, podNet: 122 },
    { name: 'worker-3', ip: '10.0.3.23', zone: 'us-east-1c', type: M5, joinedAgo: CLUSTER_AGE - 8 * MIN, podNet: 123 },
    { name: 'worker-4', ip: '10.0.1.24', zone: 'us-east-1a', type: M5, joinedAgo: CLUSTER_AGE - 9 * MIN, podNet: 124 },
    {
      name: 'worker-5',
      ip: '10.0.2.25',
      zone: 'us-east-1b',
      type: M5,
      joinedAgo: WORKER5_JOINED,
      podNet: 125,
      ready: false,
      notReadyMessage: NOT_READY_MSG,
      taints: lifecycleTaints('not-ready', WORKER5_JOINED - 1, WORKER5_JOINED - 6),
    },
    {
      name: 'worker-6',
      ip: '10.0.3.26',
      zone: 'us-east-1c',
      type: M5,
      joinedAgo: 60 * DAY,
      podNet: 126,
      unschedulable: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: at(CORDONED) }],
    },
  ];
  const nodeDefByName = Object.fromEntries(nodeDefs.map((n) => [n.name, n]));
  const ALL_NODES = nodeDefs.map((n) => n.name);

  // ----- DaemonSet templates ------------------------------------------------
  const calicoConfig = (name: string, key: string) => ({
    name,
    valueFrom: { configMapKeyRef: { name: 'calico-config', key } },
  });
  const calicoContainer = (c: Json) => ({
    envFrom: [{ configMapRef: { name: 'kubernetes-services-endpoint', optional: true } }],
    resources: {},
    ...c,
    ...CONTAINER_DEFAULTS,
    securityContext: c.securityContext ?? { privileged: true },
  });
  const calicoTemplate = (version: string) =>
    finishTemplate({
      metadata: { creationTimestamp: null, labels: { 'k8s-app': 'calico-node' } },
      spec: {
        volumes: [
          hostPath('lib-modules', '/lib/modules'),
          hostPath('var-run-calico', '/var/run/calico', 'DirectoryOrCreate'),
          hostPath('var-lib-calico', '/var/lib/calico', 'DirectoryOrCreate'),
          hostPath('xtables-lock', '/run/xtables.lock', 'FileOrCreate'),
          hostPath('sys-fs', '/sys/fs/', 'DirectoryOrCreate'),
          hostPath('bpffs', '/sys/fs/bpf', 'Directory'),
          hostPath('nodeproc', '/proc'),
          hostPath('cni-bin-dir', '/opt/cni/bin', 'DirectoryOrCreate'),
          hostPath('cni-net-dir', '/etc/cni/net.d'),
          hostPath('cni-log-dir', '/var/log/calico/cni'),
          hostPath('host-local-net-dir', '/var/lib/cni/networks'),
          hostPath('policysync', '/var/run/nodeagent', 'DirectoryOrCreate'),
        ],
        initContainers: [
          calicoContainer({
            name: 'upgrade-ipam',
            image: `docker.io/calico/cni:${version}`,
            command: ['/opt/cni/bin/calico-ipam', '-upgrade'],
            env: [fieldEnv('KUBERNETES_NODE_NAME'), calicoConfig('CALICO_NETWORKING_BACKEND', 'calico_backend')],
            volumeMounts: [
              { name: 'host-local-net-dir', mountPath: '/var/lib/cni/networks' },
              { name: 'cni-bin-dir', mountPath: '/host/opt/cni/bin' },
            ],
          }),
          calicoContainer({
            name: 'install-cni',
            image: `docker.io/calico/cni:${version}`,
            command: ['/opt/cni/bin/install'],
            env: [
              { name: 'CNI_CONF_NAME', value: '10-calico.conflist' },
              calicoConfig('CNI_NETWORK_CONFIG', 'cni_network_config'),
              fieldEnv('KUBERNETES_NODE_NAME'),
              calicoConfig('CNI_MTU', 'veth_mtu'),
              { name: 'SLEEP', value: 'false' },
            ],
            volumeMounts: [
              { name: 'cni-bin-dir', mountPath: '/host/opt/cni/bin' },
              { name: 'cni-net-dir', mountPath: '/host/etc/cni/net.d' },
            ],
          }),
        ],
        containers: [
          calicoContainer({
            name: 'calico-node',
            image: `docker.io/calico/node:${version}`,
            env: [
              { name: 'DATASTORE_TYPE', value: 'kubernetes' },
              { name: 'WAIT_FOR_DATASTORE', value: 'true' },
              fieldEnv('NODENAME'),
              calicoConfig('CALICO_NETWORKING_BACKEND', 'calico_backend'),
              { name: 'CLUSTER_TYPE', value: 'k8s,bgp' },
              { name: 'IP', value: 'autodetect' },
              { name: 'CALICO_IPV4POOL_IPIP', value: 'Always' },
              { name: 'CALICO_IPV4POOL_VXLAN', value: 'Never' },
              calicoConfig('FELIX_IPINIPMTU', 'veth_mtu'),
              { name: 'CALICO_DISABLE_FILE_LOGGING', value: 'true' },
              { name: 'FELIX_DEFAULTENDPOINTTOHOSTACTION', value: 'ACCEPT' },
              { name: 'FELIX_IPV6SUPPORT', value: 'false' },
              { name: 'FELIX_HEALTHENABLED', value: 'true' },
            ],
            resources: { requests: { cpu: '250m' } },
            volumeMounts: [
              { name: 'cni-net-dir', mountPath: '/host/etc/cni/net.d' },
              { name: 'lib-modules', readOnly: true, mountPath: '/lib/modules' },
              { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
              { name: 'var-run-calico', mountPath: '/var/run/calico' },
              { name: 'var-lib-calico', mountPath: '/var/lib/calico' },
              { name: 'policysync', mountPath: '/var/run/nodeagent' },
              { name: 'bpffs', mountPath: '/sys/fs/bpf' },
              { name: 'cni-log-dir', readOnly: true, mountPath: '/var/log/calico/cni' },
            ],
            livenessProbe: {
              exec: { command: ['/bin/calico-node', '-felix-live', '-bird-live'] },
              initialDelaySeconds: 10,
              timeoutSeconds: 10,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 6,
            },
            readinessProbe: {
              exec: { command: ['/bin/calico-node', '-felix-ready', '-bird-ready'] },
              timeoutSeconds: 10,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            lifecycle: { preStop: { exec: { command: ['/bin/calico-node', '-shutdown'] } } },
            securityContext: { capabilities: { add: ['NET_ADMIN'] }, privileged: true },
          }),
        ],
        ...podSpecDefaults('calico-node', { terminationGracePeriodSeconds: 0 }),
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        hostNetwork: true,
        tolerations: [
          { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
          { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
          { key: 'CriticalAddonsOnly', operator: 'Exists' },
        ],
        priorityClassName: 'system-node-critical',
      },
    });

  const fluentBitTemplate = (version: string) =>
    finishTemplate({
      metadata: {
        creationTimestamp: null,
        labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/instance': 'fluent-bit' },
      },
      spec: {
        volumes: [
          { name: 'config', configMap: { name: 'fluent-bit', defaultMode: 420 } },
          hostPath('varlog', '/var/log'),
          hostPath('varlibdockercontainers', '/var/lib/docker/containers'),
        ],
        containers: [
          {
            name: 'fluent-bit',
            image: `fluent/fluent-bit:${version}`,
            ports: [{ name: 'http', containerPort: 2020, protocol: 'TCP' }],
            resources: { limits: { memory: '200Mi' }, requests: { cpu: '100m', memory: '100Mi' } },
            volumeMounts: [
              { name: 'config', mountPath: '/fluent-bit/etc/conf' },
              { name: 'varlog', mountPath: '/var/log' },
              { name: 'varlibdockercontainers', readOnly: true, mountPath: '/var/lib/docker/containers' },
            ],
            readinessProbe: httpProbe('/api/v1/health', 2020),
            ...CONTAINER_DEFAULTS,
          },
        ],
        ...podSpecDefaults('fluent-bit'),
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
        priorityClassName: 'system-node-critical',
      },
    });

  const NE_LABELS = nodeExporterLabels('v1.8.2');

  const ebsTemplate = () =>
    finishTemplate({
      metadata: { creationTimestamp: null, labels: ebsNodeLabels('v1.35.0') },
      spec: {
        volumes: [...EBS_NODE_VOLUMES, { name: 'probe-dir', emptyDir: {} }],
        containers: [
          ebsPluginContainer('v1.35.0', '256Mi'),
          ebsRegistrarContainer('registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1', {
            extraMounts: [{ name: 'probe-dir', mountPath: '/var/lib/kubelet/plugins/ebs.csi.aws.com/' }],
            livenessProbe: {
              exec: {
                command: [
                  '/csi-node-driver-registrar',
                  '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)',
                  '--mode=kubelet-registration-probe',
                ],
              },
              initialDelaySeconds: 30,
              timeoutSeconds: 15,
              periodSeconds: 90,
              successThreshold: 1,
              failureThreshold: 3,
            },
          }),
          {
            name: 'liveness-probe',
            image: 'registry.k8s.io/sig-storage/livenessprobe:v2.13.1',
            args: ['--csi-address=/csi/csi.sock'],
            resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
            volumeMounts: [{ name: 'plugin-dir', mountPath: '/csi' }],
            ...CONTAINER_DEFAULTS,
            securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
          },
        ],
        ...podSpecDefaults('ebs-csi-node-sa', {
          dnsPolicy: 'ClusterFirstWithHostNet',
          securityContext: { runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, fsGroup: 0 },
        }),
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        hostNetwork: true,
        tolerations: [{ operator: 'Exists' }],
      },
    });

  const nvidiaTemplate = () =>
    finishTemplate({
      metadata: { creationTimestamp: null, labels: { name: 'nvidia-device-plugin-ds' } },
      spec: {
        volumes: [hostPath('device-plugin', '/var/lib/kubelet/device-plugins')],
        containers: [
          {
            name: 'nvidia-device-plugin-ctr',
            image: 'nvcr.io/nvidia/k8s-device-plugin:v0.16.2',
            env: [{ name: 'FAIL_ON_INIT_ERROR', value: 'false' }],
            resources: {},
            volumeMounts: [{ name: 'device-plugin', mountPath: '/var/lib/kubelet/device-plugins' }],
            ...CONTAINER_DEFAULTS,
            securityContext: { capabilities: { drop: ['ALL'] }, allowPrivilegeEscalation: false },
          },
        ],
        ...podSpecDefaults(undefined),
        nodeSelector: { 'nvidia.com/gpu.present': 'true' },
        tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        priorityClassName: 'system-node-critical',
      },
    });

  // Rollout instants (seconds ago).
  const CALICO_UPGRADE = 21 * DAY;
  const PROXY_UPGRADE = 14 * DAY;
  const FLUENT_CREATED = 90 * DAY;
  const FLUENT_ROLLOUT = 24 * MIN;
  const EXPORTER_CREATED = 60 * DAY;
  const EBS_CREATED = 15 * MIN;
  const NVIDIA_CREATED = GPU_JOINED - 10 * MIN;

  const dsDefs: DaemonSetDef[] = [
    {
      namespace: 'kube-system',
      name: 'calico-node',
      createdAgo: CLUSTER_AGE - 60,
      labels: { 'k8s-app': 'calico-node' },
      selector: { 'k8s-app': 'calico-node' },
      updateStrategy: rolling(1),
      revs: [
        { generation: 1, template: calicoTemplate('v3.27.3'), createdAgo: CLUSTER_AGE - 60 },
        { generation: 2, template: calicoTemplate('v3.28.1'), createdAgo: CALICO_UPGRADE },
      ],
    },
    {
      namespace: 'kube-system',
      name: 'ebs-csi-node',
      createdAgo: EBS_CREATED,
      labels: {
        'app.kubernetes.io/component': 'csi-driver',
        'app.kubernetes.io/managed-by': 'Helm',
        'app.kubernetes.io/name': 'aws-ebs-csi-driver',
        'app.kubernetes.io/version': '1.35.0',
        'helm.sh/chart': 'aws-ebs-csi-driver-2.35.0',
      },
      annotations: {
        'meta.helm.sh/release-name': 'aws-ebs-csi-driver',
        'meta.helm.sh/release-namespace': 'kube-system',
      },
      selector: { app: 'ebs-csi-node', 'app.kubernetes.io/name': 'aws-ebs-csi-driver' },
      updateStrategy: rolling('10%'),
      revs: [{ generation: 1, template: ebsTemplate(), createdAgo: EBS_CREATED }],
    },
    {
      namespace: 'kube-system',
      name: 'kube-proxy',
      createdAgo: CLUSTER_AGE - 40,
      labels: { 'k8s-app': 'kube-proxy' },
      selector: { 'k8s-app': 'kube-proxy' },
      updateStrategy: rolling(1),
      revs: [
        { generation: 1, template: kubeProxyTemplate('v1.33.5'), createdAgo: CLUSTER_AGE - 40 },
        { generation: 2, template: kubeProxyTemplate('v1.34.2'), createdAgo: PROXY_UPGRADE },
      ],
    },
    {
      namespace: 'kube-system',
      name: 'nvidia-device-plugin-daemonset',
      createdAgo: NVIDIA_CREATED,
      labels: undefined,
      selector: { name: 'nvidia-device-plugin-ds' },
      updateStrategy: rolling(1),
      revs: [{ generation: 1, template: nvidiaTemplate(), createdAgo: NVIDIA_CREATED }],
    },
    {
      namespace: 'logging',
      name: 'fluent-bit',
      createdAgo: FLUENT_CREATED,
      labels: { 'app.kubernetes.io/instance': 'fluent-bit', 'app.kubernetes.io/name': 'fluent-bit' },
      selector: { 'app.kubernetes.io/instance': 'fluent-bit', 'app.kubernetes.io/name': 'fluent-bit' },
      updateStrategy: rolling(1),
      revs: [
        { generation: 1, template: fluentBitTemplate('3.0'), createdAgo: FLUENT_CREATED },
        { generation: 2, template: fluentBitTemplate('3.1'), createdAgo: FLUENT_ROLLOUT },
      ],
    },
    {
      namespace: 'monitoring',
      name: 'node-exporter',
      createdAgo: EXPORTER_CREATED,
      labels: NE_LABELS,
      selector: NODE_EXPORTER_SELECTOR,
      updateStrategy: rolling('10%'),
      revs: [{ generation: 1, template: nodeExporterTemplate(), createdAgo: EXPORTER_CREATED }],
    },
  ];
  const built: Record<string, BuiltDs> = Object.fromEntries(
    dsDefs.map((d) => [d.name, { def: d, ...makeDaemonSet(d, versions) }]),
  );

  // ----- per node pod placement (the story) -----------------------------------
  // Each entry: node -> {rev index, state, created (ago)}. Nodes absent = no pod.
  const READY: PodState = { kind: 'Running' };
  const stagger = (base: number, nodeName: string) => base - 45 * ALL_NODES.indexOf(nodeName);
  const joinedOr = (rolloutAgo: number, nodeName: string) =>
    Math.min(rolloutAgo, nodeDefByName[nodeName]!.joinedAgo - 8);

  const FB_OLD_W1_DELETED = FLUENT_ROLLOUT; // rolling update deleted worker-1's 3.0 pod
  const FB_NEW_W1_CREATED = FLUENT_ROLLOUT - 12; // after the 3.0 pod's graceful termination
  const FB_W5_CREATED = WORKER5_JOINED - 5; // node added -> manage() creates with the current template
  // Crash loop of worker-1's 3.1 pod from its first start (image pulled): it runs ~99 s, exits 1,
  // backs off 10s, 20s, ... 5m.
  const crash = crashLoop(FB_NEW_W1_CREATED - 10, 99);

  // worker-3 memory: the story's arithmetic (see README): allocatable 15491072Ki = 15128Mi.
  // daemon pods bound there request 100Mi (fluent-bit) + 30Mi (node-exporter) = 130Mi,
  // the shop pods 14848Mi -> 150Mi free; ebs-csi-node needs 256+40+40 = 336Mi.
  const EBS_W3_MESSAGE = failedSchedulingMessage(ALL_NODES.length, 'Insufficient memory');
  const placement: Record<string, Record<string, Placed>> = {
    'calico-node': Object.fromEntries(
      ALL_NODES.filter((n) => n !== 'worker-5').map((n) => [
        n,
        { rev: 1, state: READY, created: stagger(CALICO_UPGRADE, n) },
      ]),
    ),
    'kube-proxy': Object.fromEntries(
      ALL_NODES.map((n) => [n, { rev: 1, state: READY, created: joinedOr(stagger(PROXY_UPGRADE, n), n) }]),
    ),
    'fluent-bit': Object.fromEntries(
      ALL_NODES.map((n) => [n, { rev: 0, state: READY, created: joinedOr(stagger(FLUENT_CREATED - 30, n), n) }]),
    ),
    'node-exporter': Object.fromEntries(
      ALL_NODES.filter((n) => !['gpu-1', 'gpu-2', 'worker-5'].includes(n)).map((n) => [
        n,
        { rev: 0, state: READY, created: joinedOr(stagger(EXPORTER_CREATED - 20, n), n) },
      ]),
    ),
    'ebs-csi-node': Object.fromEntries(
      ALL_NODES.map((n) => [n, { rev: 0, state: READY, created: EBS_CREATED - 1 - (ALL_NODES.indexOf(n) % 3) }]),
    ),
    'nvidia-device-plugin-daemonset': {
      'gpu-1': { rev: 0, state: READY, created: NVIDIA_CREATED - 2 },
      'gpu-2': { rev: 0, state: READY, created: NVIDIA_CREATED - 2 },
    },
  };
  placement['fluent-bit']!['worker-1'] = {
    rev: 1,
    created: FB_NEW_W1_CREATED,
    state: {
      kind: 'CrashLoopBackOff',
      exitCode: 1,
      reason: 'Error',
      restarts: crash.restarts,
      backoff: crash.backoff,
      lastStartedAgo: crash.lastStartedAgo,
      lastFinishedAgo: crash.lastFinishedAgo,
    },
  };
  placement['fluent-bit']!['worker-5'] = { rev: 1, created: FB_W5_CREATED, state: { kind: 'ContainerCreating' } };
  placement['ebs-csi-node']!['worker-3']!.state = { kind: 'Unschedulable', message: EBS_W3_MESSAGE };

  // ----- nodes (need the pods' images, so build after placement is known) ----------
  const ipFor = podIPAllocator((nodeName) => nodeDefByName[nodeName]!.podNet);

  const imagesOn = Object.fromEntries(ALL_NODES.map((n) => [n, new Set(['registry.k8s.io/pause:3.10'])]));
  for (const [dsName, perNode] of Object.entries(placement)) {
    const d = built[dsName]!.def;
    for (const [n, p] of Object.entries(perNode)) {
      if (p.state.kind === 'Unschedulable' || p.state.kind === 'ContainerCreating') continue;
      const spec = d.revs![p.rev]!.template.spec;
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) imagesOn[n]!.add(c.image!);
    }
  }
  // Images of earlier revisions stay in the node's image cache.
  for (const n of ['cp-1', 'worker-1', 'worker-2', 'worker-3', 'worker-4']) {
    imagesOn[n]!.add('docker.io/calico/node:v3.27.3')
      .add('docker.io/calico/cni:v3.27.3')
      .add('registry.k8s.io/kube-proxy:v1.33.5');
  }
  imagesOn['cp-1']!.add('registry.k8s.io/etcd:3.6.4-0')
    .add('registry.k8s.io/kube-apiserver:v1.34.2')
    .add('registry.k8s.io/kube-controller-manager:v1.34.2')
    .add('registry.k8s.io/kube-scheduler:v1.34.2')
    .add('registry.k8s.io/coredns/coredns:v1.12.1');
  imagesOn['worker-1']!.add('fluent/fluent-bit:3.1');
  const SHOP_IMAGES = [
    'ghcr.io/acme-shop/storefront:2.14.0',
    'ghcr.io/acme-shop/cart:1.9.3',
    'ghcr.io/acme-shop/checkout:3.2.1',
    'ghcr.io/acme-shop/recommendation:0.22.0',
    'ghcr.io/acme-shop/order-export:1.4.0',
  ];
  for (const i of SHOP_IMAGES) imagesOn['worker-3']!.add(i);

  const nodes = nodeDefs.map((n, idx) => {
    const annotations: Record<string, string> = {
      'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock',
    };
    const heartbeatAgo = 20 + ((idx * 37) % 240);
    const conditions = kubeletConditions({
      heartbeatAgo,
      joinedAgo: n.joinedAgo,
      ready: n.ready !== false,
      notReadyMessage: n.notReadyMessage,
    });
    if (n.name !== 'worker-5') {
      annotations['projectcalico.org/IPv4Address'] = `${n.ip}/24`;
      annotations['projectcalico.org/IPv4IPIPTunnelAddr'] = `192.168.${n.podNet}.0`;
      // Written by the CNI agent when it starts, not by the kubelet (hence its own heartbeat).
      const since = placement['calico-node']![n.name]!.created - 12;
      conditions.unshift(
        nodeCondition('NetworkUnavailable', 'False', 'CalicoIsUp', 'Calico is running on this node', since, since),
      );
    }
    if (n.name !== 'worker-3')
      annotations['csi.volume.kubernetes.io/nodeid'] = JSON.stringify({ 'ebs.csi.aws.com': ec2InstanceId(n.name) });
    return versions.add(
      makeNode({
        name: n.name,
        ip: n.ip,
        region: REGION,
        zone: n.zone,
        type: n.type,
        labels: n.labels,
        annotations,
        joinedAgo: n.joinedAgo,
        conditions,
        podCIDR: `192.168.${n.podNet}.0/24`,
        unschedulable: n.unschedulable,
        taints: n.taints,
        images: nodeImages(imagesOn[n.name]!),
      }),
      heartbeatAgo,
    );
  });
  const nodesByName = Object.fromEntries(nodes.map((n) => [n.metadata.name, n]));

  // ----- daemon pods ------------------------------------------------------------
  const pods: BuiltPod[] = [];
  const podOf: Record<string, Record<string, BuiltPod>> = {}; // dsName -> node -> pod
  for (const [dsName, perNode] of Object.entries(placement)) {
    const b = built[dsName]!;
    const podOn: Record<string, BuiltPod> = (podOf[dsName] = {});
    for (const n of ALL_NODES) {
      const p = perNode[n];
      if (!p) continue;
      const t: Timeline = {
        created: p.created,
        scheduled: p.created - 1,
        started: p.created - 4,
        ready: p.created - 15,
      };
      if (p.state.kind === 'CrashLoopBackOff') t.lastWrite = p.state.lastFinishedAgo! - 1;
      if (p.state.kind === 'Unschedulable') t.lastWrite = 3 * MIN;
      const pod = makeDaemonPod(b, p.rev, nodesByName[n]!, p.state, t, versions, ipFor);
      pods.push(pod);
      podOn[n] = pod;
    }
  }

  // ----- shop workload on worker-3 -----------------------------------------------
  const worker3 = nodesByName['worker-3']!;
  /** A pod of the shop namespace that the scheduler bound to worker-3; returns it with its key. */
  const shopPod = ({
    name,
    generateName,
    created,
    labels,
    ownerReferences,
    container,
    restartPolicy = 'Always',
  }: Json): { key: string; pod: BuiltPod } => {
    const key = `Pod/shop/${name}`;
    const spec = admitPodSpec(
      {
        containers: [{ ...container, ...CONTAINER_DEFAULTS }],
        ...podSpecDefaults('default', { restartPolicy }),
        nodeName: 'worker-3',
        tolerations: NOT_READY_TOLERATIONS,
      },
      key,
    );
    return {
      key,
      pod: makePod({ name, generateName, namespace: 'shop', key, createdAgo: created, labels, ownerReferences, spec }),
    };
  };
  const shopApps = [
    { app: 'storefront', image: SHOP_IMAGES[0], cpu: '500m', memory: '4Gi', port: 8080 },
    { app: 'cart', image: SHOP_IMAGES[1], cpu: '250m', memory: '3Gi', port: 8080 },
    { app: 'checkout', image: SHOP_IMAGES[2], cpu: '500m', memory: '4Gi', port: 8080 },
    { app: 'recommendation', image: SHOP_IMAGES[3], cpu: '500m', memory: '3584Mi', port: 8080 },
  ];
  const SHOP_PODS_CREATED = 9 * DAY;
  shopApps.forEach((a, i) => {
    const podTemplateHash = templateHash({ app: a.app, image: a.image });
    const rsName = `${a.app}-${podTemplateHash}`;
    const created = SHOP_PODS_CREATED - 20 * i;
    const { key, pod } = shopPod({
      name: `${rsName}-${suffix(`shop/${a.app}`)}`,
      generateName: `${rsName}-`,
      created,
      labels: { app: a.app, 'app.kubernetes.io/part-of': 'shop', 'pod-template-hash': podTemplateHash },
      ownerReferences: controllerRef('ReplicaSet', rsName, uid(`ReplicaSet/shop/${rsName}`)),
      container: {
        name: a.app,
        image: a.image,
        ports: [{ name: 'http', containerPort: a.port, protocol: 'TCP' }],
        env: [{ name: 'JAVA_TOOL_OPTIONS', value: '-XX:MaxRAMPercentage=75' }],
        resources: { limits: { memory: a.memory }, requests: { cpu: a.cpu, memory: a.memory } },
        readinessProbe: httpProbe('/healthz/ready', 'http'),
      },
    });
    const t = { created, scheduled: created - 1, started: created - 3, ready: created - 25 };
    pod.status = podStatus(pod, READY, demoTimeline(t, READY, pod.spec), worker3, ipFor('worker-3', key));
    pods.push(versions.add(pod, created - 25));
  });

  // A finished CronJob run on worker-3: Succeeded pods hold no resources (docs/semantics.md §4.1).
  {
    const scheduledMinute = Math.floor(Date.UTC(2026, 10, 29, 6, 0, 0) / 60000);
    const jobName = `order-export-${scheduledMinute}`;
    const jobUid = uid(`Job/shop/${jobName}`);
    const created = 6 * HOUR;
    const { key, pod } = shopPod({
      name: `${jobName}-${suffix(`job/${jobName}`)}`,
      generateName: `${jobName}-`,
      created,
      labels: {
        'batch.kubernetes.io/controller-uid': jobUid,
        'batch.kubernetes.io/job-name': jobName,
        'controller-uid': jobUid,
        'job-name': jobName,
      },
      ownerReferences: controllerRef('Job', jobName, jobUid, 'batch/v1'),
      container: {
        name: 'order-export',
        image: SHOP_IMAGES[4],
        args: ['--since=24h', '--format=parquet'],
        resources: { limits: { memory: '4Gi' }, requests: { cpu: '2', memory: '4Gi' } },
      },
      restartPolicy: 'Never',
    });
    const finished = created - 11 * MIN;
    pod.status = podStatus(
      pod,
      { kind: 'Succeeded', finishedAgo: finished },
      { created, scheduled: created - 1, started: created - 4, ready: created - 4 },
      worker3,
      ipFor('worker-3', key),
    );
    pods.push(versions.add(pod, finished - 1));
  }

  // ----- self-check of the worker-3 story (NodeResourcesFit, docs/semantics.md §4.5) ---------
  {
    const ebsPod = podOf['ebs-csi-node']!['worker-3']!;
    const reasons = filterReasons(ebsPod, worker3, pods);
    if (JSON.stringify(reasons) !== '["Insufficient memory"]')
      throw new Error(`worker-3 story broken: ebs-csi-node fails with ${JSON.stringify(reasons)}`);
    if (freeResource(worker3, pods, 'memory') >= 200 * 2 ** 20)
      throw new Error('worker-3 should have less than 200Mi free');
  }

  // ----- DaemonSet status (docs/semantics.md §3.8) --------------------------------
  for (const b of Object.values(built)) {
    const cur = b.revs[b.revs.length - 1]!;
    b.ds.status = daemonSetStatus(b.ds, nodes, pods, { hash: cur.hash, templateGeneration: cur.generation });
  }
  const dsLastWrite: Record<string, number> = {
    'calico-node': CALICO_UPGRADE - 600,
    'kube-proxy': WORKER5_JOINED - 30,
    'fluent-bit': WORKER5_JOINED - 10,
    'node-exporter': EXPORTER_CREATED - 100,
    'ebs-csi-node': EBS_CREATED - 40,
    'nvidia-device-plugin-daemonset': NVIDIA_CREATED - 60,
  };
  for (const [name, b] of Object.entries(built)) versions.add(b.ds, dsLastWrite[name]!);

  // ----- events ------------------------------------------------------------------
  const events: BuiltEvent[] = [];
  const ev = (e: EventDef) => events.push(makeEvent(e, versions));
  const fb = built['fluent-bit']!.ds;
  const fbW1 = podOf['fluent-bit']!['worker-1']!;
  const fbW5 = podOf['fluent-bit']!['worker-5']!;
  const oldW1Name = `fluent-bit-${suffix('pod/logging/fluent-bit/worker-1/old')}`;
  ev({
    object: fb,
    reason: 'SuccessfulDelete',
    message: `Deleted pod: ${oldW1Name}`,
    component: 'daemonset-controller',
    firstAgo: FB_OLD_W1_DELETED,
  });
  ev({
    object: fb,
    reason: 'SuccessfulCreate',
    message: `Created pod: ${fbW1.metadata.name}`,
    component: 'daemonset-controller',
    firstAgo: FB_NEW_W1_CREATED,
  });
  ev({
    object: fb,
    reason: 'SuccessfulCreate',
    message: `Created pod: ${fbW5.metadata.name}`,
    component: 'daemonset-controller',
    firstAgo: FB_W5_CREATED,
  });

  const fbImage = 'fluent/fluent-bit:3.1';
  const w1 = kubeletSource(fbW1, 'fluent-bit');
  ev({
    object: fbW1,
    reason: 'Scheduled',
    message: `Successfully assigned logging/${fbW1.metadata.name} to worker-1`,
    component: 'default-scheduler',
    firstAgo: FB_NEW_W1_CREATED - 1,
  });
  ev({ ...w1, reason: 'Pulling', message: `Pulling image "${fbImage}"`, firstAgo: FB_NEW_W1_CREATED - 3 });
  ev({ ...w1, reason: 'Pulled', message: pulledMessage(fbImage, 6.214), firstAgo: FB_NEW_W1_CREATED - 9 });
  ev({
    ...w1,
    reason: 'Created',
    message: 'Created container: fluent-bit',
    firstAgo: crash.starts[0]! + 1,
    lastAgo: crash.lastStartedAgo + 1,
    count: crash.starts.length,
  });
  ev({
    ...w1,
    reason: 'Started',
    message: 'Started container fluent-bit',
    firstAgo: crash.starts[0]!,
    lastAgo: crash.lastStartedAgo,
    count: crash.starts.length,
  });
  ev({
    ...w1,
    reason: 'Pulled',
    message: `Container image "${fbImage}" already present on machine`,
    firstAgo: crash.starts[1]! + 1,
    lastAgo: crash.lastStartedAgo + 1,
    count: crash.restarts,
  });
  ev({
    ...w1,
    reason: 'Unhealthy',
    type: 'Warning',
    message: 'Readiness probe failed: HTTP probe failed with statuscode: 500',
    firstAgo: crash.starts[0]! - 8,
    lastAgo: crash.lastFinishedAgo + 4,
    count: 61,
  });
  ev({
    ...w1,
    reason: 'BackOff',
    type: 'Warning',
    message: `Back-off restarting failed container fluent-bit in pod ${fbW1.metadata.name}_logging(${fbW1.metadata.uid})`,
    firstAgo: crash.starts[0]! - crash.run - 1,
    lastAgo: 7,
    count: 38,
  });

  ev({
    object: fbW5,
    reason: 'Scheduled',
    message: `Successfully assigned logging/${fbW5.metadata.name} to worker-5`,
    component: 'default-scheduler',
    firstAgo: FB_W5_CREATED - 1,
  });
  // The kubelet does not try to create a sandbox for a non-hostNetwork pod while the
  // runtime reports NetworkReady=false; it records NetworkNotReady on each sync instead.
  ev({
    object: fbW5,
    reason: 'NetworkNotReady',
    type: 'Warning',
    component: 'kubelet',
    host: 'worker-5',
    message: `network is not ready: ${NOT_READY_MSG}`,
    firstAgo: FB_W5_CREATED - 2,
    lastAgo: 4,
    count: 112,
  });

  const ebs = built['ebs-csi-node']!.ds;
  for (const n of ALL_NODES) {
    const p = podOf['ebs-csi-node']![n]!;
    ev({
      object: ebs,
      reason: 'SuccessfulCreate',
      message: `Created pod: ${p.metadata.name}`,
      component: 'daemonset-controller',
      firstAgo: EBS_CREATED - 1 - (ALL_NODES.indexOf(n) % 3),
    });
  }
  const ebsW3 = podOf['ebs-csi-node']!['worker-3']!;
  ev({
    object: ebsW3,
    reason: 'FailedScheduling',
    type: 'Warning',
    component: 'default-scheduler',
    message: EBS_W3_MESSAGE,
    firstAgo: ago(ebsW3.metadata.creationTimestamp!) - 1,
    lastAgo: 3 * MIN,
    count: 6,
  });

  for (const e of nodeStartEvents(nodesByName['worker-5']!, WORKER5_JOINED, { startedBefore: 12, lastStatusBefore: 2 }))
    ev(e);

  // ----- services, endpoint slices, PDB, namespaces, priority classes -------------
  const nsCreated = {
    default: CLUSTER_AGE,
    'kube-node-lease': CLUSTER_AGE,
    'kube-public': CLUSTER_AGE,
    'kube-system': CLUSTER_AGE,
    logging: FLUENT_CREATED + 120,
    monitoring: EXPORTER_CREATED + 60,
    shop: 45 * DAY,
  };
  const namespaces = Object.entries(nsCreated).map(([n, a]) => versions.add(makeNamespace(n, a), a));

  const services = [
    kubernetesService(CLUSTER_AGE, versions),
    makeService(
      {
        namespace: 'kube-system',
        name: 'kube-dns',
        createdAgo: CLUSTER_AGE - 30,
        labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
        ports: [
          { name: 'dns', protocol: 'UDP', port: 53, targetPort: 53 },
          { name: 'dns-tcp', protocol: 'TCP', port: 53, targetPort: 53 },
          { name: 'metrics', protocol: 'TCP', port: 9153, targetPort: 9153 },
        ],
        selector: { 'k8s-app': 'kube-dns' },
        clusterIP: '10.96.0.10',
      },
      versions,
    ),
    makeService(
      {
        namespace: 'monitoring',
        name: 'node-exporter',
        createdAgo: EXPORTER_CREATED,
        labels: NE_LABELS,
        ports: [{ name: 'metrics', protocol: 'TCP', port: 9100, targetPort: 'metrics' }],
        selector: NODE_EXPORTER_SELECTOR,
        clusterIP: 'None',
      },
      versions,
    ),
  ];
  const neSvc = services[2]!;

  const endpointSlices = [];
  {
    const cpIP = nodesByName['cp-1']!.status.addresses![0]!.address;
    endpointSlices.push(
      versions.add(
        {
          addressType: 'IPv4',
          apiVersion: 'discovery.k8s.io/v1',
          endpoints: [{ addresses: [cpIP], conditions: { ready: true } }],
          kind: 'EndpointSlice',
          metadata: {
            creationTimestamp: at(CLUSTER_AGE),
            generation: 1,
            labels: { 'kubernetes.io/service-name': 'kubernetes' },
            name: 'kubernetes',
            namespace: 'default',
            resourceVersion: '',
            uid: uid('EndpointSlice/default/kubernetes'),
          },
          ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
        },
        CLUSTER_AGE,
      ),
    );
    const nePods = Object.entries(podOf['node-exporter']!).filter(([, p]) => podReady(p));
    const sliceName = `node-exporter-${suffix('endpointslice/monitoring/node-exporter')}`;
    endpointSlices.push(
      versions.add(
        {
          addressType: 'IPv4',
          apiVersion: 'discovery.k8s.io/v1',
          endpoints: nePods.map(([n, p]) => ({
            addresses: [p.status.podIP],
            conditions: { ready: true, serving: true, terminating: false },
            nodeName: n,
            targetRef: { kind: 'Pod', name: p.metadata.name, namespace: 'monitoring', uid: p.metadata.uid },
            zone: nodesByName[n]!.metadata.labels['topology.kubernetes.io/zone'],
          })),
          kind: 'EndpointSlice',
          metadata: {
            annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': at(CORDONED + 2 * DAY) },
            creationTimestamp: at(EXPORTER_CREATED),
            generateName: 'node-exporter-',
            generation: 7,
            labels: {
              ...NE_LABELS,
              'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
              'kubernetes.io/service-name': 'node-exporter',
              'service.kubernetes.io/headless': '',
            },
            name: sliceName,
            namespace: 'monitoring',
            ownerReferences: controllerRef('Service', 'node-exporter', neSvc.metadata.uid, 'v1'),
            resourceVersion: '',
            uid: uid(`EndpointSlice/monitoring/${sliceName}`),
          },
          ports: [{ name: 'metrics', port: 9100, protocol: 'TCP' }],
        },
        EXPORTER_CREATED - 200,
      ),
    );
  }

  const priorityClasses = systemPriorityClasses(CLUSTER_AGE + 30).map((pc) => versions.add(pc, CLUSTER_AGE + 30));

  const pdbs = [
    versions.add(
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: {
          creationTimestamp: at(45 * DAY),
          generation: 1,
          labels: { app: 'storefront', 'app.kubernetes.io/part-of': 'shop' },
          name: 'storefront',
          namespace: 'shop',
          resourceVersion: '',
          uid: uid('PodDisruptionBudget/shop/storefront'),
        },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'storefront' } } },
        status: {
          conditions: [
            {
              lastTransitionTime: at(SHOP_PODS_CREATED - 30),
              message: '',
              observedGeneration: 1,
              reason: 'InsufficientPods',
              status: 'False',
              type: 'DisruptionAllowed',
            },
          ],
          currentHealthy: 1,
          desiredHealthy: 1,
          disruptionsAllowed: 0,
          expectedPods: 1,
          observedGeneration: 1,
        },
      },
      SHOP_PODS_CREATED - 30,
    ),
  ];

  versions.assign();
  finishEvents(events);

  const dss = Object.values(built).map((b) => b.ds);
  const revisions = Object.values(built).flatMap((b) => b.revisions);
  const files = {
    'nodes.yaml': nodes,
    'daemonsets.yaml': dss,
    'pods.yaml': pods,
    'events.yaml': events,
    'controllerrevisions.yaml': revisions,
    'services.yaml': services,
    'endpointslices.yaml': endpointSlices,
    'namespaces.yaml': namespaces,
    'priorityclasses.yaml': priorityClasses,
    'poddisruptionbudgets.yaml': pdbs,
  };
  for (const [f, items] of Object.entries(files)) {
    writeFile(`fixtures/demo/${f}`, listYaml(items));
  }
}

// ---------------------------------------------------------------------------
// Task 2: fixtures/cluster-info-dump — a 3-node cluster in cluster-info dump layout
// ---------------------------------------------------------------------------

function buildClusterInfoDump() {
  const versions = new Versions(1_840_000);
  const OUT = 'fixtures/cluster-info-dump';
  const CLUSTER_AGE = 40 * DAY;
  const ROLLOUT = 35 * MIN;
  const cap = {
    cpu: '8',
    'ephemeral-storage': '203056560Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '32780324Ki',
    pods: '110',
  };
  const alloc = {
    cpu: '7910m',
    'ephemeral-storage': '187136044798',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '31629348Ki',
    pods: '110',
  };
  const nodeDefs: {
    name: string;
    ip: string;
    podNet: string;
    joinedAgo: number;
    labels?: Record<string, string>;
    taints?: Taint[];
  }[] = [
    { name: 'node-a', ip: '10.10.0.11', podNet: '10.244.0.0/24', joinedAgo: CLUSTER_AGE },
    { name: 'node-b', ip: '10.10.0.12', podNet: '10.244.1.0/24', joinedAgo: CLUSTER_AGE - 300 },
    {
      name: 'node-c',
      ip: '10.10.0.13',
      podNet: '10.244.2.0/24',
      joinedAgo: CLUSTER_AGE - 360,
      labels: { 'node-role.kubernetes.io/infra': '', dedicated: 'infra' },
      taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }],
    },
  ];
  const proxyImage = (v: string) => `registry.k8s.io/kube-proxy:${v}`;
  const neImage = 'quay.io/prometheus/node-exporter:v1.8.2';

  // A bare-metal cluster: no cloud labels, no providerID.
  const nodes = nodeDefs.map((n, i) => {
    const images = [proxyImage('v1.34.2'), 'registry.k8s.io/pause:3.10'];
    if (n.name !== 'node-c') images.push(neImage);
    const heartbeatAgo = 40 + i * 70;
    return versions.add(
      makeNode({
        name: n.name,
        ip: n.ip,
        type: { instanceType: '', capacity: cap, allocatable: alloc },
        labels: n.labels,
        annotations: { 'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock' },
        joinedAgo: n.joinedAgo,
        conditions: kubeletConditions({ heartbeatAgo, joinedAgo: n.joinedAgo, readySinceAgo: n.joinedAgo - 35 }),
        podCIDR: n.podNet,
        taints: n.taints,
        images: nodeImages(images),
        kernelVersion: '6.1.0-28-amd64',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
      }),
      heartbeatAgo,
    );
  });
  const nodesByName = Object.fromEntries(nodes.map((n) => [n.metadata.name, n]));

  const neLabels = { 'app.kubernetes.io/name': 'node-exporter' };
  const neTemplate = () =>
    finishTemplate({
      metadata: { creationTimestamp: null, labels: neLabels },
      spec: {
        volumes: [hostPath('proc', '/proc'), hostPath('sys', '/sys'), hostPath('root', '/')],
        containers: [
          {
            name: 'node-exporter',
            image: neImage,
            args: [
              '--web.listen-address=:9100',
              '--path.procfs=/host/proc',
              '--path.sysfs=/host/sys',
              '--path.rootfs=/host/root',
            ],
            ports: [{ name: 'metrics', hostPort: 9100, containerPort: 9100, protocol: 'TCP' }],
            resources: { limits: { memory: '60Mi' }, requests: { cpu: '50m', memory: '30Mi' } },
            volumeMounts: [
              { name: 'proc', readOnly: true, mountPath: '/host/proc' },
              { name: 'sys', readOnly: true, mountPath: '/host/sys' },
              { name: 'root', readOnly: true, mountPath: '/host/root', mountPropagation: 'HostToContainer' },
            ],
            ...CONTAINER_DEFAULTS,
            securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
          },
        ],
        ...podSpecDefaults('node-exporter', {
          dnsPolicy: 'ClusterFirstWithHostNet',
          securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true },
        }),
        automountServiceAccountToken: false,
        hostNetwork: true,
        hostPID: true,
      },
    });
  // ControllerRevisions are not part of a cluster-info dump; makeDaemonSet still
  // computes each revision's hash, which the pods' labels carry.
  const scratch = new Versions(0); // revisions are not written, keep them out of the real versions
  const proxy = makeDaemonSet(
    {
      namespace: 'kube-system',
      name: 'kube-proxy',
      createdAgo: CLUSTER_AGE - 20,
      labels: { 'k8s-app': 'kube-proxy' },
      selector: { 'k8s-app': 'kube-proxy' },
      updateStrategy: rolling(1),
      revs: [
        { generation: 1, template: kubeProxyTemplate('v1.34.2'), createdAgo: CLUSTER_AGE - 20 },
        { generation: 2, template: kubeProxyTemplate('v1.34.99'), createdAgo: ROLLOUT },
      ],
    },
    scratch,
  );
  const ne = makeDaemonSet(
    {
      namespace: 'monitoring',
      name: 'node-exporter',
      createdAgo: 12 * DAY,
      labels: neLabels,
      selector: neLabels,
      updateStrategy: rolling(1),
      revs: [{ generation: 1, template: neTemplate(), createdAgo: 12 * DAY }],
    },
    scratch,
  );

  const READY: PodState = { kind: 'Running' };
  const noIP = (): string => undefined as unknown as string;
  const pods: BuiltPod[] = [];
  const proxyPods: Record<string, BuiltPod> = {};
  ['node-a', 'node-b', 'node-c'].forEach((n, idx) => {
    // node-b's pod was replaced by the rollout and cannot pull its image.
    const created = n === 'node-b' ? ROLLOUT - 14 : CLUSTER_AGE - 25 - 40 * idx;
    const t = { created, scheduled: created - 1, started: created - 3 };
    const p =
      n === 'node-b'
        ? makeDaemonPod(
            proxy,
            1,
            nodesByName[n]!,
            { kind: 'ImagePullBackOff' },
            { ...t, ready: t.started, lastWrite: 20 },
            versions,
            noIP,
          )
        : makeDaemonPod(proxy, 0, nodesByName[n]!, READY, { ...t, ready: created - 8 }, versions, noIP);
    proxyPods[n] = p;
    pods.push(p);
  });
  const nePods: Record<string, BuiltPod> = {};
  for (const n of ['node-a', 'node-b']) {
    const created = 12 * DAY - 3 - (n === 'node-b' ? 1 : 0);
    const p = makeDaemonPod(
      ne,
      0,
      nodesByName[n]!,
      READY,
      { created, scheduled: created - 1, started: created - 3, ready: created - 9 },
      versions,
      noIP,
    );
    nePods[n] = p;
    pods.push(p);
  }
  for (const b of [proxy, ne]) {
    const cur = b.revs[b.revs.length - 1]!;
    b.ds.status = daemonSetStatus(b.ds, nodes, pods, { hash: cur.hash, templateGeneration: cur.generation });
  }
  versions.add(proxy.ds, ROLLOUT - 20);
  versions.add(ne.ds, 12 * DAY - 20);

  const events: BuiltEvent[] = [];
  const ev = (e: EventDef) => events.push(makeEvent(e, versions));
  const bad = proxyPods['node-b']!;
  const oldB = `kube-proxy-${suffix('pod/kube-system/kube-proxy/node-b/old')}`;
  ev({
    object: proxy.ds,
    reason: 'SuccessfulDelete',
    message: `Deleted pod: ${oldB}`,
    component: 'daemonset-controller',
    firstAgo: ROLLOUT - 1,
  });
  ev({
    object: proxy.ds,
    reason: 'SuccessfulCreate',
    message: `Created pod: ${bad.metadata.name}`,
    component: 'daemonset-controller',
    firstAgo: ROLLOUT - 14,
  });
  ev({
    object: bad,
    reason: 'Scheduled',
    message: `Successfully assigned kube-system/${bad.metadata.name} to node-b`,
    component: 'default-scheduler',
    firstAgo: ROLLOUT - 15,
  });
  for (const e of failedPullEvents(bad, 'kube-proxy', {
    firstAgo: ROLLOUT - 17,
    lastAgo: 4 * MIN + 10,
    pulls: 8,
    backOffs: 141,
    lastBackOffAgo: 20,
  }))
    ev(e);

  const svcKubernetes = kubernetesService(CLUSTER_AGE + 10, versions);
  const svcNe = makeService(
    {
      namespace: 'monitoring',
      name: 'node-exporter',
      createdAgo: 12 * DAY,
      labels: neLabels,
      ports: [{ name: 'metrics', protocol: 'TCP', port: 9100, targetPort: 9100 }],
      selector: neLabels,
      clusterIP: 'None',
    },
    versions,
  );

  const listRV = versions.assign();
  finishEvents(events);

  // Typed lists as the JSON printer writes them: kind, apiVersion, metadata, items;
  // items carry no kind/apiVersion (they are stripped from typed list items).
  const strip = (o: Json) => {
    const { kind, apiVersion, ...rest } = o;
    return rest;
  };
  const list = (kind: string, apiVersion: string, items: readonly Json[]) => ({
    kind,
    apiVersion,
    metadata: { resourceVersion: listRV },
    items: [...items].sort(byKey).map(strip),
  });
  // encoding/json writes struct fields in declaration order but map keys sorted.
  const MAP_FIELDS = new Set([
    'labels',
    'annotations',
    'capacity',
    'allocatable',
    'nodeSelector',
    'matchLabels',
    'selector',
    'requests',
    'limits',
  ]);
  const sortMaps = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => sortMaps(x));
    if (!v || typeof v !== 'object') return v;
    const obj = v as Json;
    const keys = MAP_FIELDS.has(key ?? '') ? Object.keys(obj).sort() : Object.keys(obj);
    return Object.fromEntries(keys.map((k) => [k, sortMaps(obj[k], k)]));
  };
  const json = (o: unknown) => `${JSON.stringify(sortMaps(clone(o)), null, 4)}\n`;

  writeFile(`${OUT}/nodes.json`, json(list('NodeList', 'v1', nodes)));
  const namespaces = ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'monitoring'];
  const inNs = (ns: string, arr: readonly Json[]) => arr.filter((o) => o.metadata.namespace === ns);
  for (const ns of namespaces) {
    writeFile(`${OUT}/${ns}/events.json`, json(list('EventList', 'v1', inNs(ns, events))));
    writeFile(`${OUT}/${ns}/replication-controllers.json`, json(list('ReplicationControllerList', 'v1', [])));
    writeFile(`${OUT}/${ns}/services.json`, json(list('ServiceList', 'v1', inNs(ns, [svcKubernetes, svcNe]))));
    writeFile(`${OUT}/${ns}/daemonsets.json`, json(list('DaemonSetList', 'apps/v1', inNs(ns, [proxy.ds, ne.ds]))));
    writeFile(`${OUT}/${ns}/deployments.json`, json(list('DeploymentList', 'apps/v1', [])));
    writeFile(`${OUT}/${ns}/replicasets.json`, json(list('ReplicaSetList', 'apps/v1', [])));
    writeFile(`${OUT}/${ns}/pods.json`, json(list('PodList', 'v1', inNs(ns, pods))));
  }

  // Container logs, framed the way cluster-info dump frames them.
  // Log lines at `startAgo` seconds before NOW plus a growing, deterministic offset in microseconds.
  const logClock = (startAgo: number, seed: string) => {
    let micros = (NOW.getTime() - startAgo * 1000) * 1000 + (parseInt(sha(seed).slice(0, 4), 16) % 1000) * 7;
    return (seedLine: string) => {
      micros += 200 + (parseInt(sha(`${seed}/${seedLine}`).slice(0, 4), 16) % 40000);
      return { date: new Date(Math.floor(micros / 1000)), micros: micros % 1000000 };
    };
  };
  const pad = (v: number, n = 2) => String(v).padStart(n, '0');
  const klogLine = (clock: ReturnType<typeof logClock>, file: string, msg: string) => {
    const { date: d, micros } = clock(msg);
    return `I${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(micros, 6)}       1 ${file}] ${msg}`;
  };
  const logs = (pod: BuiltPod, body: string) => {
    const c = pod.spec.containers[0]!.name;
    const id = `${pod.metadata.namespace}/${pod.metadata.name}`;
    return `==== START logs for container ${c} of pod ${id} ====\n${body}==== END logs for container ${c} of pod ${id} ====\n`;
  };
  for (const n of ['node-a', 'node-c']) {
    const p = proxyPods[n]!;
    const t0 = CLUSTER_AGE - 30 - 40 * ['node-a', 'node-b', 'node-c'].indexOf(n);
    const ip = nodesByName[n]!.status.addresses![0]!.address;
    const clock = logClock(t0, `log/${p.metadata.name}`);
    const lines = [
      ['server_linux.go:66', '"Using iptables proxy"'],
      ['server.go:698', `"Successfully retrieved node IP(s)" IPs=["${ip}"]`],
      ['server_linux.go:147', '"No iptables support for family" ipFamily="IPv6"'],
      ['server.go:245', '"kube-proxy running in single-stack mode" ipFamily="IPv4"'],
      ['server.go:483', '"Version info" version="v1.34.2"'],
      ['config.go:199', '"Starting service config controller"'],
      ['config.go:105', '"Starting endpoint slice config controller"'],
      ['config.go:329', '"Starting node config controller"'],
      ['shared_informer.go:356', '"Caches are synced" controller="service config"'],
      ['shared_informer.go:356', '"Caches are synced" controller="endpoint slice config"'],
      ['shared_informer.go:356', '"Caches are synced" controller="node config"'],
    ].map(([file, msg]) => klogLine(clock, file!, msg!));
    writeFile(`${OUT}/kube-system/${p.metadata.name}/logs.txt`, logs(p, `${lines.join('\n')}\n`));
  }
  const h = (p: BuiltPod) => p.metadata.labels!['controller-revision-hash'];
  writeFile(
    `${OUT}/README.md`,
    `# cluster-info dump fixture

The layout \`kubectl cluster-info dump --all-namespaces --output-directory=DIR\` writes:
top-level \`nodes.json\`, and per namespace \`events.json\`, \`replication-controllers.json\`,
\`services.json\`, \`daemonsets.json\`, \`deployments.json\`, \`replicasets.json\`, \`pods.json\`
(typed lists printed as JSON with 4-space indentation; list items carry no
\`kind\`/\`apiVersion\`), plus \`<namespace>/<pod>/logs.txt\` for every pod. (This README is not
part of kubectl's output.)

**Evaluation instant: \`${NOW_ISO}\`** (run with \`--now ${NOW_ISO}\`). Generated by
\`npm run fixtures\` (scripts/make-demo.ts); do not edit by hand.

Cluster: three Ready nodes, Kubernetes v1.34.2. \`node-a\` and \`node-b\` are untainted;
\`node-c\` carries the custom taint \`dedicated=infra:NoSchedule\`.

- **kube-system/kube-proxy** (blanket toleration \`operator: Exists\`, RollingUpdate
  maxUnavailable 1). Its image was changed ${Math.round(ROLLOUT / MIN)} minutes ago from
  \`registry.k8s.io/kube-proxy:v1.34.2\` (revision hash \`${h(proxyPods['node-a']!)}\`,
  generation 1) to the non-existent \`registry.k8s.io/kube-proxy:v1.34.99\` (hash
  \`${h(bad)}\`, generation 2). The controller replaced node-b's pod first; the new pod
  \`${bad.metadata.name}\` is in \`ImagePullBackOff\` (\`Back-off pulling image
  "registry.k8s.io/kube-proxy:v1.34.99"\`, \`Failed\` events \`Failed to pull image … not found\`,
  \`Error: ErrImagePull\`, \`Error: ImagePullBackOff\`). With one pod unavailable the budget is
  used up, so node-a (\`${proxyPods['node-a']!.metadata.name}\`) and node-c
  (\`${proxyPods['node-c']!.metadata.name}\`) keep running the old, Ready v1.34.2 pods.
  Verdicts: node-a Healthy, **node-b Unhealthy (ImagePullBackOff)**, node-c Healthy.
  Status: desired 3, current 3, ready 2, available 2, unavailable 1, updated 1,
  observedGeneration 2. Rollout: Stuck.
- **monitoring/node-exporter** (no tolerations, hostNetwork, hostPort 9100). Healthy on
  node-a (\`${nePods['node-a']!.metadata.name}\`) and node-b (\`${nePods['node-b']!.metadata.name}\`);
  **node-c Excluded** by the untolerated taint \`dedicated=infra:NoSchedule\`. Status: desired 2,
  current 2, ready 2, available 2, updated 2.

\`default\`, \`kube-node-lease\` and \`kube-public\` hold only empty lists (and the
\`default/kubernetes\` Service). Not in a cluster-info dump, hence absent: ControllerRevisions,
Namespaces, PriorityClasses, EndpointSlices, PodDisruptionBudgets.
`,
  );
  writeFile(
    `${OUT}/kube-system/${bad.metadata.name}/logs.txt`,
    logs(
      bad,
      `Request log error: container "kube-proxy" in pod "${bad.metadata.name}" is waiting to start: trying and failing to pull image\n`,
    ),
  );
  for (const [n, p] of Object.entries(nePods)) {
    const t0 = 12 * DAY - 12 - (n === 'node-b' ? 1 : 0);
    // node_exporter 1.8 still logs with go-kit (logfmt with ts/caller/level).
    const clock = logClock(t0, `log/${p.metadata.name}`);
    const lines = [
      [
        'node_exporter.go:193',
        'msg="Starting node_exporter" version="(version=1.8.2, branch=HEAD, revision=f1e0e8360aa60b6cb5e5cc1560bed348fc2c1895)"',
      ],
      [
        'node_exporter.go:194',
        'msg="Build context" build_context="(go=go1.22.5, platform=linux/amd64, user=root@03d440803209, date=20240714-11:53:45, tags=unknown)"',
      ],
      [
        'filesystem_common.go:111',
        'collector=filesystem msg="Parsed flag --collector.filesystem.mount-points-exclude" flag=^/(dev|proc|run/credentials/.+|sys|var/lib/docker/.+|var/lib/containers/storage/.+)($|/)',
      ],
      ['node_exporter.go:111', 'msg="Enabled collectors"'],
      ['node_exporter.go:118', 'collector=cpu'],
      ['node_exporter.go:118', 'collector=filesystem'],
      ['node_exporter.go:118', 'collector=meminfo'],
      ['node_exporter.go:118', 'collector=netdev'],
      ['tls_config.go:313', 'msg="Listening on" address=[::]:9100'],
      ['tls_config.go:316', 'msg="TLS is disabled." http2=false address=[::]:9100'],
    ].map(([caller, rest]) => {
      const { date, micros } = clock(rest!);
      return `ts=${date.toISOString().replace(/Z$/, '')}${pad(micros % 1000, 3)}Z caller=${caller} level=info ${rest}`;
    });
    writeFile(`${OUT}/monitoring/${p.metadata.name}/logs.txt`, logs(p, `${lines.join('\n')}\n`));
  }
}

// ---------------------------------------------------------------------------

// Regenerate from scratch (fixtures/demo/README.md is written by hand and kept).
const demoDir = path.join(ROOT, 'fixtures/demo');
if (fs.existsSync(demoDir))
  for (const f of fs.readdirSync(demoDir)) if (f.endsWith('.yaml')) fs.rmSync(path.join(demoDir, f));
clearGenerated('fixtures/cluster-info-dump');
buildDemo();
buildClusterInfoDump();
console.log('wrote fixtures/demo and fixtures/cluster-info-dump');
