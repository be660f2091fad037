/**
 * The live loader's side of a watch: an object of a list or a watch made what the loader holds
 * (its object stage), and `RolloutWatch`, which follows one DaemonSet's rollout for
 * `rollout --watch` with the reflector of client/watch.ts (one list-then-watch per kind it needs) and lays
 * what is watched over the first load's snapshot.
 */
import type { DaemonSet, KubeObject, LabelSelector } from '../model/k8s-types.js';
import type { ClusterError } from '../model/errors.js';
import { emptySnapshot, SNAPSHOT_KINDS, type ClusterSnapshot, type SnapshotKind } from '../model/snapshot.js';
import { selectorMatches } from '../k8s/labels.js';
import { ObjectStage } from './stage.js';
import { ApiClient } from '../client/api-client.js';
import type { KubeconfigOptions } from '../client/credentials.js';
import { formatSelectorForQuery } from '../client/selector-query.js';
import { ListWatch, type WatchHooks, type WatchQuery } from '../client/watch.js';

/**
 * An object of a list or a watch as the file loader would hold it: kind and apiVersion set,
 * pruned, its shape checked (fields of the wrong type dropped). Undefined for an object without a
 * name, which the loader skips too.
 */
export function normalizeWatched(kind: SnapshotKind, raw: Record<string, unknown>): KubeObject | undefined {
  const m = SNAPSHOT_KINDS[kind];
  const { apiVersion: _v, kind: _k, ...fields } = raw;
  const scratch = emptySnapshot('live');
  // The live loader's stage (stage.ts): pruned, shape-checked, never slimmed.
  new ObjectStage(scratch, { share: false }, false).add({
    apiVersion: m.group ? `${m.group}/${m.version}` : m.version,
    kind,
    ...fields,
  });
  return (scratch[m.field] as KubeObject[])[0];
}

/**
 * Follows one DaemonSet's rollout: the DaemonSet itself (by name), its pods and
 * ControllerRevisions (its selector, in its namespace) and every node. `snapshot()` lays the
 * current objects over the snapshot of the first full load, whose other kinds (events,
 * webhooks, namespaces, the pods of other controllers) stay as they were read.
 */
export class RolloutWatch {
  readonly watches: ListWatch[];
  private readonly selector: LabelSelector | undefined;

  private constructor(
    private readonly base: ClusterSnapshot,
    private readonly ds: DaemonSet,
    watches: ListWatch[],
  ) {
    this.watches = watches;
    this.selector = ds.spec?.selector;
  }

  /** Makes the client for a watch: no limit on all reads together, since a watch lasts. */
  static async connect(
    base: ClusterSnapshot,
    ds: DaemonSet,
    opts: KubeconfigOptions,
    hooks: WatchHooks,
  ): Promise<RolloutWatch> {
    const api = await ApiClient.fromKubeconfig({ ...opts, totalTimeoutMs: 0 });
    const namespace = ds.metadata?.namespace ?? '';
    const selector = formatSelectorForQuery(ds.spec?.selector);
    const queries: WatchQuery[] = [
      { kind: 'DaemonSet', namespace, fieldSelector: `metadata.name=${ds.metadata?.name ?? ''}` },
      { kind: 'Node' },
      ...(selector === undefined
        ? []
        : [
            { kind: 'Pod', namespace, labelSelector: selector } as const,
            { kind: 'ControllerRevision', namespace, labelSelector: selector } as const,
          ]),
    ];
    return new RolloutWatch(
      base,
      ds,
      queries.map((q) => new ListWatch(api, q, hooks, normalizeWatched)),
    );
  }

  /** Lists every query once (together), so that the first answer is of one moment. */
  async list(): Promise<void> {
    await Promise.all(this.watches.map((w) => w.list()));
  }

  /** Watches every query until `signal` aborts; rejects with the first refusal. */
  run(signal: AbortSignal): Promise<void> {
    return Promise.all(this.watches.map((w) => w.run(signal))).then(() => undefined);
  }

  /** The DaemonSet as last seen, or undefined once it is deleted. */
  daemonSet(): DaemonSet | undefined {
    return [...this.watches[0]!.store.objects.values()][0];
  }

  /** The connection error every reconnect is failing with, if the watch is down. */
  down(): ClusterError | undefined {
    return this.watches.find((w) => w.lastError)?.lastError;
  }

  /** Whether a watch query covers an object of the first load (it is then replaced by the watched copies). */
  private covered(kind: SnapshotKind, obj: KubeObject): boolean {
    const ns = this.ds.metadata?.namespace;
    if (kind === 'Node') return true;
    if (kind === 'DaemonSet') return obj.metadata?.namespace === ns && obj.metadata?.name === this.ds.metadata?.name;
    if (kind === 'Pod' || kind === 'ControllerRevision')
      return (
        obj.metadata?.namespace === ns &&
        this.selector !== undefined &&
        selectorMatches(this.selector, obj.metadata?.labels ?? {})
      );
    return false;
  }

  /** The snapshot to analyse now: the first load with the watched kinds as they are now. */
  snapshot(): ClusterSnapshot {
    const out: ClusterSnapshot = { ...this.base, warnings: [...this.base.warnings] };
    for (const w of this.watches) {
      const field = SNAPSHOT_KINDS[w.query.kind].field;
      const kept = (this.base[field] as KubeObject[]).filter((o) => !this.covered(w.query.kind, o));
      (out[field] as KubeObject[]) = [...kept, ...w.store.objects.values()];
    }
    return out;
  }
}
