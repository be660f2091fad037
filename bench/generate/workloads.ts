/**
 * The workload pods of a generated cluster: Deployments' (ReplicaSet) and Jobs' pods spread
 * round-robin over the schedulable nodes, a few unschedulable, built by test/kube's makePod.
 */
import { managedFieldsEntry } from '../../test/kube/api-meta.js';
import type { Json as KubeJson } from '../../test/kube/fields.js';
import {
  CONTAINER_DEFAULTS,
  controllerRef,
  makePod,
  NOT_READY_TOLERATIONS,
  podSpecDefaults,
} from '../../test/kube/api-pod.js';
import { SAFE } from '../../test/kube/ids.js';
import { at, DAY, HOUR } from '../../test/kube/time.js';
import type { BuiltPod, BuiltPodSpec } from '../../test/kube/types.js';
import type { EventLog, Involved } from './events.js';
import { type NodeInfo, podNet } from './nodes.js';
import type { Gen, Obj } from './random.js';
import { podStatus, succeededStatus } from './status.js';

const TEAMS = [
  'checkout',
  'payments',
  'search',
  'catalog',
  'frontend',
  'worker',
  'recommendations',
  'identity',
  'ledger',
  'notifications',
  'media',
  'analytics',
  'ads',
  'inventory',
  'shipping',
  'pricing',
];
const APP_IMAGES = [
  'ghcr.io/acme/checkout:2.14.1',
  'ghcr.io/acme/payments:5.2.0',
  'ghcr.io/acme/search:1.9.3',
  'ghcr.io/acme/catalog:3.0.7',
  'ghcr.io/acme/frontend:8.1.0',
  'ghcr.io/acme/worker:4.4.2',
  'docker.io/library/redis:7.4.1',
  'docker.io/library/nginx:1.27.2',
];

/** A Deployment (its current ReplicaSet) or a Job whose pods are generated. */
interface Deployment {
  namespace: string;
  name: string;
  rsHash: string;
  rsUid: string;
  image: string;
  cpuMilli: number;
  memMi: number;
  sidecar: boolean;
  job: boolean;
}

/** The fields the ReplicaSet controller and the kubelet own on a workload pod. */
function workloadManagedFields(ownerUid: string, created: number): KubeJson[] {
  return [
    managedFieldsEntry('kube-controller-manager', at(created), {
      'f:metadata': {
        'f:generateName': {},
        'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} },
        'f:ownerReferences': { '.': {}, [`k:{"uid":"${ownerUid}"}`]: {} },
      },
      'f:spec': {
        'f:containers': {
          'k:{"name":"app"}': {
            '.': {},
            'f:env': {},
            'f:image': {},
            'f:imagePullPolicy': {},
            'f:name': {},
            'f:ports': {},
            'f:readinessProbe': {},
            'f:resources': {},
            'f:terminationMessagePath': {},
            'f:terminationMessagePolicy': {},
          },
        },
        'f:dnsPolicy': {},
        'f:enableServiceLinks': {},
        'f:restartPolicy': {},
        'f:schedulerName': {},
        'f:securityContext': {},
        'f:terminationGracePeriodSeconds': {},
      },
    }),
    managedFieldsEntry('kubelet', at(created - 5), {
      'f:status': {
        'f:conditions': {
          'k:{"type":"ContainersReady"}': {
            '.': {},
            'f:lastProbeTime': {},
            'f:lastTransitionTime': {},
            'f:status': {},
            'f:type': {},
          },
          'k:{"type":"Initialized"}': {
            '.': {},
            'f:lastProbeTime': {},
            'f:lastTransitionTime': {},
            'f:status': {},
            'f:type': {},
          },
          'k:{"type":"Ready"}': {
            '.': {},
            'f:lastProbeTime': {},
            'f:lastTransitionTime': {},
            'f:status': {},
            'f:type': {},
          },
        },
        'f:containerStatuses': {},
        'f:hostIP': {},
        'f:phase': {},
        'f:podIP': {},
        'f:startTime': {},
      },
    }),
  ];
}

/** A pod of `dep` on `node` (unbound: Pending, unschedulable). */
function workloadPod(dep: Deployment, node: NodeInfo | undefined, g: Gen, used: Set<string>): BuiltPod {
  const { r } = g;
  const generateName = dep.job ? `${dep.name}-` : `${dep.name}-${dep.rsHash}-`;
  const name = r.uniqueName(generateName, used);
  const created = r.int(20 * DAY) + 600;
  const app: KubeJson = {
    name: 'app',
    image: dep.image,
    env: [
      { name: 'SERVICE_NAME', value: dep.name },
      { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: 'http://otel-collector.observability:4317' },
      { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { key: 'password', name: `${dep.name}-db` } } },
    ],
    ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    resources: {
      limits: { memory: `${dep.memMi * 2}Mi` },
      requests: { cpu: `${dep.cpuMilli}m`, memory: `${dep.memMi}Mi` },
    },
    readinessProbe: {
      failureThreshold: 3,
      httpGet: { path: '/ready', port: 'http', scheme: 'HTTP' },
      periodSeconds: 5,
      successThreshold: 1,
      timeoutSeconds: 1,
    },
    volumeMounts: [
      {
        mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
        name: `kube-api-access-${r.suffix()}`,
        readOnly: true,
      },
    ],
    ...CONTAINER_DEFAULTS,
  };
  const containers: KubeJson[] = [app];
  if (dep.sidecar) {
    containers.push({
      name: 'istio-proxy',
      image: 'docker.io/istio/proxyv2:1.23.2',
      args: ['proxy', 'sidecar', '--domain', `${dep.namespace}.svc.cluster.local`, '--proxyLogLevel=warning'],
      ports: [{ containerPort: 15090, name: 'http-envoy-prom', protocol: 'TCP' }],
      resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '100m', memory: '128Mi' } },
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
  }
  const labels: Record<string, string> = dep.job
    ? { 'batch.kubernetes.io/job-name': dep.name, 'job-name': dep.name }
    : { app: dep.name, 'pod-template-hash': dep.rsHash, 'app.kubernetes.io/part-of': dep.namespace };
  const resourceVersion = g.rv();
  const pod = makePod({
    name,
    generateName,
    namespace: dep.namespace,
    key: '',
    uid: r.uid(),
    resourceVersion,
    generation: false,
    createdAgo: created,
    labels,
    ownerReferences: dep.job
      ? controllerRef('Job', dep.name, dep.rsUid, 'batch/v1')
      : controllerRef('ReplicaSet', `${dep.name}-${dep.rsHash}`, dep.rsUid),
    ...(g.managedFields ? { managedFields: workloadManagedFields(dep.rsUid, created) } : {}),
    spec: {
      ...podSpecDefaults('default', { restartPolicy: dep.job ? 'Never' : 'Always' }),
      containers,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      tolerations: NOT_READY_TOLERATIONS,
      volumes: [
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
            ],
          },
        },
      ],
      ...(node ? { nodeName: node.name } : {}),
    } as KubeJson as BuiltPodSpec,
  });
  const cs = pod.spec.containers;
  const qos = 'Burstable';
  const status = !node
    ? podStatus(cs, 'pending', created, undefined, '', g, qos)
    : dep.job
      ? succeededStatus(cs, created, node, g, qos)
      : podStatus(
          cs,
          node.notReady ? 'nodeDown' : 'running',
          created,
          node,
          `${podNet(node)}.${2 + r.int(250)}`,
          g,
          qos,
        );
  pod.status = status;
  return pod;
}

/**
 * `workload` pods of Deployments and Jobs over the schedulable nodes (1 % unplaced, with a
 * FailedScheduling warning; 3 % of the placed with their start events), then a filler pod on
 * each "full" node so node-exporter's 100m no longer fits there. Returns how many were placed.
 */
export function workloadPods(
  nodes: NodeInfo[],
  workload: number,
  g: Gen,
  events: EventLog,
  podNames: Set<string>,
  emitPod: (pod: Obj) => void,
): number {
  const { r } = g;
  const schedulable = nodes.filter(
    (n) =>
      n.os === 'linux' &&
      !n.cordoned &&
      !n.justJoined &&
      n.pool !== 'control-plane' &&
      n.pool !== 'gpu' &&
      n.pool !== 'spot',
  );
  const deployments: Deployment[] = [];
  const namespaces = Math.max(4, Math.round(workload / 3000));
  for (let i = 0; deployments.length * 25 < workload; i++) {
    const team = TEAMS[i % TEAMS.length]!;
    deployments.push({
      namespace: `${team}-${Math.floor(i / TEAMS.length) % namespaces}`,
      name: `${team}-svc-${i}`,
      rsHash: r.chars(SAFE, 10),
      rsUid: r.uid(),
      image: r.pick(APP_IMAGES),
      cpuMilli: r.pick([50, 100, 200, 250, 500]),
      memMi: r.pick([128, 256, 512, 1024]),
      sidecar: r.chance(0.4),
      job: r.chance(0.04),
    });
  }
  let placed = 0;
  let cursor = 0;
  for (let w = 0; w < workload; w++) {
    const dep = deployments[w % deployments.length]!;
    const want = dep.cpuMilli + (dep.sidecar ? 100 : 0);
    let node: NodeInfo | undefined;
    if (!r.chance(0.01)) {
      for (let tries = 0; tries < schedulable.length; tries++) {
        const cand = schedulable[cursor++ % schedulable.length]!;
        if (!cand.full && cand.podsUsed < cand.maxPods - 8 && cand.cpuUsed + want <= cand.cpuMilli * 0.85) {
          node = cand;
          break;
        }
      }
    }
    const pod = workloadPod(dep, node, g, podNames);
    const { name, uid } = pod.metadata;
    const ref: Involved = { apiVersion: 'v1', kind: 'Pod', name, namespace: dep.namespace, uid };
    if (node) {
      node.cpuUsed += want;
      node.podsUsed++;
      placed++;
    } else {
      const n = nodes.length;
      const message = `0/${n} nodes are available: ${n} Insufficient memory. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`;
      events.add(ref, 'FailedScheduling', message, 'Warning', 5, 60, 'default-scheduler');
    }
    if (node && r.chance(0.03)) {
      // Normal events of a pod started within the last hour, as the event TTL keeps them.
      const ago = r.int(HOUR);
      const container = { ...ref, fieldPath: 'spec.containers{app}' };
      events.add(
        ref,
        'Scheduled',
        `Successfully assigned ${dep.namespace}/${name} to ${node.name}`,
        'Normal',
        1,
        ago + 4,
        'default-scheduler',
      );
      events.add(
        container,
        'Pulled',
        `Container image "${dep.image}" already present on machine`,
        'Normal',
        1,
        ago + 2,
        'kubelet',
      );
      events.add(container, 'Created', 'Created container: app', 'Normal', 1, ago + 1, 'kubelet');
      events.add(container, 'Started', 'Started container app', 'Normal', 1, ago, 'kubelet');
    }
    emitPod(pod as unknown as Obj);
  }
  for (const n of nodes.filter((x) => x.full)) {
    const filler: Deployment = {
      namespace: 'batch',
      name: `render-${n.podCidr}`,
      rsHash: r.chars(SAFE, 10),
      rsUid: r.uid(),
      image: 'ghcr.io/acme/batch:0.9.12',
      cpuMilli: n.cpuMilli - n.cpuUsed - 50,
      memMi: 1024,
      sidecar: false,
      job: false,
    };
    emitPod(workloadPod(filler, n, g, podNames) as unknown as Obj);
    n.cpuUsed = n.cpuMilli - 50;
  }
  return placed;
}
