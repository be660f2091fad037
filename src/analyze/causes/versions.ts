/**
 * Known upstream bugs by version: the cluster's version (the control plane's, else the
 * kubelets', from `status.nodeInfo.kubeletVersion`) against a small cited table of DaemonSet
 * controller bugs, each with its affected range, the release that fixed it, and the symptom that
 * must be present before it is named. A hint, never a verdict.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import { updateStrategyType } from '../../k8s/defaults.js';
import type { RolloutDiagnosis } from '../../model/results.js';
import { type CauseContext, type CauseDraft, dsObject, dsRef } from './context.js';

type Version = [number, number, number];

/** "v1.14.3-eks-1", "v1.8.0+coreos.0" → [1, 14, 3]; undefined when not a Kubernetes version. */
export function parseKubeVersion(text: string | undefined): Version | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function below(v: Version, fixed: Version): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== fixed[i]) return v[i]! < fixed[i]!;
  return false;
}

const CONTROL_PLANE = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/** The cluster version a dump shows: the oldest control-plane kubelet, else the oldest kubelet. */
export function clusterVersion(nodes: readonly Node[]): { version: Version; text: string; source: string } | undefined {
  const pick = (list: readonly Node[], source: string) => {
    let best: { version: Version; text: string; source: string } | undefined;
    for (const n of list) {
      const text = n.status?.nodeInfo?.kubeletVersion;
      const v = parseKubeVersion(text);
      if (v && (!best || below(v, best.version)))
        best = { version: v, text: text!, source: `${source} ${n.metadata?.name}` };
    }
    return best;
  };
  const cp = nodes.filter((n) => CONTROL_PLANE.some((k) => n.metadata?.labels?.[k] !== undefined));
  return pick(cp, 'kubelet of control-plane node') ?? pick(nodes, 'kubelet of node');
}

interface KnownBug {
  id: string;
  fixed: Version;
  title: string;
  reference: string;
  /** The symptom, as a sentence, when the snapshot shows it. */
  symptom: (ds: DaemonSet, rollout: RolloutDiagnosis) => string | undefined;
  fix: string;
}

const BUGS: KnownBug[] = [
  {
    id: 'kubernetes#77203',
    fixed: [1, 15, 0],
    title:
      'with minReadySeconds, the controller never re-checks a Ready pod, so .status.numberAvailable stays stale and kubectl rollout status waits forever',
    reference: 'kubernetes/kubernetes#77203 (duplicate of #53023), fixed by #77208 in v1.15.0 (CHANGELOG-1.15.md)',
    symptom: (ds, r) => {
      const s = ds.status;
      if (!s || !(ds.spec?.minReadySeconds ?? 0)) return undefined;
      const stale = (s.numberAvailable ?? 0) < (s.numberReady ?? 0) && r.available > (s.numberAvailable ?? 0);
      return stale
        ? `minReadySeconds ${ds.spec?.minReadySeconds}; .status says ${s.numberAvailable ?? 0} available of ${s.numberReady ?? 0} ready, the pods say ${r.available}`
        : undefined;
    },
    fix: 'upgrade the control plane to v1.15.0 or later; meanwhile any change to the DaemonSet (an annotation) makes the controller recount',
  },
  {
    id: 'kubernetes#77773',
    fixed: [1, 15, 0],
    title: 'a rolling update hangs when one of its pods is stuck terminating',
    reference:
      'kubernetes/kubernetes#77773, fixed in v1.15.0 (CHANGELOG-1.15.md: "Fixed a bug that caused a DaemonSet rolling update to hang when its pod gets stuck at terminating")',
    symptom: (_ds, r) =>
      r.verdict === 'Stuck' && r.budgetInUse.some((u) => u.code === 'PodTerminating')
        ? 'the rollout is stuck and a pod of it is stuck terminating'
        : undefined,
    fix: 'upgrade the control plane to v1.15.0 or later; meanwhile force-delete the pod stuck terminating (kubectl delete pod --grace-period=0 --force)',
  },
];

export function versionCauses(c: CauseContext, ds: DaemonSet): CauseDraft[] {
  const version = clusterVersion(c.index.snapshot.nodes);
  const out: CauseDraft[] = [];
  if (version) {
    const rollout = c.rollout(ds);
    for (const bug of BUGS) {
      if (!below(version.version, bug.fixed)) continue;
      const symptom = bug.symptom(ds, rollout);
      if (!symptom) continue;
      out.push({
        code: 'KnownUpstreamBug',
        severity: 'warning',
        chain: [symptom, `cluster ${version.text} has ${bug.id}: ${bug.title}`],
        nodes: [],
        cause: { kind: 'Cluster', name: version.text },
        affects: [dsRef(ds)],
        evidence: [`version ${version.text} (${version.source}), below the fixed v${bug.fixed.join('.')}`, symptom],
        fix: bug.fix,
        reference: bug.reference,
      });
    }
  }
  const legacy = legacyOnDelete(ds, version?.version);
  if (legacy) {
    out.push({
      code: 'LegacyOnDeleteDefault',
      severity: 'info',
      chain: [`updateStrategy OnDelete`, legacy],
      nodes: [],
      cause: dsObject(ds),
      affects: [dsRef(ds)],
      evidence: [legacy],
      fix: `set the strategy explicitly if a template change should roll on its own: spec.updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}`,
      reference:
        'extensions/v1beta1 defaulted DaemonSet updateStrategy to OnDelete; apps/v1 defaults it to RollingUpdate',
    });
  }
  return out;
}

/** Why the OnDelete strategy probably comes from the extensions/v1beta1 default, or undefined. */
function legacyOnDelete(ds: DaemonSet, version: Version | undefined): string | undefined {
  if (updateStrategyType(ds) !== 'OnDelete') return undefined;
  const applied = ds.metadata?.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
  let appliedObj: { apiVersion?: string; spec?: { updateStrategy?: unknown } } | undefined;
  try {
    appliedObj = applied ? (JSON.parse(applied) as typeof appliedObj) : undefined;
  } catch {
    appliedObj = undefined;
  }
  if (appliedObj?.apiVersion === 'extensions/v1beta1' && !appliedObj.spec?.updateStrategy)
    return 'it was applied as extensions/v1beta1 without a strategy, whose default was OnDelete';
  const selfLink = (ds.metadata as { selfLink?: string } | undefined)?.selfLink;
  if (selfLink?.startsWith('/apis/extensions/v1beta1/'))
    return 'it was read through extensions/v1beta1, whose default strategy was OnDelete';
  if (appliedObj && !appliedObj.spec?.updateStrategy && version && below(version, [1, 16, 0]))
    return `it was applied without a strategy on a v${version.join('.')} cluster, where extensions/v1beta1 (default OnDelete) was still served`;
  return undefined;
}
