/**
 * `max-unavailable-all-unprobed`: a rolling update that replaces every node at once has a
 * readiness probe to tell it a broken version.
 * Motivation: issue 39 (a log agent with `maxUnavailable: 100%` and no probe). The controller
 * deletes old pods up to the budget in one sync (docs/semantics.md §3.2, §3.3: a percentage of
 * the desired nodes, rounded up), so at 100% every node loses the agent together; a container
 * without a readiness probe is Ready once started (docs/semantics.md §3.5), so a version that
 * starts and then fails is on every node and `kubectl rollout status` reports success
 * (§3.9). With a readiness probe the status at least says so.
 */
import { isRollingUpdate } from '../../k8s/defaults.js';
import { allowsSurge, rollingBudget } from '../../k8s/rollingupdate.js';
import type { DaemonSet } from '../../model/k8s-types.js';
import type { LintContext, LintRule } from '../types.js';
import { agentContainers } from '../probes.js';
import { containerLabel, yamlBlock } from '../template.js';

/** Why the budget covers every node, or undefined: a percentage of 100 or more, or a number at least the node count of the input. */
function allAtOnce(ds: DaemonSet, ctx: LintContext): string | undefined {
  const written = ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable;
  const percent = typeof written === 'string' ? /^(\d+)%$/.exec(written.trim()) : null;
  if (percent && Number(percent[1]) >= 100) return `maxUnavailable ${written}`;
  if (typeof written !== 'number' || ctx.index.snapshot.nodes.length === 0) return undefined;
  const nodes = ctx.targetNodes(ds).length;
  if (nodes < 2 || rollingBudget(ds, nodes).maxUnavailable < nodes) return undefined;
  return `maxUnavailable ${written} with ${nodes} node(s) in the input`;
}

/** The `max-unavailable-all-unprobed` rule, as the registry lists it. */
export const maxUnavailableAllUnprobed: LintRule = {
  meta: {
    id: 'max-unavailable-all-unprobed',
    severity: 'warning',
    description:
      "A RollingUpdate whose maxUnavailable covers every node (`100%`, or a number at least the input's node count) has a readiness probe on at least one agent container.",
    rationale:
      'The controller deletes as many old pods at once as the budget allows: at 100% it takes the agent off every node together and starts the new version everywhere. A container without a readiness probe is Ready as soon as it starts, so a version that starts and then fails (bad configuration, a backend it cannot reach) is on every node before anything says so, and `kubectl rollout status` reports success. A readiness probe makes the status show the broken version; a smaller budget keeps most nodes on the old one while it shows.',
    howToFix:
      'Add a readiness probe to the agent container and lower maxUnavailable (e.g. `25%`), so that a broken version stops the rollout while most nodes still run the old one.',
    example:
      'spec:\n  updateStrategy:\n    rollingUpdate: {maxUnavailable: 100%}\n  template:\n    spec:\n      containers:\n        - name: agent   # no readinessProbe',
  },
  check(ds, ctx) {
    if (!isRollingUpdate(ds) || allowsSurge(ds)) return [];
    const all = allAtOnce(ds, ctx);
    if (!all) return [];
    const agents = agentContainers(ds);
    if (!agents.length || agents.some((r) => r.container.readinessProbe)) return [];
    return [
      {
        message: `${all}: a rollout takes the agent off every node at once, and no container (${agents.map(containerLabel).join(', ')}) has a readiness probe, so a new version that starts and then fails is on every node before anything reports it, and kubectl rollout status reports success`,
        path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
        fix: `add a readiness probe (see readiness-probe-missing) and roll part of the fleet at a time:\n${yamlBlock({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%' } } })}`,
      },
    ];
  },
};
