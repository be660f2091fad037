/**
 * The worker thread of src/load/yaml-translate.ts: translates the YAML texts it is sent to JSON
 * bytes (src/load/yaml-json.ts) and posts them back, moved, not copied; then counts the answer in
 * shared memory, which wakes the reader waiting for it (a second counter says it has started). A
 * text outside the subset, or one whose translation throws, answers undefined: the reader then
 * reads it as it would without a worker.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { yamlToJsonBytes } from './yaml-json.js';
import type { JsonTextBytes } from './yaml-json-text.js';

const { port, posted } = workerData as { port: MessagePort; posted: Int32Array };

port.on('message', (m: { ticket: number; texts: string[] }) => {
  // On the clock both threads share, for the reader to weigh the worker's share (busyMs, idleMs).
  const begun = performance.timeOrigin + performance.now();
  const results: (JsonTextBytes | undefined)[] = [];
  const moved: ArrayBuffer[] = [];
  for (const text of m.texts) {
    let r: JsonTextBytes | undefined;
    try {
      r = yamlToJsonBytes(text);
    } catch {
      r = undefined;
    }
    results.push(r);
    if (r) moved.push(r.data.buffer as ArrayBuffer);
  }
  port.postMessage({ ticket: m.ticket, results, begun, ended: performance.timeOrigin + performance.now() }, moved);
  Atomics.add(posted, 0, 1);
  Atomics.notify(posted, 0);
});
// Started: the reader waits for answers from now on without a start-up limit.
Atomics.store(posted, 1, 1);
Atomics.notify(posted, 0);
