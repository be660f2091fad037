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
 * Classifies one FailedCreate message. A ResourceQuota admission configured with limitedResources
 * refuses a pod whose scope (say PriorityClass In [system-node-critical]) or resource no quota of
 * the namespace covers: "insufficient quota to match these scopes: [{PriorityClass In [...]}]" and
 * "insufficient quota to consume: ..." (kubernetes v1.35.4
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go#CheckRequest; the
 * plugin/pkg/admission/resourcequota/admission_test.go#TestAdmitLimitedScopeWithCoverQuota).
 * `namespaceLabels` are the labels of the DaemonSet's Namespace when the input holds it:
 * PodSecurity enforces the namespace's enforce label and, where the namespace sets none, the
 * default of the API server's admission configuration
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
  m = /insufficient quota to match these scopes: \[(.*)\]\s*$/.exec(msg);
  if (m) {
    const scopes = [...m[1]!.matchAll(/\{(\w+) (\w+) \[([^\]]*)\]\}/g)].map((s) => ({
      scopeName: s[1]!,
      operator: s[2]!,
      values: s[3]!.split(' ').filter(Boolean),
    }));
    const named = scopes.length
      ? scopes
          .map((s) => `${s.scopeName} ${s.operator}${s.values.length ? ` [${s.values.join(', ')}]` : ''}`)
          .join('; ')
      : m[1]!;
    const selector = scopes
      .map(
        (s) =>
          `{"scopeName":"${s.scopeName}","operator":"${s.operator}"${s.values.length ? `,"values":[${s.values.map((v) => `"${v}"`).join(',')}]` : ''}}`,
      )
      .join(',');
    const quota = `kubectl apply -f - <<<'{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"critical-pods","namespace":"${namespace}"},"spec":{"hard":{"pods":"1k"},"scopeSelector":{"matchExpressions":[${selector}]}}}'`;
    const priority = scopes.some((s) => s.scopeName === 'PriorityClass');
    const critical = scopes.some(
      (s) => s.scopeName === 'PriorityClass' && s.values.some((v) => /^system-(node|cluster)-critical$/.test(v)),
    );
    return {
      kind: 'ResourceQuota scope',
      summary: `the API server admits pods of scope ${named} only in a namespace with a ResourceQuota that covers that scope, and namespace ${namespace} has none (the ResourceQuota admission's limitedResources${critical ? '; GKE sets it for the system-node-critical and system-cluster-critical priority classes and ships the covering quota only in its own namespaces, such as kube-system' : ''})`,
      fix: `create a ResourceQuota in namespace ${namespace} whose scopeSelector covers it: ${quota}${priority ? ", or run the DaemonSet in a namespace that has one (kube-system), or drop the template's priorityClassName" : ''}`,
    };
  }
  m = /insufficient quota to consume: (.*)$/.exec(msg);
  if (m) {
    return {
      kind: 'ResourceQuota scope',
      summary: `the API server admits pods that consume ${m[1]} only in a namespace with a ResourceQuota that covers it, and namespace ${namespace} has none (the ResourceQuota admission's limitedResources)`,
      fix: `create a ResourceQuota in namespace ${namespace} with a hard limit on ${m[1]}, or remove the request for it from the DaemonSet's template`,
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

/**
 * Why `.status` lags the spec while the controller reports FailedCreate: the controller runs (it
 * tried to create the pods), but before v1.27 a sync whose pod creation failed returned before it
 * wrote the status (kubernetes#100683; v1.27.0 and the January 2023 patch releases of 1.25 and 1.26
 * write it anyway: kubernetes#113787, pkg/controller/daemon/daemon_controller.go#syncDaemonSet).
 */
export function statusNotWrittenText(observed: number, generation: number): string {
  return `the controller runs (it reports FailedCreate) but has written no status for the latest spec (observedGeneration ${observed} < generation ${generation}): before v1.27 a sync whose pod creation fails writes no status (kubernetes#100683, fixed by #113787), so .status is stale until a create succeeds`;
}

export const STATUS_NOT_WRITTEN_FIX =
  'nothing to do about kube-controller-manager: fix the FailedCreate, and the status follows once a pod is created';
