/**
 * The live benchmark (`npm run bench -- --only live`): ds-doctor against a real control plane of
 * the e2e tests (test/cluster), populated through the API (bench/live-cluster.ts), next to
 * kubectl's list of the same kinds, in the same run:
 *
 * - `scan -A -o json` against `kubectl get nodes,daemonsets,pods,events,controllerrevisions -A -o
 *   json` (the kubectl built for the tests, same kubeconfig), alternating; wall time, peak RSS
 *   (from /usr/bin/time) and the requests each made, counted in the API server's audit log by
 *   user agent;
 * - `why <ds> <node>`, `nodes <ds>` and `rollout <ds>` at a small and at the full size: their
 *   requests and time should not grow with the cluster. The two sizes are two control planes
 *   running side by side, so each command alternates between them (small, full, small, …) and
 *   both sizes see the same load; the growth is the median of each round's full over small.
 *
 * Skipped with one line when the Kubernetes binaries are not built (test/cluster/build.sh).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { startControlPlane, type ControlPlane } from '../test/cluster/harness.js';
import {
  isDsDoctor,
  isKubectl,
  medianOf,
  pairedRatio,
  ratioText,
  requestsOf,
  tally,
  type RequestTally,
} from './live-audit.js';
import {
  Admin,
  addNodes,
  IN_FLIGHT,
  createBase,
  DAEMONSETS,
  expectedDaemonPods,
  nodeName,
  PODS_PER_NODE,
  type Timings,
} from './live-cluster.js';

export interface LiveOptions {
  /** The full size; a second cluster of 100 nodes runs beside it for the single-DaemonSet commands. */
  nodes: number;
  runs: number;
  /** Print every distinct request ds-doctor made. */
  verbose: boolean;
  /** Write a V8 CPU profile of each ds-doctor run into bench/out/live/prof. */
  cpuProf: boolean;
  binDir?: string;
}

export interface LiveReport {
  /** Markdown for the bench-live block of docs/performance.md. */
  report?: string;
  /** Why nothing was measured (one line). */
  skipped?: string;
}

const OUT = resolve('bench/out/live');
const TIME = '/usr/bin/time';
const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'];
const SMALL = 100;
const TARGET_DS = 'logging/fluent-bit';

interface Run {
  ms: number;
  rss: number | undefined;
  ok: boolean;
  note?: string;
  requests: RequestTally;
}

interface Figure {
  ms: number | undefined;
  rss: number | undefined;
  requests: number;
  distinct: [string, number][];
  note?: string;
}

/** The directory build.sh writes the binaries to (the version pinned in test/cluster/k8s-bins/go.mod). */
function defaultBinDir(): string | undefined {
  if (process.env['DS_DOCTOR_K8S_BIN_DIR']) return process.env['DS_DOCTOR_K8S_BIN_DIR'];
  const gomod = 'test/cluster/k8s-bins/go.mod';
  const version = existsSync(gomod) ? /k8s\.io\/kubernetes (v\S+)/.exec(readFileSync(gomod, 'utf8'))?.[1] : undefined;
  return version ? join(homedir(), '.cache', 'ds-doctor', 'k8s-bins', version) : undefined;
}

/** The bytes appended to the audit log since `from`. */
function auditSince(path: string, from: number): string {
  const size = statSync(path).size;
  const buf = Buffer.alloc(size - from);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buf, 0, buf.length, from);
  } finally {
    closeSync(fd);
  }
  return buf.toString('utf8');
}

/** Runs one command with stdout to /dev/null; wall time, peak RSS and its requests. */
function runOnce(cp: ControlPlane, cmd: string, args: string[], agent: (ua: string) => boolean): Run {
  const audit = cp.auditLogPath!;
  const from = statSync(audit).size;
  const rssFile = join(OUT, '.rss');
  rmSync(rssFile, { force: true });
  const timed = existsSync(TIME);
  const started = process.hrtime.bigint();
  const r = spawnSync(timed ? TIME : cmd, timed ? ['-f', '%M', '-o', rssFile, cmd, ...args] : args, {
    env: { ...process.env, KUBECONFIG: cp.kubeconfig, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 16 << 20,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const rssKb = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) : NaN;
  // ds-doctor exits 1 when it finds problems: a normal outcome here.
  const ok = r.status === 0 || (r.status === 1 && agent === isDsDoctor);
  const err = r.stderr.toString().trim().split('\n').pop() ?? '';
  return {
    ms,
    rss: Number.isFinite(rssKb) ? rssKb * 1024 : undefined,
    ok,
    ...(ok ? {} : { note: err.slice(0, 160) || `exit ${r.status}` }),
    requests: tally(requestsOf(auditSince(audit, from), agent)),
  };
}

function summarise(runs: Run[]): Figure {
  const ok = runs.filter((r) => r.ok);
  const rss = ok.map((r) => r.rss).filter((v): v is number => v !== undefined);
  const counted = ok.length ? ok : runs;
  const last = counted[counted.length - 1];
  return {
    ms: medianOf(ok.map((r) => r.ms)),
    rss: rss.length ? Math.max(...rss) : undefined,
    requests: last?.requests.count ?? 0,
    distinct: last?.requests.distinct ?? [],
    ...(ok.length ? {} : { note: runs[0]?.note ?? 'no run' }),
  };
}

interface Command {
  cp: ControlPlane;
  cmd: string;
  args: string[];
  agent: (ua: string) => boolean;
}

/** Each command `runs` times, alternating (a, b, a, b, …), after one run of each that is not counted. */
function alternate(commands: Command[], runs: number): Run[][] {
  const all: Run[][] = commands.map(() => []);
  for (const c of commands) runOnce(c.cp, c.cmd, c.args, c.agent);
  for (let i = 0; i < runs; i++) commands.forEach((c, k) => all[k]!.push(runOnce(c.cp, c.cmd, c.args, c.agent)));
  return all;
}

/** The median of each round's ratio of `top` to `bottom`'s time, over the rounds both ran. */
function timeRatio(top: Run[], bottom: Run[]): number | undefined {
  const ms = (r: Run) => (r.ok ? r.ms : undefined);
  return pairedRatio(top.map(ms), bottom.map(ms));
}

const sec = (ms: number | undefined) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(2)} s`);
const mib = (b: number | undefined) => (b === undefined ? '—' : `${(b / 2 ** 20).toFixed(0)} MiB`);

interface SizeResult {
  nodes: number;
  pods: number;
  daemonPods: number;
  timings: Timings;
  setupMs: number;
  scan: Figure;
  kubectl: Figure;
  /** The median of each round's scan time over kubectl's. */
  scanRatio: number | undefined;
}

/** One command about one DaemonSet on the small and on the full cluster, alternating. */
interface SingleResult {
  small: Figure;
  big: Figure;
  /** The median of each round's full-size time over small-size time. */
  growth: number | undefined;
}

function singleCommands(): Record<string, string[]> {
  return {
    [`why ${TARGET_DS} ${nodeName(42)}`]: ['why', TARGET_DS, nodeName(42)],
    [`nodes ${TARGET_DS}`]: ['nodes', TARGET_DS],
    [`rollout ${TARGET_DS}`]: ['rollout', TARGET_DS],
  };
}

function dsCommand(cp: ControlPlane, o: LiveOptions, nodes: number, args: string[]): Command {
  const nodeArgs = o.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', join(OUT, 'prof', String(nodes))] : [];
  return {
    cp,
    cmd: process.execPath,
    args: [...nodeArgs, resolve('bin/ds-doctor.js'), ...args, '-o', 'json'],
    agent: isDsDoctor,
  };
}

function printRequests(label: string, nodes: number, f: Figure): void {
  process.stderr.write(
    `  ${label} at ${nodes} nodes: ${f.requests} requests\n${f.distinct.map(([d, n]) => `    ${n > 1 ? `${n}× ` : ''}${d}\n`).join('')}`,
  );
}

function measureScan(
  cp: ControlPlane,
  o: LiveOptions,
  nodes: number,
  timings: Timings,
  setupMs: number,
  log: (s: string) => void,
): SizeResult {
  log(`${nodes} nodes: scan -A against kubectl get, ${o.runs} run(s) each, alternating`);
  const [scanRuns, kubectlRuns] = alternate(
    [
      dsCommand(cp, o, nodes, ['scan', '-A']),
      {
        cp,
        cmd: join(cp.binDir, 'kubectl'),
        args: [
          '--kubeconfig',
          cp.kubeconfig,
          'get',
          'nodes,daemonsets,pods,events,controllerrevisions',
          '-A',
          '-o',
          'json',
        ],
        agent: isKubectl,
      },
    ],
    o.runs,
  );
  const scan = summarise(scanRuns!);
  const kubectl = summarise(kubectlRuns!);
  if (o.verbose) {
    printRequests('scan -A', nodes, scan);
    printRequests('kubectl get', nodes, kubectl);
  }
  return {
    nodes,
    pods: nodes * PODS_PER_NODE + timings.daemonPods,
    daemonPods: timings.daemonPods,
    timings,
    setupMs,
    scan,
    kubectl,
    scanRatio: timeRatio(scanRuns!, kubectlRuns!),
  };
}

/** Each single-DaemonSet command on the small and on the full cluster, alternating between them. */
function measureSingle(
  small: { cp: ControlPlane; nodes: number },
  big: { cp: ControlPlane; nodes: number },
  o: LiveOptions,
  log: (s: string) => void,
): Record<string, SingleResult> {
  const out: Record<string, SingleResult> = {};
  for (const [label, args] of Object.entries(singleCommands())) {
    log(`${label}: at ${small.nodes} and at ${big.nodes} nodes, ${o.runs} run(s) each, alternating`);
    const [a, b] = alternate(
      [dsCommand(small.cp, o, small.nodes, args), dsCommand(big.cp, o, big.nodes, args)],
      o.runs,
    );
    out[label] = { small: summarise(a!), big: summarise(b!), growth: timeRatio(b!, a!) };
    if (o.verbose) {
      printRequests(label, small.nodes, out[label].small);
      printRequests(label, big.nodes, out[label].big);
    }
  }
  return out;
}

const times = (r: number | undefined) => (r === undefined ? '—' : `${r.toFixed(2)}×`);

function report(o: LiveOptions, sizes: SizeResult[], single: Record<string, SingleResult>, machine: string): string {
  const big = sizes[sizes.length - 1]!;
  const small = sizes[0]!;
  const two = sizes.length > 1;
  const lines = [
    `Measured on ${machine}; each figure is the median of ${o.runs} run(s) after one uncounted run (peak RSS: the max, from \`/usr/bin/time\`), ds-doctor and kubectl alternating so both see the same load, and each ratio of times the median of the ratios of the two runs made one after the other in each round. Requests: the API server's audit log, by user agent.`,
    '',
    `The clusters: ${two ? `two control planes of the e2e tests side by side, one of ${small.nodes} nodes and one of ${big.nodes}` : 'the control plane of the e2e tests'} (etcd, kube-apiserver, kube-controller-manager, kube-scheduler v1.35 with an audit log, no kubelet; started in ${sizes.map((s) => sec(s.setupMs)).join(' and ')}), each populated through the API with ${IN_FLIGHT} requests in flight: Nodes with a kubelet's status (10% GPU, 10% infra, both tainted), ${PODS_PER_NODE} workload pods a node bound with \`spec.nodeName\`, owned by 50 ReplicaSets in 10 namespaces and set Running/Ready through the status subresource, and ${DAEMONSETS.length} DaemonSets (6 on every node, 4 on one pool each) whose pods the real DaemonSet controller created and the scheduler bound (then set Ready the same way).`,
    '',
    '| populating | nodes | workload pods (created + status) | daemon pods (controller + scheduler + status) |',
    '|---|---:|---:|---:|',
    ...sizes.map(
      (s) =>
        `| 0 → ${s.nodes} nodes | ${sec(s.timings.nodesMs)} | ${sec(s.timings.podsMs)} (${s.nodes * PODS_PER_NODE} pods) | ${sec(s.timings.daemonPodsMs)} (${s.daemonPods} pods) |`,
    ),
    '',
    '`ds-doctor scan -A -o json > /dev/null` against `kubectl get nodes,daemonsets,pods,events,controllerrevisions -A -o json > /dev/null`:',
    '',
    '| cluster | command | requests | time | time / kubectl | peak RSS | RSS / kubectl |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...sizes.flatMap((s) => {
      const what = `${s.nodes} nodes / ${s.pods} pods`;
      return [
        `| ${what} | \`kubectl get … -A -o json\` | ${s.kubectl.requests} | ${s.kubectl.note ? `fails: ${s.kubectl.note}` : sec(s.kubectl.ms)} | — | ${mib(s.kubectl.rss)} | — |`,
        `| ${what} | \`ds-doctor scan -A -o json\` | ${s.scan.requests} | ${s.scan.note ? `fails: ${s.scan.note}` : sec(s.scan.ms)} | ${times(s.scanRatio)} | ${mib(s.scan.rss)} | ${ratioText(s.scan.rss, s.kubectl.rss)} |`,
      ];
    }),
  ];
  if (two) {
    lines.push(
      '',
      `One DaemonSet (${TARGET_DS}, on every node) at ${small.nodes} and at ${big.nodes} nodes, each run alternating between the two clusters:`,
      '',
      `| command | requests at ${small.nodes} | requests at ${big.nodes} | time at ${small.nodes} | time at ${big.nodes} | time ${big.nodes} / ${small.nodes} | peak RSS at ${big.nodes} |`,
      '|---|---:|---:|---:|---:|---:|---:|',
      ...Object.entries(single).map(
        ([label, r]) =>
          `| \`${label}\` | ${r.small.requests} | ${r.big.requests} | ${sec(r.small.ms)} | ${sec(r.big.ms)} | ${times(r.growth)} | ${mib(r.big.rss)} |`,
      ),
    );
  }
  lines.push(
    '',
    'Goals of issue 15 (live), as measured in this run:',
    '',
    `- \`scan -A\` at ${big.nodes} nodes: ${times(big.scanRatio)} kubectl's time (≤ 1×: ${big.scanRatio !== undefined && big.scanRatio <= 1 ? 'met' : '**not met**'}), ${big.scan.requests} requests against kubectl's ${big.kubectl.requests}`,
    ...Object.entries(two ? single : {}).map(([label, r]) => {
      const command = label.split(' ')[0]!;
      const figures = `${r.small.requests} → ${r.big.requests} requests, time ${times(r.growth)} from ${small.nodes} to ${big.nodes} nodes`;
      // Only `why <ds> <node>` is about one node; `nodes` and `rollout` report every node of the
      // DaemonSet, so they read all of its pods (a page per 500) and grow with it by design.
      if (command !== 'why')
        return `- \`${command}\` (reports every node, so reads every pod of the DaemonSet): ${figures}`;
      const held = r.small.requests === r.big.requests && r.growth !== undefined && r.growth <= 1.5;
      return `- \`why\` independent of the cluster's size: ${figures} (the same requests, time within 1.5×: ${held ? 'met' : '**not met**'})`;
    }),
    '',
    `Reproduce: \`npm run bench -- --only live --runs ${o.runs} --nodes ${o.nodes}\` (\`--verbose\` lists every request; \`--cpu-prof\` profiles each ds-doctor run into bench/out/live/prof/; \`--readme\` updates this section).`,
  );
  return lines.join('\n');
}

async function startCluster(binDir: string, name: string): Promise<{ cp: ControlPlane; setupMs: number }> {
  const t = Date.now();
  const cp = await startControlPlane({
    binDir,
    workDir: join(OUT, name),
    auditLog: true,
    reset: true,
    // The DaemonSet controller's client would create ~8,000 pods at its default 20 requests a second.
    controllerManagerArgs: ['--kube-api-qps=300', '--kube-api-burst=600'],
  });
  return { cp, setupMs: Date.now() - t };
}

/**
 * Starts a control plane per size (100 nodes and `--nodes`), populates each, measures `scan -A`
 * against kubectl on each, then the single-DaemonSet commands alternating between the two.
 */
export async function live(
  o: LiveOptions,
  machine: string,
  log: (s: string) => void = (s) => process.stderr.write(`live: ${s}\n`),
): Promise<LiveReport> {
  const binDir = o.binDir ?? defaultBinDir();
  const absent = binDir ? BINARIES.filter((b) => !existsSync(join(binDir, b))) : BINARIES;
  if (!binDir || absent.length) {
    return {
      skipped: `live: skipped: the Kubernetes binaries are not built${binDir ? ` (${absent.join(', ')} missing in ${binDir})` : ''}; build them with test/cluster/build.sh`,
    };
  }
  mkdirSync(OUT, { recursive: true });
  const clusters: { cp: ControlPlane; admin: Admin; nodes: number }[] = [];
  try {
    const sizes: SizeResult[] = [];
    for (const [k, n] of (o.nodes > SMALL ? [SMALL, o.nodes] : [o.nodes]).entries()) {
      // Started one after the other: each reserves its own free ports.
      const { cp, setupMs } = await startCluster(binDir, k === 0 && o.nodes > SMALL ? 'cluster-small' : 'cluster');
      const admin = new Admin(cp);
      clusters.push({ cp, admin, nodes: n });
      log(`control plane of ${n} nodes up in ${sec(setupMs)} at ${cp.server}`);
      const refs = await createBase(admin);
      const timings = await addNodes(admin, refs, 0, n, log);
      if (timings.daemonPods !== expectedDaemonPods(n))
        log(`note: ${timings.daemonPods} daemon pods, ${expectedDaemonPods(n)} expected`);
      sizes.push(measureScan(cp, o, n, timings, setupMs, log));
    }
    const single = clusters.length > 1 ? measureSingle(clusters[0]!, clusters[1]!, o, log) : {};
    return { report: report(o, sizes, single, machine) };
  } finally {
    for (const c of clusters) {
      c.admin.close();
      await c.cp.stop();
    }
  }
}
