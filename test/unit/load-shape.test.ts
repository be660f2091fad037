// Shape validation and bounds at load (src/load/shape.ts, src/load/bounds.ts): a field of the wrong
// type is one warning naming file, object and field path, and is treated as absent; an object
// without a name is skipped, said so; alias bombs and deep nesting are refused with one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFiles } from '../../src/load/files.js';
import { checkShape } from '../../src/load/shape.js';
import { KIND_SHAPES, type Shape } from '../../src/load/shape-fields.js';
import { allowedAliasRatio } from '../../src/load/bounds.js';
import { InputError } from '../../src/model/errors.js';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClusterSnapshot } from '../../src/model/snapshot.js';

function load(text: string): Promise<ClusterSnapshot> {
  return loadFiles(['-'], async () => text);
}

const DS = (spec: string, meta = '') => `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: ns
${meta}spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
${spec}`;
const CONTAINERS = '      containers:\n      - name: c\n        image: agent:1\n';

interface ShapeCase {
  name: string;
  yaml: string;
  /** The warning lines expected, in order (empty: none). */
  warnings: RegExp[];
  /** What the loaded object looks like afterwards. */
  check: (s: ClusterSnapshot) => void;
}

const CASES: ShapeCase[] = [
  {
    name: 'an empty labels: is null: absent, without a warning (Go decodes null as nil)',
    yaml: DS(CONTAINERS, '  labels:\n'),
    warnings: [],
    check: (s) => assert.equal(s.daemonSets[0]!.metadata!.labels, undefined),
  },
  {
    name: 'ownerReferences that is not a list is ignored',
    yaml: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\n  ownerReferences: {kind: DaemonSet, name: agent}\n',
    warnings: [/^<stdin>:1: Pod ns\/p: metadata\.ownerReferences: expected a list, found a map; ignored$/],
    check: (s) => assert.equal(s.pods[0]!.metadata!.ownerReferences, undefined),
  },
  {
    name: 'a null entry in status.conditions is dropped, the others kept',
    yaml: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nstatus:\n  conditions:\n  - null\n  - {type: Ready, status: "True"}\n',
    warnings: [/^<stdin>:1: Pod ns\/p: status\.conditions\[0\]: a null entry; ignored$/],
    check: (s) => assert.deepEqual(s.pods[0]!.status!.conditions, [{ type: 'Ready', status: 'True' }]),
  },
  {
    name: "a condition's lastProbeTime: null stays null (how every API server writes it), one of the wrong type is ignored",
    yaml: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nstatus:\n  conditions:\n  - {type: Ready, status: "True", lastProbeTime: null}\n  - {type: PodScheduled, status: "True", lastProbeTime: {at: 1}}\n',
    warnings: [
      /^<stdin>:1: Pod ns\/p: status\.conditions\[1\]\.lastProbeTime: expected a string, found a map; ignored$/,
    ],
    check: (s) => {
      const [ready, scheduled] = s.pods[0]!.status!.conditions!;
      assert.equal(ready!.lastProbeTime, null);
      assert.equal('lastProbeTime' in scheduled!, false);
    },
  },
  {
    name: 'a null entry in containerStatuses is dropped',
    yaml: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nstatus:\n  containerStatuses: [null]\n',
    warnings: [/Pod ns\/p: status\.containerStatuses\[0\]: a null entry; ignored$/],
    check: (s) => assert.deepEqual(s.pods[0]!.status!.containerStatuses, []),
  },
  {
    name: 'a YAML integer namespace and name are read as their text',
    yaml: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: 42\n  namespace: 123\n',
    warnings: [
      /^<stdin>:1: Pod 123\/42: metadata\.name: expected a string, found an integer; read as "42"$/,
      /^<stdin>:1: Pod 123\/42: metadata\.namespace: expected a string, found an integer; read as "123"$/,
    ],
    check: (s) => assert.deepEqual([s.pods[0]!.metadata!.namespace, s.pods[0]!.metadata!.name], ['123', '42']),
  },
  {
    name: 'nodeSelectorTerms that is not a list is ignored',
    yaml: DS(
      `${CONTAINERS}      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms: linux\n`,
    ),
    warnings: [
      /DaemonSet ns\/agent: spec\.template\.spec\.affinity\.nodeAffinity\.requiredDuringSchedulingIgnoredDuringExecution\.nodeSelectorTerms: expected a list, found a string; ignored$/,
    ],
    check: (s) =>
      assert.deepEqual(
        s.daemonSets[0]!.spec!.template!.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution,
        {},
      ),
  },
  {
    name: 'ports, volumes and tolerations that are not lists are ignored',
    yaml: DS(
      `      containers:\n      - name: c\n        ports: {containerPort: 80}\n      volumes: data\n      tolerations: {operator: Exists}\n`,
    ),
    warnings: [
      /spec\.template\.spec\.tolerations: expected a list, found a map; ignored$/,
      /spec\.template\.spec\.containers\[0\]\.ports: expected a list, found a map; ignored$/,
      /spec\.template\.spec\.volumes: expected a list, found a string; ignored$/,
    ],
    check: (s) => {
      const spec = s.daemonSets[0]!.spec!.template!.spec!;
      assert.deepEqual([spec.tolerations, spec.containers![0]!.ports, spec.volumes], [undefined, undefined, undefined]);
    },
  },
  {
    name: 'containers that is not a list is ignored',
    yaml: DS('      containers: agent\n'),
    warnings: [/spec\.template\.spec\.containers: expected a list, found a string; ignored$/],
    check: (s) => assert.equal(s.daemonSets[0]!.spec!.template!.spec!.containers, undefined),
  },
  {
    name: 'node taints that are not a list are ignored',
    yaml: 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints: {key: a, effect: NoSchedule}\n',
    warnings: [/^<stdin>:1: Node n1: spec\.taints: expected a list, found a map; ignored$/],
    check: (s) => assert.equal(s.nodes[0]!.spec!.taints, undefined),
  },
  {
    name: 'quantities that are neither strings nor numbers, or do not parse, are ignored',
    yaml: 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable: {cpu: [4], memory: lots, pods: 110}\n',
    warnings: [
      /Node n1: status\.allocatable\.cpu: expected a quantity, found a list; ignored$/,
      /Node n1: status\.allocatable\.memory: expected a quantity, found a string; ignored$/,
    ],
    check: (s) => assert.deepEqual(s.nodes[0]!.status!.allocatable, { pods: 110 }),
  },
  {
    name: 'integers out of range or fractional are ignored (Go rejects them for int32 fields)',
    yaml: DS(`      containers:\n      - name: c\n        ports: [{containerPort: 80, hostPort: 1.5}]\n`).replace(
      'spec:\n  selector',
      'spec:\n  minReadySeconds: 1e20\n  selector',
    ),
    warnings: [
      /ports\[0\]\.hostPort: expected a 32-bit integer, found a fraction; ignored$/,
      /spec\.minReadySeconds: expected a 32-bit integer, found an integer; ignored$/,
    ],
    check: (s) => assert.equal(s.daemonSets[0]!.spec!.minReadySeconds, undefined),
  },
  {
    name: 'maxUnavailable that is a boolean is ignored',
    yaml: DS(CONTAINERS).replace(
      'spec:\n  selector',
      'spec:\n  updateStrategy: {rollingUpdate: {maxUnavailable: true}}\n  selector',
    ),
    warnings: [
      /spec\.updateStrategy\.rollingUpdate\.maxUnavailable: expected an integer or a string, found a boolean; ignored$/,
    ],
    check: (s) => assert.deepEqual(s.daemonSets[0]!.spec!.updateStrategy, { rollingUpdate: {} }),
  },
  {
    name: 'a label value that is a map is ignored, a number is read as its text',
    yaml: 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: {zone: {a: b}, tier: 2}\n',
    warnings: [
      /metadata\.labels\.zone: expected a string, found a map; ignored$/,
      /metadata\.labels\.tier: expected a string, found an integer; read as "2"$/,
    ],
    check: (s) => assert.deepEqual({ ...s.nodes[0]!.metadata!.labels }, { tier: '2' }),
  },
  {
    name: 'status.nodeInfo.swap is a map since v1.30 (a real rke2 dump has one): not warned',
    yaml: 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  nodeInfo: {operatingSystem: linux, swap: {capacity: 0}}\n',
    warnings: [],
    check: (s) => assert.equal(s.nodes[0]!.status!.nodeInfo!['operatingSystem'], 'linux'),
  },
  {
    name: 'an object without a name is skipped, said so',
    yaml: 'apiVersion: v1\nkind: Pod\nmetadata: {namespace: ns}\n---\napiVersion: v1\nkind: Pod\nmetadata: [p]\n',
    warnings: [
      /^<stdin>:1: Pod \(no name\): no metadata\.name; skipped$/,
      /^<stdin>:5: Pod \(no name\): metadata: expected a map, found a list; ignored$/,
      /^<stdin>:5: Pod \(no name\): no metadata\.name; skipped$/,
    ],
    check: (s) => assert.equal(s.pods.length, 0),
  },
];

for (const c of CASES) {
  test(`shape: ${c.name}`, async () => {
    const s = await load(c.yaml);
    const lines = s.warnings.filter((w) => !/^ignored|duplicate/.test(w));
    assert.equal(lines.length, c.warnings.length, lines.join('\n'));
    c.warnings.forEach((re, i) => assert.match(lines[i]!, re));
    c.check(s);
  });
}

test('shape: a well-formed dump object is left exactly as it was', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      namespace: 'ns',
      labels: { a: 'b' },
      ownerReferences: [{ kind: 'DaemonSet', name: 'd', uid: 'u', controller: true }],
    },
    spec: {
      nodeName: 'n1',
      containers: [
        {
          name: 'c',
          image: 'i',
          resources: { requests: { cpu: '100m', memory: 64 } },
          ports: [{ containerPort: 80, hostPort: 80 }],
        },
      ],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }] },
    unknownField: { anything: [1, 'x', null] },
  };
  const copy = structuredClone(pod);
  assert.deepEqual(checkShape(copy, 'Pod'), []);
  // A condition's `lastProbeTime: null` (as every API server writes it) is kept: no copy of the condition.
  assert.deepEqual(copy, pod);
});

test('shape: fields removed from the middle of a map (null, or of the wrong type) leave the rest in their order, an own __proto__ key stays data, and the top-level object is the one the caller holds', () => {
  const pod = JSON.parse(
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":null,"uid":"u"},"status":null,' +
      '"spec":{"nodeName":7,"hostNetwork":"yes","__proto__":{"polluted":true},"dnsPolicy":"Default","containers":[{"name":"c","ports":null,"image":"i"}]},"other":1}',
  ) as Record<string, unknown>;
  const held = pod;
  assert.deepEqual(checkShape(pod, 'Pod'), [
    { path: 'spec.nodeName', message: 'expected a string, found an integer; read as "7"' },
    { path: 'spec.hostNetwork', message: 'expected a boolean, found a string; ignored' },
  ]);
  assert.equal(pod, held);
  assert.deepEqual(Object.keys(pod), ['apiVersion', 'kind', 'metadata', 'spec', 'other']);
  assert.deepEqual(Object.keys(pod['metadata'] as object), ['name', 'uid']);
  const spec = pod['spec'] as Record<string, unknown>;
  assert.deepEqual(Object.keys(spec), ['nodeName', '__proto__', 'dnsPolicy', 'containers']);
  assert.equal(spec['nodeName'], '7');
  assert.equal(Object.getPrototypeOf(spec), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(spec, '__proto__')?.value, { polluted: true });
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.deepEqual(spec['containers'], [{ name: 'c', image: 'i' }]);
});

test('shape: no field name of the description is an Object.prototype member (the checker reads fields without hasOwnProperty)', () => {
  const reserved = new Set(Object.getOwnPropertyNames(Object.prototype));
  const names: string[] = [];
  const walk = (shape: Shape): void => {
    if (typeof shape === 'string') return;
    if ('list' in shape) return walk(shape.list);
    if ('map' in shape) return walk(shape.map);
    for (const [k, f] of Object.entries(shape.fields)) {
      names.push(k);
      walk(f);
    }
  };
  for (const fields of Object.values(KIND_SHAPES)) walk({ fields });
  assert.ok(names.length > 100);
  assert.deepEqual(
    names.filter((n) => reserved.has(n)),
    [],
  );
});

test('shape: many malformed fields give at most five lines per object, and the rest are counted', async () => {
  const labels = Array.from({ length: 8 }, (_, i) => `l${i}: [x]`).join(', ');
  const s = await load(`apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: {${labels}}\n`);
  assert.equal(s.warnings.length, 6, s.warnings.join('\n'));
  assert.match(s.warnings[5]!, /^<stdin>:1: Node n1: 3 more field\(s\) of the wrong type ignored$/);
});

// gopkg.in/yaml.v2 decode_test.go "billion laughs" cases: the same document is refused there.
const LAUGHS = `a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
kind: Pod
metadata: {name: p, namespace: ns}
`;

test(
  'bounds: a billion-laughs alias bomb is refused with one line naming the file and line',
  { timeout: 10_000 },
  async () => {
    await assert.rejects(load(`apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n${LAUGHS}`), (err: unknown) => {
      assert.ok(err instanceof InputError);
      assert.equal(err.message, '<stdin>:5: invalid YAML: document contains excessive aliasing');
      return true;
    });
  },
);

test('bounds: anchors used as hand-written manifests use them are read', async () => {
  const s = await load(
    DS(
      `      containers:\n      - name: a\n        env: &env [{name: X, value: "1"}]\n      - name: b\n        env: *env\n`,
    ),
  );
  assert.deepEqual(s.daemonSets[0]!.spec!.template!.spec!.containers![1]!.env, [{ name: 'X', value: '1' }]);
});

test('bounds: allowedAliasRatio as gopkg.in/yaml.v2 decode.go scales it', () => {
  const ratios = [1000, 400_000, 2_200_000, 4_000_000, 9_000_000].map(
    (n) => Math.round(allowedAliasRatio(n) * 1000) / 1000,
  );
  assert.deepEqual(ratios, [0.99, 0.99, 0.545, 0.1, 0.1]);
});

test('bounds: aliases that nest a document deeper than 100 levels are refused', async () => {
  // Each anchor nests 60 levels and holds the previous one: depth grows by 60 per alias.
  const level = (k: number, inner: string) => `x${k}: &x${k} ${'['.repeat(60)}${inner}${']'.repeat(60)}`;
  const lines = [level(0, '1'), level(1, '*x0'), level(2, '*x1')];
  await assert.rejects(
    load(`${lines.join('\n')}\nkind: Pod\nmetadata: {name: p}\n`),
    /^InputError: <stdin>:1: invalid YAML: aliases nest the document deeper than 100 levels$/,
  );
});

function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

test('bounds: a JSON pod template nested 6,000 levels deep is refused naming the file and object', async () => {
  const ds = `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"ns"},"spec":{"template":{"spec":{"containers":[{"name":"c","x":${deepJson(6000)}}]}}}}`;
  await assert.rejects(load(`{"kind":"List","items":[${ds}]}`), (err: unknown) => {
    assert.ok(err instanceof InputError);
    assert.equal(
      err.message,
      '<stdin>:1: DaemonSet ns/agent: nested deeper than 100 levels (no Kubernetes object is); refused',
    );
    return true;
  });
});

test('bounds: JSON lists nested 6,000 levels deep in a field ds-doctor does not read are refused too', async () => {
  const pod = `{"kind":"Pod","metadata":{"name":"p","namespace":"ns"},"spec":{"extra":${'['.repeat(6000)}${']'.repeat(6000)}}}`;
  await assert.rejects(
    load(pod),
    /^InputError: <stdin>:1: Pod ns\/p: nested deeper than 100 levels \(no Kubernetes object is\); refused$/,
  );
});

test('JSON: a number too large for a double (1e400 parses as Infinity) is a wrong type, not Infinity', async () => {
  const s = await load('{"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":1e400,"pods":110}}}');
  assert.deepEqual(s.warnings, [
    '<stdin>:1: Node n1: status.allocatable.cpu: expected a quantity, found a non-finite number; ignored',
  ]);
  assert.deepEqual(s.nodes[0]!.status!.allocatable, { pods: 110 });
});

test('bounds: a deep value in a kind ds-doctor does not use is ignored, not walked', async () => {
  const s = await load(
    `{"kind":"List","items":[{"kind":"ConfigMap","metadata":{"name":"c"},"data":${deepJson(6000)}},{"kind":"Node","metadata":{"name":"n1"}}]}`,
  );
  assert.equal(s.nodes.length, 1);
});

test('JSON: a top-level "__proto__" member stays data and never becomes the prototype', async () => {
  // Were it the prototype, the document would inherit its kind and metadata and read as Node "evil".
  await assert.rejects(
    load('{"__proto__":{"kind":"Node","metadata":{"name":"evil"}}}'),
    /^InputError: <stdin>:1: document has no "kind"$/,
  );
});

test('a kind named after an Object.prototype member is a kind ds-doctor does not use (fuzzer seed 1301 mutant 71)', async () => {
  const s = await load(
    '{"kind":"List","items":[{"kind":"constructor","metadata":{"name":"x"}},{"kind":"toString","metadata":{"name":"y"}},{"kind":"Node","metadata":{"name":"n1"}}]}',
  );
  assert.equal(s.nodes.length, 1);
  assert.match(
    s.warnings.join('\n'),
    /ignored 2 object\(s\) of kinds ds-doctor does not use: constructor \(1\), toString \(1\)/,
  );
});

// Real dumps (../shared/realdumps, beside the checkout) are well-formed: the shape check must
// not warn about any of them.
const REALDUMPS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'shared',
  'realdumps',
);
const SHAPE_NOTE = /expected an? |null entry|; skipped|read as "|malformed fields/;

test('shape: no real dump gets a shape warning', async (t) => {
  if (!existsSync(REALDUMPS)) {
    t.skip(`${REALDUMPS} is absent: the real dumps were not checked`);
    return;
  }
  const dumps = readdirSync(REALDUMPS)
    .filter((d) => existsSync(path.join(REALDUMPS, d, 'input')))
    .sort();
  assert.ok(dumps.length > 0, `${REALDUMPS} has no <dump>/input folders`);
  for (const d of dumps) {
    const s = await loadFiles([path.join(REALDUMPS, d, 'input')], async () => '');
    assert.deepEqual(
      s.warnings.filter((w) => SHAPE_NOTE.test(w)),
      [],
      d,
    );
  }
});
