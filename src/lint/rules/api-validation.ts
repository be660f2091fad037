/**
 * `api-validation`: the API server would refuse the DaemonSet, with the API's own field path and
 * text.
 * Motivation: `ValidateDaemonSet` (kubernetes v1.35.4 pkg/apis/apps/validation/validation.go,
 * mirrored in `k8s/validation.ts`; docs/semantics.md §3.2): an update strategy with both
 * maxUnavailable and maxSurge non-zero (maxSurge with the defaulted maxUnavailable 1), both zero,
 * a percentage over 100% or without `%`, an unknown strategy type, a restart policy other than
 * Always, and the pod template's checks of the fields ds-doctor reads. The selector's refusals are
 * `selector-template-mismatch`'s, which says how to choose a selector for good.
 */
import { formatFieldError, validateDaemonSet, type FieldError } from '../../k8s/validation.js';
import type { LintRule } from '../types.js';
import { yamlBlock } from '../template.js';

/** The refusals `selector-template-mismatch` reports (a missing, empty or non-matching selector). */
function selectorRule(e: FieldError): boolean {
  return (
    e.detail === '`selector` does not match template `labels`' || e.detail === 'empty selector is invalid for daemonset'
  );
}

/** What to write instead, for the refusals that have one way out. */
function fixFor(e: FieldError): string {
  const path = e.field;
  if (path.endsWith('rollingUpdate.maxSurge') && e.detail.startsWith('may not be set')) {
    return `a surge needs maxUnavailable written as 0 (it defaults to 1):\n${yamlBlock({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: e.value as number | string } } })}`;
  }
  if (path.endsWith('rollingUpdate.maxUnavailable') && e.detail.startsWith('cannot be 0')) {
    return `let one of the two be non-zero:\n${yamlBlock({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } } })}`;
  }
  if (path === 'spec.updateStrategy')
    return `use a type the API knows:\n${yamlBlock({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } } })}`;
  if (path === 'spec.template.spec.restartPolicy')
    return 'remove restartPolicy (a DaemonSet pod always restarts: Always is the only value allowed)';
  if (path === 'spec.template.spec.activeDeadlineSeconds')
    return 'remove activeDeadlineSeconds: a daemon pod runs until its node or the DaemonSet goes';
  return `change ${path} as the message says; \`kubectl apply --dry-run=server -f\` shows every refusal`;
}

/** The `api-validation` rule, as the registry lists it. */
export const apiValidation: LintRule = {
  meta: {
    id: 'api-validation',
    severity: 'error',
    description:
      'The API server accepts the DaemonSet: its update strategy, restart policy and the pod template fields ds-doctor reads pass `ValidateDaemonSet`.',
    rationale:
      'The API server validates a DaemonSet after defaulting it (`SetDefaults_DaemonSet` writes maxUnavailable 1 and maxSurge 0 when absent), so `maxSurge: 1` alone is refused ("may not be set when maxUnavailable is non-zero"), as are `maxUnavailable: 0` without surge ("cannot be 0 when maxSurge is 0"), percentages over 100%, an unknown strategy type, and a restart policy other than Always (`ValidateDaemonSetSpec`, `ValidateRollingUpdateDaemonSet`). `kubectl apply` fails and nothing rolls out.',
    howToFix: 'Change the field the message names; for a surge, write `maxUnavailable: 0` next to `maxSurge`.',
    example: 'spec:\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 1',
  },
  check(ds) {
    return validateDaemonSet(ds)
      .filter((e) => !selectorRule(e))
      .map((e) => ({
        message: `the API server refuses the DaemonSet: ${formatFieldError(e)}`,
        path: e.field,
        fix: fixFor(e),
      }));
  },
};
