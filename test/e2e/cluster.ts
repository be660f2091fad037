// Shared helpers of the real-cluster tests: one control plane per test file, fake Nodes, pod
// status patched through the status subresource (there is no kubelet), ds-doctor run in-process
// or as a child process, and the API server's audit log.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import type { DaemonSet, KubeObject, Node, Pod, Taint, Toleration } from '../../src/model/k8s-types.js';
import { runCli, type CliRun } from '../harness.js';
import { ensureBinaries, startControlPlane, type ControlPlane } from '../cluster/harness.js';

/** The repository root (works from test/e2e/ and from dist/test/e2e/). */
export const REPO: string = (() => {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'bin', 'ds-doctor.js')))
      return dir;
    if (path.dirname(dir) === dir) throw new Error('cannot find the repository root above the e2e tests');
  }
})();

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** RFC 3339 without fractional seconds, as the API server writes times. */
export const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * Starts a control plane (audit log on) in its own work directory `test/cluster/.work/e2e-<name>`.
 * Builds the binaries first if they are not cached. Rejects, loudly, when anything cannot start:
 * a test that needs the cluster is never skipped.
 */
export async function startCluster(name: string): Promise<ControlPlane> {
  const binDir = await ensureBinaries();
  const workDir = path.join(REPO, 'test', 'cluster', '.work', `e2e-${name}`);
  return startControlPlane({ binDir, workDir, auditLog: true, reset: true });
}

/**
 * Stops a control plane after checking the audit log: every request ds-doctor made to it was a
 * get, list or watch. Called from each file's `after`, so the whole run is covered.
 */
export async function stopCluster(cp: ControlPlane | undefined): Promise<void> {
  if (!cp) return;
  try {
    assertReadOnly(cp);
  } finally {
    await cp.stop();
  }
}

/** Runs kubectl against the control plane; throws with its stderr unless it exits 0. */
export async function kubectl(
  cp: ControlPlane,
  args: string[],
  opts: { input?: string; context?: string } = {},
): Promise<string> {
  const r = await cp.kubectl(args, opts);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** `kubectl create -f -` of several objects at once. */
export async function create(cp: ControlPlane, objects: object[]): Promise<void> {
  await kubectl(cp, ['create', '-f', '-'], {
    input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
  });
}

/** `kubectl get … -o json` of one object or a list. */
export async function getJson<T>(cp: ControlPlane, args: string[]): Promise<T> {
  return JSON.parse(await kubectl(cp, ['get', ...args, '-o', 'json'])) as T;
}

/** A fake Node the way Kubernetes' own DaemonSet integration test makes them: Ready, with allocatable. */
export function nodeObject(name: string, opts: { taints?: Taint[]; labels?: Record<string, string> } = {}): Node {
  const now = rfc3339(new Date());
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        ...opts.labels,
      },
    },
    spec: opts.taints ? { taints: opts.taints } : {},
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'fake node of the e2e tests',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
    },
  };
}

export function namespaceObject(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

/** A DaemonSet of pause containers (terminationGracePeriodSeconds 0: deletes complete without a kubelet). */
export function daemonSetObject(
  namespace: string,
  name: string,
  opts: {
    cpu?: string;
    image?: string;
    nodeSelector?: Record<string, string>;
    tolerations?: Toleration[];
  } = {},
): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          terminationGracePeriodSeconds: 0,
          ...(opts.nodeSelector ? { nodeSelector: opts.nodeSelector } : {}),
          ...(opts.tolerations ? { tolerations: opts.tolerations } : {}),
          containers: [
            {
              name: 'agent',
              image: opts.image ?? 'registry.k8s.io/pause:3.10',
              resources: { requests: { cpu: opts.cpu ?? '10m', memory: '16Mi' } },
            },
          ],
        },
      },
    },
  };
}

/** Polls `fn` until it returns a value other than undefined. */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  let last: Error | undefined;
  while (Date.now() - start < timeoutMs) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err as Error;
    }
    await sleep(200);
  }
  throw new Error(
    `timed out after ${timeoutMs / 1000}s waiting for ${what}${last ? `; last error: ${String(last)}` : ''}`,
  );
}

/** The pods a DaemonSet's selector (`app=<name>`) matches. */
export async function podsOf(cp: ControlPlane, namespace: string, name: string): Promise<Pod[]> {
  return (await getJson<{ items: Pod[] }>(cp, ['pods', '-n', namespace, '-l', `app=${name}`])).items;
}

/**
 * Waits until the DaemonSet controller has observed the DaemonSet's generation, its status says
 * `desired` pods are scheduled, and that many pods exist and are bound by the scheduler (or,
 * with `bound: false`, exist at all). Returns the pods.
 */
export async function waitForDaemonPods(
  cp: ControlPlane,
  namespace: string,
  name: string,
  desired: number,
  opts: { bound?: boolean } = {},
): Promise<Pod[]> {
  return waitFor(`${namespace}/${name}: ${desired} pod(s)${opts.bound === false ? '' : ' bound'}`, async () => {
    const ds = await getJson<DaemonSet>(cp, ['daemonset', '-n', namespace, name]);
    const s = ds.status;
    if (
      s?.observedGeneration !== ds.metadata?.generation ||
      s?.desiredNumberScheduled !== desired ||
      s?.currentNumberScheduled !== desired
    )
      return undefined;
    const pods = (await podsOf(cp, namespace, name)).filter((p) => !p.metadata?.deletionTimestamp);
    if (pods.length !== desired) return undefined;
    if (opts.bound !== false && pods.some((p) => !p.spec?.nodeName)) return undefined;
    return pods;
  });
}

/** Waits until the DaemonSet's status reports `ready` pods ready (the controller saw the status patches). */
export async function waitForReady(
  cp: ControlPlane,
  namespace: string,
  name: string,
  ready: number,
): Promise<DaemonSet> {
  return waitFor(`${namespace}/${name}: numberReady == ${ready}`, async () => {
    const ds = await getJson<DaemonSet>(cp, ['daemonset', '-n', namespace, name]);
    return ds.status?.numberReady === ready && ds.status?.observedGeneration === ds.metadata?.generation
      ? ds
      : undefined;
  });
}

/** A request as the admin user, for status patches (kubectl patches one pod per process). */
export function adminRequest(
  cp: ControlPlane,
  method: string,
  apiPath: string,
  body?: unknown,
  contentType = 'application/merge-patch+json',
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request(
      `${cp.server}${apiPath}`,
      {
        method,
        ca: cp.ca,
        headers: {
          Authorization: `Bearer ${cp.token}`,
          Accept: 'application/json',
          'User-Agent': 'ds-doctor-e2e-setup',
          ...(payload ? { 'Content-Type': contentType } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${apiPath}: HTTP ${res.statusCode}: ${text}`));
          else resolve(text ? JSON.parse(text) : undefined);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** How a simulated kubelet reports a pod. */
export type PodState = 'ready' | 'crashloop';

/** Patches a bound pod's status the way a kubelet would: Running and Ready, or crash-looping. */
export async function setPodState(cp: ControlPlane, pod: Pod, state: PodState): Promise<void> {
  const started = rfc3339(new Date(Date.now() - 120_000));
  const container = pod.spec?.containers?.[0];
  const ready = state === 'ready';
  const status = {
    phase: 'Running',
    hostIP: '10.0.0.1',
    podIP: '10.244.0.10',
    startTime: started,
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: started },
      { type: 'Initialized', status: 'True', lastTransitionTime: started },
      {
        type: 'ContainersReady',
        status: ready ? 'True' : 'False',
        lastTransitionTime: started,
        ...(ready ? {} : { reason: 'ContainersNotReady' }),
      },
      {
        type: 'Ready',
        status: ready ? 'True' : 'False',
        lastTransitionTime: started,
        ...(ready ? {} : { reason: 'ContainersNotReady' }),
      },
    ],
    containerStatuses: [
      {
        name: container?.name ?? 'agent',
        image: container?.image ?? '',
        imageID: '',
        ready,
        started: ready,
        restartCount: ready ? 0 : 7,
        state: ready
          ? { running: { startedAt: started } }
          : {
              waiting: {
                reason: 'CrashLoopBackOff',
                message: `back-off 5m0s restarting failed container=agent pod=${pod.metadata?.name}`,
              },
            },
        ...(ready
          ? {}
          : { lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: started, finishedAt: started } } }),
      },
    ],
  };
  await adminRequest(cp, 'PATCH', `/api/v1/namespaces/${pod.metadata?.namespace}/pods/${pod.metadata?.name}/status`, {
    status,
  });
}

/** Patches every pod in parallel. */
export async function setPodStates(cp: ControlPlane, pods: Pod[], state: PodState): Promise<void> {
  await Promise.all(pods.map((p) => setPodState(cp, p, state)));
}

/** ds-doctor in-process against the control plane (KUBECONFIG from the CLI's environment). */
export function ds(cp: ControlPlane, argv: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(argv, { env: { KUBECONFIG: cp.kubeconfig, ...env } });
}

/** ds-doctor in-process with `-o json`, parsed; asserts the exit code is one of `codes`. */
export async function dsJson<T = Record<string, unknown>>(
  cp: ControlPlane,
  argv: string[],
  codes: number[] = [0, 1],
): Promise<T> {
  const r = await ds(cp, [...argv, '-o', 'json']);
  assert.ok(
    codes.includes(r.code),
    `ds-doctor ${argv.join(' ')}: exit ${r.code}, expected ${codes.join(' or ')}; stderr: ${r.stderr}`,
  );
  return JSON.parse(r.stdout) as T;
}

/** ds-doctor as a child process (`node bin/ds-doctor.js`), as a user runs it. */
export function spawnCli(argv: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, 'bin', 'ds-doctor.js'), ...argv], {
      cwd: REPO,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** One event of the API server's audit log (Metadata level). */
export interface AuditEvent {
  auditID: string;
  stage: string;
  verb: string;
  requestURI: string;
  userAgent?: string;
  user?: { username?: string };
  objectRef?: { resource?: string; namespace?: string; name?: string; subresource?: string; apiGroup?: string };
  responseStatus?: { code?: number };
  annotations?: Record<string, string>;
}

/** The user agent ds-doctor sends (src/client/credentials.ts): how its requests are told apart. */
export const DS_DOCTOR_AGENT = 'ds-doctor';

/** Every event of the audit log, in order. */
export function auditEvents(cp: ControlPlane): AuditEvent[] {
  assert.ok(cp.auditLogPath, 'the control plane was started without an audit log');
  return fs
    .readFileSync(cp.auditLogPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as AuditEvent);
}

/** ds-doctor's requests in the audit log, one per request (its ResponseComplete event), after `from` events. */
export function dsDoctorRequests(cp: ControlPlane, from = 0): AuditEvent[] {
  return auditEvents(cp)
    .slice(from)
    .filter((e) => e.userAgent === DS_DOCTOR_AGENT && e.stage === 'ResponseComplete');
}

/**
 * Asserts that ds-doctor used only gets, lists and watches on this control plane. (That its
 * requests are found by the user agent at all is asserted where they are counted.)
 */
export function assertReadOnly(cp: ControlPlane): void {
  const mine = auditEvents(cp).filter((e) => e.userAgent === DS_DOCTOR_AGENT);
  const writes = mine.filter((e) => !['get', 'list', 'watch'].includes(e.verb));
  assert.deepEqual(
    writes.map((e) => `${e.verb} ${e.requestURI}`),
    [],
    'ds-doctor used a verb other than get, list, watch',
  );
}

/** A loopback port nothing listens on (bound, then closed again). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** A copy of the control plane's kubeconfig with its text changed, written next to it. */
export function kubeconfigVariant(cp: ControlPlane, name: string, change: (text: string) => string): string {
  const file = path.join(cp.workDir, `kubeconfig-${name}`);
  fs.writeFileSync(file, change(fs.readFileSync(cp.kubeconfig, 'utf8')));
  return file;
}

/** Parses a multi-document YAML file or a `kind: List`, flattening lists into their items. */
export function yamlObjects(text: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const doc of yaml.loadAll(text) as (KubeObject | null)[]) {
    if (!doc) continue;
    if (Array.isArray(doc['items'])) out.push(...(doc['items'] as KubeObject[]));
    else out.push(doc);
  }
  return out;
}

/** `Kind namespace/name` of an object. */
export const objectId = (o: KubeObject): string =>
  `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
