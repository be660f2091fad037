/**
 * What deleting a DaemonSet of role `dns` breaks on its nodes.
 * The node-local DNS cache: lookups of the pods on its nodes.
 */
import { addFinding, addRisk, othersOn, perNodeLines, plural, type Analysis } from '../analysis.js';

export function dnsRole(a: Analysis): void {
  const clients = new Map(
    [...othersOn(a, a.nodes)].map(([n, pods]) => [
      n,
      pods.filter((p) => !p.spec?.hostNetwork || p.spec.dnsPolicy === 'ClusterFirstWithHostNet'),
    ]),
  );
  addFinding(
    a,
    'NodeDnsLost',
    'error',
    `the node-local DNS cache stops on ${plural(a.nodes.length, 'node')}: pods there that resolve through its link-local address (the kubelet's clusterDNS) fail lookups until it returns; where it only intercepts the kube-dns Service address, it removes its rules on exit and lookups fall back to kube-dns`,
    perNodeLines(clients, ' using cluster DNS'),
  );
  addRisk(a, 'high', `node-local DNS on ${plural(a.nodes.length, 'node')}`);
}
