/**
 * What deleting a DaemonSet of role `network` breaks on its nodes.
 * The CNI agent: pod networking on its nodes.
 */
import { addFinding, addRisk, count, othersOn, perNodeLines, plural, type Analysis } from '../analysis.js';

export function networkRole(a: Analysis): void {
  const onNet = new Map([...othersOn(a, a.nodes)].map(([n, pods]) => [n, pods.filter((p) => !p.spec?.hostNetwork)]));
  const k = count(onNet);
  addFinding(
    a,
    'NodeNetworkingLost',
    'error',
    `pod networking is no longer managed on ${plural(a.nodes.length, 'node')}: new pods there cannot start (sandbox creation fails while the CNI configuration points at an agent that is gone), and the ${plural(k, 'running pod')} on the pod network there keep their interfaces but nothing maintains their routes, network policy or IP allocation`,
    [
      ...perNodeLines(onNet, ' on the pod network'),
      'if the agent removes its CNI configuration when it stops, the kubelet reports NetworkReady=false ("cni plugin not initialized") and the node turns NotReady',
      'hostNetwork pods are not affected',
    ],
  );
  addRisk(
    a,
    'critical',
    `node networking (CNI agent) on ${plural(a.nodes.length, 'node')}, ${plural(k, 'pod')} on the pod network there`,
  );
}
