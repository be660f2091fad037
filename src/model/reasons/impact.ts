/**
 * Impact findings: what deleting a DaemonSet does and what breaks. They appear in `impact`
 * results (`findings[].code`).
 */
import type { ReasonEntry } from './entry.js';

const K = 'kubernetes v1.35.4';

export const IMPACT_FINDINGS = {
  PodsNotInInput: {
    severity: 'info',
    short: 'pods not in the input',
    meaning:
      "The input holds no Pod objects and no status that counts them, so the risk is judged by the DaemonSet's role alone.",
  },
  NoPods: {
    severity: 'info',
    short: 'no pods to delete',
    meaning: 'The DaemonSet has no pods: deleting it removes only the object and its ControllerRevisions.',
  },
  PodsDeleted: {
    severity: 'warning',
    short: 'all pods deleted at once',
    meaning: 'The garbage collector deletes every pod of the DaemonSet at once, and nothing re-creates them.',
    upstream: `${K} pkg/controller/garbagecollector/garbagecollector.go#attemptToDeleteItem`,
  },
  ForegroundDeletion: {
    severity: 'info',
    short: 'foreground deletion waits for the pods',
    meaning:
      'With --cascade=foreground the DaemonSet stays with the foregroundDeletion finalizer until every pod is gone, and its controller does nothing meanwhile.',
    upstream: `${K} pkg/controller/garbagecollector/garbagecollector.go#processDeletingDependentsItem`,
  },
  PodsStuckTerminating: {
    severity: 'warning',
    short: 'pods stay Terminating',
    meaning:
      'Pods on nodes that do not answer stay Terminating until their kubelet confirms the deletion or they are force-deleted.',
  },
  PodsOrphaned: {
    severity: 'warning',
    alsoSeverities: ['info'],
    short: 'pods orphaned',
    meaning:
      'With --cascade=orphan no pod is deleted: the garbage collector removes the ownerReferences and the pods keep running unmanaged.',
    upstream: `${K} pkg/controller/garbagecollector/garbagecollector.go#orphanDependents`,
  },
  DrainRefusesOrphans: {
    severity: 'warning',
    short: 'kubectl drain refuses orphaned pods',
    meaning:
      'Orphaned pods are no longer DaemonSet-managed, so kubectl drain --ignore-daemonsets refuses them and --force deletes them for good.',
    upstream: `${K} staging/src/k8s.io/kubectl/pkg/drain/filters.go#daemonSetFilter`,
  },
  AdoptionTemplateGeneration: {
    severity: 'info',
    alsoSeverities: ['warning'],
    short: 'adopted pods may never be replaced',
    meaning:
      'A new DaemonSet with a matching selector adopts orphaned pods; those whose pod-template-generation equals its template generation count as updated and are never replaced.',
    upstream: `${K} pkg/controller/daemon/util/daemonset_util.go#IsPodUpdated`,
  },
  NodeNetworkingLost: {
    severity: 'error',
    short: 'pod networking lost',
    meaning:
      'The DaemonSet is the CNI agent: new pods on its nodes cannot get a sandbox, and running pods keep only what is already configured.',
  },
  ServiceRoutingFrozen: {
    severity: 'error',
    short: 'Service routing frozen',
    meaning: 'The DaemonSet is the Service proxy: rules already on the nodes stay but are no longer updated.',
  },
  LoadBalancerHealthChecksFail: {
    severity: 'error',
    short: 'load balancer health checks fail',
    meaning:
      'kube-proxy serves the health check node port of externalTrafficPolicy: Local Services; without it load balancers take the nodes out of rotation.',
    upstream: `${K} pkg/proxy/healthcheck/service_health.go#NewServiceHealthServer`,
  },
  VolumeOperationsStop: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'volume operations stop',
    meaning:
      'The DaemonSet is a CSI node plugin: volumes of its driver can no longer be mounted or unmounted on its nodes; an error when pods there use them.',
  },
  ExtendedResourceLost: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'extended resources lost',
    meaning:
      'The DaemonSet is a device plugin: its nodes stop advertising the extended resource, so pods requesting it no longer schedule there; an error when pods request it.',
  },
  NodeDnsLost: {
    severity: 'error',
    short: 'node-local DNS lost',
    meaning:
      'The DaemonSet is a node-local DNS cache: pods that resolve through its link-local address fail lookups until it returns.',
  },
  LogsNotCollected: {
    severity: 'warning',
    short: 'logs not collected',
    meaning:
      'The DaemonSet collects container logs: what pods write in the gap is lost if the kubelet rotates the files before a collector returns.',
  },
  MetricsGap: {
    severity: 'warning',
    short: 'metrics gap',
    meaning:
      'The DaemonSet exports node metrics: scrapes fail, alerts on missing targets fire, and dashboards show a gap.',
  },
  SecurityAgentGone: {
    severity: 'warning',
    short: 'runtime security off',
    meaning:
      'The DaemonSet is a runtime security agent: nothing on its nodes detects or blocks activity until it returns.',
  },
  ServiceLosesAllEndpoints: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'Service loses all endpoints',
    meaning:
      'A Service selects only pods of this DaemonSet, so it has no endpoints once they are gone; an error for a Service exposed outside the cluster.',
    upstream: `${K} staging/src/k8s.io/endpointslice/reconciler.go#Reconciler.Reconcile`,
  },
  ServiceLosesLocalEndpoints: {
    severity: 'warning',
    short: 'Service loses node-local endpoints',
    meaning:
      'A Service with internal or external traffic policy Local drops traffic on nodes where only these pods served it.',
    upstream: `${K} pkg/proxy/topology.go#CategorizeEndpoints`,
  },
  WebhookFailClosed: {
    severity: 'error',
    short: 'admission webhook fails closed',
    meaning:
      'Only these pods serve an admission webhook with failurePolicy Fail: every request it intercepts is rejected cluster-wide until a pod serves it again.',
    upstream: `${K} staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go#callHook`,
  },
  WebhookBlocksRecovery: {
    severity: 'error',
    short: 'admission webhook blocks recovery',
    meaning:
      'The fail-closed webhook also intercepts the creation of the pods that would serve it: a deadlock only relaxing the webhook undoes.',
  },
  WebhookSkipped: {
    severity: 'warning',
    short: 'admission webhook skipped',
    meaning:
      'Only these pods serve an admission webhook with failurePolicy Ignore: while they are gone its policy is not enforced or its mutations not applied.',
    upstream: `${K} staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go#Dispatch`,
  },
  PdbDoesNotApply: {
    severity: 'info',
    short: 'PodDisruptionBudget does not apply',
    meaning:
      'A PodDisruptionBudget selects these pods but does not protect them: budgets guard evictions, and deleting a DaemonSet deletes its pods directly.',
    upstream: `${K} pkg/registry/core/pod/storage/eviction.go#EvictionREST.Create`,
  },
} as const satisfies Record<string, ReasonEntry>;

/** Codes of impact findings (PascalCase, stable). */
export type ImpactCode = keyof typeof IMPACT_FINDINGS;
