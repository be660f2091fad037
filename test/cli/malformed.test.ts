// Malformed objects in a dump end as warnings, never as an internal error: each case is a field
// of the wrong type that crashed an analysis (found by the fuzzer, test/fuzz/, or named in the
// issue), set in the oom-killed scenario and run through every command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../harness.js';
import { readCorpus, setPath } from '../fuzz/mutate.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCENARIO = path.resolve(HERE, '..', '..', '..', 'fixtures', 'scenarios', 'oom-killed');
const corpus = readCorpus('oom-killed', SCENARIO);
const DS = 'monitoring/node-exporter';
const COMMANDS = [
  ['scan'],
  ['why', DS],
  ['why', DS, 'worker-2'],
  ['nodes', DS],
  ['node', 'worker-2'],
  ['rollout', DS],
  ['impact', DS],
  ['lint'],
];

interface Case {
  name: string;
  /** Which object: its kind and name. */
  kind: string;
  object: string;
  path: (string | number)[];
  value: unknown;
  /** The warning `scan` prints (none for a null, which is an absent field). */
  warning?: RegExp;
  /** Exit codes the commands may end with (default 0 or 1); 2 when the object is skipped and named. */
  codes?: number[];
}

const CASES: Case[] = [
  {
    name: 'ownerReferences that is a map',
    kind: 'Pod',
    object: 'node-exporter-2lzqg',
    path: ['metadata', 'ownerReferences'],
    value: { kind: 'DaemonSet' },
    warning: /Pod monitoring\/node-exporter-2lzqg: metadata\.ownerReferences: expected a list, found a map; ignored/,
  },
  {
    name: 'a DaemonSet name that is a list',
    kind: 'DaemonSet',
    object: 'node-exporter',
    path: ['metadata', 'name'],
    value: ['x'],
    warning: /DaemonSet \(no name\): metadata\.name: expected a string, found a list; ignored/,
    codes: [0, 1, 2],
  },
  {
    name: 'a node name that is a map',
    kind: 'Node',
    object: 'worker-1',
    path: ['metadata', 'name'],
    value: { a: 1 },
    warning: /Node \(no name\): no metadata\.name; skipped/,
  },
  // An empty `labels:` is null, absent as Go reads it: no warning.
  {
    name: 'pod labels that are null',
    kind: 'Pod',
    object: 'node-exporter-2lzqg',
    path: ['metadata', 'labels'],
    value: null,
  },
  {
    name: 'a pod namespace that is a YAML integer',
    kind: 'Pod',
    object: 'node-exporter-2lzqg',
    path: ['metadata', 'namespace'],
    value: 123,
    warning: /Pod 123\/node-exporter-2lzqg: metadata\.namespace: expected a string, found an integer; read as "123"/,
  },
  {
    name: 'an event name that is a list of nulls',
    kind: 'Event',
    object: '',
    path: ['metadata', 'name'],
    value: [null, null],
    warning: /Event \(no name\): metadata\.name: expected a string, found a list; ignored/,
  },
  {
    name: 'a null entry in status.conditions',
    kind: 'Pod',
    object: 'node-exporter-2lzqg',
    path: ['status', 'conditions', 0],
    value: null,
    warning: /status\.conditions\[0\]: a null entry; ignored/,
  },
  {
    name: 'a null entry in containerStatuses',
    kind: 'Pod',
    object: 'node-exporter-2lzqg',
    path: ['status', 'containerStatuses', 0],
    value: null,
    warning: /status\.containerStatuses\[0\]: a null entry; ignored/,
  },
  {
    name: 'containers that is a string',
    kind: 'DaemonSet',
    object: 'node-exporter',
    path: ['spec', 'template', 'spec', 'containers'],
    value: 'node-exporter',
    warning: /spec\.template\.spec\.containers: expected a list, found a string; ignored/,
  },
  {
    name: 'node taints that are a map',
    kind: 'Node',
    object: 'worker-2',
    path: ['spec', 'taints'],
    value: { key: 'a', effect: 'NoSchedule' },
    warning: /Node worker-2: spec\.taints: expected a list, found a map; ignored/,
  },
  {
    name: 'an allocatable quantity that is a list',
    kind: 'Node',
    object: 'worker-2',
    path: ['status', 'allocatable', 'memory'],
    value: ['1Gi'],
    warning: /status\.allocatable\.memory: expected a quantity, found a list; ignored/,
  },
];

function mutant(c: Case): string {
  const items = structuredClone(corpus.items);
  const target = items.find(
    (o) => o['kind'] === c.kind && (c.object === '' || (o['metadata'] as { name?: string }).name === c.object),
  );
  assert.ok(target, `${c.kind} ${c.object} is in the scenario`);
  setPath(target, c.path, c.value);
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

for (const c of CASES) {
  test(`malformed: ${c.name}: no internal error in any command, and a warning`, async () => {
    const stdin = mutant(c);
    let scanned = '';
    for (const cmd of COMMANDS) {
      for (const fmt of [['-o', 'json'], []]) {
        const argv = [...cmd, '-f', '-', '--now', '2026-11-29T12:00:00Z', ...fmt];
        const r = await runCli(argv, { stdin });
        const what = `ds-doctor ${argv.join(' ')}: exit ${r.code}: ${r.stderr}`;
        assert.doesNotMatch(r.stderr, /internal error/, what);
        assert.ok((c.codes ?? [0, 1]).includes(r.code), what);
        if (fmt.length && r.code <= 1) assert.doesNotThrow(() => JSON.parse(r.stdout), what);
        if (cmd[0] === 'scan' && !fmt.length) scanned = r.stdout;
      }
    }
    if (c.warning) assert.match(scanned, c.warning);
  });
}
