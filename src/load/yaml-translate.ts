/**
 * Where the YAML of a large dump is translated to JSON text (src/load/yaml-json.ts): on this
 * thread, or on one worker thread (src/load/yaml-worker.ts) while this one parses the JSON of the
 * text before and checks its objects. The translation is the larger half of reading YAML, and
 * objects can only be built on the thread that keeps them, so the worker takes a share of the
 * translation (the stream decides how much, src/load/yaml-stream.ts#translateShared): the results
 * are the same either way, in the same order. A text is submitted, then taken back
 * (synchronously: the reader is a synchronous stream); the worker's answer arrives through a
 * MessagePort read with receiveMessageOnPort, woken by a counter in shared memory. When the
 * worker cannot start, dies or stops answering, the texts it held are translated here.
 */
import { availableParallelism, cpus } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { yamlToJson } from './yaml-json.js';
import { jsonTextOf, type JsonTextBytes } from './yaml-json-text.js';

/** The worker's code as one script, compiled into the bundle and the single executable by scripts/bundle.mjs. */
declare const DS_DOCTOR_YAML_WORKER: string | undefined;

/**
 * How texts are translated: `auto` uses the worker once a stream is past AUTO_ABOVE and the
 * machine has a second CPU, `inline` never, `off` translates nothing (js-yaml reads every text).
 */
export type TranslatorMode = 'auto' | 'worker' | 'inline' | 'off';

/** Characters of YAML read before `auto` starts the worker: below it, starting one costs more than it saves. */
export const AUTO_ABOVE = 8 << 20;

/** How long one answer is waited for before the texts are translated here (a 4 MiB chunk takes about 0.1 s). */
const ANSWER_WAIT_MS = 30_000;
/** How long a worker that has not started yet is waited for (it starts in about 0.05 s). */
const START_WAIT_MS = 5_000;

/** The worker's heap: it holds one batch of text at a time, so a small young generation suffices. */
const LIMITS = { maxYoungGenerationSizeMb: 8 };

interface Answer {
  ticket: number;
  results: (JsonTextBytes | undefined)[];
  /** When the worker began and ended the batch (performance.timeOrigin + performance.now()). */
  begun?: number;
  ended?: number;
}

/** How the last batch taken went: the worker's time on it, its idle time before it, this thread's wait for it (ms). */
export interface Round {
  busyMs: number;
  idleMs: number;
  waitedMs: number;
}

/** Translation on a worker thread: the JSON texts of YAML texts (undefined: outside the subset), in submission order. */
export class WorkerTranslator {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** Answers posted by the worker so far (it adds one after each postMessage), and 1 once it has started. */
  private readonly posted = new Int32Array(new SharedArrayBuffer(8));
  private next = 0;
  /** Submitted texts not yet taken: translated here if the worker fails. */
  private readonly waiting = new Map<number, string[]>();
  private readonly answered = new Map<number, Answer>();
  private failed = false;
  /** When the worker ended the batch before the last one taken, to tell its idle time. */
  private lastEnded: number | undefined;
  /** Whether the last take() had to wait for its answer. */
  private waited = false;
  /** How the last batch taken went; undefined when its answer came from this thread. */
  round: Round | undefined;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const workerData = { port: port2, posted: this.posted };
    this.worker =
      typeof DS_DOCTOR_YAML_WORKER === 'string'
        ? new Worker(DS_DOCTOR_YAML_WORKER, { eval: true, workerData, transferList: [port2], resourceLimits: LIMITS })
        : new Worker(new URL('./yaml-worker.js', import.meta.url), {
            workerData,
            transferList: [port2],
            resourceLimits: LIMITS,
          });
    // Neither keeps the process alive; an error or exit between chunks marks the worker failed.
    this.worker.unref();
    this.port.unref();
    this.worker.on('error', () => (this.failed = true));
    this.worker.on('exit', () => (this.failed = true));
  }

  /** Starts translating; returns the ticket take() needs. */
  submit(texts: string[]): number {
    const ticket = this.next++;
    this.waiting.set(ticket, texts);
    if (!this.failed) this.port.postMessage({ ticket, texts });
    return ticket;
  }

  /** The translations of a submitted batch, waiting for them if need be. */
  take(ticket: number): (string | undefined)[] {
    const texts = this.waiting.get(ticket);
    if (!texts) throw new Error(`YAML translation ${ticket} was never submitted, or taken twice`);
    this.waiting.delete(ticket);
    const begun = performance.timeOrigin + performance.now();
    const answer = this.answer(ticket);
    this.round = undefined;
    if (!answer) return texts.map(yamlToJson);
    if (answer.begun !== undefined && answer.ended !== undefined) {
      const idle = this.lastEnded === undefined ? 0 : Math.max(0, answer.begun - this.lastEnded);
      this.round = {
        busyMs: answer.ended - answer.begun,
        idleMs: idle,
        waitedMs: this.waited ? Math.max(0, answer.ended - begun) : 0,
      };
      this.lastEnded = answer.ended;
    }
    return answer.results.map((bytes) => (bytes ? jsonTextOf(bytes) : undefined));
  }

  /** The worker's answer to a ticket, or undefined when it has failed or does not answer in time. */
  private answer(ticket: number): Answer | undefined {
    const begun = Date.now();
    const deadline = begun + ANSWER_WAIT_MS;
    this.waited = false;
    while (!this.answered.has(ticket)) {
      if (this.failed) return undefined;
      const seen = Atomics.load(this.posted, 0);
      const got = receiveMessageOnPort(this.port);
      if (got) {
        const a = got.message as Answer;
        this.answered.set(a.ticket, a);
        continue;
      }
      // A worker that could not start (its error event waits for the event loop) is not waited for long.
      if (Atomics.load(this.posted, 1) === 0 && Date.now() - begun > START_WAIT_MS) {
        this.failed = true;
        return undefined;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        this.failed = true;
        return undefined;
      }
      // Woken when the worker posts; a bounded wait, so a worker that died is noticed.
      this.waited = true;
      Atomics.wait(this.posted, 0, seen, Math.min(left, 1000));
    }
    const r = this.answered.get(ticket);
    this.answered.delete(ticket);
    return r;
  }

  /** Stops the worker. */
  close(): void {
    this.failed = true;
    this.waiting.clear();
    this.answered.clear();
    this.port.close();
    void this.worker.terminate();
  }
}

/** CPU time of the machine so far, every CPU (ms): `idle` of `total`. */
export interface CpuSample {
  cpus: number;
  idle: number;
  total: number;
}

export function cpuSample(): CpuSample {
  let idle = 0;
  let total = 0;
  const list = cpus();
  for (const { times } of list) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { cpus: list.length, idle, total };
}

/**
 * Whether `auto` may use a worker: a second CPU that other processes left free since `before`
 * (at least half a CPU idle; this thread keeps one busy). The worker pays only with a core of its
 * own: on a 2-core machine whose cores other processes kept busy, it cost CPU time and 14–15% more
 * peak RSS on the 1,000-node YAML dumps, for wall time that varied either way (docs/performance.md,
 * "Every optimisation earns its place"). The results are the same either way. The CLI turns it
 * off with DS_DOCTOR_WORKERS=0 (files.ts#envLoadOptions).
 */
export function workerWanted(before: CpuSample, after: CpuSample = cpuSample()): boolean {
  if (availableParallelism() < 2) return false;
  const total = after.total - before.total;
  // No time measured (a platform without the figures): as with a free core.
  if (total <= 0) return true;
  return ((after.idle - before.idle) / total) * after.cpus >= 0.5;
}

/** A worker translator, or undefined when no worker can start here (everything is then translated on this thread). */
export function startTranslator(): WorkerTranslator | undefined {
  try {
    return new WorkerTranslator();
  } catch {
    return undefined;
  }
}
