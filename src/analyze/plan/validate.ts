/**
 * What the API server refuses before any controller sees the change: the DaemonSet validation
 * mirrored in `k8s/validation.ts` (`ValidateDaemonSet` for a new DaemonSet,
 * `ValidateDaemonSetUpdate` over the existing one), worded as the API server's Invalid status.
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import { formatLabelSelector } from '../../k8s/labels.js';
import { invalidMessage, validateDaemonSet, validateDaemonSetUpdate } from '../../k8s/validation.js';

/** The API server's refusal of applying `manifest` over `current`, as its Invalid status says it, or undefined. */
export function applyRefusal(manifest: DaemonSet, current: DaemonSet | undefined): string | undefined {
  const errs = current ? validateDaemonSetUpdate(manifest, current) : validateDaemonSet(manifest);
  if (!errs.length) return undefined;
  const message = invalidMessage(manifest.metadata?.name ?? '', errs);
  const immutable = current && errs.some((e) => e.field === 'spec.selector' && e.detail === 'field is immutable');
  // The way out is ours, after the API's text: a selector is changed only by recreating the DaemonSet.
  return immutable
    ? `${message} (the existing DaemonSet selects ${formatLabelSelector(current.spec?.selector)}; delete it with --cascade=orphan first)`
    : message;
}
