/**
 * Plan findings: what applying a DaemonSet manifest would do. They appear in `plan` results
 * (`findings[].code`).
 */
import type { ReasonEntry } from './entry.js';

const K = 'kubernetes v1.35.4';

export const PLAN_FINDINGS = {
  NodesLost: {
    severity: 'error',
    short: 'node(s) lose their pod',
    meaning:
      'Nodes that run a pod now no longer match the new spec: the controller deletes those pods at once, outside the rolling update and its maxUnavailable budget.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#podsShouldBeOnNode`,
  },
  PodsWillBePending: {
    severity: 'error',
    short: 'new pod(s) will stay Pending',
    meaning:
      "Nodes where the controller creates a new pod that the scheduler's filters refuse (resources, pod count, host ports): the pod stays Pending.",
    upstream: `${K} pkg/scheduler/framework/runtime/framework.go#RunFilterPlugins`,
  },
  AdmissionRefused: {
    severity: 'error',
    short: 'the API refuses the new pods',
    meaning:
      "Pod Security admission of the namespace (its pod-security.kubernetes.io/enforce label) or a ResourceQuota (exceeded, or a request or limit it requires is not set) refuses the new pod: the controller's creates fail, so nodes that should gain a pod get none, and as manage() returns the create error before the rolling update runs, nodes that should be replaced keep their old pod.",
    upstream: `${K} staging/src/k8s.io/pod-security-admission/admission/admission.go#EvaluatePod`,
  },
  DeletionNeverConfirmed: {
    severity: 'error',
    short: 'old pod stays Terminating on an unreachable node',
    meaning:
      "On a node whose kubelet has stopped reporting (Ready Unknown), a pod deleted with a grace period stays Terminating until the kubelet confirms it. While it exists the controller creates no new pod there (without maxSurge), and it keeps holding its requests and host ports, so the node stays without the new pod and uses a unit of the rollout's budget until the node recovers or the pod is force-deleted.",
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#podsShouldBeOnNode`,
  },
  RolloutWillStall: {
    severity: 'error',
    short: 'rolling update stops part way',
    meaning:
      'Replaced pods that cannot be scheduled stay unavailable and use up maxUnavailable (or maxSurge): the controller stops replacing, and the nodes it has not reached keep the old pod.',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  SurgeHostPortStall: {
    severity: 'error',
    short: "surge pod needs the old pod's host port",
    meaning:
      'With maxSurge the new pod must run beside the old one, but both ask for the same host port: no surge pod can be scheduled and the rollout never progresses (kubernetes#106417).',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  RoleOutageRisk: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'critical role down on many nodes at once',
    meaning:
      'The DaemonSet has a critical role (CNI, CSI, proxy, DNS) and its budget lets it be unavailable on many nodes at once; an error when the whole fleet can be down together.',
  },
  PreemptionMayHelp: {
    severity: 'info',
    short: 'preemption could make room',
    meaning:
      "On nodes where the new pod does not fit, evicting pods of lower priority would free enough: the scheduler preempts them when the pod's priority class allows it.",
    upstream: `${K} pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go#SelectVictimsOnNode`,
  },
  MetadataOnlyChange: {
    severity: 'info',
    short: 'no pod is replaced',
    meaning:
      'The pod template hash does not change (only labels or annotations of the DaemonSet, or fields outside the template, differ): no pod is replaced.',
    upstream: `${K} pkg/controller/daemon/update.go#constructHistory`,
  },
  StrategyOnlyChange: {
    severity: 'info',
    alsoSeverities: ['warning'],
    short: 'only the rollout strategy changes',
    meaning:
      'The pod template hash does not change, but the update strategy or minReadySeconds does: no pod is replaced for the change itself, while the rollout in progress goes on under the new budget (and, without surge, a surge pod waiting next to its old pod is deleted); a warning when pods of the current revision are unavailable now, as the new ones may fail the same way.',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  OnDeleteManual: {
    severity: 'info',
    short: 'OnDelete: pods are replaced only when deleted',
    meaning:
      'The update strategy is OnDelete: old pods keep running until someone deletes them; only new nodes get the new template.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#syncDaemonSet`,
  },
} as const satisfies Record<string, ReasonEntry>;

/** Plan finding codes (PascalCase, stable). */
export type PlanFindingCode = keyof typeof PLAN_FINDINGS;
