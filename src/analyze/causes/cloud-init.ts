/**
 * Cloud initialisation: a network agent kept off a node by node.cloudprovider.kubernetes.io/
 * uninitialized waits for the cloud controller manager, whose node controller removes that taint
 * once it has initialised the node (k8s/taints.ts TAINT_EXTERNAL_CLOUD_PROVIDER). When the cloud
 * controller manager itself cannot start because the node's network is not ready (the not-ready
 * taint, kubernetes v1.18+ TaintNodesByCondition), neither ever starts; the cloud controller
 * manager is the one to let on, since it runs before anything else on a new node and the network
 * agent must not run before the node has its cloud addresses.
 */
import type { DaemonSet, Node } from '../../model/k8s-types.js';
import { compileDaemonPlacement, TAINT_NOT_READY } from '../../k8s/daemonpod.js';
import { formatTaint, TAINT_EXTERNAL_CLOUD_PROVIDER } from '../../k8s/taints.js';
import type { NodeVerdict } from '../placement/index.js';
import {
  type CauseContext,
  type CauseDraft,
  dsObject,
  dsRef,
  nameList,
  reasonPhrase,
  tolerationPatch,
} from './context.js';

/**
 * A DaemonSet that runs a cloud controller manager: its name, an image, a command or an argument
 * names one, or an argument selects a cloud provider (--cloud-provider=<name>, which only the
 * controller managers take among pods).
 */
export function isCloudControllerManager(ds: DaemonSet): boolean {
  const spec = ds.spec?.template?.spec;
  const texts = [
    ds.metadata?.name ?? '',
    ...(spec?.containers ?? []).flatMap((c) => [c.name, c.image ?? '', ...(c.command ?? []), ...(c.args ?? [])]),
  ];
  return texts.some((t) => /cloud-controller-manager/.test(t) || /^--cloud-provider=(?!external$)\S+/.test(t));
}

/** The untolerated taints that keep `ds` off `node`, when taints (alone or not) do. */
function blockingTaints(ds: DaemonSet, node: Node) {
  return compileDaemonPlacement(ds)
    .evaluate(node)
    .failures.flatMap((f) => (f.kind === 'Taint' ? f.taints : []));
}

function mainReason(v: NodeVerdict) {
  return v.reasons.find((x) => x.severity !== 'info') ?? v.reasons[0];
}

/**
 * The cause behind a network agent kept off `node` by the uninitialized taint, or undefined when
 * that taint is not among what keeps it off.
 */
export function cloudInitCause(
  c: CauseContext,
  agent: DaemonSet,
  node: Node,
  head: string,
  affects: DaemonSet[],
  symptom: string,
): CauseDraft | undefined {
  const uninit = blockingTaints(agent, node).find((t) => t.key === TAINT_EXTERNAL_CLOUD_PROVIDER);
  if (!uninit) return undefined;
  const nodeName = node.metadata?.name ?? '';
  const first = [
    head,
    `${agent.metadata?.name} has no pod there (untolerated taint ${formatTaint(uninit)})`,
    'the cloud controller manager removes that taint once it has initialised the node',
  ];
  const base = {
    code: 'CloudProviderNotInitialized' as const,
    severity: 'error' as const,
    nodes: [nodeName],
    affects: affects.map(dsRef),
  };
  // The first cloud controller manager of the input is the one named (a cluster runs one).
  const ccm = c.index.snapshot.daemonSets.find((d) => d !== agent && isCloudControllerManager(d));
  if (!ccm) {
    if (c.partial) return undefined;
    return {
      ...base,
      chain: [...first, 'no cloud controller manager DaemonSet in the input'],
      cause: { kind: 'Node', name: nodeName },
      evidence: [symptom, `node ${nodeName} has taint ${formatTaint(uninit)}`],
      fix: `find the cloud controller manager (kubectl get pods -A -o wide | grep cloud-controller-manager; it may run as a Deployment): it must run and reach the cloud to initialise node ${nodeName}, and its logs say why it has not; without one, the kubelets must not run with --cloud-provider=external`,
    };
  }
  const rows = c.rows(ccm);
  const running = rows.filter((r) => r.verdict === 'Healthy');
  const ref = `${ccm.metadata?.namespace}/${ccm.metadata?.name}`;
  if (running.length) {
    return {
      ...base,
      chain: [
        ...first,
        `${ccm.metadata?.name} runs (on ${nameList(running.map((r) => r.node))}) but has not initialised it`,
      ],
      cause: dsObject(ccm),
      evidence: [symptom, `node ${nodeName} has taint ${formatTaint(uninit)}`],
      fix: `read the cloud controller manager's logs (kubectl logs -n ${ccm.metadata?.namespace} ${running[0]!.pod?.name ?? `ds/${ccm.metadata?.name}`}): it removes the taint once it finds node ${nodeName} in the cloud; this is outside any object in the input`,
    };
  }
  // Where it would start if let on: the symptom node first, then any node only taints keep it off.
  const candidates = [node, ...c.index.snapshot.nodes.filter((n) => n !== node)];
  const target = candidates.find((n) => tolerationPatch(ccm, n, '') !== undefined);
  const v = c.verdictOn(ccm, target ?? node);
  const main = mainReason(v);
  const where = target ?? node;
  const deadlock = blockingTaints(ccm, where).some((t) => t.key === TAINT_NOT_READY);
  const patch = target
    ? tolerationPatch(
        ccm,
        target,
        deadlock
          ? 'so the cloud controller manager can start before the network is ready (it initialises the node the network agent waits for)'
          : 'so the cloud controller manager can start there',
      )
    : undefined;
  return {
    ...base,
    chain: [
      ...first,
      `${ccm.metadata?.name} has no running pod on any node (on ${where.metadata?.name}: ${main ? reasonPhrase(main) : v.verdict})`,
      ...(deadlock ? ['neither can start: each waits for the other'] : []),
    ],
    cause: dsObject(ccm),
    evidence: [
      symptom,
      `node ${nodeName} has taint ${formatTaint(uninit)}`,
      ...(main ? [`${ref} on node ${where.metadata?.name}: ${v.verdict}: ${main.code}: ${main.message}`] : []),
    ],
    fix: patch ?? main?.fix ?? `see ds-doctor why ${ref}`,
  };
}
