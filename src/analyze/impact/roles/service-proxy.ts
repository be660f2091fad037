/**
 * What deleting a DaemonSet of role `service-proxy` breaks on its nodes.
 * The service proxy (kube-proxy): Service routing and load-balancer health checks on its nodes.
 */
import type { Service } from '../../../model/k8s-types.js';
import { objectKey } from '../../../model/snapshot-index.js';
import { addFinding, addRisk, byName, limit, missing, nameList, plural, type Analysis } from '../analysis.js';

/** Services kube-proxy programs: everything but headless and ExternalName ones. */
function proxiedServices(a: Analysis): Service[] {
  return a.index.snapshot.services
    .filter((s) => s.spec?.type !== 'ExternalName' && s.spec?.clusterIP !== 'None')
    .sort(byName);
}

export function serviceProxyRole(a: Analysis): void {
  const evidence: string[] = [];
  let lbLocal: Service[] = [];
  if (missing(a, 'Service')) {
    a.notChecked.push('which Services kube-proxy routes on these nodes (no Service objects in the input)');
  } else {
    const services = proxiedServices(a);
    const types = new Map<string, number>();
    for (const s of services) types.set(s.spec?.type ?? 'ClusterIP', (types.get(s.spec?.type ?? 'ClusterIP') ?? 0) + 1);
    const byType = ['ClusterIP', 'NodePort', 'LoadBalancer']
      .filter((t) => types.has(t))
      .map((t) => `${types.get(t)} ${t}`);
    evidence.push(
      `${plural(services.length, 'Service')} routed through it${byType.length ? `: ${byType.join(', ')}` : ''}`,
    );
    const external = services.filter((s) => s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer');
    if (external.length)
      evidence.push(`reached from outside through these nodes: ${nameList(external.map(objectKey), 5)}`);
    lbLocal = external.filter((s) => s.spec?.externalTrafficPolicy === 'Local');
  }
  evidence.push(`nodes: ${nameList(a.nodes, 10)}`);
  addFinding(
    a,
    'ServiceRoutingFrozen',
    'error',
    `Service routing is no longer updated on ${plural(a.nodes.length, 'node')}: the iptables/IPVS rules already there stay but freeze, so endpoint changes (restarted pods with new IPs, scaling, new Services) are not routed from those nodes, and a node that reboots has no Service routing at all`,
    evidence,
  );
  addRisk(a, 'critical', `Service routing (service proxy) on ${plural(a.nodes.length, 'node')}`);
  if (lbLocal.length) {
    addFinding(
      a,
      'LoadBalancerHealthChecksFail',
      'error',
      'load balancers take these nodes out of rotation: the health check node port of externalTrafficPolicy: Local Services is served by kube-proxy, so with it gone the checks fail on every node',
      [
        ...limit(
          lbLocal.map((s) => {
            const hc = (s.spec as { healthCheckNodePort?: number } | undefined)?.healthCheckNodePort;
            return `${objectKey(s)} (${s.spec?.type}, externalTrafficPolicy: Local${hc ? `, healthCheckNodePort ${hc}` : ''})`;
          }),
        ),
        "many cloud load balancers also check kube-proxy's /healthz (port 10256) for externalTrafficPolicy: Cluster Services",
      ],
    );
    addRisk(
      a,
      'critical',
      `load-balancer health checks of ${plural(lbLocal.length, 'Service')} with externalTrafficPolicy: Local`,
    );
  }
}
