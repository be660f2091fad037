/**
 * `readiness-probe-missing`: some container of the pod has a readiness probe.
 * Motivation: the rolling update counts a node as done when its new pod is available
 * (`podutil.IsPodAvailable`, reference §3.5); without a probe a pod is Ready as soon as its
 * containers start, so a broken version rolls over every node. Peer-tools §14 item 10
 * (`minReadySeconds: 0` with no readiness probe makes rollouts race).
 */
import type { LintRule } from '../types.js';
import { isRollingUpdate, templateContainers, yamlBlock } from '../template.js';

/** The `readiness-probe-missing` rule, as the registry lists it. */
export const readinessProbeMissing: LintRule = {
  meta: {
    id: 'readiness-probe-missing',
    severity: 'warning',
    severityNote: 'info with minReadySeconds > 0 or the OnDelete strategy, where the controller does not race ahead on readiness alone',
    description: 'At least one long-running container of the pod template has a `readinessProbe`.',
    rationale: 'A rolling update moves to the next nodes once the new pods are available. Without a readiness probe a pod is Ready the moment its containers start, so a version that starts and then fails (bad config, no backend) is rolled to every node before anyone notices, and `rollout status` reports success.',
    howToFix: 'Add a readiness probe on the agent\'s health endpoint (httpGet) or a cheap command (exec); `minReadySeconds` adds a settling delay on top.',
    example: 'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    # no readinessProbe',
  },
  check(ds) {
    const refs = templateContainers(ds, { sidecars: true });
    if (!refs.length || refs.some((r) => r.container.readinessProbe)) return [];
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const rolling = isRollingUpdate(ds);
    const first = refs[0]!;
    const port = first.container.ports?.[0]?.containerPort ?? 8080;
    return [{
      severity: minReady > 0 || !rolling ? 'info' : 'warning',
      message: `no container has a readiness probe: a pod is Ready as soon as its containers start, so ${rolling ? `a rolling update moves on from a broken version ${minReady > 0 ? `after minReadySeconds (${minReady}s)` : 'immediately'} and can break every node in turn` : 'nothing tells a broken agent from a working one'}`,
      path: `${first.path}.readinessProbe`,
      fix: `probe the agent's health endpoint (exec when it has none); for container ${first.container.name}, e.g.:\n${yamlBlock({ readinessProbe: { httpGet: { path: '/healthz', port }, periodSeconds: 10, failureThreshold: 3 } })}`,
    }];
  },
};
