/**
 * Taints and tolerations: `Toleration.ToleratesTaint` (k8s.io/api/core/v1/toleration.go) and
 * `FindMatchingUntoleratedTaint` (k8s.io/component-helpers/scheduling/corev1/helpers.go).
 */
import type { Taint, Toleration } from '../model/k8s-types.js';

/** `Toleration.ToleratesTaint`, without the alpha Lt/Gt comparison operators (gate off by default). */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** `TolerationsTolerateTaint`: some toleration tolerates the taint. */
export function tolerationsTolerateTaint(tolerations: Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

/**
 * Every taint with one of `effects` that no toleration tolerates, in node order.
 * (Upstream's FindMatchingUntoleratedTaint returns the first of these.)
 */
export function untoleratedTaints(
  taints: Taint[] | undefined,
  tolerations: Toleration[] | undefined,
  effects: readonly string[],
): Taint[] {
  return (taints ?? []).filter((t) => effects.includes(t.effect) && !tolerationsTolerateTaint(tolerations, t));
}

/** `key=value:Effect` (or `key:Effect`), as kubectl prints a taint. */
export function formatTaint(taint: Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}

/** The scheduler's pre-1.35 TaintToleration reason body: `{key: value}`. */
export function formatTaintBraces(taint: Taint): string {
  return `{${taint.key}: ${taint.value ?? ''}}`;
}

/** The narrowest toleration that tolerates `taint`, as YAML flow text. */
export function tolerationFor(taint: Taint): Toleration {
  return taint.value
    ? { key: taint.key, operator: 'Equal', value: taint.value, effect: taint.effect }
    : { key: taint.key, operator: 'Exists', effect: taint.effect };
}

/** A toleration as a one-line YAML flow mapping. */
export function formatToleration(t: Toleration): string {
  const parts: string[] = [];
  if (t.key !== undefined) parts.push(`key: ${t.key}`);
  if (t.operator !== undefined) parts.push(`operator: ${t.operator}`);
  if (t.value !== undefined) parts.push(`value: ${JSON.stringify(t.value)}`);
  if (t.effect !== undefined) parts.push(`effect: ${t.effect}`);
  if (t.tolerationSeconds !== undefined) parts.push(`tolerationSeconds: ${t.tolerationSeconds}`);
  return `{${parts.join(', ')}}`;
}

/**
 * The taint a kubelet started with `--cloud-provider=external` puts on its Node when it registers
 * (kubernetes v1.35.4 pkg/kubelet/kubelet_node_status.go#initialNode), and the cloud controller
 * manager's node controller removes once it has initialised the node from the cloud: addresses,
 * provider ID, zone labels (staging/src/k8s.io/cloud-provider/controllers/node/node_controller.go
 * #syncNode; the key is cloudproviderapi.TaintExternalCloudProvider, api/well_known_taints.go).
 */
export const TAINT_EXTERNAL_CLOUD_PROVIDER = 'node.cloudprovider.kubernetes.io/uninitialized';
