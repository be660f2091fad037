/**
 * Packing and unpacking the per-node cells of an HTML report (the format is described in
 * data.ts). Pure code without a runtime import: the renderer packs with it in Node.js and the
 * page unpacks with it in the browser.
 */
import type { EventSummary, NodeRow, PodSummary, Reason, RootCause, Verdict } from '../../model/results.js';
import { NODE_MARK, POD_MARK, type PackedCell, type PackedPod, type PackedReason, type ReportData } from './data.js';

/** A NodeRow with the events and root causes `why <ds> <node>` shows for it. */
export type CellRow = NodeRow & { events?: EventSummary[]; causes?: RootCause[] };

/** The tables a packer fills: each value stored once, referred to by index. */
export class CellPacker {
  readonly reasons: PackedReason[] = [];
  readonly strings: string[] = [];
  readonly events: EventSummary[] = [];
  readonly causes: RootCause[] = [];
  private readonly causeIndex = new Map<string, number>();
  private readonly reasonIndex = new Map<string, number>();
  private readonly stringIndex = new Map<string, number>();
  private readonly eventIndex = new Map<string, number>();

  constructor(readonly verdicts: readonly Verdict[]) {}

  private intern<T>(table: T[], index: Map<string, number>, value: T, key = JSON.stringify(value)): number {
    let i = index.get(key);
    if (i === undefined) {
      i = table.length;
      table.push(value);
      index.set(key, i);
    }
    return i;
  }

  string(value: string): number {
    return this.intern(this.strings, this.stringIndex, value, value);
  }

  reason(reason: Reason, node: string, pod: string | undefined): number {
    return this.intern(this.reasons, this.reasonIndex, templated(reason, node, pod));
  }

  event(event: EventSummary): number {
    return this.intern(this.events, this.eventIndex, event);
  }

  cause(cause: RootCause): number {
    return this.intern(this.causes, this.causeIndex, cause);
  }

  pod(p: PodSummary): PackedPod {
    return [
      p.name,
      this.string(p.phase),
      p.ready ? 1 : 0,
      this.string(p.revision),
      p.updated ? 1 : 0,
      p.restarts,
      p.age === undefined ? -1 : this.string(p.age),
    ];
  }

  cell(row: CellRow): PackedCell {
    const verdict = this.verdicts.indexOf(row.verdict);
    if (verdict < 0) throw new Error(`unknown verdict ${row.verdict}`);
    const cell: PackedCell = [
      verdict,
      row.reasons.length ? row.reasons.map((r) => this.reason(r, row.node, row.pod?.name)) : 0,
      row.pod ? this.pod(row.pod) : 0,
      row.events?.length ? row.events.map((e) => this.event(e)) : 0,
      row.causes?.length ? row.causes.map((c) => this.cause(c)) : 0,
    ];
    while (cell.length > 1 && cell[cell.length - 1] === 0) cell.pop();
    return cell;
  }
}

/** Whether `text` holds a marker character, which would make a templated string ambiguous. */
function hasMark(text: string): boolean {
  return text.includes(NODE_MARK) || text.includes(POD_MARK);
}

function reasonStrings(r: Reason): string[] {
  return [r.message, r.fix, r.short, ...r.evidence];
}

/**
 * The reason with the node's and the pod's names replaced by their markers (the longer name
 * first, so a pod named after its node keeps its own marker), when that is unambiguous: neither
 * the names nor the reason's strings hold a marker. Otherwise the reason as it is.
 */
export function templated(r: Reason, node: string, pod: string | undefined): PackedReason {
  const names = [...(pod ? [[pod, POD_MARK]] : []), ...(node ? [[node, NODE_MARK]] : [])].sort(
    (a, b) => b[0]!.length - a[0]!.length,
  ) as [string, string][];
  if (!names.length || names.some(([n]) => hasMark(n)) || reasonStrings(r).some(hasMark)) return r;
  const sub = (s: string) => names.reduce((acc, [name, mark]) => acc.split(name).join(mark), s);
  const out: PackedReason = {
    ...r,
    message: sub(r.message),
    evidence: r.evidence.map(sub),
    fix: sub(r.fix),
    short: sub(r.short),
  };
  if (reasonStrings(out).every((s, i) => s === reasonStrings(r)[i])) return r;
  out.t = 1;
  return out;
}

/** A templated reason back with the node's and pod's names. */
export function untemplated(r: PackedReason, node: string, pod: string | undefined): Reason {
  const { t, ...reason } = r;
  if (!t) return reason;
  const sub = (s: string) =>
    s
      .split(NODE_MARK)
      .join(node)
      .split(POD_MARK)
      .join(pod ?? '');
  return { ...reason, message: sub(r.message), evidence: r.evidence.map(sub), fix: sub(r.fix), short: sub(r.short) };
}

/** The verdict of a packed cell, without unpacking the rest. */
export function cellVerdict(data: Pick<ReportData, 'verdicts'>, cell: PackedCell): Verdict {
  return data.verdicts[cell[0]] as Verdict;
}

/** The reasons of a packed cell, unpacked. */
export function cellReasons(data: Pick<ReportData, 'reasons'>, cell: PackedCell, node: string): Reason[] {
  const pod = cell[2] ? cell[2][0] : undefined;
  return (cell[1] || []).map((i) => untemplated(data.reasons[i]!, node, pod));
}

/** The reason codes of a packed cell, most important first (no strings substituted). */
export function cellCodes(data: Pick<ReportData, 'reasons'>, cell: PackedCell): string[] {
  return (cell[1] || []).map((i) => data.reasons[i]!.code);
}

/** A packed cell as the NodeRow (and events) it was packed from. */
export function unpackCell(
  data: Pick<ReportData, 'verdicts' | 'reasons' | 'strings' | 'events' | 'causes'>,
  cell: PackedCell,
  node: string,
): CellRow {
  const [, , pod, events, causes] = cell;
  const row: CellRow = { node, verdict: cellVerdict(data, cell), reasons: cellReasons(data, cell, node) };
  if (pod) {
    const [name, phase, ready, revision, updated, restarts, age] = pod;
    row.pod = {
      name,
      phase: data.strings[phase]!,
      ready: ready === 1,
      revision: data.strings[revision]!,
      updated: updated === 1,
      restarts,
      ...(age >= 0 ? { age: data.strings[age]! } : {}),
    };
  }
  if (events) row.events = events.map((i) => data.events[i]!);
  if (causes) row.causes = causes.map((i) => data.causes[i]!);
  return row;
}

/** The code a cell shows: the first reason that is not OutdatedRevision, else the first (as `nodes`' REASON column picks it). */
export function mainCode(codes: readonly string[]): string | undefined {
  return codes.find((c) => c !== 'OutdatedRevision') ?? codes[0];
}
