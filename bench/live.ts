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
 *   requests and time should not grow with the cluster.
 *
 * Skipped with one line when the Kubernetes binaries are not built (test/cluster/build.sh).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { startControlPlane, type ControlPlane } from '../test/cluster/harness.js';
import { isDsDoctor, isKubectl, medianOf, ratioText, requestsOf, tally, type RequestTally } from './live-audit.js';
import { Admin, addNodes, IN_FLIGHT, createBase, DAEMONSETS, expectedDaemonPods, nodeName, PODS_PER_NODE, type Timings } from './live-cluster.js';

export interface LiveOptions {
  /** The full size; the single-DaemonSet commands are measured at 100 nodes first. */
  nodes: number;
  runs: number;
  /** Print every distinct request ds-doctor made. */
  verbose: boolean;
  /** Write a V8 CPU profile of each ds-doctor run into bench/out/live/prof. */
  cpuProf: boolean;
  binDir?: string;
}

export interface LiveReport {
  /** Markdown for the README's bench-live block. */
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
function runOnce(cp: ControlPlane, cmd: string, args: string[], agent: (ua: string) => boolean, env: Record<string, string> = {}): Run {
  const audit = cp.auditLogPath!;
  const from = statSync(audit).size;
  const rssFile = join(OUT, '.rss');
  rmSync(rssFile, { force: true });
  const timed = existsSync(TIME);
  const started = process.hrtime.bigint();
  const r = spawnSync(timed ? TIME : cmd, timed ? ['-f', '%M', '-o', rssFile, cmd, ...args] : args, {
    env: { ...process.env, KUBECONFIG: cp.kubeconfig, NO_COLOR: '1', ...env },
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

/** Each command `runs` times, alternating (a, b, a, b, …), after one run of each that is not counted. */
function alternate(cp: ControlPlane, commands: { cmd: string; args: string[]; agent: (ua: string) => boolean; env?: Record<string, string> }[], runs: number): Figure[] {
  const all: Run[][] = commands.map(() => []);
  for (const c of commands) runOnce(cp, c.cmd, c.args, c.agent, c.env);
  for (let i = 0; i < runs; i++) commands.forEach((c, k) => all[k]!.push(runOnce(cp, c.cmd, c.args, c.agent, c.env)));
  return all.map(summarise);
}

const sec = (ms: number | undefined) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(2)} s`);
const mib = (b: number | undefined) => (b === undefined ? '—' : `${(b / 2 ** 20).toFixed(0)} MiB`);

interface SizeResult {
  nodes: number;
  pods: number;
  daemonPods: number;
  timings: Timings;
  scan: Figure;
  kubectl: Figure;
  single: Record<string, Figure>;
}

function singleCommands(): Record<string, string[]> {
  return {
    [`why ${TARGET_DS} ${nodeName(42)}`]: ['why', TARGET_DS, nodeName(42)],
    [`nodes ${TARGET_DS}`]: ['nodes', TARGET_DS],
    [`rollout ${TARGET_DS}`]: ['rollout', TARGET_DS],
  };
}

function measureSize(cp: ControlPlane, o: LiveOptions, nodes: number, timings: Timings, log: (s: string) => void): SizeResult {
  const cli = resolve('bin/ds-doctor.js');
  const nodeArgs = o.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', join(OUT, 'prof', String(nodes))] : [];
  const ds = (args: string[]) => ({ cmd: process.execPath, args: [...nodeArgs, cli, ...args, '-o', 'json'], agent: isDsDoctor });
  log(`${nodes} nodes: scan -A against kubectl get, ${o.runs} run(s) each, alternating`);
  const [scan, kubectl] = alternate(
    cp,
    [ds(['scan', '-A']), { cmd: join(cp.binDir, 'kubectl'), args: ['--kubeconfig', cp.kubeconfig, 'get', 'nodes,daemonsets,pods,events,controllerrevisions', '-A', '-o', 'json'], agent: isKubectl }],
    o.runs,
  );
  const single: Record<string, Figure> = {};
  for (const [label, args] of Object.entries(singleCommands())) {
    log(`${nodes} nodes: ${label}`);
    single[label] = alternate(cp, [ds(args)], o.runs)[0]!;
  }
  const result = { nodes, pods: nodes * PODS_PER_NODE + timings.daemonPods, daemonPods: timings.daemonPods, timings, scan: scan!, kubectl: kubectl!, single };
  if (o.verbose) {
    for (const [label, f] of [['scan -A', scan!] as const, ...Object.entries(single)]) {
      process.stderr.write(`  ${label} at ${nodes} nodes: ${f.requests} requests\n${f.distinct.map(([d, n]) => `    ${n > 1 ? `${n}× ` : ''}${d}\n`).join('')}`);
    }
    process.stderr.write(`  kubectl get at ${nodes} nodes: ${kubectl!.requests} requests\n${kubectl!.distinct.map(([d, n]) => `    ${n > 1 ? `${n}× ` : ''}${d}\n`).join('')}`);
  }
  return result;
}

function report(o: LiveOptions, sizes: SizeResult[], setupMs: number, machine: string): string {
  const big = sizes[sizes.length - 1]!;
  const small = sizes[0]!;
  const lines = [
    `Measured on ${machine}; each figure is the median of ${o.runs} run(s) after one uncounted run (peak RSS: the max, from \`/usr/bin/time\`), ds-doctor and kubectl alternating so both see the same load. Requests: the API server's audit log, by user agent.`,
    '',
    `The cluster: the control plane of the e2e tests (etcd, kube-apiserver, kube-controller-manager, kube-scheduler v1.35 with an audit log, no kubelet), started in ${sec(setupMs)}, populated through the API with ${IN_FLIGHT} requests in flight: ${big.nodes} Nodes with a kubelet's status (10% GPU, 10% infra, both tainted), ${big.nodes * PODS_PER_NODE} workload pods bound with \`spec.nodeName\`, owned by 50 ReplicaSets in 10 namespaces and set Running/Ready through the status subresource, and ${DAEMONSETS.length} DaemonSets (6 on every node, 4 on one pool each) whose ${big.daemonPods} pods the real DaemonSet controller created and the scheduler bound (then set Ready the same way).`,
    '',
    '| populating | nodes | workload pods (created + status) | daemon pods (controller + scheduler + status) |',
    '|---|---:|---:|---:|',
    ...sizes.map(
      (s, k) =>
        `| ${k === 0 ? `0 → ${s.nodes}` : `${sizes[k - 1]!.nodes} → ${s.nodes}`} nodes | ${sec(s.timings.nodesMs)} | ${sec(s.timings.podsMs)} | ${sec(s.timings.daemonPodsMs)} (${s.daemonPods - (k ? sizes[k - 1]!.daemonPods : 0)} pods) |`,
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
        `| ${what} | \`ds-doctor scan -A -o json\` | ${s.scan.requests} | ${s.scan.note ? `fails: ${s.scan.note}` : sec(s.scan.ms)} | ${ratioText(s.scan.ms, s.kubectl.ms)} | ${mib(s.scan.rss)} | ${ratioText(s.scan.rss, s.kubectl.rss)} |`,
      ];
    }),
    '',
    `One DaemonSet (${TARGET_DS}, on every node) at ${small.nodes} and at ${big.nodes} nodes:`,
    '',
    `| command | requests at ${small.nodes} | requests at ${big.nodes} | time at ${small.nodes} | time at ${big.nodes} | time ${big.nodes} / ${small.nodes} | peak RSS at ${big.nodes} |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    ...Object.keys(big.single).map((label) => {
      const a = small.single[label]!;
      const b = big.single[label]!;
      return `| \`${label}\` | ${a.requests} | ${b.requests} | ${sec(a.ms)} | ${sec(b.ms)} | ${ratioText(b.ms, a.ms)} | ${mib(b.rss)} |`;
    }),
    '',
    'Goals of issue 15 (live), as measured in this run:',
    '',
    `- \`scan -A\` at ${big.nodes} nodes: ${ratioText(big.scan.ms, big.kubectl.ms)} kubectl's time (≤ 1×: ${big.scan.ms !== undefined && big.kubectl.ms !== undefined && big.scan.ms <= big.kubectl.ms ? 'met' : '**not met**'}), ${big.scan.requests} requests against kubectl's ${big.kubectl.requests}`,
    ...Object.keys(big.single).map((label) => {
      const a = small.single[label]!;
      const b = big.single[label]!;
      const command = label.split(' ')[0]!;
      const figures = `${a.requests} → ${b.requests} requests, time ${ratioText(b.ms, a.ms)} from ${small.nodes} to ${big.nodes} nodes`;
      // Only `why <ds> <node>` is about one node; `nodes` and `rollout` report every node of the
      // DaemonSet, so they read all of its pods (a page per 500) and grow with it by design.
      if (command !== 'why') return `- \`${command}\` (reports every node, so reads every pod of the DaemonSet): ${figures}`;
      const held = a.requests === b.requests && a.ms !== undefined && b.ms !== undefined && b.ms <= 1.5 * a.ms;
      return `- \`why\` independent of the cluster's size: ${figures} (the same requests, time within 1.5×: ${held ? 'met' : '**not met**'})`;
    }),
    '',
    `Reproduce: \`npm run bench -- --only live --runs ${o.runs} --nodes ${o.nodes}\` (\`--verbose\` lists every request; \`--cpu-prof\` profiles each ds-doctor run into bench/out/live/prof/; \`--readme\` updates this section).`,
  ];
  return lines.join('\n');
}

/** Starts the control plane, populates it in two steps and measures at each size. */
export async function live(o: LiveOptions, machine: string, log: (s: string) => void = (s) => process.stderr.write(`live: ${s}\n`)): Promise<LiveReport> {
  const binDir = o.binDir ?? defaultBinDir();
  const absent = binDir ? BINARIES.filter((b) => !existsSync(join(binDir, b))) : BINARIES;
  if (!binDir || absent.length) {
    return { skipped: `live: skipped: the Kubernetes binaries are not built${binDir ? ` (${absent.join(', ')} missing in ${binDir})` : ''}; build them with test/cluster/build.sh` };
  }
  mkdirSync(OUT, { recursive: true });
  const t = Date.now();
  const cp = await startControlPlane({
    binDir,
    workDir: join(OUT, 'cluster'),
    auditLog: true,
    reset: true,
    // The DaemonSet controller's client would create ~8,000 pods at its default 20 requests a second.
    controllerManagerArgs: ['--kube-api-qps=300', '--kube-api-burst=600'],
  });
  const setupMs = Date.now() - t;
  const admin = new Admin(cp);
  try {
    log(`control plane up in ${sec(setupMs)} at ${cp.server}`);
    const refs = await createBase(admin);
    const sizes: SizeResult[] = [];
    let have = 0;
    for (const n of o.nodes > SMALL ? [SMALL, o.nodes] : [o.nodes]) {
      const timings = await addNodes(admin, refs, have, n, log);
      have = n;
      if (timings.daemonPods !== expectedDaemonPods(n)) log(`note: ${timings.daemonPods} daemon pods, ${expectedDaemonPods(n)} expected`);
      sizes.push(measureSize(cp, o, n, timings, log));
    }
    return { report: report(o, sizes, setupMs, machine) };
  } finally {
    admin.close();
    await cp.stop();
  }
}
