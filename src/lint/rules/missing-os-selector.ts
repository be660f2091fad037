/**
 * `missing-os-selector`: in a cluster of several operating systems or architectures, the
 * DaemonSet selects the ones its images support.
 * Motivation: Linux-only DaemonSets landing on Windows nodes (flannel #1459, kubernetes #94366,
 * amazon-cloudwatch-container-insights #14, kuberhealthy #546); peer-tools §14 item 10. The
 * DaemonSet guide's manifest selects `kubernetes.io/os: linux`.
 */
import type { Node } from '../../model/k8s-types.js';
import type { LintContext, LintRule, RuleFinding } from '../types.js';
import { nodesUnavailable } from '../context.js';
import { POD_SPEC, yamlBlock } from '../template.js';
import { compareText } from '../../model/order.js';

function osOf(node: Node): string | undefined {
  const labels = node.metadata?.labels ?? {};
  return labels['kubernetes.io/os'] ?? labels['beta.kubernetes.io/os'] ?? node.status?.nodeInfo?.['operatingSystem'];
}

function archOf(node: Node): string | undefined {
  const labels = node.metadata?.labels ?? {};
  return labels['kubernetes.io/arch'] ?? labels['beta.kubernetes.io/arch'] ?? node.status?.nodeInfo?.['architecture'];
}

/** Node counts per value, e.g. linux → 7, windows → 2; nodes without the label are left out. */
function countBy(nodes: Node[], of: (n: Node) => string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of nodes) {
    const v = of(n);
    if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return new Map([...counts.entries()].sort(([a, x], [b, y]) => y - x || compareText(a, b)));
}

function countText(counts: Map<string, number>): string {
  return [...counts.entries()].map(([v, n]) => `${n} ${v}`).join(', ');
}

function homogeneous(ctx: LintContext): string | undefined {
  const nodes = ctx.index.snapshot.nodes;
  const os = countBy(nodes, osOf);
  const arch = countBy(nodes, archOf);
  if (os.size > 1 || arch.size > 1) return undefined;
  return `all ${nodes.length} node(s) of the input are ${[...os.keys()][0] ?? 'unlabelled'}/${[...arch.keys()][0] ?? 'unlabelled'}: there is nothing to select between`;
}

/** The `missing-os-selector` rule, as the registry lists it. */
export const missingOsSelector: LintRule = {
  meta: {
    id: 'missing-os-selector',
    severity: 'warning',
    severityNote: 'info for mixed architectures, since multi-arch images are common',
    description:
      "When the cluster has nodes of several operating systems (or architectures), the DaemonSet's placement covers only one of them.",
    rationale:
      'A DaemonSet without an OS constraint creates a pod on every Windows node too; a Linux image there never starts (ImagePullBackOff or CrashLoopBackOff), the DaemonSet is never fully available and its rollouts stall. Mixed architectures need every image to be multi-arch.',
    howToFix:
      'Add `nodeSelector: {kubernetes.io/os: linux}` (and `kubernetes.io/arch` when an image is single-architecture).',
    example:
      '# nodes: 5 linux, 2 windows\nspec:\n  template:\n    spec:\n      nodeSelector: {}   # lands on the Windows nodes too',
    needsCluster: 'Nodes of more than one kubernetes.io/os or kubernetes.io/arch',
  },
  notChecked: (ctx) => nodesUnavailable(ctx) ?? homogeneous(ctx),
  check(ds, ctx) {
    const nodes = ctx.targetNodes(ds);
    const out: RuleFinding[] = [];
    const os = countBy(nodes, osOf);
    const arch = countBy(nodes, archOf);
    const path = `${POD_SPEC}.nodeSelector`;
    if (os.size > 1) {
      const main = os.has('linux') ? 'linux' : [...os.keys()][0]!;
      out.push({
        message: `the DaemonSet would run on nodes of ${os.size} operating systems (${countText(os)}): an image built for one never starts on the others`,
        path,
        fix: `select the operating system its images are built for:\n${yamlBlock({ nodeSelector: { 'kubernetes.io/os': main } })}`,
      });
    }
    if (arch.size > 1) {
      out.push({
        severity: 'info',
        message: `the DaemonSet would run on nodes of ${arch.size} architectures (${countText(arch)}): every image must be multi-arch`,
        path,
        fix: `check the images' manifests (docker manifest inspect), or select one architecture:\n${yamlBlock({ nodeSelector: { 'kubernetes.io/arch': [...arch.keys()][0]! } })}`,
      });
    }
    return out;
  },
};
