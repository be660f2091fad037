/**
 * `surge-with-host-port`: no `maxSurge` when the pod holds host ports.
 * Motivation: the surge algorithm (docs/semantics.md §3.4) starts the new pod on the node while the old
 * one still runs; the NodePorts filter (§4.6) then rejects it because the old pod holds the
 * port, so the rollout hangs. kubernetes #106417 asked the API to reject this; it never did.
 * Under hostNetwork every containerPort is a host port (Pod defaulting).
 */
import { formatHostPort, wantedHostPorts } from '../../k8s/hostports.js';
import { allowsSurge } from '../../k8s/rollingupdate.js';
import type { LintRule } from '../types.js';
import { podSpec, yamlBlock } from '../template.js';

/** The `surge-with-host-port` rule, as the registry lists it. */
export const surgeWithHostPort: LintRule = {
  meta: {
    id: 'surge-with-host-port',
    severity: 'error',
    description: 'A RollingUpdate with `maxSurge` > 0 is not combined with `hostPort`s or hostNetwork container ports.',
    rationale:
      'With maxSurge the controller starts the new pod on a node before deleting the old one. Both want the same host port, so the scheduler\'s NodePorts filter keeps the new pod Pending ("didn\'t have free ports for the requested pod ports") and the rollout never finishes (kubernetes #106417). Under hostNetwork every containerPort is a host port.',
    howToFix:
      'Use `maxSurge: 0` with `maxUnavailable: 1` (or a percentage) for agents with host ports; surge only works for agents without them.',
    example:
      'spec:\n  updateStrategy:\n    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}\n  template:\n    spec:\n      hostNetwork: true\n      containers:\n        - name: agent\n          ports: [{containerPort: 9100}]',
  },
  check(ds) {
    if (!allowsSurge(ds)) return [];
    const ports = wantedHostPorts(podSpec(ds), true);
    if (!ports.length) return [];
    const surge = ds.spec?.updateStrategy?.rollingUpdate?.maxSurge;
    return [
      {
        message: `maxSurge ${String(surge)} with host port(s) ${ports.map(formatHostPort).join(', ')}${podSpec(ds).hostNetwork ? ' (hostNetwork: container ports are host ports)' : ''}: each surge pod is Pending on its node while the old pod holds the port, so the rollout never completes`,
        path: 'spec.updateStrategy.rollingUpdate.maxSurge',
        fix: `replace old pods in place instead of surging:\n${yamlBlock({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } })}`,
      },
    ];
  },
};
