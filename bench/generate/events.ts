/**
 * The events of a generated cluster (test/kube's makeEvent), gathered while its objects are made
 * and written last.
 */
import { type BuiltEvent, finishEvents, makeEvent } from '../../test/kube/api-events.js';
import { Versions } from '../../test/kube/versions.js';
import { type Gen, HEX, type Obj } from './random.js';

/** The object an event is about (a pod, its container, a node). */
export interface Involved {
  apiVersion?: string;
  kind: string;
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** Gathers core/v1 Events as the classic recorder writes them (source, count, first/lastTimestamp). */
export class EventLog {
  private readonly built: BuiltEvent[] = [];
  private readonly versions = new Versions(0);
  constructor(private readonly g: Gen) {}

  /** An event about `involved`, `count` times (ten minutes apart, up to an hour), the last `ago` seconds before NOW, from `source`. */
  add(
    involved: Involved,
    reason: string,
    message: string,
    type: string,
    count: number,
    ago: number,
    source: string,
  ): void {
    const { r, rv } = this.g;
    const { apiVersion, kind, name, namespace, uid, resourceVersion, fieldPath } = involved;
    this.built.push(
      makeEvent(
        {
          object: { apiVersion, kind, metadata: { name, namespace, uid } },
          reason,
          message,
          component: source,
          firstAgo: ago + 600 * Math.min(count, 6),
          lastAgo: ago,
          count,
          type,
          fieldPath,
          involvedResourceVersion: resourceVersion,
          name: `${name}.${r.chars(HEX, 16)}`,
          resourceVersion: rv(),
          uid: r.uid(),
        },
        this.versions,
      ),
    );
  }

  /** The events gathered, in the order they happened to be made. */
  events(): Obj[] {
    finishEvents(this.built);
    return this.built as unknown as Obj[];
  }
}
