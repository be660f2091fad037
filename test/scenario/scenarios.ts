/**
 * The golden cases: a realistic dump and a command. One entry per story of the DaemonSet guide's
 * troubleshooting table and of the rollout and impact issues. Each case has, by its name:
 * - test/scenario/expect/<name>.json: the exit code and the part of the `-o json` document the
 *   story is about, written by hand from the story (schema: test/scenario/expect.schema.json);
 *   asserted first, and never rewritten by UPDATE_GOLDEN;
 * - test/scenario/golden/<name>.txt|json: the whole human and JSON output; run the tests with
 *   UPDATE_GOLDEN=1 to rewrite them after an intended change, then review the diff.
 */
export interface Scenario {
  name: string;
  /** Input paths for -f. */
  input: string[];
  args: string[];
  /** What the story is, for the reader of a failing test. */
  story: string;
}

const DEMO = ['fixtures/demo'];
const scenario = (name: string) => [`fixtures/scenarios/${name}/dump.yaml`];
const impactDump = (name: string) => [`fixtures/impact/${name}/cluster.yaml`];
const NOW = ['--now', '2026-11-29T12:00:00Z'];

export const SCENARIOS: Scenario[] = [
  {
    name: 'demo-scan',
    input: DEMO,
    args: ['scan'],
    story: 'the demo cluster: a stuck rollout, a pending CSI pod, the CNI deadlock',
  },
  {
    name: 'demo-scan-cluster-info-dump',
    input: ['fixtures/cluster-info-dump'],
    args: ['scan'],
    story: 'kubectl cluster-info dump layout; kube-proxy in ImagePullBackOff',
  },
  {
    name: 'nodeselector-excluded',
    input: DEMO,
    args: ['why', 'kube-system/nvidia-device-plugin-daemonset', 'worker-1'],
    story: 'no pod on a node because of the nodeSelector',
  },
  {
    name: 'custom-taint',
    input: DEMO,
    args: ['why', 'monitoring/node-exporter', 'gpu-1'],
    story: "no pod on a node with a custom taint (the guide's common pitfall)",
  },
  {
    name: 'insufficient-memory',
    input: DEMO,
    args: ['why', 'kube-system/ebs-csi-node', 'worker-3'],
    story: 'pod stuck in FailedScheduling: requests exceed what the node has free',
  },
  { name: 'crash-loop', input: DEMO, args: ['why', 'logging/fluent-bit', 'worker-1'], story: 'new image crash-loops' },
  {
    name: 'cni-deadlock',
    input: DEMO,
    args: ['why', 'kube-system/calico-node', 'worker-5'],
    story: 'NotReady node: not-ready:NoSchedule keeps the CNI agent off',
  },
  {
    name: 'notready-node-pod',
    input: DEMO,
    args: ['why', 'logging/fluent-bit', 'worker-5'],
    story: 'a pod on a NotReady node cannot start its sandbox',
  },
  {
    name: 'cordoned-healthy',
    input: DEMO,
    args: ['why', 'logging/fluent-bit', 'worker-6'],
    story: 'a cordoned node is not a problem for daemon pods',
  },
  {
    name: 'why-all-fluent-bit',
    input: DEMO,
    args: ['why', 'logging/fluent-bit'],
    story: 'every node without a healthy pod',
  },
  { name: 'nodes-node-exporter', input: DEMO, args: ['nodes', 'monitoring/node-exporter'], story: 'one row per node' },
  {
    name: 'node-worker-5',
    input: DEMO,
    args: ['node', 'worker-5'],
    story: 'every DaemonSet against the NotReady node',
  },
  {
    name: 'image-pull',
    input: ['fixtures/cluster-info-dump'],
    args: ['why', 'kube-system/kube-proxy', 'node-b'],
    story: 'image tag that does not exist',
  },
  {
    name: 'oom-killed',
    input: scenario('oom-killed'),
    args: ['why', 'monitoring/node-exporter', 'worker-2'],
    story: 'crash loop from OOMKilled, with the memory limit',
  },
  {
    name: 'config-error',
    input: scenario('config-error'),
    args: ['why', 'logging/fluent-bit', 'worker-3'],
    story: 'CreateContainerConfigError naming the missing ConfigMap',
  },
  {
    name: 'crash-arm64',
    input: scenario('crash-arm64'),
    args: ['why', 'agents/node-agent', ...NOW],
    story: 'pods crash on exactly the arm64 nodes: an image without an arm64 build (NodeAttributeSplit)',
  },
  {
    name: 'gpu-labeller-toleration',
    input: scenario('gpu-labeller-toleration'),
    args: ['why', 'gpu/nvidia-device-plugin', ...NOW],
    story:
      'a device plugin at 0/0: the labeller that writes its label is kept off the GPU nodes by a near-miss toleration (LabellerNotRunning)',
  },
  {
    name: 'webhook-failedcreate',
    input: scenario('webhook-failedcreate'),
    args: ['why', 'agents/node-agent', ...NOW],
    story: 'FailedCreate "Pod is invalid" at a mount a mutating webhook injects (WebhookInjectedField)',
  },
  {
    name: 'podsecurity-failedcreate',
    input: scenario('podsecurity-failedcreate'),
    args: ['why', 'agents/node-agent'],
    story: 'PodSecurity admission refuses every pod (FailedCreate)',
  },
  {
    name: 'quota-failedcreate',
    input: scenario('quota-failedcreate'),
    args: ['why', 'logging/log-agent', 'worker-3'],
    story: 'ResourceQuota refuses the third pod (FailedCreate)',
  },
  {
    name: 'hostport-conflict',
    input: scenario('hostport-conflict'),
    args: ['why', 'edge/envoy', 'worker-2'],
    story: 'another pod holds the host port',
  },
  {
    name: 'too-many-pods',
    input: scenario('too-many-pods'),
    args: ['why', 'observability/otel-agent', 'worker-3'],
    story: 'the node is at its pod limit',
  },
  {
    name: 'misscheduled',
    input: scenario('misscheduled-label-removed'),
    args: ['why', 'ingress-nginx/ingress-nginx-controller'],
    story: 'label removed (pod deleted) and NoSchedule taint added (pod kept)',
  },
  {
    name: 'cordoned-node',
    input: scenario('cordoned-node'),
    args: ['nodes', 'monitoring/node-exporter'],
    story: 'a cordoned node keeps its daemon pod: not a problem',
  },
  {
    name: 'new-node',
    input: scenario('new-node'),
    args: ['why', 'kube-system/kube-proxy', 'worker-3'],
    story: 'a node that joined 20 seconds ago',
  },
  {
    name: 'readiness-failing',
    input: scenario('readiness-failing'),
    args: ['why', 'logging/promtail', 'worker-3'],
    story: 'running but the readiness probe fails',
  },
  {
    name: 'evicted-pod',
    input: scenario('evicted-pod'),
    args: ['why', 'logging/fluent-bit', 'worker-2'],
    story: 'the kubelet evicted the pod (phase Failed)',
  },
  {
    name: 'rollout-demo-fluent-bit',
    input: DEMO,
    args: ['rollout', 'logging/fluent-bit'],
    story: 'crash-looping new image at maxUnavailable, plus a NotReady node',
  },
  {
    name: 'rollout-demo-kube-proxy',
    input: DEMO,
    args: ['rollout', 'kube-system/kube-proxy'],
    story: 'rolled out; worker-5 is NotReady but its pod is still Ready, so it holds no budget (issue 39)',
  },
  {
    name: 'rollout-crashloop',
    input: scenario('rollout-crashloop'),
    args: ['rollout', 'monitoring/node-exporter'],
    story: 'a crash-looping new image blocks at maxUnavailable',
  },
  {
    name: 'rollout-bad-tag',
    input: scenario('rollout-bad-tag'),
    args: ['rollout', 'platform/telemetry-agent'],
    story: 'a new tag that does not exist',
  },
  {
    name: 'rollout-requests-dont-fit',
    input: scenario('rollout-requests-dont-fit'),
    args: ['rollout', 'logging/fluentd'],
    story: 'new requests no longer fit on a node',
  },
  {
    name: 'rollout-surge-hostport',
    input: scenario('rollout-surge-hostport'),
    args: ['rollout', 'monitoring/node-exporter'],
    story: 'surge with a host port can never hand over',
  },
  {
    name: 'rollout-ondelete',
    input: scenario('rollout-ondelete'),
    args: ['rollout', 'kube-system/ebs-csi-node'],
    story: 'OnDelete after a template change: roll by hand, canary first',
  },
  {
    name: 'rollout-terminating-unreachable',
    input: scenario('rollout-terminating-unreachable'),
    args: ['rollout', 'kube-system/kube-proxy'],
    story: 'a pod stuck terminating on an unreachable node holds the budget',
  },
  {
    name: 'rollout-not-observed',
    input: scenario('rollout-not-observed'),
    args: ['rollout', 'logging/fluent-bit'],
    story: 'the controller has not observed the new generation',
  },
  {
    name: 'rollout-complete',
    input: scenario('rollout-complete'),
    args: ['rollout', 'logging/promtail'],
    story: 'a complete rollout',
  },
  {
    name: 'rollout-in-progress',
    input: scenario('rollout-in-progress'),
    args: ['rollout', 'security/falco'],
    story: 'a rollout in progress, not stuck',
  },
  {
    name: 'why-surge-hostport',
    input: scenario('rollout-surge-hostport'),
    args: ['why', 'monitoring/node-exporter'],
    story: "why weighs the surge pod that can never take the old pod's host port (kubernetes#106417)",
  },
  {
    name: 'rollout-podsecurity',
    input: scenario('podsecurity-failedcreate'),
    args: ['rollout', 'agents/node-agent'],
    story: 'one PodSecurity refusal on every node: the message once, the fix with the back-off',
  },
  {
    name: 'scan-surge-hostport',
    input: scenario('rollout-surge-hostport'),
    args: ['scan'],
    story: 'scan health knows a stuck rollout even when every node is served',
  },
  // `impact`: the dumps of fixtures/impact (fixtures/impact/README.md).
  {
    name: 'impact-cni-calico',
    input: impactDump('cni-calico'),
    args: ['impact', 'kube-system/calico-node', ...NOW],
    story:
      'A CNI agent (calico-node) with system-node-critical priority in kube-system; one node stopped answering: deleting it cuts pod networking (critical).',
  },
  {
    name: 'impact-csi-node',
    input: impactDump('csi-node'),
    args: ['impact', 'kube-system/ebs-csi-node', ...NOW],
    story:
      'An EBS CSI node plugin with its CSIDriver object; pods on its nodes mount claims and a generic ephemeral volume (critical).',
  },
  {
    name: 'impact-fluent-bit',
    input: impactDump('fluent-bit'),
    args: ['impact', 'logging/fluent-bit', ...NOW],
    story:
      'fluent-bit exactly as in the DaemonSet guide (system-node-critical) with the PodDisruptionBudget the guide recommends, which does not apply to deletion (high).',
  },
  {
    name: 'impact-foreground',
    input: impactDump('csi-node'),
    args: ['impact', 'kube-system/ebs-csi-node', '--cascade=foreground', ...NOW],
    story:
      'The CSI node plugin deleted with --cascade=foreground: the DaemonSet waits for its pods, and the pod on the unresponsive node keeps it there.',
  },
  {
    name: 'impact-gpu-device-plugin',
    input: impactDump('gpu-device-plugin'),
    args: ['impact', 'gpu-operator/nvidia-device-plugin-daemonset', ...NOW],
    story: 'The NVIDIA device plugin on two GPU nodes; two pods hold GPUs and one waits for four (high).',
  },
  {
    name: 'impact-kube-proxy',
    input: impactDump('kube-proxy'),
    args: ['impact', 'kube-system/kube-proxy', ...NOW],
    story:
      'kube-proxy with ClusterIP, NodePort and LoadBalancer Services, one with externalTrafficPolicy: Local; the dump has no webhook configurations (not checked).',
  },
  {
    name: 'impact-node-exporter',
    input: impactDump('node-exporter'),
    args: ['impact', 'monitoring/node-exporter', ...NOW],
    story:
      'node-exporter behind a Service whose only endpoints are its pods (medium: exit 0 with the default --fail-on).',
  },
  {
    name: 'impact-orphan',
    input: impactDump('cni-calico'),
    args: ['impact', 'kube-system/calico-node', '--cascade=orphan', ...NOW],
    story:
      'The same calico-node deleted with --cascade=orphan: nothing is deleted (low), the pods are orphaned, drain refuses them, and a re-created DaemonSet adopts them with the pod-template-generation quirk.',
  },
  {
    name: 'impact-plain-app',
    input: impactDump('plain-app'),
    args: ['impact', 'shop/edge-cache', ...NOW],
    story: 'An ordinary application DaemonSet: no role, nothing depends on it (low).',
  },
  {
    name: 'impact-webhook',
    input: impactDump('webhook'),
    args: ['impact', 'policy/policy-agent', ...NOW],
    story:
      'A DaemonSet serving a fail-closed validating webhook for pods (which also blocks its own recovery) and a fail-open mutating one (critical).',
  },
  // `plan`: a change manifest against the demo dump (fixtures/plan).
  {
    name: 'plan-fluent-bit-memory',
    input: ['fixtures/plan/fluent-bit-memory.yaml'],
    args: ['plan', '--cluster-dump', 'fixtures/demo'],
    story:
      "plan: raising fluent-bit's memory request replaces every pod; on the full worker-3 it fits only by preemption",
  },
  {
    name: 'plan-calico-node-selector',
    input: ['fixtures/plan/calico-node-selector.yaml'],
    args: ['plan', '--cluster-dump', 'fixtures/demo'],
    story: "plan: narrowing calico-node's nodeSelector deletes the CNI agent on the GPU nodes at once",
  },
  {
    name: 'plan-calico-node-selector-markdown',
    input: ['fixtures/plan/calico-node-selector.yaml'],
    args: ['plan', '--cluster-dump', 'fixtures/demo', '-o', 'markdown'],
    story: 'plan as a pull-request comment',
  },
];
