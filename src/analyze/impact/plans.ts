/** Safer alternatives to the delete, with the commands to run and their caveats. */
import type { ImpactPlan } from '../../model/results.js';
import { formatLabelSelector } from '../../k8s/labels.js';
import { nodeReadyStatus } from '../../k8s/podhealth.js';
import { othersOn, plural, type Analysis } from './analysis.js';
import { freshGeneration, generationCounts } from './deletion.js';
import { compareText } from '../../model/order.js';

/**
 * The node to take the DaemonSet off first: a Ready worker (never a control-plane node) where
 * the fewest other pods run, then by name.
 */
function canaryNode(a: Analysis): string {
  const others = othersOn(a, a.nodes);
  const score = (n: string): number[] => {
    const node = a.index.nodesByName.get(n);
    const labels = node?.metadata?.labels ?? {};
    const controlPlane =
      'node-role.kubernetes.io/control-plane' in labels || 'node-role.kubernetes.io/master' in labels;
    return [controlPlane ? 1 : 0, nodeReadyStatus(node) === 'True' ? 0 : 1, others.get(n)?.length ?? 0];
  };
  const ranked = a.nodes
    .map((n) => ({ n, s: score(n) }))
    .sort((x, y) => x.s[0]! - y.s[0]! || x.s[1]! - y.s[1]! || x.s[2]! - y.s[2]! || compareText(x.n, y.n));
  return ranked[0]?.n ?? '<node>';
}

function labelSafe(name: string): string {
  return name
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .slice(0, 63)
    .replace(/[^A-Za-z0-9]+$/, '');
}

const ON_DELETE_PATCH = `'{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}'`;

export function plans(a: Analysis): ImpactPlan[] {
  const out: ImpactPlan[] = [];
  const target = `daemonset -n ${a.ns} ${a.name}`;
  for (const w of a.failClosed) {
    out.push({
      summary: `Relax admission webhook "${w.webhook}" first: with failurePolicy Ignore the API keeps admitting requests while its pods are gone`,
      commands: [
        `kubectl patch ${w.kind} ${w.config} --type json -p '[{"op":"replace","path":"/webhooks/${w.index}/failurePolicy","value":"Ignore"}]'`,
      ],
      caveats: ['while it is Ignore, requests it would have rejected or changed go through unchecked'],
    });
  }
  const fresh = freshGeneration(a);
  const gens = generationCounts(a.live);
  out.push({
    summary:
      a.cascade === 'orphan'
        ? `Save the manifest first, so that a re-created DaemonSet adopts the orphaned pods (by selector ${formatLabelSelector(a.ds.spec?.selector)}) and manages them again`
        : `Orphan, then re-create: --cascade=orphan keeps all ${plural(a.live.length, 'pod')} running; a new DaemonSet with the same selector (${formatLabelSelector(a.ds.spec?.selector)}) adopts them and rolls them onto its template under its update strategy`,
    commands: [
      `kubectl get ${target} -o json | jq 'del(.metadata.uid, .metadata.resourceVersion, .metadata.creationTimestamp, .metadata.generation, .metadata.managedFields, .status) | .metadata.annotations["deprecated.daemonset.template.generation"] = "${fresh}"' > ${a.name}.json`,
      `kubectl delete ${target} --cascade=orphan`,
      `kubectl create -f ${a.name}.json`,
    ],
    caveats: [
      `the pod-template-generation quirk: an adopted pod counts as updated when its pod-template-generation equals the new DaemonSet's template generation (1 for a fresh one, else its deprecated.daemonset.template.generation annotation) even if its template differs, and is never rolled${gens.size ? ` (the pods carry ${[...gens.keys()].join(', ')})` : ''}; the annotation "${fresh}" set above matches no pod, so the revision hash decides`,
      'until the new DaemonSet exists, nothing replaces a deleted pod, nodes that join get none, and kubectl drain refuses the pods without --force',
      'adopted pods on nodes the new DaemonSet does not select are deleted at once',
    ],
  });
  const canary = canaryNode(a);
  const label = `ds-doctor/${labelSafe(a.name)}`;
  out.push({
    summary: `Narrow the nodeSelector to take it off a canary pool first: remove it from ${canary} only, watch what breaks there, then widen`,
    commands: [
      `kubectl patch ${target} --type merge -p ${ON_DELETE_PATCH}`,
      `kubectl label nodes --all ${label}=keep`,
      `kubectl label node ${canary} ${label}-`,
      `kubectl patch ${target} --type merge -p '{"spec":{"template":{"spec":{"nodeSelector":{"${label}":"keep"}}}}}'`,
    ],
    caveats: [
      `the controller deletes the pod on ${canary} as soon as the node no longer matches; OnDelete first keeps the template change from restarting the pods on every other node`,
      `nodes that join later lack the label and get no pod until labelled; undo with kubectl label node ${canary} ${label}=keep`,
    ],
  });
  const first = a.live.find((p) => p.spec?.nodeName === canary);
  out.push({
    summary:
      'Switch to OnDelete and replace pods node by node instead of deleting: a template change then reaches a node only when you delete its pod, so you choose the order and stop at the first failure',
    commands: [
      `kubectl patch ${target} --type merge -p ${ON_DELETE_PATCH}`,
      `kubectl delete pod -n ${a.ns} ${first?.metadata?.name ?? '<pod>'}`,
    ],
    caveats: [
      'the controller re-creates every pod you delete from the current template: this replaces or upgrades the agent, it does not remove it',
    ],
  });
  return out;
}
