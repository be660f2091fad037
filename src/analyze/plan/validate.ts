/**
 * What the API server refuses before any controller sees the change: the DaemonSet validation of
 * kubernetes v1.35 pkg/apis/apps/validation/validation.go (`ValidateDaemonSetSpec`,
 * `ValidateDaemonSetUpdate`): a selector is required, may not be empty, must match the template's
 * labels, and may not change on an existing DaemonSet.
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import { compileLabelSelector, formatLabelSelector } from '../../k8s/labels.js';
import { semanticEqual } from '../../k8s/revision.js';

/** extensions/v1beta1 defaulted a missing selector to the template's labels and let it change (kubernetes v1.15 pkg/apis/extensions/v1beta1/defaults.go). */
const LEGACY = 'extensions/v1beta1';

/** The API server's refusal of applying `manifest` over `current`, as kubectl prints it, or undefined. */
export function applyRefusal(manifest: DaemonSet, current: DaemonSet | undefined): string | undefined {
  const name = `daemonset "${manifest.metadata?.name ?? ''}"`;
  const legacy = manifest.apiVersion === LEGACY;
  const templateLabels = manifest.spec?.template?.metadata?.labels;
  const selector = manifest.spec?.selector ?? (legacy && templateLabels ? { matchLabels: templateLabels } : undefined);
  if (!selector) return `${name} is invalid: spec.selector: Required value`;
  const compiled = compileLabelSelector(selector);
  if (!compiled.ok) return `${name} is invalid: spec.selector: Invalid value: ${compiled.error}`;
  if (compiled.empty) return `${name} is invalid: spec.selector: Invalid value: empty selector is invalid for daemonset`;
  if (!compiled.matches(manifest.spec?.template?.metadata?.labels ?? {})) {
    return `${name} is invalid: spec.template.metadata.labels: Invalid value: \`selector\` (${formatLabelSelector(selector)}) does not match template \`labels\``;
  }
  if (current && !legacy && !semanticEqual(current.spec?.selector, selector)) {
    return `${name} is invalid: spec.selector: Invalid value: ${formatLabelSelector(selector)}: field is immutable (the existing DaemonSet selects ${formatLabelSelector(current.spec?.selector)}; delete it with --cascade=orphan first)`;
  }
  return undefined;
}
