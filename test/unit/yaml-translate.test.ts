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

test('YAML translation: `auto` takes a worker only with a second CPU that the load average leaves free', () => {
  const cases: [cpus: number, load: number, wanted: boolean][] = [
    [1, 0, false],
    [2, 0.2, true],
    [2, 0.99, true],
    [2, 1, false],
    [2, 11.4, false],
    [8, 6.5, true],
    [8, 7, false],
  ];
  for (const [cpus, load, wanted] of cases) assert.equal(workerWanted(cpus, load), wanted, `${cpus} CPUs, load ${load}`);
});
