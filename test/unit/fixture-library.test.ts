// The fixture library (test/kube, scripts/lib/fixtures.ts): its placement is src/k8s's
// NodeShouldRunDaemonPod (pkg/controller/daemon/util NodeShouldRunDaemonPod), so a generator can
// place DaemonSets with node affinity and nodeName (the untyped copy it replaced threw on both),
// and regenerating a folder keeps the hand-written expect.json beside a dump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearGenerated } from '../../scripts/lib/fixtures.js';
import type { DaemonSet, Node } from '../../src/model/k8s-types.js';
import { daemonSet, node, shouldRun } from '../kube/index.js';

const zoneA = () => node('n1').label('topology.kubernetes.io/zone', 'a');
const inZone = (zone: string) =>
  daemonSet('agent').affinity({
    nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }] }],
  });

const cases: { name: string; ds: DaemonSet; node: Node; run: boolean; keepRunning: boolean }[] = [
  {
    name: 'required node affinity that matches: run',
    ds: inZone('a').build(),
    node: zoneA().build(),
    run: true,
    keepRunning: true,
  },
  {
    name: 'required node affinity that does not match: neither run nor keep running',
    ds: inZone('b').build(),
    node: zoneA().build(),
    run: false,
    keepRunning: false,
  },
  {
    name: 'template nodeName of another node: neither run nor keep running',
    ds: daemonSet('agent')
      .with((d) => {
        d.spec!.template!.spec!.nodeName = 'n2';
      })
      .build(),
    node: zoneA().build(),
    run: false,
    keepRunning: false,
  },
  {
    name: 'untolerated NoSchedule taint: do not run, keep running',
    ds: daemonSet('agent').build(),
    node: zoneA().taint('dedicated', 'infra', 'NoSchedule').build(),
    run: false,
    keepRunning: true,
  },
];

for (const c of cases) {
  test(`fixture placement: ${c.name}`, () => {
    assert.deepEqual(shouldRun(c.ds, c.node), { shouldRun: c.run, shouldContinueRunning: c.keepRunning });
  });
}

test('clearGenerated removes generated files and empty folders, keeps expect.json', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-doctor-fixtures-'));
  try {
    fs.mkdirSync(path.join(dir, 'a'));
    fs.mkdirSync(path.join(dir, 'b', 'logs'), { recursive: true });
    for (const f of ['README.md', 'a/dump.yaml', 'a/README.md', 'a/expect.json', 'b/logs/logs.txt'])
      fs.writeFileSync(path.join(dir, f), 'x');
    clearGenerated(dir);
    assert.deepEqual(fs.readdirSync(dir, { recursive: true }).map(String).sort(), ['a', path.join('a', 'expect.json')]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
