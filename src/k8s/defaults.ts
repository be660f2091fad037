/**
 * API defaulting of a DaemonSet that the analyses read: `SetDefaults_DaemonSet`
 * (kubernetes v1.35 pkg/apis/apps/v1/defaults.go#SetDefaults_DaemonSet). A dump written by the
 * API server carries the defaults; a manifest may leave them out.
 */
import type { DaemonSet } from '../model/k8s-types.js';

/** `spec.updateStrategy.type`, or `RollingUpdate`, which apps/v1 defaulting sets when it is absent or empty. */
export function updateStrategyType(ds: DaemonSet): string {
  return ds.spec?.updateStrategy?.type || 'RollingUpdate';
}

/** True when the update strategy is RollingUpdate, written or defaulted. */
export function isRollingUpdate(ds: DaemonSet): boolean {
  return updateStrategyType(ds) === 'RollingUpdate';
}
