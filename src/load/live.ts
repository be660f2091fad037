/**
 * The live-cluster loader: what a question needs read from the cluster, and no more (the plan of
 * requests: label and field selectors, one node's worth for `why <ds> <node>`, the agents root
 * causes come from); live-lists.ts runs the requests through src/client/. Imported lazily, only
 * when no -f is given, so that the offline path never loads @kubernetes/client-node. It asks for
 * raw API JSON so that a live snapshot has exactly the shape of a dump, and only ever uses GET.
 */
import { writeFile } from 'node:fs/promises';
import yaml from 'js-yaml';
import type { DaemonSet, KubeObject } from '../model/k8s-types.js';
import { ClusterError, InputError } from '../model/errors.js';
import {
  SNAPSHOT_KINDS,
  type ClusterSnapshot,
  type LoadedSnapshot,
  type LoadRequest,
  type SnapshotKind,
} from '../model/snapshot.js';
import { CONCURRENCY, LiveLoader, PAGE, pool, type ListQuery } from './live-lists.js';
import { ApiClient, collectionPath } from '../client/api-client.js';
import type { KubeconfigOptions } from '../client/credentials.js';
import { formatSelectorForQuery } from '../client/selector-query.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { compareText } from '../model/order.js';
import { SnapshotIndex } from '../model/snapshot-index.js';
import { detectAgentRoles } from '../model/roles.js';
import { claimDaemonPods } from '../k8s/controller.js';
import { targetNodeName } from '../k8s/daemonpod.js';
import {
  currentRevision,
  LABEL_REVISION_HASH,
  LABEL_TEMPLATE_GENERATION,
  templateGenerationOf,
} from '../k8s/revision.js';

/** How to reach the cluster (the kubeconfig flags and environment), and where to report progress. */
export interface LiveOptions extends KubeconfigOptions {
  namespace?: string;
  allNamespaces: boolean;
  /** Progress lines (only wired to a terminal). */
  progress?: (text: string) => void;
}

/** Splits `ns/name` (also `daemonset/name`); the namespace defaults to the context's. */
function daemonSetTarget(arg: string, namespace: string): { namespace: string; name: string } {
  const name = arg.replace(/^(daemonsets?|ds|daemonset\.apps)\//i, '');
  if (name.includes('/')) {
    const [ns, n] = name.split('/', 2) as [string, string];
    return { namespace: ns, name: n };
  }
  return { namespace, name };
}

/**
 * `why <ds> <node>`: what one node's answer needs, and nothing that grows with the cluster.
 * Instead of every node and every pod of the DaemonSet: the node itself; the pods bound to it,
 * in all namespaces (their requests and host ports decide the fit; under a namespaced role, the
 * DaemonSet's own pods there); the DaemonSet's pods that wait for the scheduler (unbound: their
 * target node is in their affinity, which no selector can ask for); its ControllerRevisions; and
 * the warning events of the DaemonSet and of its pods for the node. When no ControllerRevision
 * names the current template, the controller's revision is read from one pod at the current
 * template generation, as the whole list would have shown it (k8s/revision.ts#currentRevision).
 */
async function loadForNode(loader: LiveLoader, ds: DaemonSet, node: string): Promise<void> {
  const namespace = ds.metadata?.namespace ?? '';
  const name = ds.metadata?.name ?? '';
  const selector = formatSelectorForQuery(ds.spec?.selector);
  const dsPods = (fieldSelector: string): ListQuery => ({
    namespace,
    ...(selector === undefined ? {} : { labelSelector: selector }),
    fieldSelector,
  });
  const tasks: (() => Promise<unknown>)[] = [
    () => loader.getNode(node),
    () =>
      loader.list('Pod', {
        fieldSelector: `spec.nodeName=${node}`,
        supplementary: `the other pods on node ${node} are not seen, so resource and host-port fit there is unchecked`,
        ...(selector === undefined ? {} : { fallback: dsPods(`spec.nodeName=${node}`) }),
      }),
    () =>
      loader.list('Event', {
        namespace,
        fieldSelector: `involvedObject.kind=DaemonSet,involvedObject.name=${name},type=Warning`,
      }),
  ];
  if (selector !== undefined) {
    tasks.push(
      () => loader.list('Pod', dsPods('spec.nodeName=')),
      () => loader.list('ControllerRevision', { namespace, labelSelector: selector }),
    );
  }
  await pool(tasks, tasks.length);

  const index = new SnapshotIndex(loader.snapshot);
  const claimed = claimDaemonPods(index, ds).pods;
  if (selector !== undefined && !loader.snapshot.missing.some((m) => m.kind === 'Event')) {
    const forNode = claimed.filter((p) => targetNodeName(p) === node);
    await pool(
      forNode.map(
        (p) => () =>
          loader.list('Event', {
            namespace,
            fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${p.metadata?.name ?? ''},type=Warning`,
          }),
      ),
      CONCURRENCY,
    );
  }
  const revision = currentRevision(ds, index.revisionsFor(ds), claimed);
  const generation = templateGenerationOf(ds)?.generation;
  if (selector !== undefined && revision.source !== 'revision' && revision.source !== 'pods') {
    const atGeneration =
      generation === undefined
        ? []
        : await loader.list('Pod', {
            namespace,
            labelSelector: `${selector},${LABEL_TEMPLATE_GENERATION}=${generation},${LABEL_REVISION_HASH}`,
            sample: 1,
          });
    // Whether the DaemonSet has pods at all decides whether an unknown revision is worth a note.
    if (!claimed.length && !atGeneration.length)
      await loader.list('Pod', { namespace, labelSelector: selector, sample: 1 });
  }
}

/**
 * The DaemonSets that problems of the ones asked about may come from, in every namespace: the
 * network (CNI) agent and node labellers (model/roles.ts), with their pods. One list of
 * DaemonSets and one list of pods per such agent, whatever the cluster's size; a role that may
 * not list DaemonSets at cluster scope goes without, with a note.
 */
async function loadCauseAgents(loader: LiveLoader, asked: DaemonSet[]): Promise<void> {
  const known = new Set(asked.map((d) => `${d.metadata?.namespace}/${d.metadata?.name}`));
  const agents = (await loader.list('DaemonSet', {
    supplementary:
      'the network agent and node labellers outside the namespaces read are not seen, so root causes in them are not linked',
    keep: (d) =>
      !known.has(`${d.metadata?.namespace}/${d.metadata?.name}`) &&
      detectAgentRoles(d).some((r) => r.role === 'network' || r.role === 'labeller'),
  })) as DaemonSet[];
  await pool(
    agents.flatMap((d) => {
      const selector = formatSelectorForQuery(d.spec?.selector);
      return selector === undefined
        ? []
        : [() => loader.list('Pod', { namespace: d.metadata?.namespace ?? '', labelSelector: selector })];
    }),
    CONCURRENCY,
  );
}

/**
 * Reads what `request` needs from the cluster of the current (or given) kubeconfig context.
 */
export async function loadLive(request: LoadRequest, opts: LiveOptions): Promise<LoadedSnapshot> {
  const api = await ApiClient.fromKubeconfig(opts);
  const defaultNamespace = opts.namespace ?? api.contextNamespace;
  const loader = new LiveLoader(api, opts.progress);

  // 1. The DaemonSets in question.
  if (request.daemonSet) {
    const t = daemonSetTarget(request.daemonSet, defaultNamespace);
    try {
      await loader.getDaemonSet(t.namespace, t.name);
    } catch (err) {
      // A DaemonSet that does not exist yet is what plan creates.
      if (!(request.daemonSetOptional && err instanceof InputError)) throw err;
    }
  } else {
    const selector = request.daemonSetSelector ? { labelSelector: request.daemonSetSelector } : {};
    await loader.list('DaemonSet', opts.allNamespaces ? selector : { namespace: defaultNamespace, ...selector });
  }
  // As loaded: shape-checked (src/load/shape.ts), without the ones that have no name.
  const daemonSets: DaemonSet[] = loader.snapshot.daemonSets;
  if (request.nodeScoped && request.node && daemonSets.length === 1) {
    await loadForNode(loader, daemonSets[0]!, request.node);
    loader.markRead('Pod');
    return { snapshot: loader.finish(), defaultNamespace };
  }

  // 2. Nodes (a cached list is fine), and each DaemonSet's pods, revisions and warning events.
  const namespaces = [...new Set(daemonSets.map((d) => d.metadata?.namespace ?? ''))].sort();
  const tasks: (() => Promise<unknown>)[] = [() => loader.list('Node', { cached: true })];
  for (const ds of daemonSets) {
    const selector = formatSelectorForQuery(ds.spec?.selector);
    if (selector === undefined) continue;
    const namespace = ds.metadata?.namespace ?? '';
    if (!request.everyPod) tasks.push(() => loader.list('Pod', { namespace, labelSelector: selector }));
    if (request.kinds.includes('ControllerRevision'))
      tasks.push(() => loader.list('ControllerRevision', { namespace, labelSelector: selector }));
  }
  if (request.kinds.includes('Event')) {
    for (const namespace of namespaces)
      tasks.push(() => loader.list('Event', { namespace, fieldSelector: 'type=Warning' }));
  }
  // Every pod at once: one paginated list, not one per node.
  if (request.everyPod) tasks.push(() => loader.list('Pod', {}));
  if (request.node && !request.everyPod) {
    tasks.push(() =>
      loader.list('Pod', {
        fieldSelector: `spec.nodeName=${request.node}`,
        supplementary: `the other pods on node ${request.node} are not seen, so resource and host-port fit there is unchecked`,
      }),
    );
  }
  for (const kind of request.kinds) {
    if (kind === 'Event' || kind === 'ControllerRevision' || kind === 'Pod' || kind === 'Node' || kind === 'DaemonSet')
      continue;
    const namespaced = SNAPSHOT_KINDS[kind].namespaced;
    if (namespaced && !opts.allNamespaces && namespaces.length === 1)
      tasks.push(() => loader.list(kind, { namespace: namespaces[0]! }));
    else tasks.push(() => loader.list(kind, { cached: true }));
  }
  await pool(tasks, CONCURRENCY);
  // Every DaemonSet's pods (and requested revisions and events) were listed above, also when
  // there were none to list for: the analysis saw all there is, not a missing kind.
  loader.markRead('Pod');
  for (const kind of ['Event', 'ControllerRevision'] as const) if (request.kinds.includes(kind)) loader.markRead(kind);
  // With every namespace read, the agents and their pods are in already.
  if (request.causeAgents && !(opts.allNamespaces && !request.daemonSet && !request.daemonSetSelector))
    await loadCauseAgents(loader, daemonSets);

  // 3. The other pods on nodes where a daemon pod waits for the scheduler: their requests and
  //    host ports decide the fit. Bounded by the number of pending pods, not by the cluster size.
  if (request.allPods && !request.everyPod) {
    const pendingNodes = new Set<string>();
    for (const p of loader.snapshot.pods) {
      if (p.spec?.nodeName) continue;
      const pin =
        p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
          ?.matchFields?.[0]?.values?.[0];
      if (pin && pin !== request.node) pendingNodes.add(pin);
    }
    const nodes = [...pendingNodes].sort().slice(0, 50);
    if (pendingNodes.size > nodes.length) {
      loader.snapshot.warnings.push(
        `${pendingNodes.size} nodes have pending daemon pods; the other pods of only the first ${nodes.length} were read`,
      );
    }
    await pool(
      nodes.map(
        (n) => () =>
          loader.list('Pod', {
            fieldSelector: `spec.nodeName=${n}`,
            supplementary: `the other pods on node ${n} are not seen, so resource and host-port fit there is unchecked`,
          }),
      ),
      CONCURRENCY,
    );
  }
  return { snapshot: loader.finish(), defaultNamespace };
}

/** Writes a snapshot as multi-document YAML that `-f` reads back. */
export async function writeDump(snapshot: ClusterSnapshot, file: string): Promise<void> {
  const docs: string[] = [];
  for (const [kind, meta] of Object.entries(SNAPSHOT_KINDS) as [
    SnapshotKind,
    (typeof SNAPSHOT_KINDS)[SnapshotKind],
  ][]) {
    const objects = snapshot[meta.field] as KubeObject[];
    for (const obj of objects) docs.push(yaml.dump(obj, { noRefs: true, lineWidth: -1, sortKeys: false }));
    // A kind that was read and found empty is written as an empty list, so that reading the dump
    // back tells "none" from "not read".
    if (!objects.length && !snapshot.missing.some((m) => m.kind === kind)) {
      docs.push(
        yaml.dump({
          apiVersion: meta.group ? `${meta.group}/${meta.version}` : meta.version,
          kind: `${kind}List`,
          items: [],
        }),
      );
    }
  }
  try {
    await writeFile(file, docs.length ? `---\n${docs.join('---\n')}` : '');
  } catch (err) {
    throw new InputError(
      `--dump ${file}: cannot write: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** A named object as shell completion offers it. */
export interface ObjectName {
  namespace?: string;
  name: string;
}

/**
 * The names of one kind, for shell completion: a single cached list request (at most one page),
 * in one namespace or the whole cluster. Errors are the caller's to swallow.
 */
export async function listNames(
  kind: 'DaemonSet' | 'Node' | 'Namespace',
  opts: KubeconfigOptions & { namespace?: string },
): Promise<ObjectName[]> {
  const api = await ApiClient.fromKubeconfig(opts);
  const page = (await api.get(collectionPath(kind, opts.namespace), { limit: String(PAGE), resourceVersion: '0' })) as {
    items?: KubeObject[];
  };
  return (page.items ?? [])
    .map((o) => ({
      ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
      name: o.metadata?.name ?? '',
    }))
    .filter((o) => o.name !== '');
}

/** The names of the kubeconfig's contexts, sorted (`--all-contexts`); a kubeconfig without any is an error (exit 3). */
export function kubeconfigContextNames(opts: KubeconfigOptions): string[] {
  const names = loadKubeconfig(opts)
    .kc.getContexts()
    .map((c) => c.name);
  if (!names.length) throw new ClusterError('--all-contexts: the kubeconfig has no contexts');
  return names.sort(compareText);
}
