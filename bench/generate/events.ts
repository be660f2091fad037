/**
 * The events of a generated cluster, gathered while its objects are made and written last.
 */
import { at } from '../../test/kube/time.js';
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
  readonly events: Obj[] = [];
  constructor(private readonly g: Gen) {}

  /** An event about `involved`, `count` times, the last `ago` seconds before NOW, from `source`. */
  add(involved: Involved, reason: string, message: string, type: string, count: number, ago: number, source: string): void {
    const { r, rv } = this.g;
    this.events.push({
      apiVersion: 'v1',
      count,
      firstTimestamp: at(ago + 600 * Math.min(count, 6)),
      involvedObject: involved as unknown as Obj,
      kind: 'Event',
      lastTimestamp: at(ago),
      message,
      metadata: { creationTimestamp: at(ago + 600), name: `${involved.name}.${r.chars(HEX, 16)}`, namespace: String(involved.namespace), resourceVersion: rv(), uid: r.uid() },
      reason,
      reportingComponent: source,
      reportingInstance: '',
      source: { component: source },
      type,
    });
  }
}
