/**
 * `resources-requests-missing`: every long-running container requests cpu and memory.
 * Motivation: the DaemonSet guide, 生产实践 "强制资源限制" — a DaemonSet runs on every node, so a
 * container without requests oversubscribes every node at once; and the scheduler's
 * NodeResourcesFit filter (docs/semantics.md §4.5) reserves only what is requested.
 */
import type { LintRule, RuleFinding } from '../types.js';
import { containerLabel, templateContainers, yamlBlock } from '../template.js';

const PLACEHOLDER: Record<string, string> = { cpu: '100m', memory: '128Mi' };

/** The `resources-requests-missing` rule, as the registry lists it. */
export const resourcesRequestsMissing: LintRule = {
  meta: {
    id: 'resources-requests-missing',
    severity: 'warning',
    description: 'Every container (and sidecar) of the pod template requests cpu and memory.',
    rationale:
      'A DaemonSet puts one copy on every node: without requests the scheduler reserves nothing for it, so every node is oversubscribed by the same amount at once, and a pod without any request is BestEffort, the first the kubelet evicts under node pressure (DaemonSet guide, production practice "enforce resource limits").',
    howToFix:
      'Measure the agent (`kubectl top pod`) and set `resources.requests.cpu` and `resources.requests.memory` on each container. A limit without a request counts: the API defaults the request to the limit.',
    example: 'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    # no resources',
  },
  check(ds) {
    const out: RuleFinding[] = [];
    for (const ref of templateContainers(ds, { sidecars: true })) {
      const res = ref.container.resources;
      // API defaulting copies a limit into a missing request, so only a resource with neither is unrequested.
      const missing = ['cpu', 'memory'].filter((r) => res?.requests?.[r] === undefined && res?.limits?.[r] === undefined);
      if (!missing.length) continue;
      const bestEffort = missing.length === 2 && Object.keys(res?.requests ?? {}).length === 0 && Object.keys(res?.limits ?? {}).length === 0;
      out.push({
        message: `${containerLabel(ref)} requests no ${missing.join(' and no ')}: the scheduler reserves nothing for it, so each of the DaemonSet's nodes is oversubscribed by one copy${bestEffort ? ', and the pod is BestEffort: evicted first when a node runs short' : ''}`,
        path: missing.length === 1 ? `${ref.path}.resources.requests.${missing[0]}` : `${ref.path}.resources.requests`,
        fix: `set requests from the agent's measured usage (kubectl top pod), e.g.:\n${yamlBlock({ resources: { requests: Object.fromEntries(missing.map((r) => [r, PLACEHOLDER[r]])) } })}`,
      });
    }
    return out;
  },
};
