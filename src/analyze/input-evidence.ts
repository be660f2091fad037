/**
 * Whether an input without Pod or Node objects can still be answered. A DaemonSet whose pods are
 * refused (FailedCreate), that is being deleted or that selects no node has no pods, and
 * `kubectl get ds,pods -o yaml` then holds no Pod: "collected, none" is the most common reason,
 * not a missing kind. The DaemonSets' own status says which it is: counts of zero agree with an
 * input without pods (or nodes); counts above zero contradict it, and then the input is refused
 * with what to add. Without a status (a bare manifest) nothing can be told.
 */
import type { DaemonSet } from '../model/k8s-types.js';
import { formatLabelSelector } from '../k8s/labels.js';

export type NeededKind = 'Node' | 'Pod';

/** For each absent kind: a note when the input can be answered without it, or why it cannot. */
export interface AbsenceJudgement {
  /** Kinds taken as collected with no objects, each with the one-line note that says why. */
  accepted: { kind: NeededKind; note: string }[];
  /** Why the input cannot be answered, naming what to add; undefined when it can. */
  refusal?: string;
}

function dsName(ds: DaemonSet): string {
  return `${ds.metadata?.namespace ?? ''}/${ds.metadata?.name ?? ''}`;
}

/** `kubectl get pods` for the DaemonSet's pods, with its selector when it has one. */
function podsCommand(ds: DaemonSet): string {
  const selector = formatLabelSelector(ds.spec?.selector);
  const label = selector === '<none>' || selector === '<all>' ? '' : ` -l '${selector}'`;
  return `kubectl get pods -n ${ds.metadata?.namespace ?? '<namespace>'}${label} -o yaml`;
}

/**
 * A DaemonSet being deleted: syncDaemonSet returns before doing anything when
 * `ds.DeletionTimestamp != nil` (kubernetes v1.35.4 pkg/controller/daemon/daemon_controller.go),
 * so its status is no longer updated and its counts are from before the deletion.
 */
function isDeleting(ds: DaemonSet): boolean {
  return Boolean(ds.metadata?.deletionTimestamp);
}

/** What the status counts for a kind: scheduled pods, or nodes that should run one. */
function counted(ds: DaemonSet, kind: NeededKind): number | undefined {
  const status = ds.status;
  if (!status) return undefined;
  // The counts of a DaemonSet being deleted are frozen: they contradict nothing.
  if (isDeleting(ds)) return 0;
  if (kind === 'Pod') return (status.currentNumberScheduled ?? 0) + (status.numberMisscheduled ?? 0);
  return status.desiredNumberScheduled ?? 0;
}

function whose(daemonSets: DaemonSet[]): string {
  return daemonSets.length === 1
    ? `daemonset ${dsName(daemonSets[0]!)}`
    : `each of the ${daemonSets.length} DaemonSets in scope`;
}

function acceptedNote(kind: NeededKind, daemonSets: DaemonSet[]): string {
  const deleting = daemonSets.filter(isDeleting);
  if (deleting.length) {
    const frozen = deleting
      .map((ds) => `${dsName(ds)} (deletionTimestamp ${ds.metadata?.deletionTimestamp})`)
      .join(', ');
    const live = daemonSets.length - deleting.length;
    return `no ${kind} objects in the input: taken as none; ${deleting.length === 1 ? 'daemonset' : 'daemonsets'} ${frozen} ${deleting.length === 1 ? 'is' : 'are'} being deleted, so the controller no longer updates ${deleting.length === 1 ? 'its' : 'their'} status and ${deleting.length === 1 ? 'its counts are' : 'their counts are'} from before the deletion${live ? `, and the status of the other ${live} DaemonSet(s) ${kind === 'Pod' ? 'counts no pod scheduled' : 'wants no pod on any node'}` : ''}`;
  }
  return kind === 'Pod'
    ? `no Pod objects in the input: taken as none, since the status of ${whose(daemonSets)} counts no pod scheduled (currentNumberScheduled 0, numberMisscheduled 0)`
    : `no Node objects in the input: the status of ${whose(daemonSets)} wants no pod on any node (desiredNumberScheduled 0), so none are needed to answer`;
}

function contradiction(kind: NeededKind, ds: DaemonSet, n: number, command: string): string {
  return kind === 'Pod'
    ? `the input has no Pod objects, but the status of daemonset ${dsName(ds)} counts ${n} scheduled pod(s): ${command} needs them (add the output of ${podsCommand(ds)})`
    : `the input has no Node objects, but the status of daemonset ${dsName(ds)} wants a pod on ${n} node(s): ${command} needs them (add the output of kubectl get nodes -o yaml)`;
}

/**
 * Judges the `absent` kinds against the DaemonSets' status (`command` names the command for
 * the refusal). With no DaemonSet in scope there is nothing to answer from them, so nothing is
 * refused. A DaemonSet without a status refuses, as a bare manifest cannot tell.
 */
export function judgeAbsentKinds(absent: NeededKind[], daemonSets: DaemonSet[], command: string): AbsenceJudgement {
  const accepted: AbsenceJudgement['accepted'] = [];
  if (!daemonSets.length) return { accepted };
  const unknown = absent.filter((kind) => daemonSets.some((ds) => counted(ds, kind) === undefined));
  if (unknown.length) {
    const what = unknown.map((k) => `${k} objects`).join(' or ');
    const dump = unknown.map((k) => (k === 'Node' ? 'nodes' : 'pods')).join(',');
    return {
      accepted,
      refusal: `the input has no ${what}: ${command} needs them (add the output of kubectl get ${dump} -A -o yaml); for manifests alone, use ds-doctor lint`,
    };
  }
  for (const kind of absent) {
    const busy = daemonSets.find((ds) => counted(ds, kind)! > 0);
    if (busy) return { accepted, refusal: contradiction(kind, busy, counted(busy, kind)!, command) };
    accepted.push({ kind, note: acceptedNote(kind, daemonSets) });
  }
  return { accepted };
}

/**
 * A note for a kind that was collected as an empty list (a typed `PodList` with no items, a
 * cluster-info dump's empty `pods.json`): taken as none, and, when a DaemonSet's status counts
 * some, that the two disagree (the status is stale, or the list came from elsewhere).
 */
export function emptyListNote(kind: NeededKind, daemonSets: DaemonSet[]): string {
  const what = kind === 'Pod' ? 'Pod' : 'Node';
  const busy = daemonSets.find((ds) => (counted(ds, kind) ?? 0) > 0);
  const base = `the input's ${what} lists are empty: taken as collected, with no ${kind === 'Pod' ? 'pods' : 'nodes'}`;
  const deleting = daemonSets.filter(isDeleting);
  if (!busy && deleting.length) {
    return `${base}; daemonset ${deleting.map(dsName).join(', ')} ${deleting.length === 1 ? 'is' : 'are'} being deleted, so ${deleting.length === 1 ? 'its' : 'their'} status counts are from before the deletion`;
  }
  if (!busy) return base;
  const n = counted(busy, kind)!;
  return `${base}; but the status of daemonset ${dsName(busy)} ${kind === 'Pod' ? `counts ${n} scheduled pod(s)` : `wants a pod on ${n} node(s)`}: the status is stale, or the list came from elsewhere (${kind === 'Pod' ? podsCommand(busy) : 'kubectl get nodes -o yaml'} gives the current ones)`;
}
