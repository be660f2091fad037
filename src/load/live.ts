/**
 * The live-cluster loader. Imported lazily, only when no -f is given, so that the offline path
 * never loads @kubernetes/client-node. It lists what the question needs and no more (label and
 * field selectors, pagination, bounded concurrency), asks for raw API JSON so that a live snapshot
 * has exactly the shape of a dump, and only ever uses GET.
 */
import { writeFile } from 'node:fs/promises';
import yaml from 'js-yaml';
import type { DaemonSet, KubeObject } from '../model/k8s-types.js';
import { ClusterError, InputError } from '../model/errors.js';
import {
  emptySnapshot,
  SNAPSHOT_KINDS,
  type ClusterSnapshot,
  type LoadedSnapshot,
  type LoadRequest,
  type SnapshotKind,
} from '../model/snapshot.js';
import { ObjectStage } from './stage.js';
import { ApiClient } from '../client/api-client.js';
import { ApiError, ReadTimeout, oneLineServerText } from '../client/api-errors.js';
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

/** Kinds an analysis cannot do without: a refusal is fatal (exit 3). */
const REQUIRED: ReadonlySet<SnapshotKind> = new Set(['DaemonSet', 'Node', 'Pod']);

const PAGE = 500;
const CONCURRENCY = 4;

/** Runs tasks with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

function listPath(kind: SnapshotKind, namespace?: string): string {
  const m = SNAPSHOT_KINDS[kind];
  const base = m.group ? `/apis/${m.group}/${m.version}` : `/api/${m.version}`;
  return m.namespaced && namespace
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${m.plural}`
    : `${base}/${m.plural}`;
}

interface ListQuery {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  cached?: boolean;
  /** Why the list is wanted, when the analysis can go on without it (a 403 is then a note). */
  supplementary?: string;
  /** The narrower list to read instead when this supplementary one is refused (403). */
  fallback?: ListQuery;
  /** Read only the first page, of at most this many items (a sample, not the whole list). */
  sample?: number;
  /** Keep only the items this accepts (the rest are read and dropped, never analysed or dumped). */
  keep?: (item: KubeObject) => boolean;
}

/** "listing pods in namespace "logging" with app=fluent-bit", for a list that went wrong. */
function listing(kind: SnapshotKind, query: ListQuery): string {
  const m = SNAPSHOT_KINDS[kind];
  const where = !m.namespaced ? '' : query.namespace ? ` in namespace "${query.namespace}"` : ' in all namespaces';
  const selectors = [query.labelSelector, query.fieldSelector].filter(Boolean).map((s) => oneLineServerText(s!, 120));
  return `listing ${m.plural}${where}${selectors.length ? ` with ${selectors.join(',')}` : ''}`;
}

class LiveLoader {
  readonly snapshot: ClusterSnapshot = emptySnapshot('live');
  /** The loader's object stage (stage.ts): pruned, checked, shared, added; never slimmed. */
  private readonly stage = new ObjectStage(this.snapshot, {}, false);
  private readonly seen = new Set<string>();
  private readonly listed = new Set<SnapshotKind>();
  requests = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly progress?: (text: string) => void,
  ) {}

  private add(kind: SnapshotKind, items: KubeObject[]): void {
    const m = SNAPSHOT_KINDS[kind];
    const apiVersion = m.group ? `${m.group}/${m.version}` : m.version;
    for (const listed of items) {
      // Items of a list come without kind/apiVersion; a dump from `kubectl get -o yaml` has them,
      // first, and (like kubectl and the file loader) without managedFields.
      const { apiVersion: _v, kind: _k, ...fields } = listed;
      const item: KubeObject = { apiVersion, kind, ...fields };
      const key = `${kind}/${item.metadata?.namespace ?? ''}/${item.metadata?.name ?? ''}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.stage.add(item);
    }
  }

  /** Records a refused optional kind, or throws for a required one. */
  private refused(kind: SnapshotKind, err: ApiError, namespace?: string): void {
    const where = namespace ? ` in namespace "${namespace}"` : ' at cluster scope';
    const detail = `${err.status === 403 ? 'forbidden' : `error ${err.status}`}: cannot list ${SNAPSHOT_KINDS[kind].plural}${where}`;
    if (REQUIRED.has(kind)) {
      // Only a refusal by RBAC is helped by the role; another status is the server's own fault.
      if (err.status !== 403) throw err;
      throw new ClusterError(
        `${err.message} (ds-doctor needs "list ${SNAPSHOT_KINDS[kind].plural}"${where}; see the ds-doctor-reader ClusterRole in the README)`,
      );
    }
    if (!this.snapshot.missing.some((m) => m.kind === kind)) {
      this.snapshot.missing.push({ kind, reason: err.status === 403 ? 'forbidden' : 'error', detail });
      this.snapshot.warnings.push(`${detail}: ${kind} objects are not available to the analysis`);
    }
  }

  /** Lists a kind (all pages), optionally namespaced and filtered. */
  async list(kind: SnapshotKind, query: ListQuery = {}): Promise<KubeObject[]> {
    const items: KubeObject[] = [];
    try {
      items.push(...(await this.allPages(kind, query)));
    } catch (err) {
      if (err instanceof ApiError && err.status === 403 && query.supplementary) {
        // Extra context (e.g. the other pods on a node) that a namespaced role may not grant:
        // the analysis goes on without it and says what it could not check.
        this.snapshot.warnings.push(
          `forbidden: cannot list ${SNAPSHOT_KINDS[kind].plural}${query.fieldSelector ? ` with ${query.fieldSelector}` : ''} at cluster scope: ${query.supplementary}`,
        );
        return query.fallback ? this.list(kind, query.fallback) : [];
      }
      if (err instanceof ApiError && (err.status === 403 || err.status === 404 || err.status === 405)) {
        this.refused(kind, err, query.namespace);
        return [];
      }
      throw err;
    }
    this.listed.add(kind);
    const kept = query.keep ? items.filter(query.keep) : items;
    this.add(kind, kept);
    return kept;
  }

  /**
   * Reads every page of a list. A server that hands back a continue token it gave before would
   * make this loop forever: that is an error naming the list, as is running out of
   * --request-timeout after the first page.
   */
  private async allPages(kind: SnapshotKind, query: ListQuery): Promise<KubeObject[]> {
    const items: KubeObject[] = [];
    const tokens = new Set<string>();
    let cont: string | undefined;
    let pages = 0;
    do {
      const params: Record<string, string> = { limit: String(query.sample ?? PAGE) };
      if (query.labelSelector) params['labelSelector'] = query.labelSelector;
      if (query.fieldSelector) params['fieldSelector'] = query.fieldSelector;
      if (cont) params['continue'] = cont;
      else if (query.cached) params['resourceVersion'] = '0';
      this.requests++;
      let page: { items: KubeObject[]; continue?: string };
      try {
        page = await this.api.getList(listPath(kind, query.namespace), params);
      } catch (err) {
        if (err instanceof ReadTimeout && pages > 0)
          throw new ClusterError(
            `${listing(kind, query)} did not end: ${err.message} (${pages} page${pages === 1 ? '' : 's'} read)`,
          );
        throw err;
      }
      pages++;
      items.push(...page.items);
      cont = query.sample === undefined ? page.continue : undefined;
      if (cont !== undefined && tokens.has(cont)) {
        throw new ClusterError(
          `${listing(kind, query)} did not end: the server repeated continue token after ${pages} pages`,
        );
      }
      if (cont !== undefined) tokens.add(cont);
      this.progress?.(
        `read ${items.length} ${SNAPSHOT_KINDS[kind].plural}${query.namespace ? ` in ${query.namespace}` : ''}`,
      );
    } while (cont);
    return items;
  }

  /** Gets one DaemonSet; a 404 is "not found" (exit 2), a 403 is fatal (exit 3). */
  async getDaemonSet(namespace: string, name: string): Promise<DaemonSet> {
    try {
      this.requests++;
      const ds = (await this.api.get(
        `${listPath('DaemonSet', namespace)}/${encodeURIComponent(name)}`,
        {},
      )) as DaemonSet;
      this.listed.add('DaemonSet');
      this.add('DaemonSet', [ds]);
      return ds;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && err.kubernetesStatus) {
        throw new InputError(`daemonset "${name}" not found in namespace "${namespace}"`);
      }
      throw err;
    }
  }

  /**
   * Gets one node. A 404 lists every node instead (one cached request), so that "not found"
   * suggests the names there are, as it does for a dump; a 403 is fatal (exit 3).
   */
  async getNode(name: string): Promise<void> {
    try {
      this.requests++;
      const node = (await this.api.get(`${listPath('Node')}/${encodeURIComponent(name)}`, {})) as KubeObject;
      this.listed.add('Node');
      this.add('Node', [node]);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && err.kubernetesStatus) {
        await this.list('Node', { cached: true });
        return;
      }
      if (err instanceof ApiError && err.status === 403) {
        throw new ClusterError(
          `${err.message} (ds-doctor needs "get nodes"; see the ds-doctor-reader ClusterRole in the README)`,
        );
      }
      throw err;
    }
  }

  /**
   * Counts a kind as read although no request was needed: e.g. the pods and events of the
   * DaemonSets in scope when there are none. Not when it was refused.
   */
  markRead(kind: SnapshotKind): void {
    if (!this.snapshot.missing.some((m) => m.kind === kind)) this.listed.add(kind);
  }

  finish(): ClusterSnapshot {
    for (const kind of Object.keys(SNAPSHOT_KINDS) as SnapshotKind[]) {
      if (!this.listed.has(kind) && !this.snapshot.missing.some((m) => m.kind === kind)) {
        this.snapshot.missing.push({ kind, reason: 'absent', detail: 'not needed for this question, so not read' });
      }
    }
    return this.stage.finish();
  }
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
  const page = (await api.get(listPath(kind, opts.namespace), { limit: String(PAGE), resourceVersion: '0' })) as {
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
