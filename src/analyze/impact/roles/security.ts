/**
 * What deleting a DaemonSet of role `security` breaks on its nodes.
 * A runtime security agent: its nodes go unwatched.
 */
import { addFinding, addRisk, nameList, plural, type Analysis } from '../analysis.js';

export function securityRole(a: Analysis): void {
  addFinding(
    a,
    'SecurityAgentGone',
    'warning',
    `runtime security is off on ${plural(a.nodes.length, 'node')} for the gap: nothing there detects or blocks activity until the agent returns`,
    [`nodes: ${nameList(a.nodes, 10)}`],
  );
  addRisk(a, 'medium', `security agent on ${plural(a.nodes.length, 'node')}`);
}
