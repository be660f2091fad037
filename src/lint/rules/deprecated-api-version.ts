/**
 * `deprecated-api-version`: the DaemonSet is written against `apps/v1`.
 * Motivation: the DaemonSet guide, 版本相关 (old clusters' extensions/v1beta1 must move to
 * apps/v1); the API removal in Kubernetes 1.16; kube-score's stable-version and kube-linter's
 * no-extensions-v1beta checks. The migration changes behaviour, which the finding spells out.
 */
import type { LintRule } from '../types.js';
import { updateStrategyType } from '../../k8s/defaults.js';
import { yamlBlock } from '../template.js';

/** Removed DaemonSet API versions, and what apps/v1 changes for each. */
const REMOVED: Record<string, string> = {
  'extensions/v1beta1':
    'apps/v1 requires spec.selector (extensions/v1beta1 defaulted it from the template labels) and makes it immutable, and defaults updateStrategy to RollingUpdate where extensions/v1beta1 defaulted to OnDelete',
  'apps/v1beta2':
    'apps/v1 keeps its semantics: spec.selector is required and immutable, updateStrategy defaults to RollingUpdate',
  'apps/v1beta1':
    'apps/v1beta1 never served DaemonSets; apps/v1 requires spec.selector (immutable) and defaults updateStrategy to RollingUpdate',
};

/** The `deprecated-api-version` rule, as the registry lists it. */
export const deprecatedApiVersion: LintRule = {
  meta: {
    id: 'deprecated-api-version',
    severity: 'error',
    description: 'The DaemonSet uses `apps/v1`, not `extensions/v1beta1`, `apps/v1beta2` or `apps/v1beta1`.',
    rationale:
      'The beta DaemonSet APIs were removed in Kubernetes 1.16: the API server rejects such a manifest. Migrating is not a rename: apps/v1 requires an explicit, immutable selector, and an extensions/v1beta1 DaemonSet without updateStrategy silently changes from OnDelete to RollingUpdate (DaemonSet guide, "version notes").',
    howToFix:
      'Write `apiVersion: apps/v1`, add `spec.selector.matchLabels` equal to (a subset of) the template labels, and write `updateStrategy` explicitly (OnDelete keeps the old extensions/v1beta1 behaviour).',
    example:
      'apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  template:\n    metadata:\n      labels: {app: agent}',
  },
  check(ds) {
    const version = ds.apiVersion ?? '';
    const change = REMOVED[version];
    if (!change) return [];
    const labels = ds.spec?.template?.metadata?.labels ?? {};
    // Without a written strategy, an extensions/v1beta1 DaemonSet was OnDelete: keep that unless the author chooses otherwise.
    const changesDefault = version === 'extensions/v1beta1' && ds.spec?.updateStrategy?.type === undefined;
    const strategy = changesDefault ? 'OnDelete' : updateStrategyType(ds);
    return [
      {
        message: `apiVersion ${version} was removed in Kubernetes 1.16 and the API server rejects it; ${change}${changesDefault ? '. This manifest sets no updateStrategy, so it was OnDelete and would become RollingUpdate' : ''}`,
        path: 'apiVersion',
        fix: `migrate to apps/v1 with an explicit selector and strategy:\n${yamlBlock({
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          spec: {
            selector: { matchLabels: ds.spec?.selector?.matchLabels ?? labels },
            updateStrategy: { type: strategy },
          },
        })}`,
      },
    ];
  },
};
