/**
 * `selector-template-mismatch`: `spec.selector` is valid, non-empty and selects the template's
 * labels.
 * Motivation: `ValidateDaemonSetSpec` (docs/semantics.md §3.2: "`selector` does not match template
 * `labels`", "empty selector is invalid for daemonset") — the API server rejects such a
 * DaemonSet, and since the selector is immutable, fixing it later means recreating it.
 */
import { compileLabelSelector, formatLabelSelector } from '../../k8s/labels.js';
import type { LintRule } from '../types.js';
import { yamlBlock } from '../template.js';

const LEGACY = new Set(['extensions/v1beta1', 'apps/v1beta2', 'apps/v1beta1']);

/** The `selector-template-mismatch` rule, as the registry lists it. */
export const selectorTemplateMismatch: LintRule = {
  meta: {
    id: 'selector-template-mismatch',
    severity: 'error',
    description: '`spec.selector` is present, non-empty, valid, and matches `spec.template.metadata.labels`.',
    rationale:
      'The API server rejects a DaemonSet whose selector is empty ("empty selector is invalid for daemonset") or does not select its own template ("`selector` does not match template `labels`"). The selector is immutable, so a wrong one found after creation means deleting and recreating the DaemonSet.',
    howToFix:
      'Make `spec.selector.matchLabels` a subset of `spec.template.metadata.labels` (usually the same `app` label), and choose it for good: it cannot be changed later.',
    example:
      'spec:\n  selector:\n    matchLabels: {app: agent}\n  template:\n    metadata:\n      labels: {app: node-agent}',
  },
  check(ds) {
    const selector = ds.spec?.selector;
    const labels = ds.spec?.template?.metadata?.labels ?? {};
    // extensions/v1beta1 defaulted a missing selector from the labels: deprecated-api-version explains that case.
    if (selector === undefined && LEGACY.has(ds.apiVersion ?? '')) return [];
    const fix = `select the template's labels:\n${yamlBlock({ selector: { matchLabels: Object.keys(labels).length ? labels : { app: ds.metadata?.name ?? 'agent' } } })}`;
    const compiled = compileLabelSelector(selector ?? {});
    if (!compiled.ok) {
      return [
        {
          message: `spec.selector does not parse: ${compiled.error}; the API server rejects the DaemonSet`,
          path: 'spec.selector',
          fix,
        },
      ];
    }
    if (compiled.empty) {
      return [
        {
          message: `spec.selector is ${selector === undefined ? 'missing' : 'empty'}: the API server rejects the DaemonSet (empty selector is invalid for daemonset)`,
          path: 'spec.selector',
          fix,
        },
      ];
    }
    if (!compiled.matches(labels)) {
      return [
        {
          message: `spec.selector (${formatLabelSelector(selector)}) does not match the template labels (${
            Object.entries(labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(',') || 'none'
          }): the API server rejects the DaemonSet (\`selector\` does not match template \`labels\`)`,
          path: 'spec.selector',
          fix,
        },
      ];
    }
    return [];
  },
};
