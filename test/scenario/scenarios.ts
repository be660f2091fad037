/**
 * Scenario table: a realistic dump, a command, and its golden output (human and JSON) and exit
 * code. One entry per story of the DaemonSet guide's troubleshooting table and of the rollout
 * and impact issues. Goldens live in test/scenario/golden/<name>.txt|json; run the tests with
 * UPDATE_GOLDEN=1 to rewrite them after an intended change, then review the diff.
 */
export interface Scenario {
  name: string;
  /** Input paths for -f. */
  input: string[];
  args: string[];
  exit: number;
  /** What the story is, for the reader of a failing test. */
  story: string;
}

const DEMO = ['fixtures/demo'];
const scenario = (name: string) => [`fixtures/scenarios/${name}/dump.yaml`];

export const SCENARIOS: Scenario[] = [
  { name: 'demo-scan', input: DEMO, args: ['scan'], exit: 1, story: 'the demo cluster: a stuck rollout, a pending CSI pod, the CNI deadlock' },
  { name: 'demo-scan-cluster-info-dump', input: ['fixtures/cluster-info-dump'], args: ['scan'], exit: 1, story: 'kubectl cluster-info dump layout; kube-proxy in ImagePullBackOff' },
  { name: 'nodeselector-excluded', input: DEMO, args: ['why', 'kube-system/nvidia-device-plugin-daemonset', 'worker-1'], exit: 0, story: 'no pod on a node because of the nodeSelector' },
  { name: 'custom-taint', input: DEMO, args: ['why', 'monitoring/node-exporter', 'gpu-1'], exit: 0, story: 'no pod on a node with a custom taint (the guide\'s common pitfall)' },
  { name: 'insufficient-memory', input: DEMO, args: ['why', 'kube-system/ebs-csi-node', 'worker-3'], exit: 1, story: 'pod stuck in FailedScheduling: requests exceed what the node has free' },
  { name: 'crash-loop', input: DEMO, args: ['why', 'logging/fluent-bit', 'worker-1'], exit: 1, story: 'new image crash-loops' },
  { name: 'cni-deadlock', input: DEMO, args: ['why', 'kube-system/calico-node', 'worker-5'], exit: 1, story: 'NotReady node: not-ready:NoSchedule keeps the CNI agent off' },
  { name: 'notready-node-pod', input: DEMO, args: ['why', 'logging/fluent-bit', 'worker-5'], exit: 1, story: 'a pod on a NotReady node cannot start its sandbox' },
  { name: 'cordoned-healthy', input: DEMO, args: ['why', 'logging/fluent-bit', 'worker-6'], exit: 0, story: 'a cordoned node is not a problem for daemon pods' },
  { name: 'why-all-fluent-bit', input: DEMO, args: ['why', 'logging/fluent-bit'], exit: 1, story: 'every node without a healthy pod' },
  { name: 'nodes-node-exporter', input: DEMO, args: ['nodes', 'monitoring/node-exporter'], exit: 0, story: 'one row per node' },
  { name: 'node-worker-5', input: DEMO, args: ['node', 'worker-5'], exit: 1, story: 'every DaemonSet against the NotReady node' },
  { name: 'image-pull', input: ['fixtures/cluster-info-dump'], args: ['why', 'kube-system/kube-proxy', 'node-b'], exit: 1, story: 'image tag that does not exist' },
  { name: 'oom-killed', input: scenario('oom-killed'), args: ['why', 'monitoring/node-exporter', 'worker-2'], exit: 1, story: 'crash loop from OOMKilled, with the memory limit' },
  { name: 'config-error', input: scenario('config-error'), args: ['why', 'logging/fluent-bit', 'worker-3'], exit: 1, story: 'CreateContainerConfigError naming the missing ConfigMap' },
  { name: 'podsecurity-failedcreate', input: scenario('podsecurity-failedcreate'), args: ['why', 'agents/node-agent'], exit: 1, story: 'PodSecurity admission refuses every pod (FailedCreate)' },
  { name: 'quota-failedcreate', input: scenario('quota-failedcreate'), args: ['why', 'logging/log-agent', 'worker-3'], exit: 1, story: 'ResourceQuota refuses the third pod (FailedCreate)' },
  { name: 'hostport-conflict', input: scenario('hostport-conflict'), args: ['why', 'edge/envoy', 'worker-2'], exit: 1, story: 'another pod holds the host port' },
  { name: 'too-many-pods', input: scenario('too-many-pods'), args: ['why', 'observability/otel-agent', 'worker-3'], exit: 1, story: 'the node is at its pod limit' },
  { name: 'misscheduled', input: scenario('misscheduled-label-removed'), args: ['why', 'ingress-nginx/ingress-nginx-controller'], exit: 0, story: 'label removed (pod deleted) and NoSchedule taint added (pod kept)' },
  { name: 'cordoned-node', input: scenario('cordoned-node'), args: ['nodes', 'monitoring/node-exporter'], exit: 0, story: 'a cordoned node keeps its daemon pod: not a problem' },
  { name: 'new-node', input: scenario('new-node'), args: ['why', 'kube-system/kube-proxy', 'worker-3'], exit: 0, story: 'a node that joined 20 seconds ago' },
  { name: 'readiness-failing', input: scenario('readiness-failing'), args: ['why', 'logging/promtail', 'worker-3'], exit: 1, story: 'running but the readiness probe fails' },
  { name: 'evicted-pod', input: scenario('evicted-pod'), args: ['why', 'logging/fluent-bit', 'worker-2'], exit: 1, story: 'the kubelet evicted the pod (phase Failed)' },
  { name: 'rollout-demo-fluent-bit', input: DEMO, args: ['rollout', 'logging/fluent-bit'], exit: 1, story: 'crash-looping new image at maxUnavailable, plus a NotReady node' },
  { name: 'rollout-crashloop', input: scenario('rollout-crashloop'), args: ['rollout', 'monitoring/node-exporter'], exit: 1, story: 'a crash-looping new image blocks at maxUnavailable' },
  { name: 'rollout-bad-tag', input: scenario('rollout-bad-tag'), args: ['rollout', 'platform/telemetry-agent'], exit: 1, story: 'a new tag that does not exist' },
  { name: 'rollout-requests-dont-fit', input: scenario('rollout-requests-dont-fit'), args: ['rollout', 'logging/fluentd'], exit: 1, story: 'new requests no longer fit on a node' },
  { name: 'rollout-surge-hostport', input: scenario('rollout-surge-hostport'), args: ['rollout', 'monitoring/node-exporter'], exit: 1, story: 'surge with a host port can never hand over' },
  { name: 'rollout-ondelete', input: scenario('rollout-ondelete'), args: ['rollout', 'kube-system/ebs-csi-node'], exit: 0, story: 'OnDelete after a template change: roll by hand, canary first' },
  { name: 'rollout-terminating-unreachable', input: scenario('rollout-terminating-unreachable'), args: ['rollout', 'kube-system/kube-proxy'], exit: 1, story: 'a pod stuck terminating on an unreachable node holds the budget' },
  { name: 'rollout-not-observed', input: scenario('rollout-not-observed'), args: ['rollout', 'logging/fluent-bit'], exit: 0, story: 'the controller has not observed the new generation' },
  { name: 'rollout-complete', input: scenario('rollout-complete'), args: ['rollout', 'logging/promtail'], exit: 0, story: 'a complete rollout' },
  { name: 'rollout-in-progress', input: scenario('rollout-in-progress'), args: ['rollout', 'security/falco'], exit: 0, story: 'a rollout in progress, not stuck' },
  { name: 'why-surge-hostport', input: scenario('rollout-surge-hostport'), args: ['why', 'monitoring/node-exporter'], exit: 1, story: 'why weighs the surge pod that can never take the old pod\'s host port (kubernetes#106417)' },
  { name: 'rollout-podsecurity', input: scenario('podsecurity-failedcreate'), args: ['rollout', 'agents/node-agent'], exit: 1, story: 'one PodSecurity refusal on every node: the message once, the fix with the back-off' },
  { name: 'scan-surge-hostport', input: scenario('rollout-surge-hostport'), args: ['scan'], exit: 1, story: 'scan health knows a stuck rollout even when every node is served' },
  { name: 'plan-fluent-bit-memory', input: ['fixtures/plan/fluent-bit-memory.yaml'], args: ['plan', '--cluster-dump', 'fixtures/demo'], exit: 0, story: 'plan: raising fluent-bit\'s memory request replaces every pod; on the full worker-3 it fits only by preemption' },
  { name: 'plan-calico-node-selector', input: ['fixtures/plan/calico-node-selector.yaml'], args: ['plan', '--cluster-dump', 'fixtures/demo'], exit: 1, story: 'plan: narrowing calico-node\'s nodeSelector deletes the CNI agent on the GPU nodes at once' },
  { name: 'plan-calico-node-selector-markdown', input: ['fixtures/plan/calico-node-selector.yaml'], args: ['plan', '--cluster-dump', 'fixtures/demo', '-o', 'markdown'], exit: 1, story: 'plan as a pull-request comment' },
];

export const SCENARIO_INPUT = scenario;
