/**
 * resourceVersions handed out in the order objects were last written, as etcd revisions increase.
 */
import { byKey, type Listed } from './fields.js';
import { sha } from './ids.js';

/**
 * Hands out resourceVersions: every object is registered with the time of its last
 * write; versions then increase with that time, like etcd revisions do.
 */
export class Versions {
  private readonly entries: { obj: Listed; lastWriteAgo: number }[] = [];
  constructor(private readonly start: number) {}

  /** Registers `obj`, last written `lastWriteAgo` seconds before NOW; returns it. */
  add<T extends Listed>(obj: T, lastWriteAgo: number): T {
    this.entries.push({ obj, lastWriteAgo });
    return obj;
  }

  /** Assigns versions; returns the list resourceVersion (greater than all of them). */
  assign() {
    const sorted = [...this.entries].sort((a, b) => b.lastWriteAgo - a.lastWriteAgo || byKey(a.obj, b.obj));
    let rv = this.start;
    for (const e of sorted) {
      rv +=
        1 +
        (parseInt(sha(`rv/${e.obj.kind}/${e.obj.metadata?.namespace}/${e.obj.metadata?.name}`).slice(0, 4), 16) % 97);
      e.obj.metadata!.resourceVersion = String(rv);
    }
    return String(rv + 17);
  }
}
