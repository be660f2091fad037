/**
 * DaemonSets with the ControllerRevisions the controller stores, and the daemon pods it creates.
 */
import { daemonPodTolerations } from '../../src/k8s/daemonpod.js';
import type { ControllerRevision, DaemonSet } from '../../src/model/k8s-types.js';
import { internalIP, type IPAllocator } from './api-node.js';
import {
  admitPodSpec,
  controllerRef,
  makePod,
  pinnedAffinity,
  type PodState,
  podStatus,
  type PodTimeline,
} from './api-pod.js';
import { clone, type Json, ordered } from './fields.js';
import { suffix, templateHash, uid } from './ids.js';
import { at } from './time.js';
import type { BuiltDaemonSet, BuiltNode, BuiltPod, BuiltTemplate } from './types.js';
import type { Versions } from './versions.js';

/** One revision of a DaemonSet definition, oldest first. */
export interface RevisionDef {
  generation: number;
  template: BuiltTemplate;
  createdAgo: number;
  /** The controller-revision-hash (default: templateHash of the template). */
  hash?: string;
  /** The ControllerRevision's revision number (default: its place among the stored ones, from 1). */
  revision?: number;
  /** The ControllerRevision's uid (default: derived from its name). */
  uid?: string;
}

/** A revision with its template hash. */
export type Revision = RevisionDef & { hash: string };

/** What makeDaemonSet builds a DaemonSet and its ControllerRevisions from. */
export interface DaemonSetDef {
  namespace: string;
  name: string;
  createdAgo: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  selector: Record<string, string>;
  updateStrategy?: NonNullable<DaemonSet['spec']>['updateStrategy'];
  minReadySeconds?: number;
  revs?: RevisionDef[];
  template?: BuiltTemplate;
  generation?: number;
  unobservedRevisions?: number;
  /** The uid (default: derived from namespace and name). */
  uid?: string;
  /** The status (default: empty, for the caller to fill in). */
  status?: DaemonSet['status'];
}

/** makeDaemonSet's result. */
export interface MadeDaemonSet {
  ds: BuiltDaemonSet;
  revs: Revision[];
  revisions: (ControllerRevision & { metadata: { name: string } })[];
}

/** The options of daemonPod. */
export interface DaemonPodOptions {
  state: PodState;
  t: PodTimeline;
  ipFor: IPAllocator;
  idPrefix?: string;
  deletedAgo?: number;
  grace?: number;
  /** The pod's name (default: the DaemonSet's name and a suffix derived from node, revision and time) and uid (default: derived from the name). */
  name?: string;
  uid?: string;
}

/** A RollingUpdate update strategy. */
export function rolling(
  maxUnavailable: number | string,
  maxSurge: number | string = 0,
): NonNullable<DaemonSet['spec']>['updateStrategy'] {
  return { type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge } };
}

/**
 * A DaemonSet and the ControllerRevisions the controller has stored for it (each registered
 * in `versions` at its creation). `d`: namespace, name, createdAgo, labels, annotations,
 * selector, updateStrategy (default: the API's, RollingUpdate maxUnavailable 1),
 * minReadySeconds, and `revs` = [{generation, template, createdAgo}] oldest first, or just
 * `template` for a single revision made with the DaemonSet; optional generation (default: the
 * newest revision's) and unobservedRevisions (newest revisions the controller has not made
 * yet). `idPrefix` keeps the uids of separate clusters apart. Returns {ds, revs (with their
 * hash), revisions}.
 */
export function makeDaemonSet(d: DaemonSetDef, versions: Versions, idPrefix = ''): MadeDaemonSet {
  const key = `DaemonSet/${d.namespace}/${d.name}`;
  const defRevs: RevisionDef[] = d.revs ?? [{ generation: 1, template: d.template!, createdAgo: d.createdAgo }];
  const cur = defRevs[defRevs.length - 1]!;
  const ds: BuiltDaemonSet = {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    metadata: ordered(
      {
        name: d.name,
        namespace: d.namespace,
        uid: d.uid ?? uid(`${idPrefix}${key}`),
        resourceVersion: '',
        generation: d.generation ?? cur.generation,
        creationTimestamp: at(d.createdAgo),
        labels: d.labels,
        annotations: { 'deprecated.daemonset.template.generation': String(cur.generation), ...(d.annotations ?? {}) },
      },
      [],
    ),
    spec: ordered(
      {
        selector: { matchLabels: d.selector },
        template: cur.template,
        updateStrategy: d.updateStrategy ?? rolling(1),
        minReadySeconds: d.minReadySeconds,
        revisionHistoryLimit: 10,
      },
      [],
    ),
    status: d.status ?? {},
  } as Json as BuiltDaemonSet;
  const revs: Revision[] = defRevs.map((r) => ({ ...r, hash: r.hash ?? templateHash(r.template) }));
  const stored = d.unobservedRevisions ? revs.slice(0, revs.length - d.unobservedRevisions) : revs;
  const revisions = stored.map((r, i) => {
    const name = `${d.name}-${r.hash}`;
    const revision: MadeDaemonSet['revisions'][number] = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: d.namespace,
        uid: r.uid ?? uid(`${idPrefix}ControllerRevision/${d.namespace}/${name}`),
        resourceVersion: '',
        creationTimestamp: at(r.createdAgo),
        labels: { ...r.template.metadata.labels, 'controller-revision-hash': r.hash },
        annotations: { 'deprecated.daemonset.template.generation': String(r.generation), ...(d.annotations ?? {}) },
        ownerReferences: controllerRef('DaemonSet', d.name, ds.metadata.uid),
      },
      data: { spec: { template: { $patch: 'replace', ...clone(r.template) } as BuiltTemplate } },
      revision: r.revision ?? i + 1,
    };
    return versions.add(revision, r.createdAgo);
  });
  return { ds, revs, revisions };
}

/**
 * A pod created by the DaemonSet controller for `node` from revision `rev` ({template, hash,
 * generation}) (docs/semantics.md §1.6, §2.1–2.3), with its status for `state` and timeline `t`
 * (see podStatus). Its IP is the node's for a hostNetwork pod, else `ipFor(nodeName, podKey)`.
 * `deletedAgo` + `grace`: graceful deletion requested `deletedAgo` seconds ago.
 */
export function daemonPod(
  ds: BuiltDaemonSet,
  rev: Revision,
  node: BuiltNode,
  { state, t, ipFor, idPrefix = '', deletedAgo, grace, ...id }: DaemonPodOptions,
): BuiltPod {
  const { name: dsName, namespace } = ds.metadata;
  const nodeName = node.metadata.name;
  const name =
    id.name ?? `${dsName}-${suffix(`${idPrefix}pod/${namespace}/${dsName}/${nodeName}/${rev.hash}/${t.created}`)}`;
  const key = `${idPrefix}Pod/${namespace}/${name}`;
  const tmpl = rev.template;
  const unbound = state.kind === 'Unschedulable';
  const spec = admitPodSpec(tmpl.spec, key);
  spec.tolerations = daemonPodTolerations(tmpl.spec);
  spec.affinity = pinnedAffinity(spec.affinity, nodeName);
  if (!unbound) spec.nodeName = nodeName;
  const pod = makePod({
    name,
    generateName: `${dsName}-`,
    namespace,
    key,
    createdAgo: t.created,
    labels: {
      ...tmpl.metadata.labels,
      'controller-revision-hash': rev.hash,
      'pod-template-generation': String(rev.generation),
    },
    annotations: tmpl.metadata.annotations,
    ownerReferences: controllerRef('DaemonSet', dsName, ds.metadata.uid),
    spec,
    deletedAgo,
    grace,
    uid: id.uid,
  });
  const podIP =
    unbound || state.kind === 'ContainerCreating'
      ? undefined
      : tmpl.spec.hostNetwork
        ? internalIP(node)
        : ipFor(nodeName, key);
  pod.status = podStatus(pod, state, t, unbound ? undefined : node, podIP);
  return pod;
}
