/** Default short phrases per reason code, in the scheduler's "N node(s) …" style. */
import type { Reason, ReasonCode } from './results.js';

export const SHORT_PHRASE: Record<ReasonCode, string> = {
  NodeNameMismatch: "node(s) didn't match the template's nodeName",
  NodeSelectorMismatch: "node(s) didn't match the nodeSelector",
  NodeAffinityMismatch: "node(s) didn't match the required node affinity",
  UntoleratedTaint: 'node(s) had untolerated taint(s)',
  FailedCreate: 'pod creation failed (FailedCreate)',
  SelectingAll: 'DaemonSet selector selects all pods',
  DaemonSetDeleting: 'DaemonSet is being deleted',
  ControllerNotObserved: 'controller has not observed the latest spec',
  NotYetCreated: 'pod not created yet',
  InsufficientResource: 'Insufficient resources',
  TooManyPods: 'Too many pods',
  HostPortConflict: "node(s) didn't have free ports for the requested pod ports",
  VolumeConflict: 'volume conflict',
  SchedulingGated: 'waiting for scheduling gates',
  FailedScheduling: 'pod(s) not scheduled',
  ImagePullBackOff: 'ImagePullBackOff',
  CrashLoopBackOff: 'CrashLoopBackOff',
  OOMKilled: 'OOMKilled',
  CreateContainerConfigError: 'CreateContainerConfigError',
  ContainerCreating: 'ContainerCreating',
  ReadinessProbeFailing: 'readiness probe failing',
  PodFailed: 'pod(s) Failed',
  PodTerminating: 'pod(s) Terminating',
  NodeNotReady: 'node(s) NotReady',
  NotAvailableYet: 'pod(s) not available yet (minReadySeconds)',
  OutdatedRevision: 'pod(s) on an outdated revision',
};

/** A reason without its short phrase gets the code's default one. */
export function withShort(r: Omit<Reason, 'short'> & { short?: string }): Reason {
  return { ...r, short: r.short ?? SHORT_PHRASE[r.code] };
}

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

/** Most important first: severity, then the order given. */
export function sortReasons(reasons: Reason[]): Reason[] {
  return reasons
    .map((r, i) => ({ r, i }))
    .sort((a, b) => SEVERITY_RANK[a.r.severity] - SEVERITY_RANK[b.r.severity] || a.i - b.i)
    .map(({ r }) => r);
}
