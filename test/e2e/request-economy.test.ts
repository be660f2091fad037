// Live request economy: the requests ds-doctor makes (counted in the API server's audit log by
// its user agent) for `scan -n <ns>` and the per-DaemonSet commands do not grow with the number
// of nodes: the same namespace read at 3 and at 30 nodes costs the same requests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { ControlPlane } from '../cluster/harness.js';
import {
  auditEvents,
  create,
  daemonSetObject,
  dsDoctorRequests,
  namespaceObject,
  nodeObject,
  spawnCli,
  startCluster,
  stopCluster,
  waitForDaemonPods,
  yamlObjects,
  type AuditEvent,
} from './cluster.js';

const NS = 'econ';
const COMMANDS = [
  ['scan', '-n', NS],
  ['why', `${NS}/agent`],
  ['why', `${NS}/agent`, 'econ-2'],
  ['nodes', `${NS}/agent`],
  ['rollout', `${NS}/agent`],
  ['lint', '-n', NS],
];

/** `verb path?query` of a request, with the query's parameters sorted. */
function describeRequest(e: AuditEvent): string {
  const url = new URL(e.requestURI, 'https://x');
  url.searchParams.sort();
  return `${e.verb} ${url.pathname}${url.search ? `?${decodeURIComponent(url.searchParams.toString())}` : ''}`;
}

describe('live request economy', () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await startCluster('economy');
    await create(cp, [namespaceObject(NS), ...[1, 2, 3].map((i) => nodeObject(`econ-${i}`))]);
    await create(cp, [
      daemonSetObject(NS, 'agent'),
      daemonSetObject(NS, 'logger', { tolerations: [{ operator: 'Exists' }] }),
    ]);
  });

  after(() => stopCluster(cp));

  /** Runs each command as a child process and returns the requests it made. */
  async function requestsOf(): Promise<string[][]> {
    const out: string[][] = [];
    for (const c of COMMANDS) {
      const from = auditEvents(cp).length;
      const r = await spawnCli([...c, '-o', 'json'], cp.env);
      assert.ok(r.code === 0 || r.code === 1, `${c.join(' ')}: exit ${r.code}: ${r.stderr}`);
      out.push(dsDoctorRequests(cp, from).map(describeRequest).sort());
    }
    return out;
  }

  it('scan -n (and why, nodes, rollout, lint) make as many requests at 30 nodes as at 3', async (t) => {
    await waitForDaemonPods(cp, NS, 'agent', 3);
    await waitForDaemonPods(cp, NS, 'logger', 3);
    const small = await requestsOf();

    await create(
      cp,
      Array.from({ length: 27 }, (_, i) => nodeObject(`econ-${i + 4}`)),
    );
    await waitForDaemonPods(cp, NS, 'agent', 30);
    await waitForDaemonPods(cp, NS, 'logger', 30);
    const large = await requestsOf();

    for (const [i, c] of COMMANDS.entries()) {
      t.diagnostic(`${c.join(' ')}: ${small[i]!.length} requests at 3 nodes, ${large[i]!.length} at 30 nodes`);
      assert.deepEqual(large[i], small[i], `${c.join(' ')}: the same requests at 3 and 30 nodes`);
    }
    // What scan -n reads: the namespace's DaemonSets, the nodes from the watch cache, and per
    // DaemonSet its pods and revisions by label selector, then the namespace's warning events; for
    // root causes, the mutating webhooks and namespaces, and the network agents and node labellers.
    assert.deepEqual(small[0], [
      `list /api/v1/namespaces/${NS}/events?fieldSelector=type=Warning&limit=500`,
      `list /api/v1/namespaces/${NS}/pods?labelSelector=app=agent&limit=500`,
      `list /api/v1/namespaces/${NS}/pods?labelSelector=app=logger&limit=500`,
      'list /api/v1/namespaces?limit=500&resourceVersion=0',
      'list /api/v1/nodes?limit=500&resourceVersion=0',
      'list /apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations?limit=500&resourceVersion=0',
      // The network agent and node labellers of every namespace, for root causes (none here).
      'list /apis/apps/v1/daemonsets?limit=500',
      `list /apis/apps/v1/namespaces/${NS}/controllerrevisions?labelSelector=app=agent&limit=500`,
      `list /apis/apps/v1/namespaces/${NS}/controllerrevisions?labelSelector=app=logger&limit=500`,
      `list /apis/apps/v1/namespaces/${NS}/daemonsets?limit=500`,
    ]);
    // What `why <ds> <node>` reads: the DaemonSet and the node by name, the pods bound to the node
    // and the DaemonSet's unbound ones (never all its pods, never all nodes), its revisions, and
    // the warning events of the DaemonSet and of its pod on the node (found after the pods).
    const podEvents = small[2]!.filter((r) => r.includes('involvedObject.kind=Pod'));
    assert.equal(podEvents.length, 1, small[2]!.join('\n'));
    assert.match(
      podEvents[0]!,
      new RegExp(
        `^list /api/v1/namespaces/${NS}/events\\?fieldSelector=involvedObject\\.kind=Pod,involvedObject\\.name=agent-[a-z0-9]+,type=Warning&limit=500$`,
      ),
    );
    assert.deepEqual(
      small[2]!.filter((r) => r !== podEvents[0]),
      [
        'get /api/v1/nodes/econ-2',
        `get /apis/apps/v1/namespaces/${NS}/daemonsets/agent`,
        `list /api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.kind=DaemonSet,involvedObject.name=agent,type=Warning&limit=500`,
        `list /api/v1/namespaces/${NS}/pods?fieldSelector=spec.nodeName=&labelSelector=app=agent&limit=500`,
        'list /api/v1/pods?fieldSelector=spec.nodeName=econ-2&limit=500',
        `list /apis/apps/v1/namespaces/${NS}/controllerrevisions?labelSelector=app=agent&limit=500`,
      ],
    );
  });

  it('lists are paginated: 501 warning events are read in two pages of at most 500, all of them', async () => {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await create(
      cp,
      Array.from({ length: 501 }, (_, i) => ({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `e2e-page-${i}`, namespace: NS },
        involvedObject: { apiVersion: 'apps/v1', kind: 'DaemonSet', namespace: NS, name: 'agent' },
        reason: 'E2EPagination',
        message: `event ${i}`,
        type: 'Warning',
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: 'e2e' },
      })),
    );
    const dump = path.join(cp.workDir, 'paginated.yaml');
    const from = auditEvents(cp).length;
    const r = await spawnCli(['scan', '-n', NS, '-o', 'json', '--dump', dump], cp.env);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const pages = dsDoctorRequests(cp, from)
      .filter((e) => e.objectRef?.resource === 'events')
      .map((e) => new URL(e.requestURI, 'https://x').searchParams);
    assert.equal(pages.length, 2);
    assert.equal(pages[0]!.get('continue'), null);
    assert.ok(pages[1]!.get('continue'), 'the second page asks with the continue token');
    assert.ok(pages.every((p) => p.get('limit') === '500' && p.get('fieldSelector') === 'type=Warning'));
    const events = yamlObjects(fs.readFileSync(dump, 'utf8')).filter(
      (o) => o.kind === 'Event' && o['reason'] === 'E2EPagination',
    );
    assert.equal(new Set(events.map((e) => e.metadata?.name)).size, 501);
  });
});
