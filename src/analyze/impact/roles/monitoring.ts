/**
 * What deleting a DaemonSet of role `monitoring` breaks on its nodes.
 * A node monitor: the metrics of its nodes.
 */
import { addFinding, addRisk, nameList, plural, type Analysis } from '../analysis.js';

export function monitoringRole(a: Analysis): void {
  addFinding(
    a,
    'MetricsGap',
    'warning',
    `metrics from ${plural(a.nodes.length, 'node')} stop: scrapes of these pods fail (up == 0), alerts on missing targets fire, and dashboards show a gap`,
    [`nodes: ${nameList(a.nodes, 10)}`],
  );
  a.notChecked.push(
    'ServiceMonitors and PodMonitors that scrape these pods (Prometheus Operator objects are not read)',
  );
  addRisk(a, 'medium', `monitoring: metrics of ${plural(a.nodes.length, 'node')} stop`);
}
