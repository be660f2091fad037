/**
 * Classification of the controller's `FailedCreate` messages (`Error creating: <err>`, emitted by
 * RealPodControl in pkg/controller/controller_utils.go) by the admission step that refused the pod.
 */

export interface CreateErrorClass {
  /** PodSecurity, ResourceQuota, LimitRange, admission webhook, … */
  kind: string;
  summary: string;
  fix: string;
}

/** The namespace label that sets the PodSecurity level enforced on its pods. */
const PSA_ENFORCE = 'pod-security.kubernetes.io/enforce';

/**
 * Classifies one FailedCreate message. `namespaceLabels` are the labels of the DaemonSet's
 * Namespace when the input holds it: PodSecurity enforces the namespace's enforce label and,
 * where the namespace sets none, the default of the API server's admission configuration
 * (kubernetes v1.35.4 staging/src/k8s.io/pod-security-admission/api/helpers.go#PolicyToEvaluate).
 */
export function classifyCreateError(
  message: string,
  namespace: string,
  namespaceLabels?: Record<string, string>,
): CreateErrorClass {
  const msg = message.replace(/^Error creating:\s*/, '').trim();
  let m = /violates PodSecurity "([^"]+)":\s*(.*)$/.exec(msg);
  if (m) {
    const level = m[1]!.split(':')[0];
    const byDefault = namespaceLabels !== undefined && !(PSA_ENFORCE in namespaceLabels);
    return {
      kind: 'PodSecurity',
      summary: byDefault
        ? `the pod violates PodSecurity "${m[1]}", the cluster's default level (namespace ${namespace} has no ${PSA_ENFORCE} label, so the API server's admission configuration decides): ${m[2]}`
        : `the pod violates the namespace's PodSecurity "${m[1]}" policy: ${m[2]}`,
      fix: `node agents usually need the privileged level: kubectl label namespace ${namespace} pod-security.kubernetes.io/enforce=privileged --overwrite (or make the pod meet "${level}")`,
    };
  }
  m = /exceeded quota: ([^,]+), requested: (.*?), used: (.*?), limited: (.*)$/.exec(msg);
  if (m) {
    return {
      kind: 'ResourceQuota',
      summary: `ResourceQuota "${m[1]}" is exhausted (requested ${m[2]}, used ${m[3]}, limited ${m[4]})`,
      fix: `raise the quota (kubectl edit resourcequota -n ${namespace} ${m[1]}) or lower the DaemonSet's requests`,
    };
  }
  if (/must specify limits|must specify requests|failed quota/.test(msg)) {
    return {
      kind: 'ResourceQuota',
      summary: `a ResourceQuota in namespace ${namespace} requires requests/limits the pod does not set: ${msg}`,
      fix: 'set resources.requests and resources.limits on every container (and init container)',
    };
  }
  if (
    /(maximum|minimum) (cpu|memory|ephemeral-storage|storage) usage per (Container|Pod)|limit to request ratio/.test(
      msg,
    )
  ) {
    return {
      kind: 'LimitRange',
      summary: `a LimitRange in namespace ${namespace} refuses the pod's resources: ${msg.replace(/^pods? "[^"]*" is forbidden: /, '')}`,
      fix: `adjust the DaemonSet's requests/limits to the LimitRange (kubectl describe limitrange -n ${namespace})`,
    };
  }
  m = /admission webhook "([^"]+)" denied the request:?\s*(.*)$/.exec(msg);
  if (m) {
    return {
      kind: 'admission webhook',
      summary: `admission webhook "${m[1]}" denied the pod: ${m[2] || '(no reason given)'}`,
      fix: `change the pod to satisfy the policy behind webhook "${m[1]}", or add an exception for this DaemonSet there`,
    };
  }
  m = /failed calling webhook "([^"]+)":?\s*(.*)$/.exec(msg);
  if (m) {
    return {
      kind: 'admission webhook unreachable',
      summary: `admission webhook "${m[1]}" could not be called (${m[2]}) and fails closed`,
      fix: `restore the webhook's backend, or set its failurePolicy to Ignore while it is down`,
    };
  }
  m = /error looking up service account ([^:]+):/.exec(msg) ?? /serviceaccount "([^"]+)" not found/.exec(msg);
  if (m) {
    return {
      kind: 'ServiceAccount',
      summary: `service account ${m[1]} does not exist`,
      fix: `create the service account (kubectl create serviceaccount -n ${namespace} ${m[1]!.split('/').pop()}) or fix spec.template.spec.serviceAccountName`,
    };
  }
  if (/is forbidden: unable to create new content in namespace .* because it is being terminated/.test(msg)) {
    return {
      kind: 'namespace terminating',
      summary: `namespace ${namespace} is being deleted`,
      fix: 'wait for the namespace deletion, then re-create the DaemonSet elsewhere',
    };
  }
  if (/Invalid value|is invalid/.test(msg)) {
    return {
      kind: 'validation',
      summary: `the API server rejects the pod as invalid: ${msg}`,
      fix: 'fix the template field named in the message and re-apply',
    };
  }
  return {
    kind: 'API error',
    summary: msg,
    fix: 'read the full message: kubectl describe daemonset; fix what it names',
  };
}

/** A harmless update of the DaemonSet (an annotation on its metadata, not its template). */
export function touchCommand(namespace: string, name: string): string {
  return `kubectl annotate daemonset/${name} -n ${namespace} ds-doctor/retry-at="$(date +%s)" --overwrite`;
}

/**
 * When a fixed create is retried. A failed sync goes back on the controller's rate-limited queue
 * (processNextWorkItem → AddRateLimited: 5ms doubling up to 1000s), while any update of the
 * DaemonSet re-queues it at once (updateDaemonset → enqueueDaemonSet): kubernetes v1.35
 * pkg/controller/daemon/daemon_controller.go. A namespace relabel or a quota change is no event
 * the DaemonSet controller watches.
 */
export function createRetryNote(namespace: string, name: string): string {
  return `after the fix the controller retries only when its back-off expires (it doubles with each failure, up to about 17 minutes); to retry now, update the DaemonSet, which re-queues it at once: ${touchCommand(namespace, name)}`;
}
