/**
 * The DaemonSets of a generated cluster: the usual agents (CNI, kube-proxy, CSI node plugin, a log
 * collector mid-rollout, node-exporter with a host port, the GPU device plugin), then `agent-N`
 * copies of a plain one, and their pod templates.
 */
import { podSpecDefaults } from '../../test/kube/api-pod.js';
import { ordered } from '../../test/kube/fields.js';
import { fnv32a, SAFE } from '../../test/kube/ids.js';
import type { NodeInfo } from './nodes.js';
import type { Json, Obj } from './random.js';

/** The shape of one DaemonSet of the generated cluster. */
export interface DsShape {
  namespace: string;
  name: string;
  labelKey: string;
  image: string;
  oldImage?: string;
  /** Fraction of pods already on the new revision (mid-rollout), 1 when none is going on. */
  updatedShare: number;
  hostNetwork: boolean;
  hostPort?: number;
  tolerations: Json[];
  nodeSelector: Obj;
  cpu: string;
  cpuMilli: number;
  memory: string;
  priorityClassName?: string;
  maxUnavailable: string | number;
  extraContainers: Obj[];
  /** Per-pod odds of a bad state on its node. */
  crashLoop: number;
  imagePull: number;
  runs(n: NodeInfo): boolean;
}

const tolerateAll: Json[] = [{ operator: 'Exists' }];

/** A toleration without a key that tolerates every NoSchedule taint. */
export function isBlanket(t: Json): boolean {
  const o = t as Obj;
  return (
    o['key'] === undefined && o['operator'] === 'Exists' && (o['effect'] === undefined || o['effect'] === 'NoSchedule')
  );
}

const DAEMONSETS: DsShape[] = [
  {
    namespace: 'kube-system',
    name: 'calico-node',
    labelKey: 'k8s-app',
    image: 'docker.io/calico/node:v3.28.1',
    updatedShare: 1,
    hostNetwork: true,
    tolerations: [
      { effect: 'NoSchedule', operator: 'Exists' },
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { effect: 'NoExecute', operator: 'Exists' },
    ],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '250m',
    cpuMilli: 250,
    memory: '128Mi',
    priorityClassName: 'system-node-critical',
    maxUnavailable: 1,
    extraContainers: [],
    crashLoop: 0,
    imagePull: 0,
    runs: (n) => n.os === 'linux',
  },
  {
    namespace: 'kube-system',
    name: 'kube-proxy',
    labelKey: 'k8s-app',
    image: 'registry.k8s.io/kube-proxy:v1.34.2',
    updatedShare: 1,
    hostNetwork: true,
    tolerations: tolerateAll,
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '100m',
    cpuMilli: 100,
    memory: '64Mi',
    priorityClassName: 'system-node-critical',
    maxUnavailable: '10%',
    extraContainers: [],
    crashLoop: 0,
    imagePull: 0,
    runs: (n) => n.os === 'linux',
  },
  {
    namespace: 'kube-system',
    name: 'ebs-csi-node',
    labelKey: 'app',
    image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.35.0',
    updatedShare: 1,
    hostNetwork: false,
    tolerations: tolerateAll,
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '10m',
    cpuMilli: 30,
    memory: '40Mi',
    priorityClassName: 'system-node-critical',
    maxUnavailable: '10%',
    extraContainers: [
      {
        name: 'node-driver-registrar',
        image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.12.0',
        args: ['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--v=2'],
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
      },
      {
        name: 'liveness-probe',
        image: 'registry.k8s.io/sig-storage/livenessprobe:v2.14.0',
        args: ['--csi-address=/csi/csi.sock'],
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
      },
    ],
    crashLoop: 0,
    imagePull: 0,
    runs: (n) => n.os === 'linux',
  },
  {
    namespace: 'logging',
    name: 'fluent-bit',
    labelKey: 'app.kubernetes.io/name',
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.2.2',
    oldImage: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    updatedShare: 0.6,
    hostNetwork: false,
    tolerations: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '100m',
    cpuMilli: 100,
    memory: '128Mi',
    maxUnavailable: '10%',
    extraContainers: [],
    crashLoop: 0.01,
    imagePull: 0,
    runs: (n) => n.os === 'linux' && n.pool !== 'gpu' && n.pool !== 'spot',
  },
  {
    namespace: 'monitoring',
    name: 'node-exporter',
    labelKey: 'app.kubernetes.io/name',
    image: 'quay.io/prometheus/node-exporter:v1.8.2',
    updatedShare: 1,
    hostNetwork: true,
    hostPort: 9100,
    tolerations: tolerateAll,
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    cpu: '100m',
    cpuMilli: 100,
    memory: '180Mi',
    maxUnavailable: 1,
    extraContainers: [],
    crashLoop: 0,
    imagePull: 0.002,
    runs: (n) => n.os === 'linux',
  },
  {
    namespace: 'gpu-operator',
    name: 'nvidia-device-plugin-daemonset',
    labelKey: 'name',
    image: 'nvcr.io/nvidia/k8s-device-plugin:v0.16.2',
    updatedShare: 1,
    hostNetwork: false,
    tolerations: [{ effect: 'NoSchedule', key: 'nvidia.com/gpu', operator: 'Exists' }],
    nodeSelector: { 'nvidia.com/gpu.present': 'true' },
    cpu: '50m',
    cpuMilli: 50,
    memory: '64Mi',
    priorityClassName: 'system-node-critical',
    maxUnavailable: 1,
    extraContainers: [],
    crashLoop: 0,
    imagePull: 0,
    runs: (n) => n.pool === 'gpu',
  },
];

/** The built-in DaemonSets, then `agent-N` copies of a plain one on every Linux node, to `count`. */
export function daemonSetShapes(count = DAEMONSETS.length): DsShape[] {
  const agent = DAEMONSETS[1]!;
  const extra = Array.from({ length: Math.max(0, count - DAEMONSETS.length) }, (_, k): DsShape => ({
    ...agent,
    namespace: 'agents',
    name: `agent-${k + 1}`,
    labelKey: 'app',
    image: `registry.example.com/agent-${k + 1}:v1.0.${k}`,
    hostNetwork: false,
    priorityClassName: undefined,
  }));
  return [...DAEMONSETS.slice(0, count), ...extra];
}

/** The pod template of DaemonSet `d` running `image`, with the API server's defaults. */
export function podTemplate(d: DsShape, image: string): Obj {
  const labels = { [d.labelKey]: d.name };
  const main: Obj = {
    name: d.name.replace(/-daemonset$/, ''),
    image,
    imagePullPolicy: 'IfNotPresent',
    env: [
      { name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
      { name: 'LOG_LEVEL', value: 'info' },
    ],
    resources: { limits: { memory: d.memory }, requests: { cpu: d.cpu, memory: d.memory } },
    ...(d.hostPort
      ? { ports: [{ containerPort: d.hostPort, hostPort: d.hostPort, name: 'metrics', protocol: 'TCP' }] }
      : {}),
    readinessProbe: {
      failureThreshold: 3,
      httpGet: { path: '/healthz', port: d.hostPort ?? 9099, scheme: 'HTTP' },
      periodSeconds: 10,
      successThreshold: 1,
      timeoutSeconds: 1,
    },
    livenessProbe: {
      failureThreshold: 6,
      httpGet: { path: '/healthz', port: d.hostPort ?? 9099, scheme: 'HTTP' },
      initialDelaySeconds: 10,
      periodSeconds: 10,
      successThreshold: 1,
      timeoutSeconds: 1,
    },
    securityContext:
      d.name === 'calico-node' || d.name === 'ebs-csi-node'
        ? { privileged: true }
        : { readOnlyRootFilesystem: true, runAsNonRoot: true, runAsUser: 65534 },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    volumeMounts: [
      { mountPath: '/host/sys', name: 'sys', readOnly: true },
      { mountPath: '/var/log', name: 'varlog' },
    ],
  };
  const extras = d.extraContainers.map((c): Obj => ({
    imagePullPolicy: 'IfNotPresent',
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    ...c,
  }));
  // The spec's fields in sorted order: the revision hash is taken over the template's JSON text.
  const spec: Obj = {
    ...podSpecDefaults(d.name, { dnsPolicy: d.hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst' }),
    containers: [main, ...extras],
    ...(d.hostNetwork ? { hostNetwork: true } : {}),
    nodeSelector: d.nodeSelector,
    ...(d.priorityClassName ? { priorityClassName: d.priorityClassName } : {}),
    tolerations: d.tolerations,
    volumes: [
      { hostPath: { path: '/sys', type: '' }, name: 'sys' },
      { hostPath: { path: '/var/log', type: '' }, name: 'varlog' },
    ],
  };
  return { metadata: { creationTimestamp: null, labels }, spec: ordered(spec, Object.keys(spec).sort()) };
}

/** A controller-revision-hash-looking string (ten characters of the safe alphabet). */
export function hashOf(text: string): string {
  return [...String(fnv32a(text)).padStart(10, '7')].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}
