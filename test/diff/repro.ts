/**
 * Reproductions: a scenario as YAML a person can read and apply (the objects in creation order,
 * with the kubelet plans and node changes as comments), renaming a scenario, and cutting it down
 * to the DaemonSet and nodes of a disagreement.
 */
import yaml from 'js-yaml';
import type { KubeObject } from '../../src/model/k8s-types.js';
import { stampConditions } from './generate.js';
import type { KubeletPlan, NodeChange, Scenario } from './scenario.js';

function doc(obj: KubeObject, comment?: string): string {
  return `${comment ? `# ${comment}\n` : ''}${yaml.dump(obj, { noRefs: true, lineWidth: -1, sortKeys: false })}`;
}

function planText(p: KubeletPlan): string {
  const extra = Object.entries(p.nodes).map(([n, s]) => `${n}: ${s}`);
  return `${p.default}${extra.length ? ` (except ${extra.join(', ')})` : ''}`;
}

export function changeText(c: NodeChange): string {
  switch (c.kind) {
    case 'stop-heartbeat':
      return `node ${c.node}: stop renewing its Lease (the lifecycle controller marks it Ready=Unknown)`;
    case 'condition':
      return `node ${c.node}: status condition ${c.condition.type}=${c.condition.status} (${c.condition.reason})`;
    case 'cordon':
      return `node ${c.node}: spec.unschedulable=${c.unschedulable}`;
    case 'add-taint':
      return `node ${c.node}: add taint ${c.taint.key}${c.taint.value ? `=${c.taint.value}` : ''}:${c.taint.effect}`;
    case 'remove-taint':
      return `node ${c.node}: remove taint ${c.key}:${c.effect}`;
    case 'label':
      return `node ${c.node}: label ${c.key}=${c.value ?? '(removed)'}`;
  }
}

/** The scenario as multi-document YAML with the runner's steps in comments. */
export function scenarioYaml(s: Scenario): string {
  const head = [
    `# ds-doctor differential scenario ${s.id} (seed ${s.seed}, index ${s.index}, ${s.kind})`,
    `# reproduce: npm run test:diff -- --seed ${s.seed} --only ${s.index} --kind ${s.kind}`,
    '# steps: create the objects below in order (nodes with status, via POST); renew the Leases of nodes',
    '# marked "heartbeat"; set the other pods\' phases; create the DaemonSets; wait until settled; the',
    '# simulated kubelet reports each bound daemon pod on a Ready, heartbeating node as planned:',
    ...s.daemonSets.map(
      (d) => `#   ${d.object.metadata?.namespace}/${d.object.metadata?.name}: ${planText(d.kubelet)}`,
    ),
    ...(s.changes.length
      ? ['# then, after settling, these node changes:', ...s.changes.map((c) => `#   ${changeText(c)}`)]
      : []),
    ...(s.rollout
      ? [
          `# then the template of ${s.daemonSets[s.rollout.daemonSet]?.object.metadata?.name} changes: ${s.rollout.change}`,
          `#   new pods: ${planText(s.rollout.kubelet)}`,
        ]
      : []),
    ...(s.change
      ? [
          `# then \`ds-doctor plan -f change.yaml --cluster-dump dump.yaml -o json\` (and live), and the change is applied: ${s.change.text}`,
          '#   new pods: ready whenever bound',
        ]
      : []),
    `# features: ${s.features.join(' ')}`,
  ].join('\n');
  const docs = [
    ...s.namespaces.map((n) => doc(n)),
    ...s.quotas.map((q) => doc(q)),
    ...s.limitRanges.map((l) => doc(l)),
    ...s.nodes.map((n) =>
      doc(stampConditions(n.object), n.heartbeat ? 'heartbeat: Lease renewed every second' : 'no heartbeat: no Lease'),
    ),
    ...s.others.map((o) => doc(o.object, `phase reported: ${o.phase}`)),
    ...s.daemonSets.map((d) => doc(d.object)),
    ...(s.change
      ? [
          doc(
            s.change.manifest,
            s.change.kind === 'create'
              ? 'the change (change.yaml): a new DaemonSet'
              : 'the change (change.yaml): replaces the template, strategy and metadata of the DaemonSet above',
          ),
        ]
      : []),
    ...(s.rollout
      ? [
          doc(
            {
              apiVersion: 'apps/v1',
              kind: 'DaemonSet',
              metadata: s.daemonSets[s.rollout.daemonSet]!.object.metadata!,
              spec: { ...s.daemonSets[s.rollout.daemonSet]!.object.spec, template: s.rollout.template },
            },
            'the template change (replaces spec.template of the DaemonSet above)',
          ),
        ]
      : []),
  ];
  return `${head}\n---\n${docs.join('---\n')}`;
}

/** The same scenario under another id (every object name carries the id as prefix). */
export function renameScenario(s: Scenario, id: string): Scenario {
  const text = JSON.stringify(s).split(`"${s.id}-`).join(`"${id}-`).split(`"${s.id}"`).join(`"${id}"`);
  return JSON.parse(text) as Scenario;
}

/**
 * The scenario cut down to one DaemonSet (or all of them) and some nodes, with the other pods
 * and node changes of those nodes only.
 */
export function reduceScenario(s: Scenario, keepDaemonSet: string | undefined, nodes: string[], id: string): Scenario {
  const keep = new Set(nodes);
  const dsIndex = s.daemonSets.findIndex(
    (d) => `${d.object.metadata?.namespace}/${d.object.metadata?.name}` === keepDaemonSet,
  );
  const daemonSets = keepDaemonSet && dsIndex >= 0 ? [s.daemonSets[dsIndex]!] : s.daemonSets;
  const dsNamespaces = new Set(daemonSets.map((d) => d.object.metadata?.namespace));
  const reduced: Scenario = {
    ...s,
    nodes: s.nodes.filter((n) => keep.has(n.object.metadata!.name!)),
    others: s.others.filter((o) => keep.has(o.object.spec?.nodeName ?? '')),
    changes: s.changes.filter((c) => keep.has(c.node)),
    daemonSets,
    namespaces: s.namespaces.filter((n) => n.metadata?.name === `${s.id}-o` || dsNamespaces.has(n.metadata?.name)),
    quotas: s.quotas.filter((q) => dsNamespaces.has(q.metadata?.namespace)),
    limitRanges: s.limitRanges.filter((l) => dsNamespaces.has(l.metadata?.namespace)),
  };
  if (s.rollout && daemonSets.length === 1) reduced.rollout = { ...s.rollout, daemonSet: 0 };
  return renameScenario(reduced, id);
}
