/**
 * A node attribute that splits failing from healthy nodes exactly: every node where the
 * DaemonSet's bound pod fails has a value of the attribute that no node with a healthy pod has.
 * Said plainly, with what such a split usually means (an image without that architecture, a
 * driver, a kernel feature). Failures caused by the node itself (NotReady, the network) do not
 * count: the node explains those.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import type { NodeVerdict } from '../placement/index.js';
import { type CauseContext, type CauseDraft, dsObject, dsRef, failsByItself, nameList, podFailure } from './context.js';

const POOL_LABELS = [
  'eks.amazonaws.com/nodegroup',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool',
  'agentpool',
  'karpenter.sh/nodepool',
  'node.kubernetes.io/pool',
  'alpha.eksctl.io/nodegroup-name',
];

interface Attribute {
  name: string;
  /** Where the value comes from, for the evidence. */
  source: string;
  value: (n: Node) => string | undefined;
  /** What a split by this attribute usually means. */
  meaning: (values: string[], images: string[]) => string;
  /** A split of one failing node counts (the attribute is coarse: few values per cluster). */
  coarse: boolean;
}

function label(n: Node, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = n.metadata?.labels?.[k];
    if (v) return v;
  }
  return undefined;
}

const ATTRIBUTES: Attribute[] = [
  {
    name: 'architecture',
    source: 'label kubernetes.io/arch / status.nodeInfo.architecture',
    value: (n) => label(n, 'kubernetes.io/arch', 'beta.kubernetes.io/arch') ?? n.status?.nodeInfo?.architecture,
    meaning: (v, images) =>
      `the image has no ${v.join('/')} build, or runs a binary built for another architecture ("exec format error" in the logs confirms it): check its platforms (docker manifest inspect ${images[0] ?? 'IMAGE'}) and use a multi-arch image, or keep the DaemonSet off ${v.join('/')} nodes with a kubernetes.io/arch nodeSelector`,
    coarse: true,
  },
  {
    name: 'operating system',
    source: 'label kubernetes.io/os / status.nodeInfo.operatingSystem',
    value: (n) => label(n, 'kubernetes.io/os', 'beta.kubernetes.io/os') ?? n.status?.nodeInfo?.operatingSystem,
    meaning: (v) =>
      `the image is not built for ${v.join('/')}: add a kubernetes.io/os nodeSelector, or ship an image for that OS`,
    coarse: true,
  },
  {
    name: 'instance type',
    source: 'label node.kubernetes.io/instance-type',
    value: (n) => label(n, 'node.kubernetes.io/instance-type', 'beta.kubernetes.io/instance-type'),
    meaning: (v) =>
      `those machines (${v.join(', ')}) differ in hardware or drivers from the healthy ones: compare a failing pod's logs with a healthy one's`,
    coarse: false,
  },
  {
    name: 'node pool',
    source: `label ${POOL_LABELS.join(' / ')}`,
    value: (n) => label(n, ...POOL_LABELS),
    meaning: (v) =>
      `the pool (${v.join(', ')}) is set up differently (image, kernel, drivers, taints or labels): compare its node template with a healthy pool's`,
    coarse: false,
  },
  {
    name: 'kernel',
    source: 'status.nodeInfo.kernelVersion',
    value: (n) => n.status?.nodeInfo?.kernelVersion,
    meaning: (v) =>
      `a kernel feature or module the agent needs (eBPF, a module, a cgroup controller) differs on kernel ${v.join(', ')}: read the failing pod's logs for the missing feature`,
    coarse: false,
  },
  {
    name: 'OS image',
    source: 'status.nodeInfo.osImage',
    value: (n) => n.status?.nodeInfo?.osImage,
    meaning: (v) =>
      `the OS image (${v.join(', ')}) differs: host paths, kernel modules or the cgroup version the agent expects`,
    coarse: false,
  },
  {
    name: 'container runtime',
    source: 'status.nodeInfo.containerRuntimeVersion',
    value: (n) => n.status?.nodeInfo?.containerRuntimeVersion,
    meaning: (v) =>
      `the container runtime (${v.join(', ')}) differs: its socket path, cgroup driver or a runtime feature the agent uses`,
    coarse: false,
  },
  {
    name: 'kubelet version',
    source: 'status.nodeInfo.kubeletVersion',
    value: (n) => n.status?.nodeInfo?.kubeletVersion,
    meaning: (v) => `the kubelet (${v.join(', ')}) differs: an API, a feature gate or a path the pod relies on`,
    coarse: false,
  },
];

export function attributeCauses(c: CauseContext, ds: DaemonSet, rows: NodeVerdict[]): CauseDraft[] {
  if (c.partial) return [];
  const failing: Node[] = [];
  const healthy: Node[] = [];
  for (const r of rows) {
    const node = c.index.nodesByName.get(r.node);
    if (!node) continue;
    if (r.verdict === 'Healthy') healthy.push(node);
    else if (failsByItself(c, r)) failing.push(node);
  }
  if (!failing.length || !healthy.length) return [];
  const images = [...(ds.spec?.template?.spec?.containers ?? [])].map((x) => x.image ?? '').filter(Boolean);
  for (const a of ATTRIBUTES) {
    const bad = failing.map(a.value);
    if (bad.some((v) => !v)) continue;
    const badSet = new Set(bad as string[]);
    if (healthy.some((n) => badSet.has(a.value(n) ?? '\0'))) continue;
    if (healthy.every((n) => !a.value(n))) continue;
    // One failing node, or each failing node a value of its own, splits by accident unless the
    // attribute is coarse (architecture, OS) and the healthy side is not a single node either.
    if (!a.coarse && (failing.length < 2 || badSet.size === failing.length)) continue;
    if (a.coarse && failing.length < 2 && healthy.length < 2) continue;
    const values = [...badSet].sort();
    const goodValues = [...new Set(healthy.map(a.value).filter((v): v is string => Boolean(v)))].sort();
    const names = failing.map((n) => n.metadata?.name ?? '');
    const failingRow = rows.find((r) => r.node === names[0]);
    const mainReason = failingRow && podFailure(failingRow);
    const execFormat = rows.some(
      (r) =>
        names.includes(r.node) &&
        r.reasons.some((x) => /exec format error/i.test([x.message, ...x.evidence].join(' '))),
    );
    return [
      {
        code: 'NodeAttributeSplit',
        severity: a.coarse ? 'error' : 'warning',
        chain: [
          `pods fail on exactly the ${a.name} ${values.join(', ')} node(s) and run on ${goodValues.join(', ')}`,
          a.meaning(values, images).split(':')[0]!,
        ],
        nodes: names,
        cause: dsObject(ds),
        affects: [dsRef(ds)],
        evidence: [
          `failing on ${failing.length} node(s) (${nameList(names)}), all ${a.name} ${values.join(', ')} (${a.source})`,
          `healthy on ${healthy.length} node(s), ${a.name} ${goodValues.join(', ')}`,
          ...(mainReason ? [`node ${names[0]}: ${mainReason.code}: ${mainReason.message}`] : []),
          ...(execFormat ? ['"exec format error": the binary is for another architecture'] : []),
        ],
        fix: a.meaning(values, images),
      },
    ];
  }
  return [];
}
