/**
 * `csi-node-taints-not-tolerated`: a CSI node plugin tolerates the taints of the nodes whose pods
 * mount its volumes.
 * Motivation: issue 39 (CSI node plugins published without tolerations). A pod that tolerates a
 * node's taint is scheduled there whatever the CSI plugin does: the scheduler does not wait for
 * the node plugin. The kubelet then mounts the pod's volume through the driver's socket, which
 * only a running node plugin registers (kubernetes v1.35.4
 * pkg/volume/csi/csi_client.go#newCsiDriverClient: "driver name … not found in the list of
 * registered CSI drivers"), so the pod stays ContainerCreating. The DaemonSet controller tolerates
 * only the node-lifecycle taints by itself (docs/semantics.md §2.1), so any other taint keeps the
 * plugin off the node. CSI vendors tolerate every taint (`operator: Exists`) for this reason.
 * A Secrets Store CSI provider is judged the same way: the secrets-store node plugin (which
 * tolerates every taint in kubernetes-sigs/secrets-store-csi-driver deploy/) dials the provider's
 * socket on its own node at every mount, so a provider kept off a tainted node fails the mounts
 * there (FailedMount) although the CSI driver itself runs.
 */
import { daemonPodTolerations } from '../../k8s/daemonpod.js';
import { tolerationsTolerateTaint, formatToleration } from '../../k8s/taints.js';
import type { Taint } from '../../model/k8s-types.js';
import type { LintRule } from '../types.js';
import { findRole, POD_SPEC, podSpec, roleText, yamlBlock } from '../template.js';

/** A taint no manifest can know in advance: what a cluster uses to dedicate nodes. */
const CUSTOM_TAINT: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

/** The `csi-node-taints-not-tolerated` rule, as the registry lists it. */
export const csiNodeTaintsNotTolerated: LintRule = {
  meta: {
    id: 'csi-node-taints-not-tolerated',
    severity: 'warning',
    description:
      'A CSI node plugin (node-driver-registrar, or a kubelet plugin directory mounted), or a Secrets Store CSI provider (the secrets-store provider directory mounted), tolerates custom NoSchedule taints, usually with a keyless `operator: Exists`, so that it runs wherever pods that use its volumes can run.',
    rationale:
      'Pods that tolerate a node\'s taint are scheduled there whether or not the CSI node plugin runs there. The kubelet mounts their volumes through the driver\'s socket, which only the node plugin registers, so without it they stay ContainerCreating ("driver name … not found in the list of registered CSI drivers"). The DaemonSet controller adds only the node-lifecycle tolerations; a plugin that tolerates nothing else skips every dedicated or tainted node. CSI vendors tolerate every taint for this reason. The secrets-store CSI node plugin fetches secrets through the provider socket on its own node, so a provider that skips tainted nodes fails their mounts the same way.',
    howToFix:
      'Tolerate every taint (`tolerations: [{operator: Exists}]`), as CSI vendors do, or at least every NoSchedule taint (`{operator: Exists, effect: NoSchedule}`).',
    example:
      '# a CSI node plugin (node-driver-registrar sidecar)\nspec:\n  template:\n    spec:\n      tolerations: []   # pods on tainted nodes cannot mount its volumes',
  },
  check(ds, ctx) {
    const storage = findRole(ctx.roles(ds), 'storage', 'secrets-store-provider');
    // Strong evidence only: the registrar sidecar, a kubelet plugin directory, a CSIDriver it serves,
    // the secrets-store provider directory; not an image name.
    if (!storage || storage.evidence.every((e) => e.startsWith('image '))) return [];
    const spec = podSpec(ds);
    if (tolerationsTolerateTaint(daemonPodTolerations(spec), CUSTOM_TAINT)) return [];
    const own = (spec.tolerations ?? []).map(formatToleration);
    const evidence = { role: storage.role, evidence: storage.evidence.filter((e) => !e.startsWith('image ')) };
    const provider = storage.role === 'secrets-store-provider';
    const harm = provider
      ? 'yet pods that tolerate the taint are scheduled there, and the secrets-store CSI node plugin, which tolerates every taint, finds no provider socket to fetch their secrets from (FailedMount)'
      : 'yet pods that tolerate the taint are scheduled there and cannot mount its volumes (the kubelet: driver name not found in the list of registered CSI drivers)';
    return [
      {
        message: `this ${roleText(evidence)} tolerates ${own.length ? `only ${own.join(', ')}` : 'no taint'} besides the node-lifecycle ones the controller adds: on a node with any other NoSchedule taint (e.g. dedicated=gpu:NoSchedule) it does not run, ${harm}`,
        path: `${POD_SPEC}.tolerations`,
        fix: `tolerate every taint, as ${provider ? 'the secrets-store CSI node plugin does' : 'CSI node plugins do'}:\n${yamlBlock({ tolerations: [...(spec.tolerations ?? []), { operator: 'Exists' }] })}`,
      },
    ];
  },
};
