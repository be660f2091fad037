// `impact` analysis (src/analyze/impact/): deletion semantics of docs/semantics.md §5 (background,
// foreground, orphan; adoption and the pod-template-generation quirk; drain), the consequences
// per role, Services and webhooks that lose their only backends, budgets, and the risk rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet, Pod, Service, WebhookConfiguration } from '../../src/model/k8s-types.js';
import type { ClusterSnapshot } from '../../src/model/snapshot.js';
import type { DeleteImpact } from '../../src/model/results.js';
import { analyzeImpact, type Cascade } from '../../src/analyze/impact/index.js';
import { NOW, daemonSet, indexOf, node, pod, type DaemonSetBuilder } from '../builders.js';

type Objects = Parameters<typeof indexOf>[0];

function impact(ds: DaemonSet, objects: Objects, cascade: Cascade = 'background'): DeleteImpact {
  return analyzeImpact(
    indexOf({ daemonSets: [ds], ...objects, nodes: objects.nodes ?? [node('n1').build(), node('n2').build()] }),
    ds,
    cascade,
    NOW,
  );
}

function finding(d: DeleteImpact, code: string) {
  return d.findings.find((f) => f.code === code);
}

function daemonPods(ds: DaemonSet, nodes: string[], gen = '1'): Pod[] {
  return nodes.map((n) => pod(`${ds.metadata!.name}-${n}`).ofDaemonSet(ds, n, 'hash1', gen).on(n).ready().build());
}

function appPod(name: string, nodeName: string | undefined, labels: Record<string, string> = {}, ns = 'default'): Pod {
  const p = pod(name, ns)
    .labels(labels)
    .with((x) => {
      x.metadata!.ownerReferences = [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-rs`, uid: `uid-rs-${name}`, controller: true },
      ];
    });
  return (nodeName ? p.on(nodeName).ready() : p).build();
}

function cni(): DaemonSetBuilder {
  return daemonSet('calico-node', 'kube-system')
    .hostNetwork()
    .container({ name: 'calico-node', image: 'docker.io/calico/node:v3.28.1' })
    .with((d) => {
      d.spec!.template!.spec!.priorityClassName = 'system-node-critical';
    });
}

function service(
  name: string,
  selector: Record<string, string>,
  extra: Partial<NonNullable<Service['spec']>> = {},
  ns = 'default',
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns },
    spec: { selector, type: 'ClusterIP', clusterIP: '10.96.0.20', ...extra },
  };
}

test('background: every dependent pod goes at once, with its grace period and the revisions', () => {
  const ds = daemonSet('agent')
    .with((d) => {
      d.spec!.template!.spec!.terminationGracePeriodSeconds = 45;
    })
    .build();
  const pods = daemonPods(ds, ['n1', 'n2']);
  const failed = pod('agent-old').ofDaemonSet(ds, 'n1').on('n1').phase('Failed').build();
  const stranger = pod('other').ofDaemonSet(daemonSet('other').build(), 'n1').on('n1').ready().build();
  const rev = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: 'agent-hash1',
      namespace: 'default',
      ownerReferences: [{ kind: 'DaemonSet', name: 'agent', uid: ds.metadata!.uid!, controller: true }],
    },
    revision: 1,
  };
  const d = impact(ds, { pods: [...pods, failed, stranger], controllerRevisions: [rev] });
  assert.equal(d.pods, 3, 'the Failed pod is a dependent too');
  assert.equal(d.nodes, 2);
  assert.equal(d.revisions, 1);
  const deleted = finding(d, 'PodsDeleted')!;
  assert.match(deleted.message, /deletes all 3 pods on 2 nodes at once, and nothing re-creates them/);
  assert.ok(
    deleted.evidence.includes(
      'each pod gets SIGTERM and up to 45s (terminationGracePeriodSeconds) to stop before SIGKILL',
    ),
  );
  assert.ok(deleted.evidence.includes('the rolling-update budget (maxUnavailable 1) does not apply to deletion'));
  assert.ok(deleted.evidence.some((e) => e.includes('agent-hash1')));
  assert.equal(d.risk, 'low');
  assert.deepEqual(d.riskReasons, [
    {
      risk: 'low',
      reason:
        'nothing found that depends on these pods: no node-agent role, and no Service or webhook backed only by them',
    },
  ]);
});

test('grace periods: the default, zero, and a mix', () => {
  const base = daemonSet('agent').build();
  assert.ok(
    finding(impact(base, { pods: daemonPods(base, ['n1']) }), 'PodsDeleted')!.evidence.includes(
      'each pod gets SIGTERM and up to 30s (terminationGracePeriodSeconds, the default) to stop before SIGKILL',
    ),
  );
  const zero = daemonSet('agent')
    .with((d) => {
      d.spec!.template!.spec!.terminationGracePeriodSeconds = 0;
    })
    .build();
  assert.ok(
    finding(impact(zero, { pods: daemonPods(zero, ['n1']) }), 'PodsDeleted')!.evidence.includes(
      'each pod is killed at once (terminationGracePeriodSeconds 0)',
    ),
  );
  const mixed = daemonPods(base, ['n1', 'n2']);
  mixed[1]!.spec!.terminationGracePeriodSeconds = 60;
  assert.ok(
    finding(impact(base, { pods: mixed }), 'PodsDeleted')!.evidence.includes(
      'each pod gets SIGTERM and up to its terminationGracePeriodSeconds before SIGKILL: 30s (1 pod), 60s (1 pod)',
    ),
  );
});

test('foreground: the DaemonSet waits for its pods, frozen; a pod on a NotReady node keeps it waiting', () => {
  const ds = daemonSet('agent').build();
  const d = impact(
    ds,
    { pods: daemonPods(ds, ['n1', 'n2']), nodes: [node('n1').build(), node('n2').notReady('Unknown').build()] },
    'foreground',
  );
  assert.match(
    finding(d, 'ForegroundDeletion')!.message,
    /deletionTimestamp and the foregroundDeletion finalizer .* status freezes/,
  );
  const stuck = finding(d, 'PodsStuckTerminating')!;
  assert.match(
    stuck.message,
    /^1 pod cannot be confirmed deleted by its kubelet: it stays Terminating .*; the DaemonSet stays in foreground deletion until then$/,
  );
  assert.deepEqual(stuck.evidence, [
    'n2 (Ready=Unknown): agent-n2; force-delete: kubectl delete pod -n default agent-n2 --grace-period=0 --force',
  ]);
  assert.equal(d.cascade, 'foreground');
  assert.equal(d.pods, 2);
});

test('a pod already past its grace period is reported with how long', () => {
  const ds = daemonSet('agent').build();
  const pods = daemonPods(ds, ['n1']);
  pods[0]!.metadata!.deletionTimestamp = new Date(NOW.getTime() - 5 * 60000).toISOString();
  assert.deepEqual(finding(impact(ds, { pods }), 'PodsStuckTerminating')!.evidence, [
    'n1: agent-n1 already past its grace period by 5m',
  ]);
});

test("orphan: nothing is deleted, risk low, drain refuses the pods with kubectl's own message", () => {
  const ds = cni().build();
  const pods = daemonPods(ds, ['n1', 'n2']);
  pods[1]!.spec!.volumes = [{ name: 'tmp', emptyDir: {} }];
  const d = impact(ds, { pods: [...pods, appPod('web', 'n1')] }, 'orphan');
  assert.equal(d.pods, 0);
  assert.equal(d.nodes, 0);
  assert.equal(d.risk, 'low');
  assert.deepEqual(d.riskReasons, [
    { risk: 'low', reason: '--cascade=orphan deletes no pod: 2 pods keep running, unmanaged' },
  ]);
  const orphaned = finding(d, 'PodsOrphaned')!;
  assert.match(orphaned.message, /removes the ownerReference from 2 pods on 2 nodes/);
  assert.ok(
    orphaned.evidence.includes(
      'a plain delete (--cascade=background) would be critical: node networking (CNI agent) on 2 nodes, 1 pod on the pod network there',
    ),
  );
  assert.ok(
    orphaned.evidence.includes('nodes that join later get no CNI agent, so pods on the pod network cannot start there'),
  );
  assert.deepEqual(finding(d, 'DrainRefusesOrphans')!.evidence, [
    'kubectl drain n1 --ignore-daemonsets → error: unable to drain node "n1" due to error: cannot delete cannot delete Pods that declare no controller (use --force to override): kube-system/calico-node-n1, continuing command...',
    'kubectl drain n2 --ignore-daemonsets → error: unable to drain node "n2" due to error: cannot delete Pods with local storage (use --delete-emptydir-data to override): kube-system/calico-node-n2, continuing command...',
  ]);
  assert.equal(finding(d, 'NodeNetworkingLost'), undefined, 'nothing goes away, so no role consequence');
});

test('orphan: the pod-template-generation quirk, and the annotation value that avoids it', () => {
  const ds = daemonSet('agent').generation(3).build();
  const pods = [...daemonPods(ds, ['n1'], '1'), ...daemonPods(ds, ['n2'], '3')];
  const d = impact(ds, { pods }, 'orphan');
  const quirk = finding(d, 'AdoptionTemplateGeneration')!;
  assert.equal(quirk.severity, 'warning');
  assert.ok(quirk.evidence.includes('pod-template-generation of the pods: 1 (1 pod), 3 (1 pod)'));
  assert.ok(
    quirk.evidence.includes(
      'a DaemonSet created fresh starts at template generation 1: the 1 pod with pod-template-generation 1 would count as updated whatever its template, and never be rolled',
    ),
  );
  assert.ok(
    quirk.evidence.includes(
      're-applying this DaemonSet\'s own manifest keeps deprecated.daemonset.template.generation "3", which the 1 pod with that generation match',
    ),
  );
  assert.ok(quirk.evidence.some((e) => e.includes('deprecated.daemonset.template.generation: "4"')));
  assert.match(
    d.plans![0]!.commands[0]!,
    /\.metadata\.annotations\["deprecated\.daemonset\.template\.generation"\] = "4"/,
  );
  assert.deepEqual(d.plans![0]!.commands.slice(1), [
    'kubectl delete daemonset -n default agent --cascade=orphan',
    'kubectl create -f agent.json',
  ]);
});

test('network: pods on the pod network per node; hostNetwork pods are spared; critical', () => {
  const ds = cni().build();
  const hostNet = appPod('proxy', 'n1');
  hostNet.spec!.hostNetwork = true;
  const d = impact(ds, {
    pods: [
      ...daemonPods(ds, ['n1', 'n2']),
      appPod('web', 'n1'),
      appPod('db', 'n2'),
      hostNet,
      appPod('pending', undefined),
    ],
  });
  assert.deepEqual(d.roles, ['network']);
  const lost = finding(d, 'NodeNetworkingLost')!;
  assert.equal(lost.severity, 'error');
  assert.deepEqual(lost.evidence.slice(0, 2), [
    'n1: 1 pod on the pod network (default/web)',
    'n2: 1 pod on the pod network (default/db)',
  ]);
  assert.equal(d.risk, 'critical');
  assert.deepEqual(
    d.riskReasons!.map((r) => r.risk),
    ['critical', 'high', 'high'],
  );
  assert.match(d.riskReasons![1]!.reason, /^priorityClassName system-node-critical/);
  assert.equal(d.riskReasons![2]!.reason, 'runs in kube-system, the namespace of cluster components');
  assert.deepEqual(
    d.findings.map((f) => f.severity),
    [...d.findings.map((f) => f.severity)].sort(
      (a, b) => ['error', 'warning', 'info'].indexOf(a) - ['error', 'warning', 'info'].indexOf(b),
    ),
  );
});

test('service proxy: Services by type, and load balancers with externalTrafficPolicy: Local', () => {
  const ds = daemonSet('kube-proxy', 'kube-system')
    .hostNetwork()
    .container({ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.34.2' })
    .build();
  const services = [
    service('web', { app: 'web' }),
    service('db', { app: 'db' }, { clusterIP: 'None' }),
    service('ext', {}, { type: 'ExternalName' }),
    service('shop', { app: 'web' }, { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }),
  ];
  const d = impact(ds, { pods: daemonPods(ds, ['n1']), services });
  assert.equal(d.risk, 'critical');
  assert.deepEqual(finding(d, 'ServiceRoutingFrozen')!.evidence.slice(0, 2), [
    '2 Services routed through it: 1 ClusterIP, 1 LoadBalancer',
    'reached from outside through these nodes: default/shop',
  ]);
  assert.equal(
    finding(d, 'LoadBalancerHealthChecksFail')!.evidence[0],
    'default/shop (LoadBalancer, externalTrafficPolicy: Local)',
  );
});

test('storage: an inline CSI volume of its driver is certain; claims count when no other driver is known', () => {
  const ds = daemonSet('csi-node', 'kube-system')
    .hostNetwork()
    .with((d) => {
      d.spec!.template!.spec!.volumes = [
        { name: 'p', hostPath: { path: '/var/lib/kubelet/plugins/secrets-store.csi.k8s.io' } },
      ];
    })
    .build();
  const inline = appPod('vault-reader', 'n1');
  inline.spec!.volumes = [{ name: 'secrets', csi: { driver: 'secrets-store.csi.k8s.io' } }];
  const claim = appPod('db', 'n2');
  claim.spec!.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db' } }];
  const csiDriver = (name: string) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name } });

  const only = impact(ds, {
    pods: [...daemonPods(ds, ['n1', 'n2']), inline, claim],
    csiDrivers: [csiDriver('secrets-store.csi.k8s.io')],
  });
  assert.equal(only.risk, 'critical');
  assert.deepEqual(finding(only, 'VolumeOperationsStop')!.evidence, [
    'n1: default/vault-reader (inline CSI volume secrets (secrets-store.csi.k8s.io))',
    'n2: default/db (claim data-db)',
  ]);
  assert.match(
    only.riskReasons![0]!.reason,
    /^storage: 2 pods on these nodes use volumes of CSI driver secrets-store\.csi\.k8s\.io$/,
  );
  assert.ok(
    only.notChecked.some((n) =>
      n.includes('counted against CSI driver secrets-store.csi.k8s.io, the only CSI driver in the input'),
    ),
  );

  // Another driver in the cluster: the claim may be there; the inline volume is still certain.
  const two = impact(ds, {
    pods: [...daemonPods(ds, ['n1', 'n2']), inline, claim],
    csiDrivers: [csiDriver('secrets-store.csi.k8s.io'), csiDriver('ebs.csi.aws.com')],
  });
  assert.match(two.riskReasons![0]!.reason, /^storage: 1 pod on these nodes uses volumes/);
  assert.ok(two.notChecked.some((n) => n.endsWith('claims may also be on ebs.csi.aws.com')));
  const claimsOnly = impact(ds, {
    pods: [...daemonPods(ds, ['n1', 'n2']), claim],
    csiDrivers: [csiDriver('secrets-store.csi.k8s.io'), csiDriver('ebs.csi.aws.com')],
  });
  assert.equal(claimsOnly.risk, 'high');

  const unused = impact(ds, {
    pods: daemonPods(ds, ['n1', 'n2']),
    csiDrivers: [csiDriver('secrets-store.csi.k8s.io')],
  });
  assert.deepEqual(
    unused.riskReasons!.map((r) => r.risk),
    ['high', 'medium'],
    'kube-system is high; an unused driver medium',
  );
});

test("device plugin: the vendor's extended resource, running and pending consumers", () => {
  const ds = daemonSet('nvidia-device-plugin', 'gpu')
    .container({ name: 'nvidia-device-plugin', image: 'nvcr.io/nvidia/k8s-device-plugin:v0.16.2' })
    .with((d) => {
      d.spec!.template!.spec!.volumes = [{ name: 'dp', hostPath: { path: '/var/lib/kubelet/device-plugins' } }];
    })
    .build();
  const nodes = [
    node('g1').allocatable({ 'nvidia.com/gpu': '4', 'example.com/fpga': '2' }).build(),
    node('g2').allocatable({ 'nvidia.com/gpu': '4' }).build(),
  ];
  const train = pod('train', 'ml')
    .on('g1')
    .ready()
    .with((p) => {
      p.spec!.containers![0]!.resources = { limits: { 'nvidia.com/gpu': '2' } };
    })
    .build();
  const waiting = pod('wait', 'ml')
    .with((p) => {
      p.spec!.containers![0]!.resources = { limits: { 'nvidia.com/gpu': '4' } };
    })
    .build();
  const fpga = pod('fpga', 'ml')
    .on('g1')
    .ready()
    .with((p) => {
      p.spec!.containers![0]!.resources = { limits: { 'example.com/fpga': '1' } };
    })
    .build();
  const d = impact(ds, { nodes, pods: [...daemonPods(ds, ['g1', 'g2']), train, waiting, fpga] });
  assert.equal(d.risk, 'high');
  const lost = finding(d, 'ExtendedResourceLost')!;
  assert.match(
    lost.message,
    /^nvidia\.com\/gpu stops being advertised on 2 nodes: .* allocatable nvidia\.com\/gpu drops to 0.*; 1 running pod keeps the devices it has, 1 pending pod will not schedule/,
  );
  assert.deepEqual(lost.evidence, [
    'nvidia.com/gpu (its image or name names the vendor): g1: 4, g2: 4',
    'g1: ml/train requests nvidia.com/gpu: 2 (keeps its devices while it runs)',
    'ml/wait requests nvidia.com/gpu: 4 (not scheduled yet: will not schedule on these nodes)',
  ]);
  const idle = impact(ds, { nodes, pods: daemonPods(ds, ['g1', 'g2']) });
  assert.equal(idle.risk, 'medium');
});

test('logging, monitoring, security and DNS roles set their risk', () => {
  const logging = daemonSet('fluent-bit', 'logging').container({ name: 'fb', image: 'fluent/fluent-bit:3.0' }).build();
  const l = impact(logging, { pods: [...daemonPods(logging, ['n1']), appPod('web', 'n1')] });
  assert.equal(l.risk, 'medium');
  assert.match(finding(l, 'LogsNotCollected')!.message, /what 1 pod there writes in the gap is shipped later only if/);
  const sec = daemonSet('falco', 'falco').container({ name: 'falco', image: 'falcosecurity/falco:0.38.2' }).build();
  assert.equal(impact(sec, { pods: daemonPods(sec, ['n1']) }).risk, 'medium');
  const dns = daemonSet('node-local-dns', 'dns')
    .container({ name: 'c', image: 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.1' })
    .build();
  assert.equal(impact(dns, { pods: daemonPods(dns, ['n1']) }).risk, 'high');
});

test('Services: losing every endpoint, keeping some, and losing local ones under a Local policy', () => {
  const ds = daemonSet('exporter', 'mon').build();
  const pods = daemonPods(ds, ['n1', 'n2']);
  const other = appPod('exporter-extra', 'n1', { app: 'exporter' }, 'mon');
  const onlyOurs = service('metrics', { app: 'exporter' }, {}, 'mon');
  const lb = service('public', { app: 'exporter' }, { type: 'LoadBalancer' }, 'mon');
  const d = impact(ds, { pods, services: [onlyOurs, lb] });
  assert.equal(finding(d, 'ServiceLosesAllEndpoints')!.severity, 'error', 'the LoadBalancer sorts first');
  assert.deepEqual(
    d.findings.filter((f) => f.code === 'ServiceLosesAllEndpoints').map((f) => f.message.split(' (')[0]),
    ['Service mon/public', 'Service mon/metrics'],
  );
  assert.equal(d.risk, 'high');

  const kept = impact(ds, { pods: [...pods, other], services: [onlyOurs] });
  assert.equal(finding(kept, 'ServiceLosesAllEndpoints'), undefined);
  const local = impact(ds, {
    pods: [...pods, other],
    services: [service('node-local', { app: 'exporter' }, { internalTrafficPolicy: 'Local' }, 'mon')],
  });
  const f = finding(local, 'ServiceLosesLocalEndpoints')!;
  assert.match(
    f.message,
    /internalTrafficPolicy: Local, so on 1 node where only these pods served it, traffic from pods on those nodes is dropped/,
  );
  assert.deepEqual(f.evidence, ['nodes: n2']);
});

function webhookConfig(
  kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration',
  failurePolicy: string | undefined,
  extra: Partial<NonNullable<WebhookConfiguration['webhooks']>[number]> = {},
): WebhookConfiguration {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name: 'guard' },
    webhooks: [
      { name: 'unrelated.example.com', clientConfig: { url: 'https://example.com' } },
      {
        name: 'pods.guard.example.com',
        clientConfig: { service: { namespace: 'guard', name: 'guard' } },
        ...(failurePolicy ? { failurePolicy } : {}),
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
        ...extra,
      },
    ],
  };
}

test('webhooks: fail-closed (the default) is critical and can block its own recovery; fail-open is medium', () => {
  const ds = daemonSet('guard', 'guard').build();
  const objects = { pods: daemonPods(ds, ['n1']), services: [service('guard', { app: 'guard' }, {}, 'guard')] };
  const closed = impact(ds, {
    ...objects,
    validatingWebhooks: [webhookConfig('ValidatingWebhookConfiguration', undefined)],
  });
  assert.equal(closed.risk, 'critical');
  const f = finding(closed, 'WebhookFailClosed')!;
  assert.ok(
    f.evidence.includes(
      'ValidatingWebhookConfiguration guard, webhook pods.guard.example.com: failurePolicy Fail (the default)',
    ),
  );
  assert.ok(f.evidence.includes('intercepts: CREATE pods in every namespace'));
  assert.match(finding(closed, 'WebhookBlocksRecovery')!.message, /intercepts CREATE of pods in namespace guard/);
  assert.equal(
    closed.plans![0]!.commands[0],
    'kubectl patch validatingwebhookconfiguration guard --type json -p \'[{"op":"replace","path":"/webhooks/1/failurePolicy","value":"Ignore"}]\'',
  );
  assert.match(closed.alternatives[0]!, /^Relax admission webhook "pods\.guard\.example\.com" first/);

  const exempt = impact(ds, {
    ...objects,
    validatingWebhooks: [
      webhookConfig('ValidatingWebhookConfiguration', 'Fail', {
        namespaceSelector: {
          matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['guard'] }],
        },
      }),
    ],
  });
  assert.ok(finding(exempt, 'WebhookFailClosed'));
  assert.equal(finding(exempt, 'WebhookBlocksRecovery'), undefined, 'its own namespace is exempt');

  const open = impact(ds, { ...objects, mutatingWebhooks: [webhookConfig('MutatingWebhookConfiguration', 'Ignore')] });
  assert.match(finding(open, 'WebhookSkipped')!.message, /its mutations are not applied/);
  assert.deepEqual(
    open.riskReasons!.map((r) => r.risk),
    ['medium', 'medium'],
  );

  // Another backend for the Service: the webhook keeps working.
  const backed = impact(ds, {
    pods: [...daemonPods(ds, ['n1']), appPod('guard-standby', 'n2', { app: 'guard' }, 'guard')],
    services: objects.services,
    validatingWebhooks: [webhookConfig('ValidatingWebhookConfiguration', 'Fail')],
  });
  assert.equal(finding(backed, 'WebhookFailClosed'), undefined);
});

test('a PodDisruptionBudget that selects the pods is reported as not applying to deletion', () => {
  const ds = daemonSet('cache', 'shop').build();
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'cache', namespace: 'shop' },
    spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'cache' } } },
  };
  const d = impact(ds, { pods: daemonPods(ds, ['n1', 'n2']), podDisruptionBudgets: [pdb] });
  const f = finding(d, 'PdbDoesNotApply')!;
  assert.equal(f.severity, 'info');
  assert.match(
    f.message,
    /^PodDisruptionBudget shop\/cache selects 2 of these pods but does not protect them here: budgets only guard evictions/,
  );
  assert.deepEqual(f.evidence, ['selector app=cache, maxUnavailable 1']);
  assert.equal(d.risk, 'low');
});

test('kinds missing from the input are listed as not checked', () => {
  const ds = daemonSet('agent').build();
  const missing: ClusterSnapshot['missing'] = [
    'Service',
    'PodDisruptionBudget',
    'ValidatingWebhookConfiguration',
    'MutatingWebhookConfiguration',
  ].map((kind) => ({
    kind: kind as ClusterSnapshot['missing'][number]['kind'],
    reason: 'absent' as const,
  }));
  const d = impact(ds, { pods: daemonPods(ds, ['n1']), missing });
  assert.deepEqual(d.notChecked, [
    'Services that would lose all their endpoints (no Service objects in the input)',
    'admission webhooks served by these pods (no ValidatingWebhookConfiguration or MutatingWebhookConfiguration objects in the input)',
    'PodDisruptionBudgets that select these pods, which would not protect them from deletion anyway (no PodDisruptionBudget objects in the input)',
  ]);
  assert.match(d.riskReasons![0]!.reason, /\(within what the input allows to check\)$/);
});

test('a DaemonSet without pods removes nothing', () => {
  const ds = cni().build();
  const d = impact(ds, { pods: [] });
  assert.equal(d.pods, 0);
  assert.equal(d.risk, 'low');
  assert.deepEqual(d.riskReasons, [{ risk: 'low', reason: 'no running pod goes away' }]);
  assert.equal(finding(d, 'NoPods')!.message, 'the DaemonSet has no pods: deleting it removes no pod');
});

test('the canary is a Ready worker with the fewest other pods, never a control-plane node', () => {
  const ds = daemonSet('agent').build();
  const nodes = [
    node('a-cp').label('node-role.kubernetes.io/control-plane', '').build(),
    node('b-busy').build(),
    node('c-down').notReady().build(),
    node('d-quiet').build(),
  ];
  const d = impact(ds, {
    nodes,
    pods: [...daemonPods(ds, ['a-cp', 'b-busy', 'c-down', 'd-quiet']), appPod('web', 'b-busy')],
  });
  const canary = d.plans!.find((p) => p.summary.startsWith('Narrow the nodeSelector'))!;
  assert.deepEqual(canary.commands, [
    'kubectl patch daemonset -n default agent --type merge -p \'{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}\'',
    'kubectl label nodes --all ds-doctor/agent=keep',
    'kubectl label node d-quiet ds-doctor/agent-',
    'kubectl patch daemonset -n default agent --type merge -p \'{"spec":{"template":{"spec":{"nodeSelector":{"ds-doctor/agent":"keep"}}}}}\'',
  ]);
  const onDelete = d.plans!.find((p) => p.summary.startsWith('Switch to OnDelete'))!;
  assert.equal(onDelete.commands[1], 'kubectl delete pod -n default agent-d-quiet');
  assert.deepEqual(
    d.alternatives,
    d.plans!.map((p) => p.summary),
  );
});
