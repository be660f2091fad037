/**
 * `update-strategy-on-delete`: says what `updateStrategy: OnDelete` implies.
 * Motivation: the DaemonSet guide, 更新策略 (OnDelete: template changes do not roll out until
 * old pods are deleted by hand); docs/semantics.md §3.6 (status keeps updatedNumberScheduled < desired)
 * and §3.9 (`kubectl rollout status` refuses OnDelete DaemonSets).
 */
import type { LintRule } from '../types.js';
import { yamlBlock } from '../template.js';

/** The `update-strategy-on-delete` rule, as the registry lists it. */
export const updateStrategyOnDelete: LintRule = {
  meta: {
    id: 'update-strategy-on-delete',
    severity: 'info',
    description: 'Reports `updateStrategy.type: OnDelete` with what it implies.',
    rationale:
      'With OnDelete a template change reaches a node only when its pod is deleted (by hand, by node replacement, or when it fails). Until then the fleet runs mixed versions, `updatedNumberScheduled` stays below desired, and `kubectl rollout status` refuses to run. That suits careful changes to critical agents, if a procedure exists.',
    howToFix:
      'Keep OnDelete only with a documented node-by-node procedure (delete the pod on one node, verify, continue); otherwise use RollingUpdate.',
    example: 'spec:\n  updateStrategy:\n    type: OnDelete',
  },
  check(ds) {
    if (ds.spec?.updateStrategy?.type !== 'OnDelete') return [];
    return [
      {
        message:
          'updateStrategy OnDelete: a template change reaches a node only when its pod is deleted, so nodes run mixed versions until someone deletes every old pod, updatedNumberScheduled stays below desired, and kubectl rollout status refuses to run',
        path: 'spec.updateStrategy.type',
        fix: `document the node-by-node procedure (delete one pod, verify, continue), or let the controller roll:\n${yamlBlock({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } } })}`,
      },
    ];
  },
};
