/**
 * `resources-requests-missing`: every long-running container requests cpu and memory.
 * Motivation: the DaemonSet guide, 生产实践 "强制资源限制" — a DaemonSet runs on every node, so a
 * container without requests oversubscribes every node at once; and the scheduler's
 * NodeResourcesFit filter (docs/semantics.md §4.5) reserves only what is requested.
 */
import type { LintRule, RuleFinding } from '../types.js';
import { isPlaceholder } from '../../model/roles.js';
import { containerLabel, templateContainers, yamlBlock } from '../template.js';

const PLACEHOLDER: Record<string, string> = { cpu: '100m', memory: '128Mi' };

/** The `resources-requests-missing` rule, as the registry lists it. */
export const resourcesRequestsMissing: LintRule = {
  meta: {
    id: 'resources-requests-missing',
    severity: 'warning',
    description:
      'Every container (and sidecar) of the pod template requests cpu and memory; placeholders that only wait (pause, `sleep infinity`) are not judged.',
    rationale:
      'A DaemonSet puts one copy on every node: without requests the scheduler reserves nothing for it, so every node is oversubscribed by the same amount at once, and a pod without any request is BestEffort, the first the kubelet evicts under node pressure (DaemonSet guide, production practice "enforce resource limits").',
    howToFix:
      'Measure the agent (`kubectl top pod`) and set `resources.requests.cpu` and `resources.requests.memory` on each container. A limit without a request counts: the API defaults the request to the limit.',
    example: 'containers:\n  - name: agent\n    image: example/agent:1.4.2\n    # no resources',
  },
  check(ds) {
    const out: RuleFinding[] = [];
    // The pod's QoS class counts every container, init containers included (v1 qos.GetPodQOS).
    const anyResource = templateContainers(ds, { init: true }).some(
      (r) =>
        Object.keys(r.container.resources?.requests ?? {}).length ||
        Object.keys(r.container.resources?.limits ?? {}).length,
    );
    for (const ref of templateContainers(ds, { sidecars: true })) {
      // A placeholder that only waits (pause, an image pre-pull) uses nothing worth reserving.
      if (isPlaceholder(ref.container)) continue;
      const res = ref.container.resources;
      // API defaulting copies a limit into a missing request, so only a resource with neither is unrequested.
      const missing = ['cpu', 'memory'].filter(
        (r) => res?.requests?.[r] === undefined && res?.limits?.[r] === undefined,
      );
      if (!missing.length) continue;
      const bestEffort = !anyResource;
      // What the scheduler leaves unreserved: the resource missing, not everything, when the other is requested.
      out.push({
        message: `${containerLabel(ref)} requests no ${missing.join(' and no ')}: the scheduler reserves ${missing.length === 1 ? `no ${missing[0]}` : 'nothing'} for it, so each of the DaemonSet's nodes is oversubscribed by one copy${bestEffort ? ', and the pod is BestEffort: evicted first when a node runs short' : ''}`,
        path: missing.length === 1 ? `${ref.path}.resources.requests.${missing[0]}` : `${ref.path}.resources.requests`,
        fix: `set requests from the agent's measured usage (kubectl top pod), e.g.:\n${yamlBlock({ resources: { requests: Object.fromEntries(missing.map((r) => [r, PLACEHOLDER[r]])) } })}`,
      });
    }
    return out;
  },
};
