/**
 * Writes a synthetic but realistic cluster dump, deterministic from a seed: what
 * `kubectl get nodes,pods,ds,controllerrevisions,events -A -o json` prints (one `List`, keys
 * sorted, four-space indentation, the pods in the API server's order: by namespace, then name) and
 * the same objects as multi-document YAML.
 *
 *   node dist/bench/generate.js --nodes 5000 --pods 150000 --out bench/out/5k [--seed 1]
 *     [--formats json,yaml,yaml-list] [--managed-fields] [--daemonsets 30]
 *
 * The cluster: a few control-plane nodes, general / high-memory / GPU / spot pools, some
 * Windows, NotReady, cordoned and just-joined nodes; the usual DaemonSets (CNI, kube-proxy,
 * CSI node plugin, log collector mid-rollout, node-exporter with a host port, GPU device
 * plugin) with their ControllerRevisions; daemon pods with the controller's pinned node
 * affinity, hash labels and status blocks (a few crash-looping, pulling, pending on full
 * nodes); workload pods from Deployments and Jobs with requests spread over the nodes; events.
 * The evaluation instant is 2026-11-29T12:00:00Z (pass it as `--now`).
 *
 * The objects are built by test/kube's builders (makeNode, makePod, makeDaemonSet, podCondition…),
 * the generator's own random draws (uids, names, digests) passed in; its pieces are under
 * bench/generate/: nodes, shapes (the DaemonSets), daemonsets, workloads, status, events, write.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { HOUR, NOW_ISO } from '../test/kube/time.js';
import { daemonPods, daemonSetObjects, daemonSetStates } from './generate/daemonsets.js';
import { EventLog } from './generate/events.js';
import { layoutNodes, nodeObject } from './generate/nodes.js';
import { newGen, type Obj, sortKeys } from './generate/random.js';
import { daemonSetShapes } from './generate/shapes.js';
import { workloadPods } from './generate/workloads.js';
import { FILE_NAMES, type Format, type Sink, sinkFor } from './generate/write.js';

/** The instant every timestamp of the dump is relative to (test/kube's, shared with every fixture). */
export { NOW_ISO };

/** The version of what the generator writes: a cached dump whose stamp names another is written again. */
export const DUMP_VERSION = 6;
export { FILE_NAMES, itemSpansFile, type Format } from './generate/write.js';

/** Options of one generated dump. */
export interface GenerateOptions {
  nodes: number;
  /** Total pods, daemon pods included (the workload pods make up the rest). */
  pods: number;
  seed: number;
  out: string;
  formats: Format[];
  /** Include `metadata.managedFields`, as the raw API (or `--show-managed-fields`) returns them. */
  managedFields: boolean;
  /**
   * How many DaemonSets: the first ones of the built-in set, then agents on every Linux node
   * (default: the built-in set).
   */
  daemonSets?: number;
}

/** What was written. */
export interface GenerateResult {
  files: Record<string, string>;
  counts: Record<string, number>;
}

/** Generates the dump; returns the paths written and the object counts. */
export function generate(opts: GenerateOptions): GenerateResult {
  const g = newGen(opts.seed, opts.managedFields);
  mkdirSync(opts.out, { recursive: true });
  const files: Record<string, string> = {};
  const sinks: Sink[] = [];
  for (const f of opts.formats) {
    if (!(f in FILE_NAMES)) throw new Error(`unknown format ${f}; known: ${Object.keys(FILE_NAMES).join(', ')}`);
    const path = join(opts.out, FILE_NAMES[f]);
    files[f] = path;
    sinks.push(sinkFor(f, path));
  }
  const counts: Record<string, number> = { Node: 0, Pod: 0, DaemonSet: 0, ControllerRevision: 0, Event: 0 };
  /** Counts an object whose keys are sorted already and writes it to every sink. */
  const write = (sorted: Obj, kind: string) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
    for (const s of sinks) s.item(sorted, kind);
  };
  const emit = (obj: Obj, kind: string) => write(sortKeys(obj) as Obj, kind);
  // The pods are written in the order the API server lists them (by namespace, then name: the
  // order of their keys in etcd), as kubectl prints them, not in the order they are made here
  // (node by node). Each is kept as its JSON text until then: 300,000 pod objects would not fit.
  const pods: { key: string; text: string }[] = [];
  const emitPod = (obj: Obj) => {
    const md = obj['metadata'] as Obj;
    pods.push({ key: `${String(md['namespace'])}/${String(md['name'])}`, text: JSON.stringify(sortKeys(obj)) });
  };

  const nodes = layoutNodes(opts.nodes, g.r);
  for (const n of nodes) emit(nodeObject(n, g), 'Node');
  const states = daemonSetStates(daemonSetShapes(opts.daemonSets), g);
  const events = new EventLog(g);
  const podNames = new Set<string>();
  const daemon = daemonPods(nodes, states, g, events, podNames, emitPod);
  const placed = workloadPods(nodes, Math.max(0, opts.pods - daemon), g, events, podNames, emitPod);
  pods.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < pods.length; i++) {
    const text = pods[i]!.text;
    pods[i] = { key: '', text: '' };
    write(JSON.parse(text) as Obj, 'Pod');
  }
  pods.length = 0;

  const { daemonSets, revisions } = daemonSetObjects(states, g);
  for (const ds of daemonSets) emit(ds, 'DaemonSet');
  for (const cr of revisions) emit(cr, 'ControllerRevision');

  // Normal events for a sample of nodes, then the warnings gathered above.
  for (const n of nodes) {
    if (!g.r.chance(0.2)) continue;
    const message = n.notReady
      ? `Node ${n.name} status is now: NodeNotReady`
      : `Node ${n.name} event: Registered Node ${n.name} in Controller`;
    events.add(
      { kind: 'Node', name: n.name, uid: n.name },
      n.notReady ? 'NodeNotReady' : 'RegisteredNode',
      message,
      'Normal',
      1,
      g.r.int(3 * HOUR),
      'node-controller',
    );
  }
  for (const e of events.events()) emit(e, 'Event');
  for (const s of sinks) s.close();
  return { files, counts: { ...counts, placed } };
}

function parseArgs(argv: string[]): GenerateOptions {
  const opts: GenerateOptions = {
    nodes: 1000,
    pods: 30000,
    seed: 1,
    out: 'bench/out/dump',
    formats: ['json', 'yaml'],
    managedFields: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--nodes') opts.nodes = Number(value());
    else if (a === '--pods') opts.pods = Number(value());
    else if (a === '--seed') opts.seed = Number(value());
    else if (a === '--out') opts.out = value();
    else if (a === '--formats') opts.formats = value().split(',') as GenerateOptions['formats'];
    else if (a === '--managed-fields') opts.managedFields = true;
    else if (a === '--daemonsets') opts.daemonSets = Number(value());
    else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(opts.nodes) || opts.nodes < 4) throw new Error('--nodes must be an integer of at least 4');
  if (!Number.isInteger(opts.pods) || opts.pods < 0) throw new Error('--pods must be a non-negative integer');
  return opts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const result = generate(opts);
  process.stdout.write(`${JSON.stringify({ ...result, seconds: (Date.now() - started) / 1000 })}\n`);
}
