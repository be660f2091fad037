/**
 * `not-ready-toleration-missing`: a network (CNI) agent tolerates `node.kubernetes.io/not-ready:NoSchedule`.
 * Motivation: docs/semantics.md §1.9 and §2.1 — the automatic DaemonSet tolerations cover not-ready
 * only with effect NoExecute, while the node lifecycle controller (`TaintNodesByCondition`)
 * puts `not-ready:NoSchedule` on a node whose kubelet reports no network. Without the toleration
 * `NodeShouldRunDaemonPod` (pkg/controller/daemon/daemon_controller.go) says no on exactly the
 * nodes that need the CNI agent to become Ready: the deadlock `why` explains (issue 14 §5).
 */
import { daemonPodTolerations, TAINT_NOT_READY } from '../../k8s/daemonpod.js';
import { tolerationsTolerateTaint } from '../../k8s/taints.js';
import type { Taint } from '../../model/k8s-types.js';
import type { LintRule } from '../types.js';
import { hostPaths } from '../../model/roles.js';
import { findRole, POD_SPEC, podSpec, roleText, yamlBlock } from '../template.js';

const NOT_READY_NO_SCHEDULE: Taint = { key: TAINT_NOT_READY, effect: 'NoSchedule' };

/** The `not-ready-toleration-missing` rule, as the registry lists it. */
export const notReadyTolerationMissing: LintRule = {
  meta: {
    id: 'not-ready-toleration-missing',
    severity: 'error',
    description:
      'A network (CNI) agent that writes the CNI configuration (or a CNI known by its image or state directory) tolerates `node.kubernetes.io/not-ready:NoSchedule` (by key, or with a keyless `operator: Exists`); installers of plugin binaries alone are not judged.',
    rationale:
      'A node without a working pod network reports NotReady ("network plugin not ready: cni config uninitialized"), and the node lifecycle controller taints it `node.kubernetes.io/not-ready:NoSchedule`. The DaemonSet controller adds a not-ready toleration only for NoExecute, so it creates no CNI pod on that node, and the node stays NotReady for want of the CNI: a deadlock on every new node and every node whose agent was lost. Every CNI vendor tolerates it, usually with a keyless `operator: Exists`.',
    howToFix:
      'Tolerate the taint explicitly (`key: node.kubernetes.io/not-ready, operator: Exists, effect: NoSchedule`), or tolerate every taint with `operator: Exists` as CNI manifests do.',
    example:
      '# a CNI agent (hostPath /etc/cni/net.d)\nspec:\n  template:\n    spec:\n      tolerations:\n        - key: node-role.kubernetes.io/control-plane\n          effect: NoSchedule',
  },
  check(ds, ctx) {
    const found = findRole(ctx.roles(ds), 'network');
    // The node turns Ready when a CNI configuration appears in /etc/cni/net.d: only the agent that
    // writes it (or a CNI dataplane known by image or state directory) is what the node waits for;
    // an installer of a secondary plugin's binaries (/opt/cni/bin) or a network-policy dataplane is not.
    const config = hostPaths(podSpec(ds)).find((p) => /^\/etc\/cni(\/|$)/.test(p));
    const evidence = [
      ...(config ? [`hostPath ${config} (CNI configuration)`] : []),
      ...(found?.evidence ?? []).filter((e) => !/^hostPath \/(opt|etc)\/cni|pod network namespaces/.test(e)),
    ];
    if (!found || !evidence.length) return [];
    const network = { role: found.role, evidence };
    if (tolerationsTolerateTaint(daemonPodTolerations(podSpec(ds)), NOT_READY_NO_SCHEDULE)) return [];
    return [
      {
        message: `this ${roleText(network)} does not tolerate ${TAINT_NOT_READY}:NoSchedule (the automatic DaemonSet tolerations cover it only with effect NoExecute): a node that is NotReady because its network is not ready gets no pod of it, so it never becomes Ready — a deadlock on every new node`,
        path: `${POD_SPEC}.tolerations`,
        fix: `tolerate the NotReady node's taint:\n${yamlBlock({ tolerations: [{ key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoSchedule' }] })}`,
      },
    ];
  },
};
