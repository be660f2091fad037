// Smoke test of the cluster-test control plane:
//   node test/cluster/smoke.mjs [--bin-dir DIR] [--work-dir DIR]
// Starts the control plane, creates two fake Nodes (one tainted dedicated=infra:NoSchedule),
// a DaemonSet, and checks that the real DaemonSet controller and scheduler place exactly
// one pod, that numberReady follows a pod status patch, and that everything stops again.
// Exit code 0 on success. Binaries: --bin-dir, else test/cluster/build.sh (cached).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBinaries, startControlPlane } from './controlplane.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

const t0 = Date.now();
const since = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`.padStart(7);
const say = (m) => process.stdout.write(`[${since()}] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const NS = 'smoke';
const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const node = (name, taints) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' },
  },
  spec: taints ? { taints } : {},
  status: {
    capacity: { cpu: '4', memory: '8Gi', pods: '110' },
    allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'fake node',
        lastHeartbeatTime: now,
        lastTransitionTime: now,
      },
    ],
  },
});
const manifests = {
  apiVersion: 'v1',
  kind: 'List',
  items: [
    node('smoke-node-a'),
    node('smoke-node-b', [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }]),
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
  ],
};
const daemonSet = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'smoke-agent', namespace: NS },
  spec: {
    selector: { matchLabels: { app: 'smoke-agent' } },
    template: {
      metadata: { labels: { app: 'smoke-agent' } },
      spec: {
        terminationGracePeriodSeconds: 0,
        containers: [
          {
            name: 'agent',
            image: 'registry.k8s.io/pause:3.10',
            resources: { requests: { cpu: '10m', memory: '16Mi' } },
          },
        ],
      },
    },
  },
};

async function waitFor(what, fn, timeoutMs = 60_000) {
  const start = Date.now();
  let last;
  while (Date.now() - start < timeoutMs) {
    last = await fn();
    if (last.ok) return last;
    await sleep(250);
  }
  throw new Error(
    `timed out after ${timeoutMs / 1000}s waiting for ${what}; last: ${JSON.stringify(last).slice(0, 500)}`,
  );
}

async function main() {
  const binDir = opt('bin-dir') ?? (await ensureBinaries());
  const workDir = path.resolve(opt('work-dir') ?? path.join(HERE, '.work', 'smoke'));
  say(`binaries: ${binDir}`);
  const cp = await startControlPlane({ binDir, workDir, auditLog: true, reset: true });
  let ok;
  try {
    const t = cp.timings;
    say(
      `control plane up in ${(t.totalMs / 1000).toFixed(1)}s (etcd ${t.etcdMs} ms, apiserver ${t.apiserverMs} ms, ` +
        `controller-manager ${t.controllerManagerMs} ms, scheduler ${t.schedulerMs} ms) at ${cp.server}`,
    );
    const k = async (args, input) => {
      const r = await cp.kubectl(args, { input });
      if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr || r.stdout}`);
      return r.stdout;
    };

    const ver = JSON.parse(await k(['version', '-o', 'json']));
    say(`kubectl ${ver.clientVersion.gitVersion}, server ${ver.serverVersion.gitVersion}`);

    say((await k(['create', '-f', '-'], JSON.stringify(manifests))).trim().replace(/\n/g, '; '));
    say((await k(['create', '-f', '-'], JSON.stringify(daemonSet))).trim());

    const ds = await waitFor('desiredNumberScheduled == 1 && currentNumberScheduled == 1', async () => {
      const s = JSON.parse(await k(['get', 'daemonset', '-n', NS, 'smoke-agent', '-o', 'json'])).status ?? {};
      return { ok: s.desiredNumberScheduled === 1 && s.currentNumberScheduled === 1, s };
    });
    say(
      `daemonset status: desired=${ds.s.desiredNumberScheduled} current=${ds.s.currentNumberScheduled} ` +
        `ready=${ds.s.numberReady} misscheduled=${ds.s.numberMisscheduled}`,
    );

    const bound = await waitFor('the pod to be bound to a node', async () => {
      const pods = JSON.parse(await k(['get', 'pods', '-n', NS, '-o', 'json'])).items;
      return { ok: pods.length === 1 && !!pods[0].spec.nodeName, pods };
    });
    for (const p of bound.pods) say(`pod ${p.metadata.name} nodeName=${p.spec.nodeName} phase=${p.status.phase}`);
    const pod = bound.pods[0];
    assert.equal(pod.spec.nodeName, 'smoke-node-a', 'the DaemonSet pod must land on the untainted node');
    const sched = JSON.parse(
      await k(['get', 'events', '-n', NS, '--field-selector', 'reason=Scheduled', '-o', 'json']),
    ).items;
    say(
      `scheduler event: ${sched.map((e) => `${e.reportingComponent || e.source?.component}: ${e.message}`).join(' | ') || '(none yet)'}`,
    );

    const ts = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await k([
      'patch',
      'pod',
      '-n',
      NS,
      pod.metadata.name,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({
        status: {
          phase: 'Running',
          conditions: [
            { type: 'PodScheduled', status: 'True', lastTransitionTime: ts },
            { type: 'Initialized', status: 'True', lastTransitionTime: ts },
            { type: 'ContainersReady', status: 'True', lastTransitionTime: ts },
            { type: 'Ready', status: 'True', lastTransitionTime: ts },
          ],
        },
      }),
    ]);
    say(`patched ${pod.metadata.name} status to Running/Ready`);

    const ready = await waitFor('status.numberReady == 1', async () => {
      const s = JSON.parse(await k(['get', 'daemonset', '-n', NS, 'smoke-agent', '-o', 'json'])).status ?? {};
      return { ok: s.numberReady === 1, s };
    });
    say(
      `daemonset status: desired=${ready.s.desiredNumberScheduled} current=${ready.s.currentNumberScheduled} ` +
        `ready=${ready.s.numberReady} available=${ready.s.numberAvailable} updated=${ready.s.updatedNumberScheduled}`,
    );

    const denied = await cp.kubectl(['get', 'pods', '-n', NS], { context: 'reader' });
    assert.notEqual(denied.code, 0, 'reader must not list pods');
    assert.match(denied.stderr, /forbidden/i);
    say(`reader context: ${denied.stderr.trim().split('\n')[0]}`);

    const audit = fs
      .readFileSync(cp.auditLogPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(audit.length > 0 && audit.every((e) => e.kind === 'Event' && e.level === 'Metadata'));
    const patched = audit.filter(
      (e) => e.verb === 'patch' && e.objectRef?.subresource === 'status' && e.user?.username === 'admin',
    );
    assert.ok(patched.length >= 1, 'audit log must contain the status patch');
    say(`audit log: ${audit.length} events, all level Metadata; status patch by admin logged`);
    ok = true;
  } finally {
    const pids = cp.processes.map((p) => p.pid);
    const s0 = Date.now();
    await cp.stop();
    const left = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    say(`stopped in ${Date.now() - s0} ms; processes still alive: ${left.length ? left.join(',') : 'none'}`);
    if (left.length) ok = false;
  }
  if (!ok) throw new Error('smoke test failed');
  say('SMOKE OK');
}

main().catch((e) => {
  process.stderr.write(`smoke: ${e.stack || e.message}\n`);
  process.exitCode = 1;
});
