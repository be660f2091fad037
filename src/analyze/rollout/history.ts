/** What `kubectl rollout status` prints, and the revision history with the last template change. */
import type { ControllerRevision, DaemonSet } from '../../model/k8s-types.js';
import type { RevisionInfo } from '../../model/results.js';
import type { SnapshotIndex } from '../../model/snapshot-index.js';
import { ageOf } from '../../model/duration.js';
import { daemonSetStatusView } from '../../k8s/rolloutstatus.js';
import { revisionHash, revisionTemplate } from '../../k8s/revision.js';
import { diffTemplates, templateImages } from '../template-diff.js';

/** The line `kubectl rollout status` prints for the DaemonSet's `.status` (k8s/rolloutstatus.ts). */
export function kubectlStatus(ds: DaemonSet): string {
  const view = daemonSetStatusView(ds);
  return view.error ? `error: ${view.message}` : view.message;
}

function revisionInfo(revs: ControllerRevision[], dsName: string, currentHash: string, now: Date): RevisionInfo[] {
  return [...revs]
    .sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))
    .map((r) => {
      const hash = revisionHash(r, dsName);
      const created = r.metadata?.creationTimestamp;
      const cause = r.metadata?.annotations?.['kubernetes.io/change-cause'];
      return {
        revision: r.revision ?? 0,
        name: r.metadata?.name ?? '',
        hash,
        ...(created ? { age: ageOf(created, now) } : {}),
        ...(cause ? { changeCause: cause } : {}),
        current: hash === currentHash,
        images: templateImages(revisionTemplate(r)),
      };
    });
}

export interface RolloutHistory {
  revisions: RevisionInfo[];
  /** What changed from the previous revision to the current template. */
  templateDiff: string[];
  notes: string[];
}

/** The DaemonSet's ControllerRevisions, newest first, and the diff from the previous one. */
export function rolloutHistory(index: SnapshotIndex, ds: DaemonSet, currentHash: string, now: Date): RolloutHistory {
  const revObjects = index.revisionsFor(ds);
  const revisions = revisionInfo(revObjects, ds.metadata?.name ?? '', currentHash, now);
  const currentRev = revisions.find((r) => r.current);
  const previous = revisions.find((r) => !r.current && (!currentRev || r.revision < currentRev.revision));
  const prevObj = previous ? revObjects.find((r) => r.metadata?.name === previous.name) : undefined;
  return {
    revisions,
    templateDiff: prevObj ? diffTemplates(revisionTemplate(prevObj), ds.spec?.template) : [],
    notes: revObjects.length
      ? []
      : ['no ControllerRevisions in the input: the revision history and the template diff cannot be shown'],
  };
}
