/**
 * Placement oracles: copies of a DaemonSet that keep only its placement inputs, with a
 * scheduling gate so their pods are never bound (they take no resources, ports or pod slots).
 * The real DaemonSet controller creates a probe pod exactly on the nodes where
 * NodeShouldRunDaemonPod says shouldRun, so the probe's pods show the controller's decision
 * per node. Four copies: everything (shouldRun), nodeSelector only, required node affinity
 * only, and tolerations (with hostNetwork, which adds a default toleration) only; the first two
 * partial copies tolerate every taint.
 */
import type { DaemonSet, Pod, PodSpec } from '../../src/model/k8s-types.js';
import { paths } from './api.js';
import { sleep, type World } from './cluster.js';
import { targetNode, type ProbeResult } from './compare.js';

const GATE = 'ds-diff.test/probe';
type Part = 'full' | 'sel' | 'aff' | 'tol';

function probeSpec(src: PodSpec, part: Part): PodSpec {
  const keepSel = part === 'full' || part === 'sel';
  const keepAff = part === 'full' || part === 'aff';
  const keepTol = part === 'full' || part === 'tol';
  const required = src.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return {
    terminationGracePeriodSeconds: 0,
    schedulingGates: [{ name: GATE }],
    containers: [{ name: 'probe', image: 'registry.invalid/probe:1' }],
    ...(keepSel && src.nodeSelector ? { nodeSelector: src.nodeSelector } : {}),
    ...(keepAff && required
      ? { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } } }
      : {}),
    ...(keepTol
      ? {
          ...(src.tolerations ? { tolerations: src.tolerations } : {}),
          ...(src.hostNetwork ? { hostNetwork: true } : {}),
        }
      : { tolerations: [{ operator: 'Exists' }] }),
  };
}

/** The probe parts a template needs: sel/aff only when it has a nodeSelector / required affinity. */
function partsFor(spec: PodSpec): Part[] {
  const parts: Part[] = ['full', 'tol'];
  if (spec.nodeSelector && Object.keys(spec.nodeSelector).length) parts.push('sel');
  if (spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution) parts.push('aff');
  return parts;
}

/**
 * Creates the probes for `daemonSets` in `namespace` (created here), waits for the controller,
 * reads where their pods went, and deletes the namespace. Keyed by `<namespace>/<name>` of the
 * real DaemonSet.
 */
export async function runProbes(
  world: World,
  namespace: string,
  daemonSets: DaemonSet[],
): Promise<Map<string, ProbeResult>> {
  const api = world.api;
  await api.create(paths.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const made: { key: string; part: Part; name: string }[] = [];
  let i = 0;
  for (const ds of daemonSets) {
    const key = `${ds.metadata?.namespace}/${ds.metadata?.name}`;
    const spec = ds.spec?.template?.spec ?? {};
    for (const part of partsFor(spec)) {
      const name = `probe-${i}-${part}`;
      await api.create(paths.daemonSets(namespace), {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name, namespace },
        spec: {
          selector: { matchLabels: { probe: name } },
          template: { metadata: { labels: { probe: name } }, spec: probeSpec(spec, part) },
        },
      });
      made.push({ key, part, name });
    }
    i++;
  }
  // Wait until every probe is observed and its pod count is stable.
  let last = '';
  let stableSince = Date.now();
  const t0 = Date.now();
  let pods: Pod[] = [];
  for (;;) {
    const [dss, list] = await Promise.all([
      api.list<DaemonSet>(paths.daemonSets(namespace)),
      api.list<Pod>(paths.pods(namespace)),
    ]);
    pods = list;
    const observed =
      dss.length === made.length &&
      dss.every(
        (d) =>
          (d.status?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) &&
          (d.status?.currentNumberScheduled ?? 0) ===
            pods.filter((p) => p.metadata?.labels?.['probe'] === d.metadata?.name).length,
      );
    const print = `${pods.length}:${dss.map((d) => `${d.metadata?.resourceVersion}`).join(',')}`;
    if (print !== last) {
      last = print;
      stableSince = Date.now();
    }
    const busy = observed ? await world.queues() : ['not observed'];
    if (observed && !busy.some((b) => b.startsWith('controller')) && Date.now() - stableSince > 800) break;
    if (Date.now() - t0 > 30_000) throw new Error(`probes in ${namespace} did not settle: ${busy.join('; ')}`);
    await sleep(200);
  }
  const out = new Map<string, ProbeResult>();
  for (const m of made) {
    const nodes = new Set(pods.filter((p) => p.metadata?.labels?.['probe'] === m.name).map((p) => targetNode(p) ?? ''));
    const r = out.get(m.key) ?? { full: new Set<string>(), tol: new Set<string>() };
    if (m.part === 'full') r.full = nodes;
    else if (m.part === 'tol') r.tol = nodes;
    else r[m.part] = nodes;
    out.set(m.key, r);
  }
  await api.delete(paths.namespace(namespace), { propagationPolicy: 'Background' });
  return out;
}
