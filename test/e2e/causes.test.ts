// Root causes on the real control plane: the chain ds-doctor draws live is what the controller
// does, and the fix it prints, applied as printed, removes the cause.
// - labels: a device plugin selects nodes by a label that node-feature-discovery writes, and the
//   labeller is kept off the tainted GPU nodes by a toleration with the right key and the wrong
//   value (the shape of NVIDIA GPU operator threads); its printed JSON patch lets it on, a
//   simulated labeller labels the nodes its pods reach, and the real controller then places the
//   device plugin there.
// - revision: a new image crash-loops on every node it reached; the printed
//   `kubectl rollout undo --to-revision=N` brings the old revision's hash back on every node.
// - budget: pods on an unreachable node hold maxUnavailable; the printed patch raises it and the
//   real controller goes on replacing old pods.
// - admission: a mutating webhook (served here on 127.0.0.1) injects a sidecar whose mount names a
//   volume it does not add; the real API server refuses every pod (FailedCreate "is invalid"),
//   ds-doctor names the webhook, and taking the namespace out of its selector lets the pods in.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { ControlPlane } from '../cluster/harness.js';
import type { DaemonSet, Pod } from '../../src/model/k8s-types.js';
import type { RootCause } from '../../src/model/results.js';
import {
  adminRequest,
  create,
  daemonSetObject,
  dsJson,
  getJson,
  kubectl,
  namespaceObject,
  nodeObject,
  podsOf,
  rfc3339,
  setPodStates,
  startCluster,
  stopCluster,
  waitFor,
  waitForDaemonPods,
  waitForReady,
} from './cluster.js';

const NS = 'causes';
const GPU_KEY = 'feature.node.kubernetes.io/pci-10de.present';
const GPU_TAINT = { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' };

/** The `kubectl …` command a printed fix holds, as arguments (the JSON patch kept whole). */
function kubectlArgs(fix: string): string[] {
  const m = /kubectl ((?:patch|rollout undo) [^']*?)(?: -p '([^']*)')?(?:;|$| \()/.exec(fix);
  assert.ok(m, `no kubectl command in the fix: ${fix}`);
  const args = m[1]!.trim().split(/\s+/);
  return m[2] ? [...args, '-p', m[2]] : args;
}

async function scanCauses(cp: ControlPlane): Promise<RootCause[]> {
  return (await dsJson<{ causes: RootCause[] }>(cp, ['scan', '-n', NS])).causes;
}

describe('root causes drawn live agree with the real controller, and their fixes work', () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await startCluster('causes');
    await create(cp, [namespaceObject(NS)]);
  });

  after(() => stopCluster(cp));

  it('labels: the labeller kept off the GPU nodes by a near-miss toleration; its patch lets the device plugin run', async () => {
    await create(cp, [
      nodeObject('cpu-1'),
      nodeObject('gpu-1', { taints: [GPU_TAINT] }),
      nodeObject('gpu-2', { taints: [GPU_TAINT] }),
    ]);
    const labeller = daemonSetObject(NS, 'nfd-worker', {
      image: 'registry.k8s.io/nfd/node-feature-discovery:v0.16.4',
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }],
    });
    const plugin = daemonSetObject(NS, 'nvidia-device-plugin', {
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    });
    plugin.spec!.template!.spec!.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: GPU_KEY, operator: 'In', values: ['true'] }] }],
        },
      },
    };
    plugin.spec!.template!.spec!.volumes = [
      { name: 'device-plugin', hostPath: { path: '/var/lib/kubelet/device-plugins' } },
    ];
    await create(cp, [labeller, plugin]);
    await setPodStates(cp, await waitForDaemonPods(cp, NS, 'nfd-worker', 1), 'ready');
    await waitForReady(cp, NS, 'nfd-worker', 1);
    // The real controller: the labeller on cpu-1 only, the device plugin nowhere.
    const dp = await getJson<DaemonSet>(cp, ['daemonset', '-n', NS, 'nvidia-device-plugin']);
    assert.equal(dp.status?.desiredNumberScheduled, 0);

    const cause = (await scanCauses(cp)).find((c) => c.code === 'LabellerNotRunning');
    assert.ok(cause, 'the chain is drawn live');
    assert.equal(cause.cause.name, 'nfd-worker');
    assert.deepEqual(cause.nodes, ['gpu-1', 'gpu-2']);
    assert.match(
      cause.summary,
      /near miss: toleration \{key: nvidia\.com\/gpu, operator: Equal, value: "true", effect: NoSchedule\}/,
    );
    assert.deepEqual(
      (await dsJson<{ daemonSets: { name: string; health: string }[] }>(cp, ['scan', '-n', NS])).daemonSets.find(
        (d) => d.name === 'nvidia-device-plugin',
      )?.health,
      'Degraded',
      'a device plugin at 0/0 where a labeller should label its nodes is not Healthy',
    );

    // The fix as printed, then a simulated node-feature-discovery: it labels each node its pod reaches.
    await kubectl(cp, kubectlArgs(cause.fix));
    const pods = await waitForDaemonPods(cp, NS, 'nfd-worker', 3);
    for (const p of pods)
      await adminRequest(cp, 'PATCH', `/api/v1/nodes/${p.spec?.nodeName}`, {
        metadata: { labels: p.spec?.nodeName?.startsWith('gpu') ? { [GPU_KEY]: 'true' } : {} },
      });
    const placed = await waitForDaemonPods(cp, NS, 'nvidia-device-plugin', 2);
    assert.deepEqual(placed.map((p) => p.spec?.nodeName).sort(), ['gpu-1', 'gpu-2']);
    await waitFor('the label cause is gone', async () => {
      // The simulated kubelets report every labeller and plugin pod Ready as they come.
      const current = [
        ...(await podsOf(cp, NS, 'nfd-worker')),
        ...(await podsOf(cp, NS, 'nvidia-device-plugin')),
      ].filter((p) => p.spec?.nodeName && !p.metadata?.deletionTimestamp);
      await setPodStates(cp, current, 'ready');
      return (await scanCauses(cp)).some((c) => c.code === 'LabellerNotRunning') ? undefined : true;
    });
    await kubectl(cp, ['delete', 'daemonset', '-n', NS, 'nfd-worker', 'nvidia-device-plugin', '--wait=false']);
    await kubectl(cp, ['delete', 'node', 'cpu-1', 'gpu-1', 'gpu-2']);
  });

  it('revision: a new image crash-looping everywhere it reached; the printed rollout undo restores the healthy revision', async () => {
    await create(cp, [nodeObject('r-1'), nodeObject('r-2'), nodeObject('r-3')]);
    const agent = daemonSetObject(NS, 'log-agent', {
      image: 'registry.k8s.io/pause:3.10',
      nodeSelector: { 'kubernetes.io/hostname': 'never' },
    });
    delete agent.spec!.template!.spec!.nodeSelector;
    agent.spec!.template!.spec!.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['r-1', 'r-2', 'r-3'] }] },
          ],
        },
      },
    };
    await create(cp, [agent]);
    const first = await waitForDaemonPods(cp, NS, 'log-agent', 3);
    await setPodStates(cp, first, 'ready');
    await waitForReady(cp, NS, 'log-agent', 3);
    const oldHash = first[0]!.metadata?.labels?.['controller-revision-hash'];

    await kubectl(cp, ['set', 'image', 'daemonset/log-agent', '-n', NS, 'agent=registry.k8s.io/pause:3.10-broken']);
    // maxUnavailable 1: the controller replaces one pod; the simulated kubelet crash-loops it.
    const broken = await waitFor('a pod of the new revision', async () => {
      const pods = (await podsOf(cp, NS, 'log-agent')).filter(
        (p) =>
          !p.metadata?.deletionTimestamp &&
          p.spec?.nodeName &&
          p.metadata?.labels?.['controller-revision-hash'] !== oldHash,
      );
      return pods.length ? pods : undefined;
    });
    await setPodStates(cp, broken, 'crashloop');
    await setPodStates(
      cp,
      (await podsOf(cp, NS, 'log-agent')).filter(
        (p) => p.metadata?.labels?.['controller-revision-hash'] === oldHash && !p.metadata?.deletionTimestamp,
      ),
      'ready',
    );

    const cause = await waitFor('RevisionFailing drawn live', async () =>
      (await dsJson<{ causes?: RootCause[] }>(cp, ['rollout', `${NS}/log-agent`])).causes?.find(
        (c) => c.code === 'RevisionFailing',
      ),
    );
    assert.match(cause.fix, /kubectl rollout undo daemonset\/log-agent -n causes --to-revision=1/);
    await kubectl(cp, kubectlArgs(cause.fix));
    const back = await waitFor('every pod back on the old revision', async () => {
      const pods = (await podsOf(cp, NS, 'log-agent')).filter((p) => !p.metadata?.deletionTimestamp);
      return pods.length === 3 && pods.every((p) => p.metadata?.labels?.['controller-revision-hash'] === oldHash)
        ? pods
        : undefined;
    });
    await setPodStates(
      cp,
      back.filter((p: Pod) => p.spec?.nodeName),
      'ready',
    );
    await kubectl(cp, ['delete', 'daemonset', '-n', NS, 'log-agent', '--wait=false']);
    await kubectl(cp, ['delete', 'node', 'r-1', 'r-2', 'r-3']);
  });

  it('budget: an unreachable node holds maxUnavailable; the printed patch raises it and the rollout goes on', async () => {
    await create(cp, [nodeObject('u-1'), nodeObject('u-2'), nodeObject('u-3'), nodeObject('u-dead')]);
    const proxy = daemonSetObject(NS, 'proxy', { tolerations: [{ operator: 'Exists' }] });
    proxy.spec!.template!.spec!.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'kubernetes.io/hostname', operator: 'In', values: ['u-1', 'u-2', 'u-3', 'u-dead'] },
              ],
            },
          ],
        },
      },
    };
    await create(cp, [proxy]);
    const pods = await waitForDaemonPods(cp, NS, 'proxy', 4);
    await setPodStates(cp, pods, 'ready');
    await waitForReady(cp, NS, 'proxy', 4);
    // u-dead stops answering: the node lifecycle controller would mark it Unknown, taint it and
    // mark its pods not Ready; this does the same through the API.
    const since = rfc3339(new Date());
    await adminRequest(cp, 'PATCH', '/api/v1/nodes/u-dead/status', {
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'Unknown',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
            lastHeartbeatTime: since,
            lastTransitionTime: since,
          },
        ],
      },
    });
    await adminRequest(cp, 'PATCH', '/api/v1/nodes/u-dead', {
      spec: {
        taints: [
          { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
          { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: since },
        ],
      },
    });
    const deadPod = pods.find((p) => p.spec?.nodeName === 'u-dead')!;
    await adminRequest(cp, 'PATCH', `/api/v1/namespaces/${NS}/pods/${deadPod.metadata?.name}/status`, {
      status: {
        conditions: [{ type: 'Ready', status: 'False', reason: 'NodeStatusUnknown', lastTransitionTime: since }],
      },
    });
    await waitForReady(cp, NS, 'proxy', 3);
    const oldHash = pods[0]!.metadata?.labels?.['controller-revision-hash'];

    // A template change: the unavailable old pod on u-dead is replaced at once, and its
    // replacement, bound to a node with no kubelet, never becomes available.
    await kubectl(cp, ['set', 'image', 'daemonset/proxy', '-n', NS, 'agent=registry.k8s.io/pause:3.9']);
    const cause = await waitFor(
      'BudgetHeldByDeadNodes drawn live',
      async () =>
        (await dsJson<{ causes?: RootCause[] }>(cp, ['rollout', `${NS}/proxy`])).causes?.find(
          (c) => c.code === 'BudgetHeldByDeadNodes',
        ),
      90_000,
    );
    assert.deepEqual(cause.nodes, ['u-dead']);
    assert.match(cause.evidence.join('\n'), /creates the pods again on u-dead/);
    const oldLeft = async () =>
      (await podsOf(cp, NS, 'proxy')).filter(
        (p) =>
          !p.metadata?.deletionTimestamp &&
          p.spec?.nodeName !== 'u-dead' &&
          p.metadata?.labels?.['controller-revision-hash'] === oldHash,
      ).length;
    assert.equal(await oldLeft(), 3, 'stuck: no old pod on a live node is replaced');

    const raise = cause.fix.split('; ').find((f) => f.includes('kubectl patch'))!;
    await kubectl(cp, kubectlArgs(raise));
    // The real controller now replaces old pods on live nodes, one at a time past the dead node.
    await waitFor('an old pod on a live node replaced', async () => ((await oldLeft()) < 3 ? true : undefined), 60_000);
    await kubectl(cp, ['delete', 'daemonset', '-n', NS, 'proxy', '--wait=false']);
  });
  it('admission: FailedCreate at a mount a mutating webhook injects names the webhook, not the template', async () => {
    // A serving certificate for 127.0.0.1, and the webhook: a JSON patch adding a sidecar container
    // with a mount of a volume the patch forgets.
    const dir = fs.mkdtempSync(path.join(cp.workDir, 'webhook-'));
    const key = path.join(dir, 'tls.key');
    const cert = path.join(dir, 'tls.crt');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      {
        stdio: 'ignore',
      },
    );
    const patch = [
      {
        op: 'add',
        path: '/spec/containers/-',
        value: {
          name: 'sidecar',
          image: 'registry.k8s.io/pause:3.10',
          volumeMounts: [{ name: 'sidecar-certs', mountPath: '/certs' }],
        },
      },
    ];
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string } };
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            apiVersion: 'admission.k8s.io/v1',
            kind: 'AdmissionReview',
            response: {
              uid: review.request.uid,
              allowed: true,
              patchType: 'JSONPatch',
              patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
            },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const ns = 'injected';
      await create(cp, [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'sidecar-injection': 'enabled' } } },
        nodeObject('w-1'),
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingWebhookConfiguration',
          metadata: { name: 'acme-sidecar-injector' },
          webhooks: [
            {
              name: 'inject.sidecar.acme.io',
              admissionReviewVersions: ['v1'],
              sideEffects: 'None',
              failurePolicy: 'Fail',
              clientConfig: {
                url: `https://127.0.0.1:${port}/inject`,
                caBundle: fs.readFileSync(cert).toString('base64'),
              },
              namespaceSelector: { matchLabels: { 'sidecar-injection': 'enabled' } },
              rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
            },
          ],
        },
      ]);
      await create(cp, [daemonSetObject(ns, 'node-agent')]);
      // The real API server refuses the controller's pods, with the message ds-doctor reads.
      await waitFor('FailedCreate "is invalid" from the real API server', async () => {
        const events = await getJson<{ items: { reason?: string; message?: string }[] }>(cp, ['events', '-n', ns]);
        return events.items.some(
          (e) =>
            e.reason === 'FailedCreate' &&
            /is invalid: .*volumeMounts\[0\]\.name: Not found: "sidecar-certs"/.test(e.message ?? ''),
        )
          ? true
          : undefined;
      });
      const cause = await waitFor('WebhookInjectedField drawn live', async () =>
        (await dsJson<{ causes?: RootCause[] }>(cp, ['why', `${ns}/node-agent`])).causes?.find(
          (c) => c.code === 'WebhookInjectedField',
        ),
      );
      assert.deepEqual(cause.cause, { kind: 'MutatingWebhookConfiguration', name: 'acme-sidecar-injector' });
      assert.match(cause.fix, /^the template is not what is wrong/);
      // The remedy the fix names: take the namespace out of the webhook's namespaceSelector.
      await kubectl(cp, ['label', 'namespace', ns, 'sidecar-injection-']);
      await waitFor('the controller creates pods once the webhook leaves them alone', async () =>
        (await podsOf(cp, ns, 'node-agent')).length ? true : undefined,
      );
      await kubectl(cp, ['delete', 'daemonset', '-n', ns, 'node-agent', '--wait=false']);
      await kubectl(cp, ['delete', 'mutatingwebhookconfiguration', 'acme-sidecar-injector']);
      await kubectl(cp, ['delete', 'node', 'w-1']);
    } finally {
      server.close();
    }
  });
});
