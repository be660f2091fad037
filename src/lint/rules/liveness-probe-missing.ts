/**
 * `liveness-probe-missing`: every long-running agent container has a liveness probe.
 * Motivation: issue 14 §3 (SREs want it: a hung agent on a node is invisible without one); the
 * kubelet restarts a container only when it exits or its liveness probe fails
 * (pkg/kubelet/prober), so a deadlocked agent keeps running and keeps its pod Ready unless a
 * readiness probe fails. kube-score's container-liveness check, Polaris livenessProbeMissing.
 */
import type { LintRule, RuleFinding } from '../types.js';
import { agentContainers, probeSuggestion } from '../probes.js';
import { containerLabel, yamlBlock } from '../template.js';

/** The `liveness-probe-missing` rule, as the registry lists it. */
export const livenessProbeMissing: LintRule = {
  meta: {
    id: 'liveness-probe-missing',
    severity: 'warning',
    description:
      'Every long-running agent container (and native sidecar) of the pod template has a `livenessProbe`; helper sidecars (CSI registrar, RBAC proxy, config reloader) and init containers are not judged.',
    rationale:
      'The kubelet restarts a container when it exits or when its liveness probe fails, and at no other time. An agent that hangs (a deadlock, a stuck connection to the API server) keeps running on its node without doing its job: logs stop shipping, metrics go stale, network policy stops updating, and nothing restarts it. A DaemonSet has no second replica on that node to take over.',
    howToFix:
      'Add a liveness probe per agent container on an endpoint that fails when the agent is stuck (its health endpoint, a `tcpSocket` on a port it declares, or an `exec` command), with a `failureThreshold` generous enough not to kill it under load.',
    example:
      'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    readinessProbe: {httpGet: {path: /ready, port: 8080}}\n    # no livenessProbe',
  },
  check(ds) {
    return agentContainers(ds)
      .filter((r) => !r.container.livenessProbe)
      .map((ref): RuleFinding => {
        const { handler, source } = probeSuggestion(ref.container, 'liveness');
        return {
          message: `${containerLabel(ref)} has no liveness probe: if it hangs it keeps running on its node without doing its job, and the kubelet restarts it only when it exits`,
          path: `${ref.path}.livenessProbe`,
          fix: `probe it with ${source}, failing only when it is stuck:\n${yamlBlock({ livenessProbe: { ...handler, periodSeconds: 10, failureThreshold: 6 } })}`,
        };
      });
  },
};
