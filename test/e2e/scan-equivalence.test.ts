// Live mode reads what a dump holds: `scan` (and why/nodes/rollout) against the real control
// plane gives the same document as the same command with -f on a `kubectl get … -o yaml` dump of
// the same cluster, and as -f on the snapshot ds-doctor itself wrote with --dump.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { ControlPlane } from '../cluster/harness.js';
import type { KubeObject, Pod } from '../../src/model/k8s-types.js';
import { main } from '../../src/cli/main.js';
import { capturingIo } from '../harness.js';
import {
  create,
  daemonSetObject,
  ds,
  getJson,
  kubectl,
  namespaceObject,
  nodeObject,
  objectId,
  rfc3339,
  setPodState,
  setPodStates,
  sleep,
  startCluster,
  stopCluster,
  waitFor,
  waitForDaemonPods,
  waitForReady,
  yamlObjects,
} from './cluster.js';

const NS = 'eq';
const OTHER = 'other';
/** A namespace without DaemonSets. */
const QUIET = 'quiet';
const TAINT = { key: 'dedicated', value: 'infra', effect: 'NoSchedule' };

/**
 * A copy of `value` without the map fields whose value is null, at any depth, but for a
 * condition's `lastProbeTime` (src/load/shape.ts keeps that null as the API server writes it).
 */
function withoutNullFields<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNullFields) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => v !== null || k === 'lastProbeTime')
      .map(([k, v]) => [k, withoutNullFields(v)]),
  ) as T;
}

describe('live scan equals scan -f on a kubectl dump and on --dump output', () => {
  let cp: ControlPlane;
  let now: string;

  before(async () => {
    cp = await startCluster('equivalence');
    await create(cp, [
      nodeObject('eq-1'),
      nodeObject('eq-2', { labels: { role: 'edge' } }),
      nodeObject('eq-3'),
      nodeObject('eq-tainted', { taints: [TAINT] }),
      namespaceObject(NS),
      namespaceObject(OTHER),
      namespaceObject(QUIET),
    ]);
    await create(cp, [
      daemonSetObject(NS, 'healthy'),
      daemonSetObject(NS, 'crashing'),
      daemonSetObject(NS, 'too-big', { cpu: '100' }),
      daemonSetObject(NS, 'rolling'),
      daemonSetObject(NS, 'selective', { nodeSelector: { role: 'edge' } }),
      daemonSetObject(OTHER, 'everywhere', { tolerations: [{ operator: 'Exists' }] }),
    ]);
    const [healthy, crashing, rolling, selective, everywhere] = await Promise.all([
      waitForDaemonPods(cp, NS, 'healthy', 3),
      waitForDaemonPods(cp, NS, 'crashing', 3),
      waitForDaemonPods(cp, NS, 'rolling', 3),
      waitForDaemonPods(cp, NS, 'selective', 1),
      waitForDaemonPods(cp, OTHER, 'everywhere', 4),
      waitForDaemonPods(cp, NS, 'too-big', 3, { bound: false }),
    ]);
    const crashPod = crashing.find((p) => p.spec?.nodeName === 'eq-1')!;
    await Promise.all([
      setPodStates(cp, [...healthy, ...rolling, ...selective, ...everywhere], 'ready'),
      setPodStates(
        cp,
        crashing.filter((p) => p !== crashPod),
        'ready',
      ),
      setPodState(cp, crashPod, 'crashloop'),
    ]);
    await Promise.all([
      waitForReady(cp, NS, 'healthy', 3),
      waitForReady(cp, NS, 'crashing', 2),
      waitForReady(cp, NS, 'rolling', 3),
      waitForReady(cp, NS, 'selective', 1),
      waitForReady(cp, OTHER, 'everywhere', 4),
    ]);
    // A template change: the controller deletes one old pod (maxUnavailable 1) and creates a new
    // one, which never becomes Ready here, so the rollout waits with two ControllerRevisions.
    await kubectl(cp, ['set', 'image', '-n', NS, 'daemonset/rolling', 'agent=registry.k8s.io/pause:3.9']);
    await waitFor('the rolling update to replace one pod', async () => {
      const d = await getJson<{
        status?: { updatedNumberScheduled?: number; numberReady?: number; observedGeneration?: number };
        metadata?: { generation?: number };
      }>(cp, ['daemonset', '-n', NS, 'rolling']);
      const pods = (await getJson<{ items: Pod[] }>(cp, ['pods', '-n', NS, '-l', 'app=rolling'])).items;
      const ok =
        d.status?.observedGeneration === d.metadata?.generation &&
        d.status?.updatedNumberScheduled === 1 &&
        d.status?.numberReady === 2 &&
        pods.length === 3 &&
        pods.every((p) => p.spec?.nodeName && !p.metadata?.deletionTimestamp);
      return ok ? true : undefined;
    });
    // The scheduler's FailedScheduling warnings for the three pods that fit nowhere.
    await waitFor('FailedScheduling events for too-big', async () => {
      const events = (
        await getJson<{ items: KubeObject[] }>(cp, ['events', '-n', NS, '--field-selector', 'reason=FailedScheduling'])
      ).items;
      return events.length >= 3 ? true : undefined;
    });
    now = rfc3339(new Date(Date.now() + 60_000));
  });

  after(() => stopCluster(cp));

  /**
   * Runs `read` between two identical kubectl dumps, so that live and dump see the same cluster
   * (a retried scheduling attempt can still add an event; then it reads again). Returns the dump.
   */
  async function consistent<T>(read: () => Promise<T>): Promise<{ dumpFile: string; result: T }> {
    // scan also reads the namespaces and mutating webhooks (the admission chain of root causes).
    const dumpAll = () =>
      kubectl(cp, [
        'get',
        'nodes,daemonsets,pods,controllerrevisions,events,namespaces,mutatingwebhookconfigurations',
        '-A',
        '-o',
        'yaml',
      ]);
    for (let attempt = 1; ; attempt++) {
      const before = await dumpAll();
      const result = await read();
      const afterwards = await dumpAll();
      if (before === afterwards) {
        const dumpFile = path.join(cp.workDir, 'kubectl-dump.yaml');
        fs.writeFileSync(dumpFile, before);
        return { dumpFile, result };
      }
      assert.ok(attempt < 5, 'the cluster kept changing while it was read');
      await sleep(1000);
    }
  }

  it('scan -n, scan -A: live, -f kubectl dump and -f --dump output give the same document and exit code', async () => {
    const liveDump = path.join(cp.workDir, 'live-dump.yaml');
    const { dumpFile, result: live } = await consistent(async () => ({
      ns: await ds(cp, ['scan', '-n', NS, '-o', 'json', '--now', now, '--dump', liveDump]),
      nsTable: await ds(cp, ['scan', '-n', NS, '--now', now]),
      all: await ds(cp, ['scan', '-A', '-o', 'json', '--now', now]),
      quiet: await ds(cp, ['scan', '-n', QUIET, '-o', 'json', '--now', now]),
    }));
    const fromKubectl = {
      ns: await ds(cp, ['scan', '-n', NS, '-o', 'json', '--now', now, '-f', dumpFile]),
      nsTable: await ds(cp, ['scan', '-n', NS, '--now', now, '-f', dumpFile]),
      all: await ds(cp, ['scan', '-A', '-o', 'json', '--now', now, '-f', dumpFile]),
      quiet: await ds(cp, ['scan', '-n', QUIET, '-o', 'json', '--now', now, '-f', dumpFile]),
    };
    const fromDump = await ds(cp, ['scan', '-n', NS, '-o', 'json', '--now', now, '-f', liveDump]);

    // No field is exempted: --now pins the evaluation time, and the live loader reads every kind
    // scan uses, so not even the notes about missing kinds may differ.
    for (const key of ['ns', 'nsTable', 'all', 'quiet'] as const) {
      assert.equal(live[key].stderr, '', `live ${key}: ${live[key].stderr}`);
      assert.equal(fromKubectl[key].code, live[key].code, key);
      assert.equal(fromKubectl[key].stdout, live[key].stdout, `${key}: live differs from -f kubectl dump`);
    }
    assert.equal(fromDump.code, live.ns.code);
    assert.deepEqual(JSON.parse(fromDump.stdout), JSON.parse(live.ns.stdout), 'live differs from -f --dump output');

    // And the cluster's real state is what the report says.
    const report = JSON.parse(live.ns.stdout) as {
      scope: string;
      notes: string[];
      daemonSets: {
        name: string;
        health: string;
        desired: number;
        ready: number;
        updated: number;
        problems: string[];
      }[];
    };
    assert.equal(report.scope, `namespace ${NS}`);
    assert.deepEqual(report.notes, []);
    const byName = new Map(report.daemonSets.map((d) => [d.name, d]));
    assert.deepEqual([...byName.keys()], ['crashing', 'healthy', 'rolling', 'selective', 'too-big']);
    assert.deepEqual(
      [byName.get('healthy')!.health, byName.get('healthy')!.desired, byName.get('healthy')!.ready],
      ['Healthy', 3, 3],
      'healthy: 3 pods on the 3 untainted nodes',
    );
    assert.deepEqual([byName.get('selective')!.health, byName.get('selective')!.desired], ['Healthy', 1]);
    assert.ok(byName.get('crashing')!.problems.includes('CrashLoopBackOff'), JSON.stringify(byName.get('crashing')));
    assert.ok(byName.get('too-big')!.problems.includes('InsufficientResource'), JSON.stringify(byName.get('too-big')));
    assert.equal(byName.get('rolling')!.updated, 1);
    assert.deepEqual(
      (JSON.parse(live.quiet.stdout) as { notes: string[] }).notes,
      [`no DaemonSets found in namespace ${QUIET}`],
      'no DaemonSet to read pods or events for is not a missing kind',
    );
    const all = JSON.parse(live.all.stdout) as {
      daemonSets: { namespace: string; name: string; desired: number; health: string }[];
    };
    const everywhere = all.daemonSets.find((d) => d.namespace === OTHER && d.name === 'everywhere');
    assert.deepEqual(
      [everywhere?.desired, everywhere?.health],
      [4, 'Healthy'],
      'a blanket toleration also covers the tainted node',
    );
  });

  it('--dump writes multi-document YAML whose objects are the ones kubectl returns', async () => {
    const liveDump = path.join(cp.workDir, 'live-dump-objects.yaml');
    const { dumpFile } = await consistent(() => ds(cp, ['scan', '-n', NS, '--now', now, '--dump', liveDump]));
    const text = fs.readFileSync(liveDump, 'utf8');
    assert.match(
      text,
      /^---\napiVersion: v1\nkind: Node\n/,
      'documents start with apiVersion and kind, as kubectl writes them',
    );
    const kubectlObjects = new Map(yamlObjects(fs.readFileSync(dumpFile, 'utf8')).map((o) => [objectId(o), o]));
    const dumped = yamlObjects(text).filter((o) => !String(o.kind).endsWith('List'));
    assert.deepEqual([...new Set(dumped.map((o) => o.kind))].sort(), [
      'ControllerRevision',
      'DaemonSet',
      'Event',
      'Namespace',
      'Node',
      'Pod',
    ]);
    assert.equal(dumped.filter((o) => o.kind === 'Node').length, 4);
    assert.equal(
      dumped.filter((o) => o.kind === 'DaemonSet').length,
      5,
      'only the DaemonSets of the namespace asked for',
    );
    for (const obj of dumped) {
      const theirs = kubectlObjects.get(objectId(obj));
      assert.ok(theirs, `${objectId(obj)} is not in kubectl's dump`);
      // The only fields allowed to differ: the loader fills count, firstTimestamp and
      // lastTimestamp of events.k8s.io-style Events (the scheduler's), which the core/v1 view
      // leaves empty, so that analyses read one shape; and the load-time shape check drops fields
      // whose value is null (a template's `creationTimestamp: null`), which the API's decoder
      // reads as absent, all but a condition's `lastProbeTime: null`, which it keeps.
      const plain = withoutNullFields(theirs);
      const expected =
        obj.kind === 'Event'
          ? {
              ...plain,
              count: plain['count'] ?? obj['count'],
              firstTimestamp: plain['firstTimestamp'] ?? obj['firstTimestamp'],
              lastTimestamp: plain['lastTimestamp'] ?? obj['lastTimestamp'],
            }
          : plain;
      assert.deepEqual(obj, expected, objectId(obj));
    }
    // Pods of other DaemonSets' namespaces and Normal events are not read: only what scan needs.
    assert.ok(!dumped.some((o) => o.metadata?.namespace === OTHER));
    assert.ok(dumped.filter((o) => o.kind === 'Event').every((e) => e['type'] === 'Warning'));
  });

  it('why, nodes and rollout of every DaemonSet: live equals -f kubectl dump', async () => {
    const targets = ['healthy', 'crashing', 'too-big', 'rolling', 'selective'].map((n) => `${NS}/${n}`);
    const commands = targets.flatMap((t) => [
      ['why', t],
      ['nodes', t],
      ['rollout', t],
      ['why', t, 'eq-1'],
      ['why', t, 'eq-tainted'],
      ['why', t, 'node/eq-2'],
    ]);
    const { dumpFile, result: live } = await consistent(() =>
      Promise.all(commands.map((c) => ds(cp, [...c, '-o', 'json', '--now', now]))),
    );
    for (const [i, c] of commands.entries()) {
      const offline = await ds(cp, [...c, '-o', 'json', '--now', now, '-f', dumpFile]);
      assert.equal(live[i]!.code, offline.code, c.join(' '));
      assert.deepEqual(JSON.parse(live[i]!.stdout), JSON.parse(offline.stdout), c.join(' '));
    }
  });

  it('impact, which reads the most kinds: live equals -f on its own --dump output', async () => {
    for (const name of ['healthy', 'too-big', 'rolling']) {
      const dump = path.join(cp.workDir, `impact-${name}.yaml`);
      const { result: live } = await consistent(() =>
        ds(cp, ['impact', `${NS}/${name}`, '-o', 'json', '--now', now, '--dump', dump]),
      );
      const offline = await ds(cp, ['impact', `${NS}/${name}`, '-o', 'json', '--now', now, '-f', dump]);
      assert.equal(offline.code, live.code, name);
      assert.deepEqual(JSON.parse(offline.stdout), JSON.parse(live.stdout), name);
      // Kinds read and found empty are written as empty lists, so that the dump says "none", not "not read".
      assert.match(fs.readFileSync(dump, 'utf8'), /^kind: ValidatingWebhookConfigurationList$/m);
    }
  });

  it('progress goes to stderr only when stderr is a terminal; stdout is the same either way', async () => {
    const run = async (stderrIsTTY: boolean) => {
      const { io, output } = capturingIo({ env: { KUBECONFIG: cp.kubeconfig }, stderrTty: stderrIsTTY, columns: 100 });
      const code = await main(['scan', '-n', NS, '--now', now], io);
      return { code, ...output() };
    };
    const tty = await run(true);
    const pipe = await run(false);
    assert.equal(pipe.stderr, '');
    assert.match(tty.stderr, /loading: read \d+ daemonsets in eq/);
    assert.ok(tty.stderr.endsWith('\r\u001b[2K'), 'the progress line is cleared before the result');
    assert.equal(tty.stdout, pipe.stdout);
    assert.equal(tty.code, pipe.code);
  });
});
