/**
 * Rollout reasons: why a rolling update is stuck, slow or manual. They appear in `rollout`
 * results (`reasons[].code`).
 */
import type { ReasonEntry } from './entry.js';

const K = 'kubernetes v1.35.4';

export const ROLLOUT_REASONS = {
  StaleStatus: {
    severity: 'warning',
    short: '.status disagrees with the pods',
    meaning:
      'The counts in .status differ from those recomputed from the pods: the controller has not caught up, so kubectl rollout status (which reads .status) waits or reports other numbers.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#updateDaemonSetStatus`,
  },
  ControllerNotObserved: {
    severity: 'warning',
    alsoSeverities: ['info'],
    short: 'controller has not observed the latest spec',
    meaning:
      'status.observedGeneration is behind metadata.generation: .status still describes the previous spec, so the rollout is Pending. Info when the controller reports FailedCreate: before v1.27 a sync whose pod creation fails writes no status (kubernetes#100683, fixed by #113787), so the status is stale, not the controller stopped.',
    upstream: `${K} staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go#DaemonSetStatusViewer.Status`,
  },
  InvalidBudget: {
    severity: 'error',
    short: 'invalid maxUnavailable or maxSurge',
    meaning:
      'maxUnavailable or maxSurge is neither an integer nor a percentage, so the controller cannot resolve the budget and rolls nothing.',
    upstream: `${K} pkg/controller/daemon/update.go#updatedDesiredNodeCounts`,
  },
  NewPodsUnavailable: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'new pod(s) not available',
    meaning: 'Pods of the new revision are not available; an error when what blocks them does not resolve on its own.',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  OldPodsUnavailable: {
    severity: 'warning',
    short: 'old pod(s) unavailable',
    meaning:
      'Pods of an old revision are unavailable: the controller replaces them regardless of the budget, and each holds a unit of maxUnavailable until replaced.',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  PodStuckTerminating: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'node(s) with only a terminating pod',
    meaning:
      'Nodes that should run a pod have only one that is terminating; it holds budget until the kubelet confirms the deletion or the pod is force-deleted.',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  NodesWithoutPod: {
    severity: 'warning',
    alsoSeverities: ['error'],
    short: 'node(s) without a pod',
    meaning:
      'Nodes that should run a pod have none; each counts as unavailable against maxUnavailable until its pod is created and available.',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  NodesNotReady: {
    severity: 'warning',
    short: 'node(s) NotReady',
    meaning:
      'Nodes with pods of the DaemonSet are NotReady or unreachable: their pods are unavailable and hold budget until the nodes recover.',
  },
  OldPodsTerminating: {
    severity: 'info',
    alsoSeverities: ['error'],
    short: 'old pod(s) still terminating',
    meaning:
      "Nodes run an available new pod while the old one is still terminating; they count as updated once it is gone. An error when the old pod's node is unreachable.",
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  SurgeHostPortConflict: {
    severity: 'error',
    short: "surge pod needs the old pod's host port",
    meaning:
      'With maxSurge the new pod must run next to the old one, but both ask for the same host port: the surge pod can never be scheduled (kubernetes#106417).',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  FailedCreate: {
    severity: 'error',
    short: 'pod creation refused',
    meaning:
      "The API refuses to create daemon pods: while a create fails the controller's sync ends before the rolling update, or no surge pod can be created.",
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#syncNodes`,
  },
  BudgetExhausted: {
    severity: 'info',
    alsoSeverities: ['error'],
    short: 'maxUnavailable or maxSurge used up',
    meaning:
      'Every unit of maxUnavailable (or maxSurge) is in use: no more nodes are updated until one becomes available. An error when none will on its own.',
    upstream: `${K} pkg/controller/daemon/update.go#rollingUpdate`,
  },
  OnDeleteStrategy: {
    severity: 'info',
    short: 'OnDelete: pods keep the old revision',
    meaning: 'updateStrategy is OnDelete: old pods keep their revision until someone deletes them.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#syncDaemonSet`,
  },
  DaemonSetDeleting: {
    severity: 'error',
    short: 'DaemonSet is being deleted',
    meaning:
      'The DaemonSet has a deletionTimestamp: the controller does nothing for it (no pod created, replaced or counted, .status left as it was), so no rollout happens; the garbage collector finishes the deletion.',
    upstream: `${K} pkg/controller/daemon/daemon_controller.go#syncDaemonSet`,
  },
} as const satisfies Record<string, ReasonEntry>;

/** Codes of rollout reasons (PascalCase, stable). */
export type RolloutReasonCode = keyof typeof ROLLOUT_REASONS;
