/**
 * Label chain: a DaemonSet selects nodes by a label that the nodes it would otherwise run on do
 * not carry → a labeller DaemonSet of the snapshot writes that label family → the labeller's own
 * verdict on those nodes (a toleration with the right key and the wrong value is named as the
 * near miss it is). Node labels other than the kubelet's own are written by such agents
 * (node-feature-discovery, GPU feature discovery, vendor labellers); a missing one explains a
 * device plugin at 0/0.
 */
import type { DaemonSet, Node, Taint, Toleration } from '../../model/k8s-types.js';
import { compileDaemonPlacement, SYSTEM_TAINT_KEYS } from '../../k8s/daemonpod.js';
import { formatTaint, formatToleration, toleratesTaint } from '../../k8s/taints.js';
import type { NodeVerdict } from '../placement/index.js';
import { detectAgentRoles } from '../../model/roles.js';
import {
  type CauseContext,
  type CauseDraft,
  dsObject,
  dsRef,
  nameList,
  reasonPhrase,
  tolerationPatch,
} from './context.js';

/** Labels the kubelet or the cloud provider writes on every node: no DaemonSet labeller owns them. */
const KUBELET_LABEL =
  /^(kubernetes\.io\/(arch|os|hostname)|node\.kubernetes\.io\/instance-type|topology\.kubernetes\.io\/(region|zone)|beta\.kubernetes\.io\/(arch|os|instance-type)|failure-domain\.beta\.kubernetes\.io\/(region|zone))$/;

/** Images and names of DaemonSets that write node labels, and the label families known to be theirs. */
const LABELLERS: { match: RegExp; family: RegExp; what: string }[] = [
  {
    match: /node-feature-discovery|(^|[/-])nfd([-/:]|$)/,
    family: /(^|\.)feature\.node\.kubernetes\.io\//,
    what: 'node-feature-discovery writes the feature.node.kubernetes.io label family',
  },
  {
    match: /gpu-feature-discovery/,
    family: /^nvidia\.com\//,
    what: 'GPU feature discovery writes the nvidia.com label family',
  },
  {
    match: /amdgpu-labell?er|k8s-device-plugin:labell?er|labell?er.*amd|amd.*labell?er/,
    family: /^(beta\.)?amd\.com\//,
    what: 'the AMD GPU labeller writes the amd.com label family',
  },
];

/** The DaemonSet's name, container names and images, lower case: where a labeller names its label family. */
function labellerText(ds: DaemonSet): string {
  const spec = ds.spec?.template?.spec;
  const containers = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
  return [ds.metadata?.name ?? '', ...containers.flatMap((c) => [c.name ?? '', c.image ?? ''])].join(' ').toLowerCase();
}

/** Is the DaemonSet a node labeller (the labeller role of model/roles.ts), or named as one? */
export function isLabeller(ds: DaemonSet): boolean {
  return (
    /labell?er|feature-discovery/.test(ds.metadata?.name ?? '') ||
    detectAgentRoles(ds).some((r) => r.role === 'labeller')
  );
}

/**
 * How strongly a labeller is tied to a label key: 'known' when the key is in the family the
 * labeller is known to write, 'named' when the key's domain (e.g. `acme` of `acme.io/…`) is in the
 * labeller's name, images or arguments, else undefined.
 */
export function labellerWrites(ds: DaemonSet, key: string): { strength: 'known' | 'named'; why: string } | undefined {
  const text = labellerText(ds);
  for (const l of LABELLERS) if (l.match.test(text) && l.family.test(key)) return { strength: 'known', why: l.what };
  const slash = key.indexOf('/');
  if (slash <= 0) return undefined;
  const domain = key.slice(0, slash);
  const spec = ds.spec?.template?.spec;
  const args = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]
    .flatMap((c) => [...(c.command ?? []), ...(c.args ?? [])])
    .join(' ');
  if (args.includes(domain)) return { strength: 'named', why: `its arguments name ${domain}` };
  const words = domain
    .split('.')
    .filter((w) => w.length >= 3 && !['com', 'org', 'net', 'www', 'beta', 'feature', 'node', 'kubernetes'].includes(w));
  const hit = words.find((w) => text.includes(w));
  return hit ? { strength: 'named', why: `its name or image names ${hit}, the domain of ${key}` } : undefined;
}

/** Label keys a node lacks that the template requires, when the label is the only reason the controller skips it. */
function missingOnlyLabels(ds: DaemonSet, node: Node): string[] | undefined {
  const decision = compileDaemonPlacement(ds).evaluate(node);
  if (decision.shouldRun) return undefined;
  const labels = node.metadata?.labels ?? {};
  const keys = new Set<string>();
  for (const f of decision.failures) {
    if (f.kind !== 'NodeAffinity') return undefined;
    for (const m of f.match.selectorMismatches) {
      if (m.have !== undefined) return undefined;
      keys.add(m.key);
    }
    if (f.match.affinityFailed) {
      // Every term must fail for want of a label the node lacks (and only for that).
      const terms =
        ds.spec?.template?.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
          ?.nodeSelectorTerms ?? [];
      for (const t of terms) {
        const absent = (t.matchExpressions ?? []).filter(
          (r) =>
            ['In', 'Exists', 'Gt', 'Lt'].includes(r.operator) && !Object.prototype.hasOwnProperty.call(labels, r.key),
        );
        if (!absent.length) return undefined;
        for (const r of absent) keys.add(r.key);
      }
    }
  }
  const out = [...keys].filter((k) => !KUBELET_LABEL.test(k));
  return out.length ? out.sort() : undefined;
}

/** A toleration with the taint's key that still does not tolerate it: the near miss, in words. */
export function nearMissToleration(tolerations: Toleration[] | undefined, taint: Taint): string | undefined {
  for (const t of tolerations ?? []) {
    if (t.key !== taint.key || toleratesTaint(t, taint)) continue;
    const diffs: string[] = [];
    if ((t.operator ?? 'Equal') === 'Equal' && (t.value ?? '') !== (taint.value ?? ''))
      diffs.push(`value ${JSON.stringify(t.value ?? '')} where the taint has ${JSON.stringify(taint.value ?? '')}`);
    if (t.effect && t.effect !== taint.effect) diffs.push(`effect ${t.effect} where the taint has ${taint.effect}`);
    if (t.operator && t.operator !== 'Equal' && t.operator !== 'Exists')
      diffs.push(`operator ${t.operator}, which is not Equal or Exists`);
    return `near miss: toleration ${formatToleration(t)} has the taint's key but ${diffs.join(' and ') || 'does not match'}`;
  }
  return undefined;
}

/** The labeller's verdict on a node, as a phrase, with the near-miss toleration when a taint keeps it off. */
function labellerState(labeller: DaemonSet, v: NodeVerdict, node: Node): { phrase: string; nearMiss?: string } {
  const main = v.reasons.find((x) => x.severity !== 'info') ?? v.reasons[0];
  let nearMiss: string | undefined;
  if (main?.code === 'UntoleratedTaint') {
    const placement = compileDaemonPlacement(labeller);
    for (const f of placement.evaluate(node).failures) {
      if (f.kind !== 'Taint') continue;
      for (const t of f.taints) {
        const m = nearMissToleration(placement.tolerations, t);
        if (m && !nearMiss) nearMiss = `${m} (taint ${formatTaint(t)})`;
      }
    }
  }
  const state =
    v.verdict === 'Excluded'
      ? 'has no pod there'
      : v.verdict === 'Missing'
        ? 'has no pod there yet'
        : 'is not Ready there';
  return {
    phrase: `${labeller.metadata?.name} ${state}${main ? ` (${reasonPhrase(main)})` : ''}`,
    ...(nearMiss ? { nearMiss } : {}),
  };
}

/** Label causes behind `ds`'s exclusions. */
export function labelCauses(c: CauseContext, ds: DaemonSet): CauseDraft[] {
  if (c.partial) return [];
  const nodes = c.index.nodesInNameOrder;
  // Nodes the DaemonSet skips only for want of labels, by missing key.
  const byKey = new Map<string, Node[]>();
  for (const n of nodes) {
    for (const k of missingOnlyLabels(ds, n) ?? []) {
      const list = byKey.get(k) ?? [];
      list.push(n);
      byKey.set(k, list);
    }
  }
  if (!byKey.size) return [];
  const labellers = c.index.snapshot.daemonSets.filter((d) => d !== ds && isLabeller(d));
  // Per key, once: how many nodes carry it, and their instance types.
  const typeOf = (n: Node) => n.metadata?.labels?.['node.kubernetes.io/instance-type'];
  const carrierMemo = new Map<string, { count: number; types: Set<string | undefined> }>();
  const carriers = (key: string) => {
    let info = carrierMemo.get(key);
    if (!info) {
      info = { count: 0, types: new Set() };
      for (const n of nodes) {
        if (!Object.prototype.hasOwnProperty.call(n.metadata?.labels ?? {}, key)) continue;
        info.count++;
        info.types.add(typeOf(n));
      }
      carrierMemo.set(key, info);
    }
    return info;
  };
  const carriersOf = (key: string) => carriers(key).count;
  // The keys each labeller is tied to; with none tied, a single labeller in the input is the only
  // candidate for keys no node carries.
  const tiedKeys = new Map<DaemonSet, { keys: string[]; why: string; known: boolean }>();
  for (const key of byKey.keys()) {
    const tied = labellers.map((l) => ({ l, w: labellerWrites(l, key) })).filter((x) => x.w);
    const candidates = tied.length
      ? tied
      : labellers.length === 1 && carriersOf(key) === 0
        ? [{ l: labellers[0]!, w: { strength: 'named' as const, why: 'it is the only node labeller in the input' } }]
        : [];
    for (const { l, w } of candidates) {
      const t = tiedKeys.get(l) ?? { keys: [], why: w!.why, known: w!.strength === 'known' };
      t.keys.push(key);
      tiedKeys.set(l, t);
    }
  }
  const out: CauseDraft[] = [];
  // Nodes that lack a label are meant to carry it when no node does (the 0/0 case), when they
  // carry a taint the DaemonSet tolerates by name (nodes set apart for it, as GPU nodes are), or
  // when they are of an instance type whose other nodes carry it; a CPU node lacking a GPU label
  // is not.
  const tolerated = (ds.spec?.template?.spec?.tolerations ?? [])
    .filter((t) => t.key && !SYSTEM_TAINT_KEYS.includes(t.key))
    .map((t) => t.key);
  const meantFor = (n: Node, key: string) =>
    carriersOf(key) === 0 ||
    (n.spec?.taints ?? []).some((t) => tolerated.includes(t.key)) ||
    (typeOf(n) !== undefined && carriers(key).types.has(typeOf(n)));
  const lackingSets = new Map([...byKey].map(([k, list]) => [k, new Set(list)]));
  for (const [l, { keys, why, known }] of tiedKeys) {
    const lacking = nodes.filter((n) => keys.some((k) => lackingSets.get(k)!.has(n) && meantFor(n, k)));
    if (!lacking.length) continue;
    const none = keys.every((k) => carriersOf(k) === 0);
    const labelText = `label ${keys.join(' or ')}`;
    const head = none ? `no node carries ${labelText}` : `${lacking.length} node(s) lack ${labelText}`;
    const requires = `${ds.metadata?.namespace}/${ds.metadata?.name} requires ${labelText}; ${keys.map((k) => `${carriersOf(k)} of ${nodes.length} node(s) carry ${k}`).join(', ')}`;
    const bad: { node: Node; v: NodeVerdict }[] = [];
    for (const n of lacking) {
      const v = c.verdictOn(l, n);
      if (v.verdict !== 'Healthy' && v.reasons.some((x) => x.severity !== 'info')) bad.push({ node: n, v });
    }
    if (bad.length) {
      const states = bad.map((b) => labellerState(l, b.v, b.node));
      const first = states[0]!;
      const main = bad[0]!.v.reasons.find((x) => x.severity !== 'info');
      out.push({
        code: 'LabellerNotRunning',
        severity: 'error',
        chain: [
          head,
          `${l.metadata?.name} writes it (${why})`,
          first.phrase + (first.nearMiss ? `; ${first.nearMiss}` : ''),
        ],
        nodes: bad.map((b) => b.node.metadata?.name ?? ''),
        cause: dsObject(l),
        affects: [dsRef(ds)],
        evidence: [
          requires,
          ...bad
            .slice(0, 3)
            .map(
              (b, i) =>
                `${l.metadata?.namespace}/${l.metadata?.name} on node ${b.node.metadata?.name}: ${b.v.verdict}: ${states[i]!.nearMiss ?? b.v.reasons.find((x) => x.severity !== 'info')?.message ?? ''}`,
            ),
        ],
        fix: `${tolerationPatch(l, bad[0]!.node, 'so the labeller runs there') ?? main?.fix ?? `make ${l.metadata?.name} run on those nodes`}; once it labels them, ${ds.metadata?.name} is placed there (ds-doctor why ${l.metadata?.namespace}/${l.metadata?.name} ${bad[0]!.node.metadata?.name})`,
        ...(known ? { reference: why } : {}),
      });
    } else if (none) {
      out.push({
        code: 'LabelNotWritten',
        severity: 'warning',
        chain: [head, `${l.metadata?.name} writes it (${why})`, `${l.metadata?.name} runs but no node got the label`],
        nodes: lacking.map((n) => n.metadata?.name ?? ''),
        cause: dsObject(l),
        affects: [dsRef(ds)],
        evidence: [
          requires,
          `${l.metadata?.namespace}/${l.metadata?.name} has no problem on ${nameList(lacking.map((n) => n.metadata?.name ?? ''))}`,
        ],
        fix: `read the labeller's logs (kubectl logs -n ${l.metadata?.namespace} ds/${l.metadata?.name}) and its configuration for ${keys.join(', ')}; kubectl get nodes -L ${keys[0]} shows which nodes carry it`,
      });
    }
  }
  return out;
}
