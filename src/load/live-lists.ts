/**
 * The live source's requests, run: a kind listed page by page (`limit` and the server's `continue`
 * token, as client-go's tools/pager ListPager reads a list), or one object got by name, each item
 * given its kind and apiVersion and put through the loader's object stage (stage.ts) once. A
 * refusal (403, 404, 405) of a kind the analysis can go without is recorded as a missing kind with
 * a note; of a required kind it is fatal (exit 3). What to read for a question is live.ts's.
 */
import type { DaemonSet, KubeObject } from '../model/k8s-types.js';
import { ClusterError, InputError } from '../model/errors.js';
import { emptySnapshot, SNAPSHOT_KINDS, type ClusterSnapshot, type SnapshotKind } from '../model/snapshot.js';
import { ObjectStage } from './stage.js';
import { collectionPath, type ApiClient } from '../client/api-client.js';
import { ApiError, ReadTimeout, oneLineServerText } from '../client/api-errors.js';

/** Kinds an analysis cannot do without: a refusal is fatal (exit 3). */
const REQUIRED: ReadonlySet<SnapshotKind> = new Set(['DaemonSet', 'Node', 'Pod']);

/** Items per page of a list. */
export const PAGE = 500;
/** Requests in flight at once. */
export const CONCURRENCY = 4;

/** Runs tasks with at most `limit` in flight. */
export async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
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

/** One list to read: where, with which selectors, and what to do when it is refused. */
export interface ListQuery {
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

/** The snapshot a live load builds, and the lists and gets that fill it. */
export class LiveLoader {
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
        page = await this.api.getList(collectionPath(kind, query.namespace), params);
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
        `${collectionPath('DaemonSet', namespace)}/${encodeURIComponent(name)}`,
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
      const node = (await this.api.get(`${collectionPath('Node')}/${encodeURIComponent(name)}`, {})) as KubeObject;
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
