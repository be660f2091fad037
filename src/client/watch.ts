/**
 * Following objects with the API server's watch, as client-go's reflector does
 * (tools/cache/reflector.go#ListAndWatch, watchHandler): list once, watch from the list's
 * resourceVersion (with bookmarks, so that a quiet watch still advances it), re-list when the
 * server answers 410 Gone (the version is older than its history), and reconnect from the last
 * version seen when the stream ends or the connection breaks (an API server restart). Only GET is
 * used: list and watch, the verbs of the reader role. This module is a source of objects and
 * nothing else: what an object is made into before it is stored is the caller's transform (as
 * client-go's informers take a TransformFunc), and what the objects mean is the caller's too.
 */
import type { KubeObject } from '../model/k8s-types.js';
import { ClusterError } from '../model/errors.js';
import { SNAPSHOT_KINDS, type SnapshotKind } from '../model/snapshot.js';
import { collectionPath, type ApiClient } from './api-client.js';
import { ApiError, oneLineServerText } from './api-errors.js';

/** The objects of one list, by `namespace/name`, and the resourceVersion a watch resumes from. */
export interface WatchStore {
  kind: SnapshotKind;
  objects: Map<string, KubeObject>;
  resourceVersion: string;
}

/** What one watch event did to a store. */
export type Applied =
  | { effect: 'changed' }
  | { effect: 'unchanged' }
  /** 410 Gone: the resourceVersion is too old; the list must be read again. */
  | { effect: 'relist'; message: string }
  /** Another ERROR event: the watch ends and is made again from the last version. */
  | { effect: 'error'; message: string };

const PAGE = 500;

/** The key of an object in a store. */
export function objectKey(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/**
 * Makes an object of a list or a watch (its items come without kind and apiVersion) what a store
 * holds, or undefined to skip it (client-go's cache.TransformFunc).
 */
export type WatchTransform = (kind: SnapshotKind, raw: Record<string, unknown>) => KubeObject | undefined;

/**
 * Applies one watch event (`{type, object}`) to a store, as the reflector's watchHandler does:
 * ADDED and MODIFIED put the object, DELETED removes it, BOOKMARK only advances the
 * resourceVersion, and ERROR carries a Status whose code 410 means "re-list". An event of a
 * type it does not know is ignored. Each object is made what the store holds by `transform`.
 */
export function handleWatchEvent(
  store: WatchStore,
  event: Record<string, unknown>,
  transform: WatchTransform,
): Applied {
  const type = event['type'];
  const object = event['object'] as Record<string, unknown> | undefined;
  if (!object || typeof object !== 'object') return { effect: 'unchanged' };
  const rv = (object['metadata'] as { resourceVersion?: unknown } | undefined)?.resourceVersion;
  if (type === 'ERROR') {
    const code = object['code'];
    const text = [object['message'], object['reason']].find((t): t is string => typeof t === 'string' && t !== '');
    const message = oneLineServerText(text ?? 'an error event without a message');
    return code === 410 || object['reason'] === 'Expired' || object['reason'] === 'Gone'
      ? { effect: 'relist', message }
      : { effect: 'error', message };
  }
  if (typeof rv === 'string' && rv) store.resourceVersion = rv;
  if (type === 'BOOKMARK') return { effect: 'unchanged' };
  if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return { effect: 'unchanged' };
  const obj = transform(store.kind, object);
  if (!obj) return { effect: 'unchanged' };
  const key = objectKey(obj);
  const held = store.objects.get(key);
  if (type === 'DELETED') return store.objects.delete(key) ? { effect: 'changed' } : { effect: 'unchanged' };
  if (
    held &&
    held.metadata?.resourceVersion !== undefined &&
    held.metadata.resourceVersion === obj.metadata?.resourceVersion
  )
    return { effect: 'unchanged' };
  store.objects.set(key, obj);
  return { effect: 'changed' };
}

/** One list to follow: a kind, a namespace and selectors, as the live loader lists it. */
export interface WatchQuery {
  kind: SnapshotKind;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** What a follower reports to its owner. */
export interface WatchHooks {
  /** The store of `kind` changed (an event or a new list). */
  changed(kind: SnapshotKind): void;
  /** A note for stderr: the stream broke and is being made again, a re-list after 410. */
  note(text: string): void;
}

/** How long to wait before reconnecting after the n-th failure in a row (client-go backs off from 800ms to 30s). */
export function reconnectDelayMs(failures: number): number {
  return Math.min(30_000, 800 * 2 ** Math.max(0, failures - 1));
}

/** Silence after which a watch's connection is taken as dead: the server sends a bookmark about every minute. */
const IDLE_MS = 5 * 60_000;

/**
 * Lists and then watches one query until `signal` aborts; the store always holds the current
 * objects. A refusal (401, 403, 404) ends it with that error; anything else is retried.
 */
export class ListWatch {
  readonly store: WatchStore;
  /** The last connection error while reconnecting, cleared by a working watch. */
  lastError: ClusterError | undefined;
  /** How many times the stream was made again, and the list read again after 410. */
  reconnects = 0;
  relists = 0;

  constructor(
    private readonly api: ApiClient,
    readonly query: WatchQuery,
    private readonly hooks: WatchHooks,
    private readonly transform: WatchTransform,
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void> = abortableSleep,
  ) {
    this.store = { kind: query.kind, objects: new Map(), resourceVersion: '' };
  }

  private what(): string {
    const m = SNAPSHOT_KINDS[this.query.kind];
    return `${m.plural}${this.query.namespace && m.namespaced ? ` in ${this.query.namespace}` : ''}`;
  }

  /** Reads every page of the list into the store (replacing what it held). */
  async list(): Promise<void> {
    const objects = new Map<string, KubeObject>();
    let cont: string | undefined;
    let rv = '';
    do {
      const params: Record<string, string> = { limit: String(PAGE) };
      if (this.query.labelSelector) params['labelSelector'] = this.query.labelSelector;
      if (this.query.fieldSelector) params['fieldSelector'] = this.query.fieldSelector;
      if (cont) params['continue'] = cont;
      const page = await this.api.getList(collectionPath(this.query.kind, this.query.namespace), params);
      for (const item of page.items) {
        const obj = this.transform(this.query.kind, item);
        if (obj) objects.set(objectKey(obj), obj);
      }
      rv = page.resourceVersion ?? rv;
      cont = page.continue;
    } while (cont);
    this.store.objects = objects;
    this.store.resourceVersion = rv;
  }

  /** Watches until `signal` aborts, re-listing and reconnecting as needed. */
  async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    let needList = this.store.resourceVersion === '';
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.list();
          needList = false;
          this.hooks.changed(this.query.kind);
        }
        let relist: string | undefined;
        let ended: string | undefined;
        const params: Record<string, string> = {
          allowWatchBookmarks: 'true',
          resourceVersion: this.store.resourceVersion,
          timeoutSeconds: String(300 + Math.floor(Math.random() * 300)),
        };
        if (this.query.labelSelector) params['labelSelector'] = this.query.labelSelector;
        if (this.query.fieldSelector) params['fieldSelector'] = this.query.fieldSelector;
        const inner = new AbortController();
        const opened = Date.now();
        let events = 0;
        const stop = () => inner.abort();
        signal.addEventListener('abort', stop, { once: true });
        try {
          await this.api.watchStream(
            collectionPath(this.query.kind, this.query.namespace),
            params,
            (event) => {
              if (relist !== undefined || ended !== undefined) return;
              events++;
              const applied = handleWatchEvent(this.store, event, this.transform);
              // The first event proves the connection works again.
              failures = 0;
              this.lastError = undefined;
              if (applied.effect === 'changed') this.hooks.changed(this.query.kind);
              else if (applied.effect === 'relist') relist = applied.message;
              else if (applied.effect === 'error') ended = applied.message;
              if (relist !== undefined || ended !== undefined) inner.abort();
            },
            { signal: inner.signal, idleMs: IDLE_MS },
          );
        } finally {
          signal.removeEventListener('abort', stop);
        }
        if (signal.aborted) return;
        if (relist !== undefined) {
          this.relists++;
          this.hooks.note(`note: the watch of ${this.what()} is too old (${relist}): listing again`);
          needList = true;
        } else if (ended !== undefined) {
          this.hooks.note(`note: the watch of ${this.what()} ended with an error (${ended}): watching again`);
          failures++;
          await this.sleep(reconnectDelayMs(failures), signal);
        }
        // A stream the server ended (its timeoutSeconds) is made again at once, from the last
        // version; one that ends as soon as it opens, with nothing in it, only after a pause.
        else if (!events && Date.now() - opened < 1000) {
          failures++;
          await this.sleep(reconnectDelayMs(failures), signal);
        }
        this.reconnects++;
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof ApiError && err.status === 410) {
          this.relists++;
          this.hooks.note(`note: the watch of ${this.what()} is too old (410 Gone): listing again`);
          needList = true;
          continue;
        }
        // A refusal does not go away by asking again.
        if (err instanceof ApiError && [401, 403, 404, 405].includes(err.status)) throw err;
        if (!(err instanceof ClusterError)) throw err;
        failures++;
        if (failures === 1 || !this.lastError)
          this.hooks.note(`note: the watch of ${this.what()} broke (${err.message}); reconnecting`);
        this.lastError = err;
        this.reconnects++;
        await this.sleep(reconnectDelayMs(failures), signal);
      }
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
