// What the fixture generators (scripts/make-demo.ts, scripts/make-scenarios.ts,
// scripts/make-impact.ts; all run by `npm run fixtures`) share beyond the builder library:
// file output, the YAML of `kubectl get -o yaml`, and the vendor templates (kube-proxy,
// node-exporter, the EBS CSI node plugin). The objects themselves (nodes, pods, DaemonSets and
// their revisions, events) come from test/kube/, re-exported here; what Kubernetes would do with
// them (placement, tolerations, status, availability, the scheduler's filters) is src/k8s's own
// mirror of upstream, so the fixtures and the tool cannot disagree.
//
// Everything is derived from names (sha256 / FNV-32a), never from the clock or Math.random, so
// the generators write byte-identical files on every run. Section numbers ("docs/semantics.md §3.8")
// point into docs/semantics.md, the upstream behaviours the tool mirrors.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import type { Container, Volume } from '../../src/model/k8s-types.js';
import { byKey, clone, finishPodSpec, type Json, type Listed } from '../../test/kube/fields.js';
import { CONTAINER_DEFAULTS, podSpecDefaults } from '../../test/kube/api-pod.js';
import type { BuiltPodSpec, BuiltTemplate } from '../../test/kube/types.js';

export * from '../../test/kube/fields.js';
export * from '../../test/kube/versions.js';
export * from '../../test/kube/semantics.js';
export * from '../../test/kube/images.js';
export * from '../../test/kube/api-meta.js';
export * from '../../test/kube/api-node.js';
export * from '../../test/kube/api-pod.js';
export * from '../../test/kube/api-daemonset.js';
export * from '../../test/kube/api-events.js';
export * from '../../test/kube/api-cluster.js';
export * from '../../test/kube/api-service.js';
export { SAFE, fnv32a, sha, suffix, templateHash, uid } from '../../test/kube/ids.js';
export { DAY, HOUR, MIN, NOW_ISO, at, secondsBefore as ago } from '../../test/kube/time.js';
export { isPodTerminal as isTerminal } from '../../src/k8s/podutil.js';
export { targetNodeName as targetNode } from '../../src/k8s/daemonpod.js';
export { resourceAmount } from '../../src/k8s/quantity.js';

/** The repository root (this file runs as dist/scripts/lib/fixtures.js); `writeFile` paths are relative to it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The options of nodeExporterTemplate. */
export interface NodeExporterOptions {
  version?: string;
  memoryLimit?: string;
  extraArgs?: string[];
  explicitHostPort?: boolean;
  priorityClassName?: string;
}

/** Writes `text` to `rel` (relative to the repository root), creating folders. */
export function writeFile(rel: string, text: string): void {
  const full = path.join(ROOT, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

/** Files under a generated folder that people write by hand (a scenario's expected verdicts): generators keep them. */
export const HAND_WRITTEN: readonly string[] = ['expect.json'];

/**
 * Empties the generated folder `rel` (relative to the repository root, or absolute) before it is written
 * again, so that an object dropped from a generator leaves no stale file behind: removes every
 * file except those named in HAND_WRITTEN, then every folder left empty.
 */
export function clearGenerated(rel: string): void {
  clearFolder(path.resolve(ROOT, rel));
}

function clearFolder(dir: string): boolean {
  if (!fs.existsSync(dir)) return true;
  let empty = true;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (clearFolder(full)) fs.rmdirSync(full);
      else empty = false;
    } else if (HAND_WRITTEN.includes(entry.name)) {
      empty = false;
    } else {
      fs.rmSync(full);
    }
  }
  return empty;
}

/** `kubectl get -o yaml` style: keys sorted, lists not indented, double quotes. */
function toYaml(obj: unknown): string {
  return yaml.dump(clone(obj), { sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true, quotingType: '"' });
}

/** What `kubectl get <kind> -A -o yaml` writes for `items`: a `kind: List`, items sorted by namespace and name. */
export function listYaml(items: readonly Listed[]): string {
  return toYaml({ apiVersion: 'v1', items: [...items].sort(byKey), kind: 'List', metadata: { resourceVersion: '' } });
}

/** A hostPath volume (`type` '' when not given). */
export function hostPath(name: string, p: string, type?: string): Volume {
  return { name, hostPath: { path: p, type: type ?? '' } };
}

/** An environment variable from a pod field (the node name by default). */
export function fieldEnv(name: string, fieldPath = 'spec.nodeName'): NonNullable<Container['env']>[number] {
  return { name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } };
}

/** An HTTP probe with the API defaults; `extra` overrides them. */
export function httpProbe(p: string, port: number | string, extra: Json = {}): Json {
  return {
    httpGet: { path: p, port, scheme: 'HTTP' },
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
    ...extra,
  };
}

/** A pod template with its spec in API order. */
export function finishTemplate(tmpl: { metadata: Json; spec: Json }): BuiltTemplate {
  return { metadata: tmpl.metadata as BuiltTemplate['metadata'], spec: finishPodSpec(tmpl.spec as BuiltPodSpec) };
}

/** kube-proxy as kubeadm deploys it: hostNetwork, privileged, blanket toleration. */
export function kubeProxyTemplate(version: string): BuiltTemplate {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: { 'k8s-app': 'kube-proxy' } },
    spec: {
      volumes: [
        { name: 'kube-proxy', configMap: { name: 'kube-proxy', defaultMode: 420 } },
        hostPath('xtables-lock', '/run/xtables.lock', 'FileOrCreate'),
        hostPath('lib-modules', '/lib/modules'),
      ],
      containers: [
        {
          name: 'kube-proxy',
          image: `registry.k8s.io/kube-proxy:${version}`,
          command: [
            '/usr/local/bin/kube-proxy',
            '--config=/var/lib/kube-proxy/config.conf',
            '--hostname-override=$(NODE_NAME)',
          ],
          env: [fieldEnv('NODE_NAME')],
          resources: {},
          volumeMounts: [
            { name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' },
            { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
            { name: 'lib-modules', readOnly: true, mountPath: '/lib/modules' },
          ],
          ...CONTAINER_DEFAULTS,
          securityContext: { privileged: true },
        },
      ],
      ...podSpecDefaults('kube-proxy'),
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      hostNetwork: true,
      tolerations: [{ operator: 'Exists' }],
      priorityClassName: 'system-node-critical',
    },
  });
}

/** The selector of kube-prometheus' node-exporter. */
export const NODE_EXPORTER_SELECTOR: Record<string, string> = {
  'app.kubernetes.io/component': 'exporter',
  'app.kubernetes.io/name': 'node-exporter',
  'app.kubernetes.io/part-of': 'kube-prometheus',
};

/** The labels of kube-prometheus' node-exporter at `version` (v-prefixed). */
export function nodeExporterLabels(version: string): Record<string, string> {
  return { ...NODE_EXPORTER_SELECTOR, 'app.kubernetes.io/version': version.replace(/^v/, '') };
}

/** prometheus node-exporter as kube-prometheus ships it (hostNetwork, hostPID, hostPort 9100). */
export function nodeExporterTemplate({
  version = 'v1.8.2',
  memoryLimit = '60Mi',
  extraArgs = [],
  explicitHostPort = true,
  priorityClassName,
}: NodeExporterOptions = {}): BuiltTemplate {
  return finishTemplate({
    metadata: { creationTimestamp: null, labels: nodeExporterLabels(version) },
    spec: {
      volumes: [hostPath('proc', '/proc'), hostPath('sys', '/sys'), hostPath('root', '/')],
      containers: [
        {
          name: 'node-exporter',
          image: `quay.io/prometheus/node-exporter:${version}`,
          args: [
            '--web.listen-address=:9100',
            '--path.procfs=/host/proc',
            '--path.sysfs=/host/sys',
            '--path.rootfs=/host/root',
            '--no-collector.wifi',
            '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys|run/k3s/containerd/.+|var/lib/docker/.+|var/lib/kubelet/pods/.+)($|/)',
            ...extraArgs,
          ],
          ports: [
            explicitHostPort
              ? { name: 'metrics', hostPort: 9100, containerPort: 9100, protocol: 'TCP' }
              : { name: 'metrics', containerPort: 9100, protocol: 'TCP' },
          ],
          resources: { limits: { memory: memoryLimit }, requests: { cpu: '50m', memory: '30Mi' } },
          volumeMounts: [
            { name: 'proc', readOnly: true, mountPath: '/host/proc' },
            { name: 'sys', readOnly: true, mountPath: '/host/sys' },
            { name: 'root', readOnly: true, mountPath: '/host/root', mountPropagation: 'HostToContainer' },
          ],
          readinessProbe: httpProbe('/', 9100),
          ...CONTAINER_DEFAULTS,
          securityContext: {
            capabilities: { drop: ['ALL'] },
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
          },
        },
      ],
      ...podSpecDefaults('node-exporter', {
        dnsPolicy: 'ClusterFirstWithHostNet',
        securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true },
      }),
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      automountServiceAccountToken: false,
      hostNetwork: true,
      hostPID: true,
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      priorityClassName,
    },
  });
}

/** The hostPath volumes of the aws-ebs-csi-driver node plugin. */
export const EBS_NODE_VOLUMES: Volume[] = [
  hostPath('kubelet-dir', '/var/lib/kubelet', 'Directory'),
  hostPath('plugin-dir', '/var/lib/kubelet/plugins/ebs.csi.aws.com/', 'DirectoryOrCreate'),
  hostPath('registration-dir', '/var/lib/kubelet/plugins_registry/', 'Directory'),
  hostPath('device-dir', '/dev', 'Directory'),
];

/** The labels of the aws-ebs-csi-driver node plugin's pods at `version` (v-prefixed). */
export function ebsNodeLabels(version: string): Record<string, string> {
  return {
    app: 'ebs-csi-node',
    'app.kubernetes.io/component': 'csi-driver',
    'app.kubernetes.io/managed-by': 'Helm',
    'app.kubernetes.io/name': 'aws-ebs-csi-driver',
    'app.kubernetes.io/version': version.replace(/^v/, ''),
  };
}

/** The aws-ebs-csi-driver container in node mode, at `version`, requesting `memory`. */
export function ebsPluginContainer(version: string, memory: string): Json {
  return {
    name: 'ebs-plugin',
    image: `public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:${version}`,
    args: [
      'node',
      '--endpoint=$(CSI_ENDPOINT)',
      '--csi-mount-point-prefix=/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/',
      '--logging-format=text',
      '--v=2',
    ],
    ports: [{ name: 'healthz', containerPort: 9808, protocol: 'TCP' }],
    env: [{ name: 'CSI_ENDPOINT', value: 'unix:/csi/csi.sock' }, fieldEnv('CSI_NODE_NAME')],
    resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory } },
    volumeMounts: [
      { name: 'kubelet-dir', mountPath: '/var/lib/kubelet', mountPropagation: 'Bidirectional' },
      { name: 'plugin-dir', mountPath: '/csi' },
      { name: 'device-dir', mountPath: '/dev' },
    ],
    livenessProbe: {
      httpGet: { path: '/healthz', port: 'healthz', scheme: 'HTTP' },
      initialDelaySeconds: 10,
      timeoutSeconds: 3,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 5,
    },
    ...CONTAINER_DEFAULTS,
    securityContext: { privileged: true, readOnlyRootFilesystem: true },
  };
}

/** The CSI node-driver-registrar sidecar of the EBS driver (`image`), with `extra` fields and `extraMounts`. */
export function ebsRegistrarContainer(image: string, { extraMounts = [], ...extra }: Json = {}): Json {
  return {
    name: 'node-driver-registrar',
    image,
    args: ['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--v=2'],
    env: [
      { name: 'ADDRESS', value: '/csi/csi.sock' },
      { name: 'DRIVER_REG_SOCK_PATH', value: '/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock' },
    ],
    resources: { limits: { memory: '256Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
    volumeMounts: [
      { name: 'plugin-dir', mountPath: '/csi' },
      { name: 'registration-dir', mountPath: '/registration' },
      ...extraMounts,
    ],
    ...extra,
    ...CONTAINER_DEFAULTS,
    securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
  };
}
