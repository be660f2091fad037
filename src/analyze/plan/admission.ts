/**
 * What admission does to the new pods of a plan: Pod Security, LimitRange, ResourceQuota, in the
 * API server's order (the checks themselves are k8s/podsecurity.ts's and k8s/admission.ts's).
 */
import type { PodTemplateSpec } from '../../model/k8s-types.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { isMissing, type SnapshotKind } from '../../model/snapshot.js';
import { podSecurityRefusal } from '../../k8s/podsecurity.js';
import { limitRangeRefusal, podQuotaUsage, quotaAdmission, withReleasedUsage } from '../../k8s/admission.js';
import type { NodeDecision } from './nodes.js';

/**
 * What admission does to the new pods: Pod Security of the namespace, its LimitRanges, then its
 * ResourceQuotas (the API server's order: PodSecurity, LimitRanger, ResourceQuota). `refusal` with
 * `partial`: a quota admits some of the pods for the nodes to gain one, not all.
 */
export function admissionOf(
  index: SnapshotIndex,
  namespace: string,
  name: string,
  template: PodTemplateSpec,
  oldTemplate: PodTemplateSpec | undefined,
  decisions: NodeDecision[],
  surge: boolean,
): { refusal?: string; partial: boolean; notes: string[] } {
  const notes: string[] = [];
  const spec = template.spec ?? {};
  const podName = `${name}-`;
  const noteUnchecked = (kind: SnapshotKind, objects: string, step: string) => {
    if (isMissing(index.snapshot, kind))
      notes.push(`${objects} not in the input: ${step} admission in namespace ${namespace} was not checked`);
  };
  noteUnchecked('Namespace', 'namespaces', 'Pod Security');
  const security = podSecurityRefusal(
    index.snapshot.namespaces.find((n) => n.metadata?.name === namespace),
    podName,
    spec,
  );
  if (security) return { refusal: security, partial: false, notes };
  noteUnchecked('LimitRange', 'limit ranges', 'LimitRange');
  const limits = limitRangeRefusal(
    index.snapshot.limitRanges.filter((r) => r.metadata?.namespace === namespace),
    spec,
    podName,
  );
  if (limits) return { refusal: limits, partial: false, notes };
  noteUnchecked('ResourceQuota', 'resource quotas', 'quota');
  const quotas = index.snapshot.resourceQuotas.filter((q) => q.metadata?.namespace === namespace);
  if (!quotas.length) return { partial: false, notes };
  const gains = decisions.filter((d) => d.effect === 'gain').length;
  const replaces = decisions.filter((d) => d.effect === 'replace').length;
  // Without surge a replacement follows its old pod's deletion, which releases the old pod's usage.
  const released = !gains && replaces && !surge && oldTemplate?.spec ? podQuotaUsage(oldTemplate.spec) : undefined;
  const view = released ? quotas.map((q) => withReleasedUsage(q, released)) : quotas;
  const q = quotaAdmission(view, spec, podName);
  if (q.skipped.length) notes.push(`scoped quota(s) ${q.skipped.join(', ')} not checked`);
  if (q.refusal === undefined || q.admitted >= Math.max(gains, 1)) return { partial: false, notes };
  return { refusal: q.refusal, partial: q.admitted > 0, notes };
}
