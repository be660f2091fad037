/**
 * What `kubectl rollout status daemonset/<name>` prints and whether it stops: a mirror of
 * `DaemonSetStatusViewer.Status` in kubectl's pkg/polymorphichelpers/rollout_status.go. It reads
 * `.status` only (never the pods), so its lines are the ones deploy pipelines already grep for.
 */
import type { DaemonSet } from '../model/k8s-types.js';
import { isRollingUpdate } from './defaults.js';

/** One answer of the status viewer: the line (without kubectl's trailing newline), and whether the rollout is done. */
export interface RolloutStatusView {
  message: string;
  done: boolean;
  /** kubectl returns an error instead of a line (an OnDelete DaemonSet); `message` is then its text. */
  error?: true;
}

/**
 * DaemonSetStatusViewer.Status: with an OnDelete strategy an error (kubectl names the StatefulSet
 * constant, whose value is the same "RollingUpdate"); while `.metadata.generation` is ahead of
 * `.status.observedGeneration`, the spec update is not yet observed; then the updated count, then
 * the available count, against `desiredNumberScheduled`.
 */
export function daemonSetStatusView(ds: DaemonSet): RolloutStatusView {
  const name = ds.metadata?.name ?? '';
  if (!isRollingUpdate(ds))
    return { message: 'rollout status is only available for RollingUpdate strategy type', done: true, error: true };
  const st = ds.status ?? {};
  if ((ds.metadata?.generation ?? 0) > (st.observedGeneration ?? 0))
    return { message: 'Waiting for daemon set spec update to be observed...', done: false };
  const desired = st.desiredNumberScheduled ?? 0;
  const updated = st.updatedNumberScheduled ?? 0;
  if (updated < desired)
    return {
      message: `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
      done: false,
    };
  const available = st.numberAvailable ?? 0;
  if (available < desired)
    return {
      message: `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...`,
      done: false,
    };
  return { message: `daemon set "${name}" successfully rolled out`, done: true };
}
