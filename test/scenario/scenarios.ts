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
];

export const SCENARIO_INPUT = scenario;
