/**
 * `pdb-missing`: a critical DaemonSet has a PodDisruptionBudget.
 * Motivation: the DaemonSet guide, 生产实践 "关键 DaemonSet 配 PDB". docs/semantics.md §5.3 qualifies it:
 * `kubectl drain --ignore-daemonsets` never evicts daemon pods, so the budget protects against
 * the other callers of the Eviction API (the cluster-autoscaler's scale-down evicts DaemonSet
 * pods by default), hence info rather than warning.
 */
import { selectorMatches, type Labels } from '../../k8s/labels.js';
import type { PodDisruptionBudget } from '../../model/k8s-types.js';
import type { LintRule } from '../types.js';
import { kindUnavailable } from '../context.js';
import { podSpec, roleText, yamlBlock } from '../template.js';

const CRITICAL_CLASSES = new Set(['system-node-critical', 'system-cluster-critical']);

/**
 * True when the budget selects pods with `labels` (the disruption controller's `getPodsForPdb`):
 * a null selector selects no pod; an empty one selects every pod of the namespace in policy/v1
 * and none in policy/v1beta1; otherwise the selector must match.
 */
export function budgetSelects(pdb: PodDisruptionBudget, labels: Labels | undefined): boolean {
  const selector = pdb.spec?.selector;
  if (selector === undefined || selector === null) return false;
  const empty = !Object.keys(selector.matchLabels ?? {}).length && !(selector.matchExpressions ?? []).length;
  if (empty) return pdb.apiVersion !== 'policy/v1beta1';
  return selectorMatches(selector, labels);
}

/** The `pdb-missing` rule, as the registry lists it. */
export const pdbMissing: LintRule = {
  meta: {
    id: 'pdb-missing',
    severity: 'info',
    description:
      'A critical DaemonSet (a node-agent role, or a system-*-critical priority class) is covered by a PodDisruptionBudget that selects its pods: same namespace, and a selector matching the template labels (an empty policy/v1 selector selects every pod, a missing one none).',
    rationale:
      "The DaemonSet guide recommends a PDB for critical DaemonSets so that maintenance does not take too many log or monitoring pods at once. `kubectl drain` itself leaves DaemonSet pods alone (`--ignore-daemonsets`), but other callers of the Eviction API, such as the cluster-autoscaler's scale-down, evict them and respect a PDB.",
    howToFix:
      "Add a `policy/v1` PodDisruptionBudget selecting the template labels, with `maxUnavailable` near the rollout's budget (e.g. 10%).",
    example: '# a kube-system CNI DaemonSet and no PodDisruptionBudget selecting app=calico-node',
    needsCluster: 'PodDisruptionBudgets (from the cluster, or in the same input as the manifest)',
  },
  notChecked(ctx) {
    const why = kindUnavailable(ctx, 'PodDisruptionBudget');
    return why && `${why}: add the PDB manifests to the input, or lint a live cluster`;
  },
  check(ds, ctx) {
    const role = ctx.roles(ds)[0];
    const priority = podSpec(ds).priorityClassName ?? '';
    if (!role && !CRITICAL_CLASSES.has(priority)) return [];
    const ns = ds.metadata?.namespace ?? 'default';
    const labels = ds.spec?.template?.metadata?.labels;
    const covered = ctx.index.snapshot.podDisruptionBudgets.some(
      (p) => (p.metadata?.namespace ?? 'default') === ns && budgetSelects(p, labels),
    );
    if (covered) return [];
    const what = role ? roleText(role) : `DaemonSet of priority class ${priority}`;
    return [
      {
        message: `no PodDisruptionBudget in namespace ${ns ?? 'default'} selects the pods of this ${what}: evictions through the Eviction API (e.g. cluster-autoscaler scale-down) are not bounded`,
        path: 'spec.template.metadata.labels',
        fix: `add a budget:\n${yamlBlock({
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: ds.metadata?.name ?? 'agent', namespace: ns ?? 'default' },
          spec: { maxUnavailable: '10%', selector: { matchLabels: ds.spec?.selector?.matchLabels ?? labels ?? {} } },
        })}`,
      },
    ];
  },
};
