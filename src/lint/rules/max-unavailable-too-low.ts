/**
 * `max-unavailable-too-low`: a rollout over the cluster's nodes finishes in reasonable time.
 * Motivation: the budget arithmetic of the controller (docs/semantics.md §3.2: percentages round up,
 * both zero → 1) and the stalled large-cluster rollouts of kubernetes/test-infra #31706,
 * dra-driver-nvidia-gpu #591 and node-feature-discovery #2586, where the default
 * `maxUnavailable: 1` serialises hundreds of nodes behind any single broken one.
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import { formatDuration, parseRfc3339 } from '../../model/duration.js';
import { podCondition } from '../../k8s/podutil.js';
import { rollingBudget } from '../../k8s/rollingupdate.js';
import type { LintContext, LintRule } from '../types.js';
import { nodesUnavailable } from '../context.js';
import { isRollingUpdate } from '../../k8s/defaults.js';
import { findRole, yamlBlock } from '../template.js';

/** Above this estimate the rule fires. */
const TOO_LONG_SECONDS = 30 * 60;
/** The rollout time the suggested percentage aims at. */
const TARGET_SECONDS = 10 * 60;
/** Time a node takes when the input has no pod history: the issue's "a minute a node". */
const DEFAULT_NODE_SECONDS = 60;

/** Seconds one node takes to roll: the median creation→Ready of the DaemonSet's pods, or a minute; plus minReadySeconds. */
export function secondsPerNode(ds: DaemonSet, ctx: LintContext): { seconds: number; source: string } {
  const durations = ctx.index
    .podsControlledBy('DaemonSet', ds)
    .map((p) => {
      const ready = podCondition(p, 'Ready');
      if (ready?.status !== 'True' || !ready.lastTransitionTime || !p.metadata?.creationTimestamp) return NaN;
      return (parseRfc3339(ready.lastTransitionTime) - parseRfc3339(p.metadata.creationTimestamp)) / 1000;
    })
    // A pod that turned Ready again hours after creation (a restart) says nothing about start-up time.
    .filter((d) => Number.isFinite(d) && d > 0 && d < 3600)
    .sort((a, b) => a - b);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const extra = minReady ? ` + minReadySeconds ${minReady}s` : '';
  if (!durations.length)
    return {
      seconds: DEFAULT_NODE_SECONDS + minReady,
      source: `assumed a minute a node${extra}: no pod history in the input`,
    };
  const median = Math.max(1, Math.round(durations[Math.floor(durations.length / 2)]!));
  return {
    seconds: median + minReady,
    source: `the median creation-to-Ready time of ${durations.length} pod(s) in the input, ${median}s${extra}`,
  };
}

function about(seconds: number): string {
  return `about ${formatDuration(seconds * 1000)}`;
}

/** The `max-unavailable-too-low` rule, as the registry lists it. */
export const maxUnavailableTooLow: LintRule = {
  meta: {
    id: 'max-unavailable-too-low',
    severity: 'warning',
    description:
      'A rolling update over the nodes the DaemonSet runs on takes at most about 30 minutes at its maxUnavailable (or maxSurge).',
    rationale:
      "The controller replaces at most maxUnavailable pods at a time (a percentage of the DaemonSet's nodes, rounded up; 1 by default). On a large cluster `maxUnavailable: 1` serialises the rollout node by node for hours, and any node whose new pod does not become ready stops it (kubernetes/test-infra #31706, node-feature-discovery #2586).",
    howToFix:
      "Use a percentage that rolls the fleet in about ten minutes; the finding computes one from the node count and the per-node time (the median start-up time of the DaemonSet's pods when the input has them, otherwise a minute).",
    example:
      'spec:\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 1   # with 400 nodes: ~400 minutes',
    needsCluster: 'Nodes (the node count the DaemonSet runs on); Pods for the per-node time, when present',
  },
  notChecked: nodesUnavailable,
  check(ds, ctx) {
    if (!isRollingUpdate(ds)) return [];
    const nodes = ctx.targetNodes(ds).length;
    const budget = rollingBudget(ds, nodes);
    if (nodes === 0 || budget.error) return [];
    const surge = budget.maxSurge > 0;
    const perRound = surge ? budget.maxSurge : budget.maxUnavailable;
    const field = surge ? 'maxSurge' : 'maxUnavailable';
    const written = ds.spec?.updateStrategy?.rollingUpdate?.[field] ?? 1;
    const node = secondsPerNode(ds, ctx);
    const rounds = Math.ceil(nodes / perRound);
    const total = rounds * node.seconds;
    if (total <= TOO_LONG_SECONDS) return [];
    const targetRounds = Math.max(1, Math.floor(TARGET_SECONDS / node.seconds));
    const percent = Math.min(100, Math.max(1, Math.ceil((Math.ceil(nodes / targetRounds) * 100) / nodes)));
    const suggested = Math.ceil((percent * nodes) / 100);
    const suggestedTotal = Math.ceil(nodes / suggested) * node.seconds;
    const network = findRole(ctx.roles(ds), 'network');
    return [
      {
        message: `a rollout replaces ${perRound} of ${nodes} node(s) at a time (${field} ${String(written)}): ${rounds} rounds, ${about(total)} at ${node.seconds}s a node (${node.source}); one node whose new pod never becomes ready stops it${network ? '. For a CNI agent, weigh speed against how many nodes may lose pod networking at once' : ''}`,
        path: `spec.updateStrategy.rollingUpdate.${field}`,
        fix: `roll ${suggested} node(s) at a time, ${about(suggestedTotal)}:\n${yamlBlock({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: surge ? { maxSurge: `${percent}%`, maxUnavailable: 0 } : { maxUnavailable: `${percent}%` } } })}`,
      },
    ];
  },
};
