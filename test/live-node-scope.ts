// `why <ds> <node>` in live mode reads only what one node's answer needs (src/load/live.ts
// #loadForNode): the node and the DaemonSet by name, the pods bound to the node, the DaemonSet's
// unbound pods, its ControllerRevisions, and the warning events of the DaemonSet and of its pods
// for the node. A fake API server serves every scenario fixture and the demo dump, answering
// label and field selectors, limits and continue tokens as the API server does. For every
// DaemonSet × node the live answer is the document `-f` gives on the same objects, and no request
// lists every node or every pod of the DaemonSet. npm test runs the demo dump and a few scenario
// fixtures (test/cli/live-node-scope.test.ts), the slow tier every one (test/slow/).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { runCli } from './harness.js';
import { startFakeApi, statusAnswer, writeKubeconfig, type FakeApi } from './cli/fake-api.js';
import { loadFiles } from '../src/load/files.js';
import { compileLabelSelector, parseSelectorString } from '../src/k8s/labels.js';
import { SNAPSHOT_KINDS, type SnapshotKind } from '../src/model/snapshot.js';
import type { KubeObject } from '../src/model/k8s-types.js';

const NOW = '2026-11-29T12:00:00Z';
const BOUND = { timeout: 60_000 };
const KINDS: SnapshotKind[] = ['Node', 'DaemonSet', 'Pod', 'Event', 'ControllerRevision'];
const ALL_DUMPS = [
  ...fs
    .readdirSync('fixtures/scenarios')
    .filter((d) => fs.existsSync(path.join('fixtures/scenarios', d, 'dump.yaml')))
    .map((d) => path.join('fixtures/scenarios', d, 'dump.yaml')),
  'fixtures/demo',
];

/** The value at a field selector's dotted path ("" when absent), as the API server compares it. */
function fieldValue(obj: KubeObject, dotted: string): string {
  let v: unknown = obj;
  for (const part of dotted.split('.'))
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function matchesFields(obj: KubeObject, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const m = /^([^!=]+)(!=|==?)(.*)$/.exec(term);
    assert.ok(m, `field selector term "${term}"`);
    return (fieldValue(obj, m[1]!) === m[3]) === (m[2] !== '!=');
  });
}

interface Served {
  api: FakeApi;
  kubeconfig: string;
  /** Paths (plural/namespace/name) that answer 403. */
  forbid: Set<string>;
}

/** Serves `objects` of the kinds in KINDS: get by name, and lists with selectors, limit and continue. */
async function serve(objects: Map<SnapshotKind, KubeObject[]>, dir: string): Promise<Served> {
  const forbid = new Set<string>();
  const handler = (_req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean => {
    const m = /^\/(?:api\/v1|apis\/apps\/v1)(?:\/namespaces\/([^/]+))?\/([a-z]+)(?:\/([^/]+))?$/.exec(url.pathname);
    if (!m) return false;
    const [, namespace, plural, name] = m;
    const kind = KINDS.find((k) => SNAPSHOT_KINDS[k].plural === plural);
    if (!kind) return false;
    const scope = namespace === undefined ? `${plural}` : `${plural}/${namespace}`;
    const fields = url.searchParams.get('fieldSelector');
    if (forbid.has(scope) || forbid.has(`${scope}?${fields ?? ''}`)) {
      statusAnswer(res, 403, `${plural} is forbidden: User "reader" cannot list resource "${plural}"`);
      return true;
    }
    const all = (objects.get(kind) ?? []).filter((o) => namespace === undefined || o.metadata?.namespace === namespace);
    if (name !== undefined) {
      const found = all.find((o) => o.metadata?.name === decodeURIComponent(name));
      if (!found) statusAnswer(res, 404, `${plural} "${name}" not found`);
      else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(found));
      }
      return true;
    }
    const labels = url.searchParams.get('labelSelector');
    const selector = labels ? compileLabelSelector(parseSelectorString(labels)) : undefined;
    assert.ok(!selector || selector.ok, `labelSelector ${labels}`);
    const items = all.filter(
      (o) => (!selector || (selector.ok && selector.matches(o.metadata?.labels))) && matchesFields(o, fields),
    );
    const limit = Number(url.searchParams.get('limit') ?? items.length);
    const from = Number(url.searchParams.get('continue') ?? 0);
    const page = items.slice(from, from + limit);
    const more = from + limit < items.length;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        kind: 'List',
        apiVersion: 'v1',
        metadata: { resourceVersion: '7', ...(more ? { continue: String(from + limit) } : {}) },
        items: page,
      }),
    );
    return true;
  };
  const api = await startFakeApi(handler);
  return { api, kubeconfig: writeKubeconfig(dir, 'scope', { cluster: { server: api.url }, user: {} }), forbid };
}

interface Case {
  file: string;
  dir: string;
  objects: Map<SnapshotKind, KubeObject[]>;
  /** The same objects as one JSON List, for -f (only warning events: live reads no others). */
  list: string;
  daemonSets: string[];
  nodes: string[];
}

/** One `<Kind>List` a line, as kubectl writes a kind read and found empty too. */
function listsOf(objects: Map<SnapshotKind, KubeObject[]>, kinds: SnapshotKind[]): string {
  return kinds.map((k) => JSON.stringify({ apiVersion: 'v1', kind: `${k}List`, items: objects.get(k)! })).join('\n');
}

async function loadCase(dump: string, dir: string): Promise<Case> {
  const snapshot = await loadFiles([dump], async () => '');
  const objects = new Map<SnapshotKind, KubeObject[]>();
  for (const kind of KINDS) {
    const items = (snapshot[SNAPSHOT_KINDS[kind].field] as KubeObject[]).filter(
      (o) => kind !== 'Event' || o['type'] === 'Warning',
    );
    objects.set(kind, items);
  }
  const list = path.join(dir, `${path.basename(path.dirname(dump))}-${path.basename(dump)}.json`);
  fs.writeFileSync(list, listsOf(objects, KINDS));
  return {
    file: dump,
    dir,
    objects,
    list,
    daemonSets: snapshot.daemonSets.map((d) => `${d.metadata?.namespace}/${d.metadata?.name}`),
    nodes: snapshot.nodes.map((n) => n.metadata?.name ?? ''),
  };
}

/** The requests a command made, as path?query. */
async function requestsOf(
  served: Served,
  argv: string[],
): Promise<{ run: Awaited<ReturnType<typeof runCli>>; requests: string[] }> {
  const from = served.api.requests.length;
  const run = await runCli([...argv, '--kubeconfig', served.kubeconfig, '-o', 'json', '--now', NOW]);
  return { run, requests: served.api.requests.slice(from).map(decodeURIComponent) };
}

/** The checks, on every scenario fixture and the demo dump (`full`), or on the demo dump and the first three fixtures. */
export function liveNodeScope(mode: 'quick' | 'full'): void {
  const DUMPS =
    mode === 'full' ? ALL_DUMPS : ['fixtures/demo', ...ALL_DUMPS.filter((d) => d !== 'fixtures/demo').slice(0, 3)];
  describe('live why <ds> <node> reads one node, and answers as -f does', () => {
    let dir: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-node-scope-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    test(
      `every DaemonSet × node of ${mode === 'full' ? 'every scenario fixture' : 'three scenario fixtures'} and the demo dump`,
      BOUND,
      async () => {
        let compared = 0;
        for (const dump of DUMPS) {
          const c = await loadCase(dump, dir);
          const served = await serve(c.objects, dir);
          try {
            for (const ds of c.daemonSets) {
              for (const node of c.nodes) {
                const what = `${dump}: why ${ds} ${node}`;
                const { run: live, requests } = await requestsOf(served, ['why', ds, node]);
                const offline = await runCli(['why', ds, node, '-f', c.list, '-o', 'json', '--now', NOW]);
                assert.equal(live.stderr, '', what);
                // A root cause raises the exit code; the live answer for one node has only those found there.
                const causeOnlyOffline =
                  !(JSON.parse(live.stdout) as Record<string, unknown>)['causes'] &&
                  Boolean((JSON.parse(offline.stdout) as Record<string, unknown>)['causes']);
                if (!causeOnlyOffline) assert.equal(live.code, offline.code, what);
                // Root causes link other objects of the whole snapshot (another DaemonSet, every node's
                // verdict); a live answer for one node reads that node's worth, so it has only those
                // found there (the network agent's own absence), and then the same ones.
                const liveAnswer = JSON.parse(live.stdout) as Record<string, unknown>;
                const { causes: _causes, ...offlineAnswer } = JSON.parse(offline.stdout) as Record<string, unknown>;
                assert.deepEqual(
                  liveAnswer,
                  liveAnswer['causes'] ? { ...offlineAnswer, causes: _causes } : offlineAnswer,
                  what,
                );
                // Never a list of every node, nor of the DaemonSet's pods without a node field selector
                // (but a sample of one, for the revision when no ControllerRevision has the template).
                assert.ok(!requests.some((r) => /^\/api\/v1\/nodes\?/.test(r)), `${what}: ${requests.join(' ')}`);
                assert.ok(
                  !requests.some(
                    (r) => /\/pods\?/.test(r) && !/fieldSelector=spec\.nodeName=/.test(r) && !/[?&]limit=1&/.test(r),
                  ),
                  `${what}: ${requests.join(' ')}`,
                );
                assert.ok(requests.includes(`/api/v1/nodes/${node}`), what);
                compared++;
              }
            }
          } finally {
            await served.api.close();
          }
        }
        assert.ok(compared >= (mode === 'full' ? 80 : 60), `${compared} answers compared`);
      },
    );

    test('node/<name> is the node <name>; an unknown node lists the nodes once, to suggest a name', BOUND, async () => {
      const c = await loadCase('fixtures/demo', dir);
      const served = await serve(c.objects, dir);
      try {
        const plain = await requestsOf(served, ['why', 'logging/fluent-bit', 'worker-1']);
        const prefixed = await requestsOf(served, ['why', 'logging/fluent-bit', 'node/worker-1']);
        assert.equal(prefixed.run.stdout, plain.run.stdout);
        assert.deepEqual(prefixed.requests, plain.requests);
        assert.ok(
          plain.requests.includes('/api/v1/pods?limit=500&fieldSelector=spec.nodeName=worker-1'),
          plain.requests.join(' '),
        );

        const unknown = await requestsOf(served, ['why', 'logging/fluent-bit', 'worker-11']);
        const offline = await runCli(['why', 'logging/fluent-bit', 'worker-11', '-f', c.list]);
        assert.equal(unknown.run.code, 2);
        assert.equal(unknown.run.stderr, offline.stderr);
        assert.match(unknown.run.stderr, /^error: node "worker-11" not found.*worker-1/);
        assert.equal(unknown.requests.filter((r) => r.startsWith('/api/v1/nodes?')).length, 1);
      } finally {
        await served.api.close();
      }
    });

    test(
      'pods forbidden at cluster scope: the DaemonSet’s pods on the node are read in its namespace, with a note',
      BOUND,
      async () => {
        const c = await loadCase('fixtures/scenarios/rollout-crashloop/dump.yaml', dir);
        const served = await serve(c.objects, dir);
        served.forbid.add('pods');
        try {
          for (const node of c.nodes) {
            const ds = c.daemonSets[0]!;
            const { run: live, requests } = await requestsOf(served, ['why', ds, node]);
            const offline = await runCli(['why', ds, node, '-f', c.list, '-o', 'json', '--now', NOW]);
            const [ns] = ds.split('/');
            assert.ok(
              requests.some(
                (r) =>
                  r.startsWith(`/api/v1/namespaces/${ns}/pods?`) && r.includes(`fieldSelector=spec.nodeName=${node}`),
              ),
              requests.join(' '),
            );
            const l = JSON.parse(live.stdout) as {
              verdict: string;
              reasons: unknown[];
              pod?: unknown;
              notes?: string[];
            };
            const o = JSON.parse(offline.stdout) as typeof l;
            assert.deepEqual([l.verdict, l.pod], [o.verdict, o.pod], `${ds} ${node}`);
            assert.ok(
              (l.notes ?? []).includes(
                `forbidden: cannot list pods with spec.nodeName=${node} at cluster scope: the other pods on node ${node} are not seen, so resource and host-port fit there is unchecked`,
              ),
              (l.notes ?? []).join(' | '),
            );
          }
        } finally {
          await served.api.close();
        }
      },
    );

    test(
      'ControllerRevisions forbidden: the current revision is read from one pod at the template generation, as from all of them',
      BOUND,
      async () => {
        const c = await loadCase('fixtures/scenarios/rollout-in-progress/dump.yaml', dir);
        const noRevisions = path.join(dir, 'no-revisions.json');
        fs.writeFileSync(
          noRevisions,
          listsOf(
            c.objects,
            KINDS.filter((k) => k !== 'ControllerRevision'),
          ),
        );
        const served = await serve(c.objects, dir);
        const ds = c.daemonSets[0]!;
        const [ns] = ds.split('/');
        served.forbid.add(`controllerrevisions/${ns}`);
        let outdated = 0;
        try {
          for (const node of c.nodes) {
            const { run: live, requests } = await requestsOf(served, ['why', ds, node]);
            const offline = await runCli(['why', ds, node, '-f', noRevisions, '-o', 'json', '--now', NOW]);
            const l = JSON.parse(live.stdout) as {
              verdict: string;
              reasons: { code: string }[];
              pod?: unknown;
              notes?: string[];
            };
            const o = JSON.parse(offline.stdout) as typeof l;
            assert.deepEqual([l.verdict, l.reasons, l.pod], [o.verdict, o.reasons, o.pod], `${ds} ${node}`);
            if (l.reasons.some((r) => r.code === 'OutdatedRevision')) outdated++;
            const probe = requests.filter((r) => r.includes('pod-template-generation='));
            assert.ok(
              probe.every((r) => r.includes('limit=1')),
              probe.join(' '),
            );
          }
        } finally {
          await served.api.close();
        }
        assert.ok(outdated > 0, 'some node runs an outdated pod, judged against the revision taken from a pod');
      },
    );
  });
}
