/**
 * Revisions and "is this pod updated?": `IsPodUpdated`, `GetTemplateGeneration`
 * (pkg/controller/daemon/util/daemonset_util.go) and `Match` of a ControllerRevision against
 * the DaemonSet template (pkg/controller/daemon/update.go).
 */
import type { ControllerRevision, DaemonSet, Pod, PodTemplateSpec } from '../model/k8s-types.js';

export const LABEL_REVISION_HASH = 'controller-revision-hash';
export const LABEL_TEMPLATE_GENERATION = 'pod-template-generation';
export const ANNOTATION_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** Where a DaemonSet's template generation was read from. */
export type GenerationField = typeof ANNOTATION_TEMPLATE_GENERATION | 'spec.templateGeneration';

/**
 * The template generation and the field it comes from: `GetTemplateGeneration` (kubernetes v1.35
 * pkg/controller/daemon/util/daemonset_util.go) reads the annotation; clusters before 1.16
 * serve DaemonSets as extensions/v1beta1 with `spec.templateGeneration` instead (kubernetes
 * v1.15 pkg/apis/extensions/v1beta1/conversion.go moves the annotation there, and the v1.8
 * controller's `IsPodUpdated` compares the pod's pod-template-generation label against it).
 */
export function templateGenerationOf(ds: DaemonSet): { generation: number; field: GenerationField } | undefined {
  const raw = ds.metadata?.annotations?.[ANNOTATION_TEMPLATE_GENERATION];
  if (raw !== undefined && /^-?\d+$/.test(raw))
    return { generation: Number(raw), field: ANNOTATION_TEMPLATE_GENERATION };
  const spec = ds.spec?.templateGeneration;
  if (typeof spec === 'number' && Number.isInteger(spec)) return { generation: spec, field: 'spec.templateGeneration' };
  return undefined;
}

/** `GetTemplateGeneration`: the template generation as an integer, or undefined (see templateGenerationOf). */
export function templateGeneration(ds: DaemonSet): number | undefined {
  return templateGenerationOf(ds)?.generation;
}

/** `IsPodUpdated(pod, hash, generation)`: the revision hash matches, or the template generation does. */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata?.labels ?? {};
  // Upstream computes both; the hash is asked first so that an updated pod costs no generation text.
  if (hash.length > 0 && labels[LABEL_REVISION_HASH] === hash) return true;
  return generation !== undefined && labels[LABEL_TEMPLATE_GENERATION] === String(generation);
}

/** The pod's revision hash label, or "". */
export function podRevisionHash(pod: Pod): string {
  return pod.metadata?.labels?.[LABEL_REVISION_HASH] ?? '';
}

/** The hash of a ControllerRevision: its label, else the suffix of its name after `<ds>-`. */
export function revisionHash(rev: ControllerRevision, dsName: string): string {
  const label = rev.metadata?.labels?.[LABEL_REVISION_HASH];
  if (label) return label;
  const name = rev.metadata?.name ?? '';
  return name.startsWith(`${dsName}-`) ? name.slice(dsName.length + 1) : name;
}

/** JSON deep-equality that ignores key order and the `$patch` directive of revision data. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).filter((k) => k !== '$patch' && (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => k !== '$patch' && (b as Record<string, unknown>)[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => semanticEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** The template a revision stores (its data is a "replace" patch of spec.template). */
export function revisionTemplate(rev: ControllerRevision): PodTemplateSpec | undefined {
  return rev.data?.spec?.template;
}

/** How the current revision was determined, for the notes an analysis prints. */
export type HashSource = 'revision' | 'pods' | 'latest-revision' | 'unknown';

export interface CurrentRevision {
  hash: string;
  generation: number | undefined;
  /** The field the generation was read from. */
  generationField?: GenerationField;
  revision?: ControllerRevision;
  source: HashSource;
}

/**
 * The DaemonSet's current revision, as `constructHistory` finds it: the revision whose data
 * matches the template (highest revision number if several). When no revision is in the
 * snapshot, the hash of pods carrying the current template generation is used instead.
 */
export function currentRevision(ds: DaemonSet, revisions: ControllerRevision[], pods: Pod[]): CurrentRevision {
  const of = templateGenerationOf(ds);
  const generation = of?.generation;
  const field = of ? { generationField: of.field } : {};
  const name = ds.metadata?.name ?? '';
  const matching = revisions
    .filter((r) => semanticEqual(revisionTemplate(r), ds.spec?.template))
    .sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0));
  if (matching[0])
    return { hash: revisionHash(matching[0], name), generation, ...field, revision: matching[0], source: 'revision' };
  if (generation !== undefined) {
    const pod = pods.find(
      (p) => p.metadata?.labels?.[LABEL_TEMPLATE_GENERATION] === String(generation) && podRevisionHash(p),
    );
    if (pod) return { hash: podRevisionHash(pod), generation, ...field, source: 'pods' };
  }
  const observed = (ds.status?.observedGeneration ?? 0) >= (ds.metadata?.generation ?? 0);
  const latest = [...revisions].sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))[0];
  if (latest && observed)
    return { hash: revisionHash(latest, name), generation, ...field, revision: latest, source: 'latest-revision' };
  return { hash: '', generation, ...field, source: 'unknown' };
}
