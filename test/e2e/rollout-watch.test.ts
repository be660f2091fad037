// `rollout --watch` as a pipeline runs it (a child process, KUBECONFIG in its environment)
// against the real control plane: a rolling update driven by the simulated kubelets (each new
// pod reported Running and Ready once bound) is followed to exit 0 with kubectl rollout status's
// lines; a crashing image (new pods reported in CrashLoopBackOff) ends with exit 1 and the cause
// first; and an API server restart in the middle of a rollout is survived (the watch reconnects)
// to exit 0. The audit log shows ds-doctor only listing and watching.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { ControlPlane } from '../cluster/harness.js';
import type { CliRun } from '../harness.js';
import type { Pod } from '../../src/model/k8s-types.js';
import {
  auditEvents,
  create,
  daemonSetObject,
  dsDoctorRequests,
  kubectl,
  namespaceObject,
  nodeObject,
  podsOf,
  setPodState,
  sleep,
  REPO,
  startCluster,
  stopCluster,
  waitFor,
  waitForDaemonPods,
  waitForReady,
} from './cluster.js';

const NS = 'watch';
const BOUND = { timeout: 240_000 };

/**
 * The kubelets of the fake nodes: every 300 ms, each bound pod of the DaemonSet that has no
 * status yet is reported as `state(pod)` says (Running and Ready, or crash-looping), unless
 * paused. Errors (the API server restarting) are ignored, as a kubelet retries.
 */
function kubelets(
  cp: ControlPlane,
  name: string,
  state: (pod: Pod) => 'ready' | 'crashloop',
): { paused: boolean; stop(): Promise<void> } {
  let running = true;
  const control = {
    paused: false,
    async stop() {
      running = false;
      await loop;
    },
  };
  const loop = (async () => {
    while (running) {
      try {
        if (!control.paused) {
          for (const pod of await podsOf(cp, NS, name)) {
            if (!pod.spec?.nodeName || pod.metadata?.deletionTimestamp || pod.status?.containerStatuses?.length)
              continue;
            await setPodState(cp, pod, state(pod));
          }
        }
      } catch {
        // the API server is restarting: try again
      }
      await sleep(300);
    }
  })();
  return control;
}

/** ds-doctor as a child process, its stdout readable while it runs. */
function startCli(argv: string[], env: Record<string, string>): { stdout(): string; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'ds-doctor.js'), ...argv], {
    cwd: REPO,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
  return { stdout: () => stdout, done };
}

/** Waits until the child has printed its first line: the watch is running. */
async function firstLine(run: { stdout(): string }): Promise<void> {
  for (let i = 0; i < 300 && !run.stdout().includes('\n'); i++) await sleep(100);
  assert.ok(run.stdout().includes('\n'), 'ds-doctor printed its first line');
}

const imageOf = (pod: Pod): string => pod.spec?.containers?.[0]?.image ?? '';
const LINE =
  /^(Waiting for daemon set spec update to be observed\.\.\.|Waiting for daemon set "[a-z-]+" rollout to finish: \d+ (out of \d+ new pods have been updated|of \d+ updated pods are available)\.\.\.|daemon set "[a-z-]+" successfully rolled out)$/;

/** kubectl rollout status's lines, each printed once in a row. */
function assertKubectlLines(stdout: string, name: string): string[] {
  const lines = stdout.trimEnd().split('\n');
  for (const l of lines) assert.match(l, LINE);
  lines.forEach((l, i) => assert.notEqual(l, lines[i - 1], `line ${i} repeats the one before`));
  assert.equal(lines.at(-1), `daemon set "${name}" successfully rolled out`);
  return lines;
}

describe('rollout --watch on a real control plane', BOUND, () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await startCluster('rollout-watch');
    await create(cp, [nodeObject('w-1'), nodeObject('w-2'), nodeObject('w-3'), namespaceObject(NS)]);
    // The shipped least-privilege role, bound to the user of the kubeconfig's context `reader`.
    await kubectl(cp, ['apply', '-f', path.join(REPO, 'deploy', 'ds-doctor-reader.yaml')]);
    await kubectl(cp, [
      'create',
      'clusterrolebinding',
      'ds-doctor-reader',
      '--clusterrole=ds-doctor-reader',
      '--user=reader',
    ]);
  });
  after(() => stopCluster(cp));

  /** A DaemonSet (maxUnavailable 1) with a ready pod on each node. */
  async function readyDaemonSet(name: string): Promise<void> {
    await create(cp, [daemonSetObject(NS, name)]);
    const pods = await waitForDaemonPods(cp, NS, name, 3);
    for (const p of pods) await setPodState(cp, p, 'ready');
    await waitForReady(cp, NS, name, 3);
  }

  it(
    'follows a rolling update driven by the kubelets to exit 0, with kubectl rollout status lines, as the reader role',
    BOUND,
    async () => {
      await readyDaemonSet('roll');
      const from = auditEvents(cp).length;
      const kubelet = kubelets(cp, 'roll', () => 'ready');
      // The kubelets start the new pods once ds-doctor follows the rollout (else it may end first).
      kubelet.paused = true;
      try {
        // As a pipeline does: change the image, then wait for the rollout.
        await kubectl(cp, ['set', 'image', '-n', NS, 'daemonset/roll', 'agent=registry.k8s.io/pause:3.9']);
        const run = startCli(['rollout', `${NS}/roll`, '--watch', '--timeout', '2m', '--context', 'reader'], cp.env);
        await firstLine(run);
        kubelet.paused = false;
        const r = await run.done;
        assert.equal(r.code, 0, r.stderr);
        const lines = assertKubectlLines(r.stdout, 'roll');
        assert.ok(lines.length >= 2, `a waiting line before the end: ${r.stdout}`);
        // The last line is the one kubectl rollout status prints now.
        const kubectlSays = await kubectl(cp, ['rollout', 'status', '-n', NS, 'daemonset/roll', '--timeout=30s']);
        assert.equal(kubectlSays.trimEnd().split('\n').at(-1), lines.at(-1));
        const pods = await podsOf(cp, NS, 'roll');
        assert.ok(
          pods.filter((p) => !p.metadata?.deletionTimestamp).every((p) => imageOf(p) === 'registry.k8s.io/pause:3.9'),
        );
        // Under the reader role: the four watches were made and allowed; nothing but get, list and watch.
        const mine = await waitFor('the watches to end in the audit log', async () => {
          const events = dsDoctorRequests(cp, from);
          return events.filter((e) => e.verb === 'watch').length >= 4 ? events : undefined;
        });
        assert.deepEqual([...new Set(mine.map((e) => e.user?.username))], ['reader']);
        assert.deepEqual(
          mine
            .filter((e) => !['get', 'list', 'watch'].includes(e.verb) || e.responseStatus?.code !== 200)
            .map((e) => `${e.verb} ${e.requestURI} ${e.responseStatus?.code}`),
          [],
        );
        assert.deepEqual(
          [...new Set(mine.filter((e) => e.verb === 'watch').map((e) => e.objectRef?.resource))].sort(),
          ['controllerrevisions', 'daemonsets', 'nodes', 'pods'],
        );
      } finally {
        await kubelet.stop();
      }
    },
  );

  it('a crashing image: exit 1, the diagnosis with the cause first, one error line', BOUND, async () => {
    await readyDaemonSet('crash');
    const kubelet = kubelets(cp, 'crash', (p) => (imageOf(p).includes('crash') ? 'crashloop' : 'ready'));
    try {
      await kubectl(cp, ['set', 'image', '-n', NS, 'daemonset/crash', 'agent=registry.example/agent:crash']);
      const started = Date.now();
      const r = await startCli(['rollout', `${NS}/crash`, '--watch', '--timeout', '2m'], cp.env).done;
      assert.equal(r.code, 1, r.stderr);
      assert.ok(Date.now() - started < 100_000, 'ended by the diagnosis, before --timeout');
      assert.match(r.stderr, /^error: rollout of daemonset "watch\/crash" did not complete: the rollout is stuck$/m);
      const [progress, diagnosis = ''] = r.stdout.split('\n\n');
      for (const l of progress!.split('\n')) assert.match(l, LINE);
      // The answer of `rollout`: the verdict, then the root cause (the new revision fails where it
      // reached, the old one was healthy), before the counts and reasons.
      const crashing = (await podsOf(cp, NS, 'crash')).filter(
        (p) => imageOf(p).includes('crash') && !p.metadata?.deletionTimestamp,
      );
      assert.ok(crashing.length >= 1);
      const nodes = crashing.map((p) => p.spec?.nodeName ?? '');
      assert.match(diagnosis, /^rollout of watch\/crash: Stuck {2}\(RollingUpdate\)$/m);
      const cause =
        /^✗ root cause: watch\/crash: (w-\d): revision 2 \(registry\.example\/agent:crash\) fails on every node it reached \(CrashLoopBackOff\).*\[RevisionFailing\]$/m.exec(
          diagnosis,
        );
      assert.ok(cause, diagnosis);
      assert.ok(nodes.includes(cause[1]!), `the cause names the node of a crashing pod (${nodes.join(', ')})`);
      assert.ok(diagnosis.indexOf('root cause') < diagnosis.indexOf('updated '), 'the root cause comes first');
    } finally {
      await kubelet.stop();
    }
  });

  it('survives an API server restart in the middle of the rollout, to exit 0', BOUND, async () => {
    await readyDaemonSet('restart');
    const kubelet = kubelets(cp, 'restart', () => 'ready');
    kubelet.paused = true;
    try {
      await kubectl(cp, ['set', 'image', '-n', NS, 'daemonset/restart', 'agent=registry.k8s.io/pause:3.9']);
      const run = startCli(['rollout', `${NS}/restart`, '--watch', '--timeout', '3m'], cp.env);
      await firstLine(run);
      // The first new pod is bound and waits for its kubelet: the rollout is in the middle.
      for (let i = 0; i < 100; i++) {
        const pods = await podsOf(cp, NS, 'restart');
        if (pods.some((p) => imageOf(p) === 'registry.k8s.io/pause:3.9' && p.spec?.nodeName)) break;
        await sleep(200);
      }
      await sleep(1000);
      await cp.restartApiServer(1000);
      kubelet.paused = false;
      const r = await run.done;
      assert.equal(r.code, 0, r.stderr);
      assertKubectlLines(r.stdout, 'restart');
      assert.match(r.stderr, /note: the watch of [a-z]+( in watch)? broke \(.*\); reconnecting/);
      assert.ok(r.stdout.includes('Waiting for daemon set "restart" rollout to finish'), r.stdout);
    } finally {
      await kubelet.stop();
    }
  });
});
