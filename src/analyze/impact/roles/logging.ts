/**
 * What deleting a DaemonSet of role `logging` breaks on its nodes.
 * A log collector: logs of the pods on its nodes.
 */
import { addFinding, addRisk, agree, count, othersOn, perNodeLines, plural, type Analysis } from '../analysis.js';

export function loggingRole(a: Analysis): void {
  const others = othersOn(a, a.nodes);
  const k = count(others);
  addFinding(
    a,
    'LogsNotCollected',
    'warning',
    `container logs on ${plural(a.nodes.length, 'node')} are not collected while no collector runs: what ${plural(k, 'pod')} there ${agree(k, 'writes', 'write')} in the gap is shipped later only if a collector returns before the kubelet rotates the files away (by default 5 files of 10Mi per container) and before their pods are deleted, and only if it keeps its read positions on the host`,
    perNodeLines(others),
  );
  addRisk(
    a,
    'medium',
    `logging: logs of ${plural(k, 'pod')} on ${plural(a.nodes.length, 'node')} are lost for the gap`,
  );
}
