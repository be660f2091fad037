// The cause engine (src/analyze/causes/): each chain links a symptom in one object to its cause in
// another, and stays silent where the evidence is not there. Cases are built in the shape of real
// incidents: the CNI not-ready deadlock (cloudnativelabs/kube-router#547), a feature-discovery
// labeller kept off tainted GPU nodes by a toleration with the wrong value (the NVIDIA device
// plugin selects feature.node.kubernetes.io/pci-10de.present, which node-feature-discovery writes),
// a mutating webhook that injects a mount (FailedCreate "Pod … is invalid"), an image without an
// arm64 build, a rollout held by dead nodes (kubernetes/kubernetes#63465), and the stale
// numberAvailable of kubernetes/kubernetes#77203.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { causesOf, causesOnNode } from '../../src/analyze/causes/index.js';
import { exitMeaning } from '../../src/analyze/exit-codes.js';
import { scan } from '../../src/analyze/scan.js';
import type { DaemonSet, LabelSelector, Node, Pod, WebhookConfiguration } from '../../src/model/k8s-types.js';
import type { RootCause } from '../../src/model/results.js';
import { NOW, daemonSet, event, indexOf, node, pod } from '../builders.js';

const CNI_MESSAGE =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

const cni = (tolerations: { key?: string; operator?: string; effect?: string }[] = []) =>
  daemonSet('calico-node', 'kube-system')
    .hostNetwork()
    .tolerate(...tolerations)
    .with((d) => {
      d.spec!.template!.spec!.volumes = [{ name: 'cni-net-dir', hostPath: { path: '/etc/cni/net.d' } }];
    })
    .build();
const app = daemonSet('fluent-bit', 'logging').build();
const ready = (ds: DaemonSet, n: string) =>
  pod(`${ds.metadata!.name}-${n}`, ds.metadata!.namespace).ofDaemonSet(ds, n).on(n).ready().build();
const creating = (ds: DaemonSet, n: string) =>
  pod(`${ds.metadata!.name}-${n}`, ds.metadata!.namespace)
    .ofDaemonSet(ds, n)
    .on(n)
    .waiting('ContainerCreating')
    .build();

function codes(causes: RootCause[]): string[] {
  return causes.map((c) => c.code);
}

test('network: a pod stuck creating on a node whose CNI agent is kept off by the not-ready taint names the agent', () => {
  const agent = cni();
  const nodes = [
    node('n1').build(),
    node('n2').notReady('False', CNI_MESSAGE).taint('node.kubernetes.io/not-ready', undefined, 'NoSchedule').build(),
  ];
  const events = [event('Pod', creating(app, 'n2'), 'NetworkNotReady', `network is not ready: ${CNI_MESSAGE}`)];
  const index = indexOf({
    nodes,
    daemonSets: [agent, app],
    pods: [ready(agent, 'n1'), ready(app, 'n1'), creating(app, 'n2')],
    events,
  });
  const causes = causesOnNode(index, [app], 'n2', { now: NOW });
  assert.deepEqual(codes(causes), ['NetworkAgentNotRunning']);
  assert.equal(causes[0]!.cause.name, 'calico-node');
  assert.deepEqual(causes[0]!.nodes, ['n2']);
  assert.match(
    causes[0]!.summary,
    /^n2: network not ready → calico-node has no pod there \(untolerated taint node\.kubernetes\.io\/not-ready:NoSchedule\) → affects fluent-bit$/,
  );
  // The fix appends a toleration with a JSON patch (a strategic merge would replace the list).
  assert.match(
    causes[0]!.fix,
    /kubectl patch daemonset calico-node -n kube-system --type json -p '\[\{"op":"add","path":"\/spec\/template\/spec\/tolerations(\/-)?"/,
  );
  // scan groups it: one cause, the agent and the DaemonSet it affects.
  const report = scan(index, [agent, app], NOW, 'all namespaces');
  assert.equal(report.causes.filter((c) => c.code === 'NetworkAgentNotRunning').length, 1);
});

test('network: a node NotReady for another reason (kubelet stopped posting) links no network agent', () => {
  const agent = cni();
  const nodes = [node('n1').build(), node('n2').notReady('Unknown', 'Kubelet stopped posting node status.').build()];
  const index = indexOf({
    nodes,
    daemonSets: [agent, app],
    pods: [ready(agent, 'n1'), ready(app, 'n1'), ready(agent, 'n2'), creating(app, 'n2')],
  });
  const causes = causesOnNode(index, [app], 'n2', { now: NOW });
  assert.ok(!causes.some((c) => c.code.startsWith('Network') || c.code === 'NoNetworkAgent'), JSON.stringify(causes));
  // What it is instead: an unreachable node that kubectl rollout status waits for.
  assert.deepEqual(codes(causes), ['BudgetHeldByDeadNodes']);
  assert.match(
    causes[0]!.fix,
    /^the template is not the cause: recover n2; if the machines are gone for good: kubectl delete node n2/,
  );
});

test('network: NetworkNotReadyAgentRunning: the agent Ready on the node while the runtime says the network is not ready points at the host', () => {
  const agent = cni();
  const nodes = [node('n2').notReady('False', CNI_MESSAGE).build()];
  const index = indexOf({ nodes, daemonSets: [agent, app], pods: [ready(agent, 'n2'), creating(app, 'n2')] });
  const causes = causesOnNode(index, [app], 'n2', { now: NOW });
  assert.deepEqual(codes(causes), ['NetworkNotReadyAgentRunning']);
  assert.match(causes[0]!.fix, /kubectl logs -n kube-system calico-node-n2 --all-containers/);
});

// Labels: the NVIDIA device plugin's affinity and node-feature-discovery's toleration.
const GPU_KEY = 'feature.node.kubernetes.io/pci-10de.present';
const devicePlugin = daemonSet('nvidia-device-plugin', 'kube-system')
  .tolerate({ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' })
  .affinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: GPU_KEY, operator: 'In', values: ['true'] }] }] })
  .with((d) => {
    d.spec!.template!.spec!.volumes = [{ name: 'dp', hostPath: { path: '/var/lib/kubelet/device-plugins' } }];
  })
  .build();
const nfd = (value: string) =>
  daemonSet('nfd-worker', 'node-feature-discovery')
    .tolerate({ key: 'nvidia.com/gpu', operator: 'Equal', value, effect: 'NoSchedule' })
    .container({ name: 'worker', image: 'registry.k8s.io/nfd/node-feature-discovery:v0.16.4' })
    .build();
const gpuNode = (name: string, labelled: boolean) => {
  const b = node(name).taint('nvidia.com/gpu', 'present', 'NoSchedule');
  return (labelled ? b.label(GPU_KEY, 'true') : b).build();
};

test('labels: a device plugin at 0/0 because the labeller has the right toleration key and the wrong value', () => {
  const labeller = nfd('true');
  const nodes = [node('cpu-1').build(), gpuNode('gpu-1', false), gpuNode('gpu-2', false)];
  const index = indexOf({ nodes, daemonSets: [devicePlugin, labeller], pods: [ready(labeller, 'cpu-1')] });
  const causes = causesOf(index, [devicePlugin], { now: NOW });
  assert.equal(causes[0]!.code, 'LabellerNotRunning');
  assert.deepEqual(causes[0]!.nodes, ['gpu-1', 'gpu-2']);
  assert.equal(causes[0]!.cause.name, 'nfd-worker');
  assert.match(
    causes[0]!.summary,
    /no node carries label feature\.node\.kubernetes\.io\/pci-10de\.present → nfd-worker writes it/,
  );
  assert.match(
    causes[0]!.summary,
    /near miss: toleration \{key: nvidia\.com\/gpu, operator: Equal, value: "true", effect: NoSchedule\} has the taint's key but value "true" where the taint has "present"/,
  );
  // A node agent that selects no node is not Healthy in scan.
  const entry = scan(index, [devicePlugin, labeller], NOW, 'all namespaces').daemonSets.find(
    (d) => d.name === 'nvidia-device-plugin',
  )!;
  assert.equal(entry.health, 'Degraded');
  assert.ok(entry.problems.includes('LabellerNotRunning'));
});

test('labels: with the labeller tolerating the taint and the nodes labelled, nothing is linked', () => {
  const labeller = nfd('present');
  const nodes = [node('cpu-1').build(), gpuNode('gpu-1', true)];
  const index = indexOf({
    nodes,
    daemonSets: [devicePlugin, labeller],
    pods: [ready(labeller, 'cpu-1'), ready(labeller, 'gpu-1'), ready(devicePlugin, 'gpu-1')],
  });
  assert.deepEqual(codes(causesOf(index, [devicePlugin], { now: NOW })), []);
});

test('selects no node: an application DaemonSet that selects no node is a choice, not a failure', () => {
  const plain = daemonSet('web-cache', 'default').nodeSelector({ pool: 'cache' }).build();
  const index = indexOf({ nodes: [node('n1').build()], daemonSets: [plain], pods: [] });
  assert.deepEqual(codes(causesOf(index, [plain], { now: NOW })), []);
  assert.equal(scan(index, [plain], NOW, 'all namespaces').daemonSets[0]!.health, 'Healthy');
});

// Admission: a FailedCreate at a mount the template lacks, and the webhook that injects it.
const webhook = (namespaceSelector?: LabelSelector): WebhookConfiguration => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  metadata: { name: 'istio-sidecar-injector' },
  webhooks: [
    {
      name: 'sidecar-injector.istio.io',
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      ...(namespaceSelector ? { namespaceSelector } : {}),
    },
  ],
});

function invalidCase(message: string, hooks: WebhookConfiguration[]) {
  const ds = daemonSet('node-agent', 'apps').build();
  const index = indexOf({
    nodes: [node('n1').build()],
    daemonSets: [ds],
    pods: [],
    events: [event('DaemonSet', ds, 'FailedCreate', message)],
    mutatingWebhooks: hooks,
  });
  return causesOf(index, [ds], { now: NOW });
}

test('admission: FailedCreate at a volume mount the template lacks names the mutating webhook that matches pod CREATE', () => {
  const causes = invalidCase(
    'Error creating: Pod "node-agent-x2z9k" is invalid: spec.containers[1].volumeMounts[2].name: Not found: "istio-envoy"',
    [webhook()],
  );
  assert.deepEqual(codes(causes), ['WebhookInjectedField']);
  assert.deepEqual(causes[0]!.cause, { kind: 'MutatingWebhookConfiguration', name: 'istio-sidecar-injector' });
  assert.match(causes[0]!.fix, /^the template is not what is wrong/);
});

test('admission: a webhook whose namespaceSelector leaves the namespace out is not named', () => {
  const causes = invalidCase(
    'Error creating: Pod "node-agent-x2z9k" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "istio-envoy"',
    [webhook({ matchLabels: { 'istio-injection': 'enabled' } })],
  );
  assert.deepEqual(codes(causes), []);
});

test('admission: an invalid pod at a volume the template has is the template’s own fault', () => {
  const causes = invalidCase(
    'Error creating: Pod "node-agent-x2z9k" is invalid: spec.containers[0].image: Required value',
    [webhook()],
  );
  assert.deepEqual(codes(causes), []);
});

// An image without an arm64 build: pods crash on exactly the arm64 nodes.
function archCase(arches: string[], crashing: string[]) {
  const ds = daemonSet('log-agent', 'logging').container({ name: 'agent', image: 'example.com/log-agent:1.2' }).build();
  const nodes: Node[] = arches.map((a, i) => node(`n${i}`).label('kubernetes.io/arch', a).build());
  const pods: Pod[] = nodes.map((n) => {
    const name = n.metadata!.name!;
    const b = pod(`log-agent-${name}`, 'logging').ofDaemonSet(ds, name).on(name);
    return crashing.includes(name)
      ? b
          .waiting('CrashLoopBackOff', 'back-off 5m0s', {
            restartCount: 9,
            lastTerminated: { reason: 'Error', exitCode: 1 },
          })
          .created(3600)
          .build()
      : b.ready().build();
  });
  return causesOf(indexOf({ nodes, daemonSets: [ds], pods }), [ds], { now: NOW });
}

test('node attribute: pods crash on exactly the arm64 nodes', () => {
  const causes = archCase(['amd64', 'arm64', 'amd64', 'arm64'], ['n1', 'n3']);
  const split = causes.find((c) => c.code === 'NodeAttributeSplit')!;
  assert.ok(split, JSON.stringify(causes));
  assert.deepEqual(split.nodes, ['n1', 'n3']);
  assert.match(split.summary, /exactly the architecture arm64 node\(s\) and run on amd64/);
});

test('node attribute: one crash among nodes of one architecture splits nothing', () => {
  assert.ok(!archCase(['amd64', 'amd64', 'amd64'], ['n1']).some((c) => c.code === 'NodeAttributeSplit'));
});

const exitCases = [
  { code: 136, reason: 'Error', want: /^SIGFPE: arithmetic error/ },
  { code: 139, reason: 'Error', want: /^SIGSEGV/ },
  { code: 132, reason: 'Error', want: /^SIGILL: illegal instruction/ },
  { code: 134, reason: 'Error', want: /^SIGABRT/ },
  { code: 143, reason: 'Error', want: /^SIGTERM/ },
  { code: 137, reason: 'Error', want: /^SIGKILL: killed from outside, not for memory/ },
  { code: 137, reason: 'OOMKilled', want: undefined },
  { code: 127, reason: 'ContainerCannotRun', want: /not found in the image/ },
  { code: 126, reason: 'ContainerCannotRun', want: /cannot be executed/ },
  { code: 1, reason: 'Error', want: undefined },
];
for (const c of exitCases) {
  test(`exit code ${c.code} (${c.reason}) is decoded`, () => {
    const m = exitMeaning({ exitCode: c.code, reason: c.reason });
    if (c.want) assert.match(m ?? '', c.want);
    else assert.equal(m, undefined);
  });
}

test('exit: "exec format error" reads as an architecture mismatch', () => {
  assert.match(
    exitMeaning({ exitCode: 1, reason: 'StartError', message: 'exec /usr/bin/agent: exec format error' }) ?? '',
    /another CPU architecture/,
  );
});

// kubernetes/kubernetes#77203: with minReadySeconds, .status.numberAvailable stays stale before v1.15.0.
function staleCase(kubelet: string) {
  const ds = daemonSet('monitor', 'monitoring')
    .with((d) => {
      d.spec!.minReadySeconds = 10;
      d.status = {
        currentNumberScheduled: 2,
        desiredNumberScheduled: 2,
        numberReady: 2,
        numberAvailable: 1,
        numberMisscheduled: 0,
        updatedNumberScheduled: 2,
        observedGeneration: 1,
      };
    })
    .build();
  const nodes = ['a', 'b'].map((n) => {
    const b = node(n).build();
    b.status!.nodeInfo = { kubeletVersion: kubelet };
    return b;
  });
  return causesOf(indexOf({ nodes, daemonSets: [ds], pods: [ready(ds, 'a'), ready(ds, 'b')] }), [ds], { now: NOW });
}

test('known bug: KnownUpstreamBug: stale numberAvailable with minReadySeconds on v1.14 points at kubernetes#77203', () => {
  const causes = staleCase('v1.14.3');
  const bug = causes.find((c) => c.code === 'KnownUpstreamBug');
  assert.ok(bug, JSON.stringify(causes));
  assert.match(bug.reference ?? '', /#77208 in v1\.15\.0/);
});

test('known bug: the same status on v1.15.0 names no bug', () => {
  assert.ok(!staleCase('v1.15.0').some((c) => c.code === 'KnownUpstreamBug'));
});

test('network: NoNetworkAgent: network not ready and no network agent in the input, said as such', () => {
  const nodes = [node('n2').notReady('False', CNI_MESSAGE).build()];
  const index = indexOf({ nodes, daemonSets: [app], pods: [creating(app, 'n2')] });
  const causes = causesOnNode(index, [app], 'n2', { now: NOW });
  assert.deepEqual(codes(causes), ['NoNetworkAgent']);
  // A partial (live, one node) snapshot names nothing it cannot see.
  assert.deepEqual(codes(causesOnNode(index, [app], 'n2', { now: NOW, partial: true })), []);
});

test('labels: LabelNotWritten: the labeller runs on the nodes but no node carries the label', () => {
  const labeller = nfd('present');
  const nodes = [gpuNode('gpu-1', false), gpuNode('gpu-2', false)];
  const index = indexOf({
    nodes,
    daemonSets: [devicePlugin, labeller],
    pods: [ready(labeller, 'gpu-1'), ready(labeller, 'gpu-2')],
  });
  const causes = causesOf(index, [devicePlugin], { now: NOW });
  assert.deepEqual(codes(causes), ['LabelNotWritten'], 'the label chain, not a bare "selects no node" beside it');
  assert.match(causes[0]!.fix, /kubectl logs -n node-feature-discovery ds\/nfd-worker/);
});

test('dead nodes: a rollout held by an old pod on a NotReady node without taints says no taint keeps the DaemonSet off it, not that it tolerates the taints (kubernetes/kubernetes#63465)', () => {
  const ds = daemonSet('agent', 'ops').build();
  ds.metadata!.generation = 2;
  ds.metadata!.annotations = { 'deprecated.daemonset.template.generation': '2' };
  ds.status = { observedGeneration: 2, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2 };
  const at = (n: string, gen: string) => pod(`agent-${n}`, 'ops').ofDaemonSet(ds, n, `h${gen}`, gen).on(n);
  const index = indexOf({
    nodes: [
      node('n1').build(),
      node('n2').notReady('Unknown', 'Kubelet stopped posting node status.').build(),
      node('n3').build(),
    ],
    daemonSets: [ds],
    pods: [at('n1', '2').ready().build(), at('n2', '1').build(), at('n3', '1').ready().build()],
  });
  const causes = causesOf(index, [ds], { now: NOW });
  const held = causes.find((c) => c.code === 'BudgetHeldByDeadNodes');
  assert.ok(held, JSON.stringify(codes(causes)));
  assert.ok(
    held.evidence.includes(
      'deleting their pods does not help: no taint keeps the DaemonSet off these nodes, so the controller creates the pods again on n2',
    ),
    held.evidence.join('\n'),
  );
});

test('SelectsNoNode: a log agent whose nodeSelector no node matches names the nearest miss', () => {
  const agent = daemonSet('fluent-bit', 'logging')
    .container({ name: 'fluent-bit', image: 'fluent/fluent-bit:3.0' })
    .nodeSelector({ 'node-role.example.com/logging': 'true' })
    .build();
  const index = indexOf({ nodes: [node('n1').build(), node('n2').build()], daemonSets: [agent], pods: [] });
  const causes = causesOf(index, [agent], { now: NOW });
  assert.deepEqual(codes(causes), ['SelectsNoNode']);
  assert.match(
    causes[0]!.summary,
    /fluent-bit \(logging agent\) selects none of the 2 node\(s\) → nearest miss: n1, n2: no label node-role\.example\.com\/logging \(nodeSelector wants node-role\.example\.com\/logging=true\)/,
  );
  assert.equal(scan(index, [agent], NOW, 'all namespaces').daemonSets[0]!.health === 'Healthy', false);
});

test('LegacyOnDeleteDefault: a DaemonSet applied as extensions/v1beta1 without a strategy is OnDelete by that old default', () => {
  const ds = daemonSet('agent', 'ops').build();
  ds.spec!.updateStrategy = { type: 'OnDelete' };
  ds.metadata!.annotations = {
    'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
      apiVersion: 'extensions/v1beta1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'ops' },
      spec: { template: {} },
    }),
  };
  const index = indexOf({ nodes: [node('n1').build()], daemonSets: [ds], pods: [ready(ds, 'n1')] });
  const causes = causesOf(index, [ds], { now: NOW });
  assert.deepEqual(codes(causes), ['LegacyOnDeleteDefault']);
  assert.match(
    causes[0]!.summary,
    /updateStrategy OnDelete → it was applied as extensions\/v1beta1 without a strategy/,
  );
  // Written as OnDelete on purpose (apps/v1, the strategy in the applied configuration): nothing to say.
  ds.metadata!.annotations['kubectl.kubernetes.io/last-applied-configuration'] = JSON.stringify({
    apiVersion: 'apps/v1',
    spec: { updateStrategy: { type: 'OnDelete' } },
  });
  assert.deepEqual(
    codes(causesOf(indexOf({ nodes: [node('n1').build()], daemonSets: [ds], pods: [] }), [ds], { now: NOW })),
    [],
  );
});
