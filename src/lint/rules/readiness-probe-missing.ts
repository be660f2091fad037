/**
 * `readiness-probe-missing`: every long-running agent container has a readiness probe.
 * Motivation: the rolling update counts a node as done when its new pod is available
 * (`podutil.IsPodAvailable`, docs/semantics.md §3.5); a pod is Ready when every container is, and a
 * container without a probe is Ready as soon as it starts, so a broken version rolls over
 * every node. Peer-tools §14 item 10 (`minReadySeconds: 0` with no readiness probe makes
 * rollouts race); issue 14 §3 (a second agent container is not covered by the first's probe).
 */
import type { LintRule, RuleFinding } from '../types.js';
import { agentContainers, probeSuggestion } from '../probes.js';
import { isRollingUpdate } from '../../k8s/defaults.js';
import { containerLabel, yamlBlock } from '../template.js';

/** The `readiness-probe-missing` rule, as the registry lists it. */
export const readinessProbeMissing: LintRule = {
  meta: {
    id: 'readiness-probe-missing',
    severity: 'warning',
    severityNote:
      'info with minReadySeconds > 0 or the OnDelete strategy, where the controller does not race ahead on readiness alone',
    description:
      'Every long-running agent container (and native sidecar) of the pod template has a `readinessProbe`; helper sidecars (CSI registrar, RBAC proxy, config reloader) and init containers are not judged.',
    rationale:
      "A rolling update moves to the next nodes once the new pods are available, and a pod is Ready when each of its containers is. A container without a readiness probe is Ready the moment it starts, so a version that starts and then fails (bad config, no backend) is rolled to every node before anyone notices, and `rollout status` reports success. One container's probe does not cover another agent in the same pod.",
    howToFix:
      'Add a readiness probe per agent container: the endpoint its liveness probe uses, its health endpoint on a port it declares (httpGet), a `tcpSocket` on such a port, or a cheap command (`exec`); `minReadySeconds` adds a settling delay on top.',
    example: 'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    # no readinessProbe',
  },
  check(ds) {
    const refs = agentContainers(ds);
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const rolling = isRollingUpdate(ds);
    const probed = refs.filter((r) => r.container.readinessProbe).map((r) => r.container.name);
    return refs
      .filter((r) => !r.container.readinessProbe)
      .map((ref): RuleFinding => {
        const { handler, source } = probeSuggestion(ref.container, 'readiness');
        return {
          severity: minReady > 0 || !rolling ? 'info' : 'warning',
          message: `${containerLabel(ref)} has no readiness probe${probed.length ? ` (the probe of ${probed.join(', ')} does not cover it)` : ''}: it is Ready as soon as it starts, so ${rolling ? `a rolling update moves on from a broken version ${minReady > 0 ? `after minReadySeconds (${minReady}s)` : 'immediately'} and can break every node in turn` : 'nothing tells a broken agent from a working one'}`,
          path: `${ref.path}.readinessProbe`,
          fix: `probe it with ${source}:\n${yamlBlock({ readinessProbe: { ...handler, periodSeconds: 10, failureThreshold: 3 } })}`,
        };
      });
  },
};
