// The loader's optimisations, each switched off through LoadOptions as the benchmark's --ablate
// does (bench/ablate.ts): the snapshot is the same, object for object, except that with slimming
// off the pods of other controllers keep every field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFiles, type LoadOptions } from '../../src/load/files.js';
import type { ClusterSnapshot } from '../../src/model/snapshot.js';
import { ABLATIONS } from '../../bench/ablate.js';

const noStdin = async () => '';
const INPUTS = ['fixtures/demo', 'fixtures/cluster-info-dump'];

function lists(s: ClusterSnapshot): unknown {
  return JSON.parse(JSON.stringify({ ...s, origins: [...s.pods.map((p) => s.origins.get(p))] }));
}

for (const a of ABLATIONS.filter((x) => x.options)) {
  test(`load options: ${a.name} off gives the same snapshot${a.key === 'slim' ? ', pods of other controllers whole' : ''}`, async () => {
    for (const input of INPUTS) {
      const on = await loadFiles([input], noStdin);
      // Split and translated (on a worker for `inline` to mean something) as a large input would be.
      const small: LoadOptions = { splitAbove: 0, exactUpTo: 0, chunkSize: 4099 };
      const off = await loadFiles([input], noStdin, { ...small, ...a.options });
      if (a.key !== 'slim') {
        assert.deepStrictEqual(lists(off), lists(on), input);
        continue;
      }
      assert.equal(off.pods.length, on.pods.length);
      assert.equal(off.prunedTimes.has(off.pods[0]!), false);
      const slimmed = on.pods.filter((p) => on.prunedTimes.has(p));
      if (input === 'fixtures/demo') assert.ok(slimmed.length > 0, 'the demo has pods of other controllers');
      for (const p of slimmed) {
        const whole = off.pods.find(
          (q) => q.metadata?.name === p.metadata?.name && q.metadata?.namespace === p.metadata?.namespace,
        )!;
        assert.ok(JSON.stringify(whole).length > JSON.stringify(p).length, `${p.metadata?.name}: kept whole`);
      }
    }
  });
}
