/**
 * What an image pull failure says, from the kubelet's waiting message and Failed events
 * (kubernetes v1.35.4 pkg/kubelet/images/image_manager.go#EnsureImageExists passes the runtime's
 * error through). Registries answer with the error codes of the OCI distribution specification
 * (UNAUTHORIZED, DENIED, MANIFEST_UNKNOWN, NAME_UNKNOWN, TOOMANYREQUESTS), which the runtimes put
 * into their messages ("401 Unauthorized", "denied: requested access to the resource is denied",
 * "manifest unknown", "toomanyrequests"). The kubelet sends the pod's spec.imagePullSecrets with
 * the pull (pkg/kubelet/kuberuntime/kuberuntime_image.go#PullImage); a pod that sets none gets its
 * ServiceAccount's at admission (plugin/pkg/admission/serviceaccount/admission.go), so a bound pod
 * without any had none from either.
 */
import type { PodSpec } from '../model/k8s-types.js';

export type PullFailure = 'unauthorized' | 'not-found' | 'rate-limited';

export function pullFailure(texts: readonly string[]): PullFailure | undefined {
  const t = texts.join('\n');
  if (/toomanyrequests|too many requests|rate limit/i.test(t)) return 'rate-limited';
  if (
    /unauthorized|authentication required|no basic auth credentials|failed to (fetch|authorize)[^\n]*token|access to the resource is denied|insufficient_scope|\b40[13]\b/i.test(
      t,
    )
  )
    return 'unauthorized';
  if (/manifest unknown|name unknown|not found|does not exist/i.test(t)) return 'not-found';
  return undefined;
}

/**
 * The registry host of an image reference, as the runtimes resolve it (the docker reference
 * grammar: a first path component with a dot or a colon, or "localhost", is a host; otherwise the
 * image is on docker.io).
 */
export function imageRegistry(image: string): string {
  const first = image.split('/')[0] ?? '';
  return image.includes('/') && (/[.:]/.test(first) || first === 'localhost') ? first : 'docker.io';
}

/** A pod spec's imagePullSecrets names (the loader's shape check drops a malformed entry). */
export function pullSecretNames(spec: PodSpec | undefined): string[] {
  return (spec?.imagePullSecrets ?? []).map((r) => r.name ?? '').filter((n) => n !== '');
}
