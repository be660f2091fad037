// The API server's DaemonSet validation, mirrored in src/k8s/validation.ts (what `lint`'s
// api-validation rule and `plan` report), against a real kube-apiserver v1.35.4: every manifest of
// a generated corpus (valid ones and ones each field check refuses, alone and in pairs) is sent as
// a server-side dry run, create and update, and ds-doctor must refuse exactly what the server
// refuses, with the server's own message.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { ControlPlane } from '../cluster/harness.js';
import type { DaemonSet, IntOrString } from '../../src/model/k8s-types.js';
import { invalidMessage, validateDaemonSet, validateDaemonSetUpdate } from '../../src/k8s/validation.js';
import { startCluster, stopCluster } from './cluster.js';

const NS = 'default';

/** A valid manifest as a client writes it: no strategy, selector `app: agent`. */
function base(name: string): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: NS },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'registry.k8s.io/pause:3.10' }] },
      },
    },
  };
}

type Edit = (d: DaemonSet) => void;
type Spec = NonNullable<DaemonSet['spec']>;
type PodSpecObj = Record<string, unknown>;
const podSpec = (d: DaemonSet) => d.spec!.template!.spec! as unknown as PodSpecObj;
const container = (d: DaemonSet) => (podSpec(d)['containers'] as Record<string, unknown>[])[0]!;

/** Update strategies: every int-or-percent shape of both fields, and the types. */
const STRATEGIES: [string, Spec['updateStrategy'] | undefined][] = [['none', undefined]];
const VALUES: (IntOrString | undefined)[] = [undefined, 0, 1, 3, -1, '0%', '10%', '100%', '101%', '10', 'x%'];
for (const mu of VALUES) {
  for (const ms of VALUES) {
    const ru = { ...(mu !== undefined ? { maxUnavailable: mu } : {}), ...(ms !== undefined ? { maxSurge: ms } : {}) };
    STRATEGIES.push([`RollingUpdate ${JSON.stringify(ru)}`, { type: 'RollingUpdate', rollingUpdate: ru }]);
  }
}
STRATEGIES.push(
  ['RollingUpdate without rollingUpdate', { type: 'RollingUpdate' }],
  ['no type, maxSurge 1', { rollingUpdate: { maxSurge: 1 } }],
  ['OnDelete', { type: 'OnDelete' }],
  ['OnDelete with maxUnavailable 0', { type: 'OnDelete', rollingUpdate: { maxUnavailable: 0 } }],
  ['type Random', { type: 'Random' }],
  ['type Random with rollingUpdate', { type: 'Random', rollingUpdate: { maxUnavailable: 2 } }],
);

/** One refusal (or a valid variant) per field check of the spec and the template. */
const FIELDS: [string, Edit][] = [
  [
    'valid: hostNetwork, containerPort only',
    (d) =>
      Object.assign(
        podSpec(d),
        { hostNetwork: true },
        { containers: [{ name: 'agent', image: 'pause', ports: [{ containerPort: 9100 }] }] },
      ),
  ],
  [
    'valid: hostNetwork, hostPort equal',
    (d) =>
      Object.assign(podSpec(d), {
        hostNetwork: true,
        containers: [{ name: 'agent', image: 'pause', ports: [{ containerPort: 9100, hostPort: 9100 }] }],
      }),
  ],
  ['valid: restartPolicy Always', (d) => (podSpec(d)['restartPolicy'] = 'Always')],
  [
    'valid: matchExpressions',
    (d) => (d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['agent'] }] }),
  ],
  ['valid: tolerate everything', (d) => (podSpec(d)['tolerations'] = [{ operator: 'Exists' }])],
  [
    'valid: minReadySeconds 0, revisionHistoryLimit 0',
    (d) => Object.assign(d.spec!, { minReadySeconds: 0, revisionHistoryLimit: 0 }),
  ],
  ['no selector', (d) => delete d.spec!.selector],
  ['empty selector', (d) => (d.spec!.selector = {})],
  ['selector does not match', (d) => (d.spec!.selector = { matchLabels: { app: 'other' } })],
  ['no template labels', (d) => delete d.spec!.template!.metadata],
  ['selector key invalid', (d) => (d.spec!.selector = { matchLabels: { 'a=b': 'agent' } })],
  ['selector In without values', (d) => (d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'In' }] })],
  [
    'selector Exists with values',
    (d) => (d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] }),
  ],
  [
    'selector operator unknown',
    (d) => (d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'Has', values: ['agent'] }] }),
  ],
  ['template label value invalid', (d) => (d.spec!.template!.metadata!.labels = { app: 'agent', tier: '-bad' })],
  ['restartPolicy OnFailure', (d) => (podSpec(d)['restartPolicy'] = 'OnFailure')],
  ['restartPolicy Never', (d) => (podSpec(d)['restartPolicy'] = 'Never')],
  ['restartPolicy Sometimes', (d) => (podSpec(d)['restartPolicy'] = 'Sometimes')],
  ['activeDeadlineSeconds 10', (d) => (podSpec(d)['activeDeadlineSeconds'] = 10)],
  ['activeDeadlineSeconds 0', (d) => (podSpec(d)['activeDeadlineSeconds'] = 0)],
  ['minReadySeconds -1', (d) => (d.spec!.minReadySeconds = -1)],
  ['revisionHistoryLimit -1', (d) => (d.spec!.revisionHistoryLimit = -1)],
  ['no containers', (d) => (podSpec(d)['containers'] = [])],
  ['container without image', (d) => delete container(d)['image']],
  ['container without name', (d) => delete container(d)['name']],
  ['container name invalid', (d) => (container(d)['name'] = 'Agent_1')],
  ['duplicate container names', (d) => (podSpec(d)['containers'] = [container(d), { name: 'agent', image: 'pause' }])],
  ['init container without image', (d) => (podSpec(d)['initContainers'] = [{ name: 'init' }])],
  ['init container named as a container', (d) => (podSpec(d)['initContainers'] = [{ name: 'agent', image: 'pause' }])],
  ['containerPort 0', (d) => (container(d)['ports'] = [{ containerPort: 0 }])],
  ['containerPort 70000', (d) => (container(d)['ports'] = [{ containerPort: 70000 }])],
  ['hostPort 70000', (d) => (container(d)['ports'] = [{ containerPort: 80, hostPort: 70000 }])],
  ['protocol XTP', (d) => (container(d)['ports'] = [{ containerPort: 80, protocol: 'XTP' }])],
  ['port name invalid', (d) => (container(d)['ports'] = [{ containerPort: 80, name: 'Metrics--x' }])],
  [
    'duplicate port names',
    (d) =>
      (container(d)['ports'] = [
        { containerPort: 80, name: 'm' },
        { containerPort: 81, name: 'm' },
      ]),
  ],
  [
    'duplicate hostPort across containers',
    (d) =>
      (podSpec(d)['containers'] = [
        { name: 'a', image: 'pause', ports: [{ containerPort: 80, hostPort: 8080 }] },
        { name: 'b', image: 'pause', ports: [{ containerPort: 81, hostPort: 8080 }] },
      ]),
  ],
  [
    'hostNetwork hostPort differs',
    (d) =>
      Object.assign(podSpec(d), {
        hostNetwork: true,
        containers: [{ name: 'agent', image: 'pause', ports: [{ containerPort: 80, hostPort: 8080 }] }],
      }),
  ],
  ['toleration empty key Equal', (d) => (podSpec(d)['tolerations'] = [{ operator: 'Equal', effect: 'NoSchedule' }])],
  ['toleration Exists with value', (d) => (podSpec(d)['tolerations'] = [{ key: 'k', operator: 'Exists', value: 'v' }])],
  [
    'toleration effect unknown',
    (d) => (podSpec(d)['tolerations'] = [{ key: 'k', operator: 'Exists', effect: 'NoRun' }]),
  ],
  [
    'toleration seconds without NoExecute',
    (d) => (podSpec(d)['tolerations'] = [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }]),
  ],
  ['toleration operator Lt', (d) => (podSpec(d)['tolerations'] = [{ key: 'k', operator: 'Lt', value: '5' }])],
  ['toleration operator Like', (d) => (podSpec(d)['tolerations'] = [{ key: 'k', operator: 'Like', value: 'v' }])],
  ['toleration value invalid', (d) => (podSpec(d)['tolerations'] = [{ key: 'k', operator: 'Equal', value: 'a b' }])],
  ['nodeSelector value invalid', (d) => (podSpec(d)['nodeSelector'] = { disk: 'fast ssd' })],
  ['name invalid', (d) => (d.metadata!.name = 'Agent.1')],
];

interface Case {
  name: string;
  manifest: DaemonSet;
}

/** The corpus: every strategy alone, every field check alone, and pairs (a field check under a refused strategy). */
function corpus(): Case[] {
  const cases: Case[] = [];
  const add = (label: string, edits: Edit[]) => {
    const m = base(`c${cases.length}`);
    for (const e of edits) e(m);
    cases.push({ name: label, manifest: m });
  };
  for (const [label, s] of STRATEGIES)
    add(`strategy ${label}`, [(d) => s && (d.spec!.updateStrategy = structuredClone(s))]);
  for (const [label, e] of FIELDS) add(label, [e]);
  const pairs: [string, Spec['updateStrategy']][] = [
    ['maxSurge 1 alone', { rollingUpdate: { maxSurge: 1 } }],
    ['maxUnavailable 0', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } }],
  ];
  for (const [sl, s] of pairs)
    for (const [fl, e] of FIELDS.filter(([l]) => !l.startsWith('valid')))
      add(`${fl} + ${sl}`, [e, (d) => (d.spec!.updateStrategy = structuredClone(s))]);
  return cases;
}

/** A server-side dry run: the HTTP status and the Status message, or nothing for a success. */
function dryRun(
  cp: ControlPlane,
  method: 'POST' | 'PUT',
  body: DaemonSet,
): Promise<{ code: number; message?: string }> {
  const path = `/apis/apps/v1/namespaces/${NS}/daemonsets${method === 'PUT' ? `/${body.metadata!.name}` : ''}?dryRun=All`;
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${cp.server}${path}`,
      {
        method,
        ca: cp.ca,
        headers: {
          Authorization: `Bearer ${cp.token}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'User-Agent': 'ds-doctor-e2e-setup',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: string };
          resolve(code < 300 ? { code } : { code, message: doc.message ?? '' });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

let cp: ControlPlane | undefined;
before(async () => {
  cp = await startCluster('api-validation');
});
after(async () => {
  await stopCluster(cp);
});

/** Ours against the server's answer: both accept, or both refuse with the same message. */
function agree(
  label: string,
  server: { code: number; message?: string },
  ours: string | undefined,
): string | undefined {
  if (server.code >= 300 && server.code !== 422)
    return `${label}: the server answered HTTP ${server.code} (${server.message}), not a validation error`;
  const theirs = server.code === 422 ? server.message : undefined;
  return theirs === ours ? undefined : `${label}:\n  server: ${theirs ?? 'accepted'}\n  ours:   ${ours ?? 'accepted'}`;
}

describe('ValidateDaemonSet mirrored: ds-doctor refuses exactly what the API server refuses, with its message', () => {
  const cases = corpus();

  test(`create: ${cases.length} manifests, server-side dry run`, async () => {
    const disagreements: string[] = [];
    let refused = 0;
    for (const c of cases) {
      const server = await dryRun(cp!, 'POST', c.manifest);
      if (server.code === 422) refused++;
      const errs = validateDaemonSet(c.manifest);
      const d = agree(c.name, server, errs.length ? invalidMessage(c.manifest.metadata!.name!, errs) : undefined);
      if (d) disagreements.push(d);
    }
    console.log(
      `# create: ${cases.length} manifests, ${refused} refused by the API server, ${cases.length - refused} accepted; ${disagreements.length} disagreement(s)`,
    );
    assert.deepEqual(disagreements, []);
    // The corpus exercises both answers.
    assert.ok(refused > 50 && cases.length - refused > 20, `${refused} of ${cases.length} refused`);
  });

  test('update: every manifest applied over an existing DaemonSet (the selector is immutable), server-side dry run', async () => {
    const existing = base('existing');
    existing.spec!.updateStrategy = { type: 'OnDelete' };
    const created = await dryRunCreate(cp!, existing);
    const variants: Case[] = [
      ...cases.map((c) => ({
        name: c.name,
        manifest: { ...c.manifest, metadata: { name: 'existing', namespace: NS } },
      })),
      {
        name: 'a new selector and labels to match',
        manifest: (() => {
          const m = base('existing');
          m.spec!.selector = { matchLabels: { app: 'agent', tier: 'x' } };
          m.spec!.template!.metadata!.labels = { app: 'agent', tier: 'x' };
          return m;
        })(),
      },
    ];
    const disagreements: string[] = [];
    let refused = 0;
    for (const c of variants) {
      // The name is the existing object's: metadata.name checks belong to create.
      if (c.name === 'name invalid') continue;
      const server = await dryRun(cp!, 'PUT', c.manifest);
      if (server.code === 422) refused++;
      const errs = validateDaemonSetUpdate(c.manifest, created);
      const d = agree(c.name, server, errs.length ? invalidMessage('existing', errs) : undefined);
      if (d) disagreements.push(d);
    }
    console.log(
      `# update: ${variants.length - 1} manifests, ${refused} refused by the API server; ${disagreements.length} disagreement(s)`,
    );
    assert.deepEqual(disagreements, []);
  });
});

/** Creates `ds` for real (updates need an object to update) and returns it as the server stores it. */
function dryRunCreate(cp: ControlPlane, ds: DaemonSet): Promise<DaemonSet> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${cp.server}/apis/apps/v1/namespaces/${NS}/daemonsets`,
      {
        method: 'POST',
        ca: cp.ca,
        headers: {
          Authorization: `Bearer ${cp.token}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'User-Agent': 'ds-doctor-e2e-setup',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) >= 300)
            reject(new Error(`create ${ds.metadata?.name}: HTTP ${res.statusCode}: ${text}`));
          else resolve(JSON.parse(text) as DaemonSet);
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(ds));
  });
}
