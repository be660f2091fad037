// The note on how pods are judged updated when the current revision's hash is unknown
// (src/analyze/placement/context.ts#currentRevisionNote): it must say why truthfully. Without
// ControllerRevisions, the hash is taken from a pod at the template generation that carries the
// controller-revision-hash label (pkg/controller/daemon/update.go#constructHistory finds the
// current revision; the pods' labels are what a dump without revisions keeps of it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/model/k8s-types.js';
import { currentRevision } from '../../src/k8s/revision.js';
import { currentRevisionNote } from '../../src/analyze/placement/index.js';
import { daemonSet, pod } from '../kube/index.js';

const ds = daemonSet('agent').build();
ds.metadata!.annotations = { 'deprecated.daemonset.template.generation': '2' };
/** A daemon pod at template generation `gen`, with the hash label or without it. */
const daemonPod = (name: string, gen: string, hash?: string): Pod => {
  const p = pod(name)
    .ofDaemonSet(ds, 'n1', hash ?? '', gen)
    .on('n1')
    .build();
  if (hash === undefined) delete p.metadata!.labels!['controller-revision-hash'];
  return p;
};

const cases: { name: string; pods: Pod[]; revisionsMissing: boolean; note: RegExp | undefined }[] = [
  { name: 'no pods: nothing to judge, nothing said', pods: [], revisionsMissing: true, note: undefined },
  {
    name: 'a pod at the generation with its hash: the hash is known, nothing said',
    pods: [daemonPod('a', '2', 'abc')],
    revisionsMissing: true,
    note: undefined,
  },
  {
    name: 'pods only at an older generation',
    pods: [daemonPod('a', '1', 'old')],
    revisionsMissing: true,
    note: /and no pod at the current template generation; pods are judged by their pod-template-generation label against template generation 2/,
  },
  {
    name: 'a pod at the generation without the hash label',
    pods: [daemonPod('a', '2')],
    revisionsMissing: true,
    note: /no pod at the current template generation carries the controller-revision-hash label; pods are judged/,
  },
  {
    name: 'revisions in the input, none matching the template',
    pods: [daemonPod('a', '1', 'old')],
    revisionsMissing: false,
    note: /: no ControllerRevision matches the template;/,
  },
];

for (const c of cases) {
  test(`currentRevisionNote: ${c.name}`, () => {
    const note = currentRevisionNote(currentRevision(ds, [], c.pods), c.revisionsMissing, c.pods);
    if (c.note === undefined) assert.equal(note, undefined);
    else assert.match(note ?? '', c.note);
  });
}
