// The YAML translation worker (src/load/yaml-translate.ts, src/load/yaml-worker.ts) answers what
// the translation on this thread answers, in order, and when the worker is gone the texts it
// held are translated here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { yamlToJson } from '../../src/load/yaml-json.js';
import { WorkerTranslator, workerWanted } from '../../src/load/yaml-translate.js';

const TEXTS = [
  'a: 1\nb: [1, 2]\n', // outside the subset: undefined
  "- name: x\n  message: 'long text\n    folded'\n",
  'k: "caf\u00e9 \u2603 \ud83d\ude00"\n',
  '',
  'a:\n  b:\n  - c\n',
];

test('YAML translation: the worker answers what this thread answers, batch by batch, in order', () => {
  const worker = new WorkerTranslator();
  try {
    const tickets = [worker.submit(TEXTS), worker.submit(TEXTS.slice(1, 3)), worker.submit([])];
    assert.deepEqual(worker.take(tickets[0]!), TEXTS.map(yamlToJson));
    assert.deepEqual(worker.take(tickets[1]!), TEXTS.slice(1, 3).map(yamlToJson));
    assert.deepEqual(worker.take(tickets[2]!), []);
    assert.throws(() => worker.take(tickets[0]!), /never submitted, or taken twice/);
    assert.equal(worker.take(worker.submit(TEXTS))[0], undefined, 'outside the subset');
  } finally {
    worker.close();
  }
});

test('YAML translation: texts submitted to a worker that has exited are translated on this thread', async () => {
  const worker = new WorkerTranslator();
  try {
    const before = worker.submit(TEXTS);
    const thread = (worker as unknown as { worker: Worker }).worker;
    await thread.terminate();
    await Promise.race([once(thread, 'exit'), new Promise((r) => setTimeout(r, 50))]);
    assert.deepEqual(worker.take(before), TEXTS.map(yamlToJson));
    assert.deepEqual(worker.take(worker.submit(TEXTS)), TEXTS.map(yamlToJson));
  } finally {
    worker.close();
  }
});

test('YAML translation: `auto` takes a worker only when the other CPUs were at least half a CPU idle since the stream began', () => {
  const at = (cpus: number, idle: number, total: number) => ({ cpus, idle, total });
  const cases: [before: ReturnType<typeof at>, after: ReturnType<typeof at>, wanted: boolean][] = [
    // 2 CPUs over 1 s (2,000 ms of CPU time): this thread busy, the other core idle, busy, or half idle.
    [at(2, 0, 0), at(2, 950, 2000), true],
    [at(2, 0, 0), at(2, 100, 2000), false],
    [at(2, 0, 0), at(2, 500, 2000), true],
    [at(2, 0, 0), at(2, 499, 2000), false],
    // 8 CPUs, 6 of them busy with other work.
    [at(8, 1000, 1000), at(8, 1000 + 1200, 1000 + 8000), true],
    [at(8, 1000, 1000), at(8, 1000 + 300, 1000 + 8000), false],
    // No figures (total unchanged): as with a free core.
    [at(2, 5, 10), at(2, 5, 10), true],
  ];
  for (const [before, after, wanted] of cases)
    assert.equal(workerWanted(before, after), wanted, JSON.stringify([before, after]));
});
