/**
 * The document an HTML report embeds (`ds-doctor report`): the result objects of the JSON kinds
 * (ScanReport, RolloutDiagnosis, DeleteImpact, the LintReport's findings) as they are, and the
 * per-node diagnoses of every DaemonSet (the rows of `nodes -o json`, with the events `why` adds)
 * packed, because a matrix of 5,000 nodes × 30 DaemonSets written as NodeRow objects is ~60 MB:
 *
 * - a cell is `[verdict, reasons, pod, events]`, trailing empties left out, `0` for an empty slot;
 * - a reason is an index into `reasons`, a table shared by every cell; in a templated entry the
 *   node's name is written as {@link NODE_MARK} and the pod's as {@link POD_MARK}, so that "node
 *   worker-7 has taint …" is stored once for every node;
 * - a pod is `[name, phase, ready, revision, updated, restarts, age]`, the repeated strings as
 *   indices into `strings`;
 * - an event is an index into `events`, a root cause (what `why <ds> <node>` leads with) into `causes`.
 *
 * `cells.ts` unpacks a cell into the NodeRow (plus events) it was packed from; the page and the
 * tests use it, and a unit test holds pack → unpack to the identity. Types only here, shared by
 * the renderer (Node.js) and the page (the browser), so nothing imports a runtime.
 */
import type {
  DeleteImpact,
  EventSummary,
  LintFinding,
  LintReport,
  Reason,
  RolloutDiagnosis,
  RootCause,
  ScanReport,
  VerdictSummary,
} from '../../model/results.js';

export const REPORT_KIND = 'HtmlReport';

/** Stands for the node's name in a templated reason (a private-use character: not in names the API server accepts). */
export const NODE_MARK = '\ue000';
/** Stands for the deciding pod's name in a templated reason. */
export const POD_MARK = '\ue001';

/** The scan as `scan -o json` gives it, root causes grouped across DaemonSets included. */
export type ScanWithCauses = ScanReport;

/** Where the report's answers come from. */
export interface ReportProvenance {
  /** `files` (a dump or manifests) or `live`. */
  source: 'files' | 'live';
  /** The -f paths, or the kubeconfig context (`current context` when none was named). */
  inputs: string[];
  /** The instant the input was judged at (RFC 3339). */
  judgedAt: string;
  /** Where that instant came from: --now, the input's newest timestamp, or the clock. */
  judgedAtFrom: 'flag' | 'input' | 'clock';
  /** The namespaces weighed. */
  scope: string;
  /** Kinds the input lacks (or that were refused), as sentences. */
  missing: string[];
  /** The loader's and the analyses' notes and warnings. */
  warnings: string[];
  /** The command that wrote the report, as it would be typed (flags, not the input's contents). */
  command: string;
}

/** A pod summary, packed: `[name, phase, ready, revision, updated, restarts, age]` (strings of the table; age -1 when unknown). */
export type PackedPod = [
  name: string,
  phase: number,
  ready: 0 | 1,
  revision: number,
  updated: 0 | 1,
  restarts: number,
  age: number,
];

/** One DaemonSet × node, packed: `[verdict, reasons, pod, events, causes]` (see the module comment). */
export type PackedCell = [
  verdict: number,
  reasons?: number[] | 0,
  pod?: PackedPod | 0,
  events?: number[] | 0,
  causes?: number[] | 0,
];

/** A reason of the shared table; `t: 1` when its strings are templated on the node and pod names. */
export type PackedReason = Reason & { t?: 1 };

/** One DaemonSet of the report: its per-node cells and its other results, as the JSON kinds give them. */
export interface ReportDaemonSet {
  namespace: string;
  name: string;
  /** `why <ds>`'s headline and summary over every node. */
  headline: string;
  summary: VerdictSummary;
  notes: string[];
  /** The root causes `why <ds>` leads with. */
  causes: RootCause[];
  /** One cell per node, in the order of `ReportData.nodes`. */
  cells: PackedCell[];
  rollout: RolloutDiagnosis;
  impact: DeleteImpact;
}

/** The embedded document. */
export interface ReportData {
  apiVersion: 'ds-doctor/v1';
  kind: typeof REPORT_KIND;
  /** The ds-doctor that wrote it. */
  generator: { version: string; commit: string };
  provenance: ReportProvenance;
  /** The node label nodes are grouped by ("" when no node carries a pool label). */
  groupBy: string;
  /** The values of that label, sorted ("" for nodes without it). */
  pools: string[];
  /** Every node in name order: `[name, index into pools]`. */
  nodes: [name: string, pool: number][];
  scan: ScanWithCauses;
  daemonSets: ReportDaemonSet[];
  lint: Pick<LintReport, 'notChecked' | 'suppressed' | 'summary' | 'notes'> & { findings: LintFinding[] };
  verdicts: string[];
  reasons: PackedReason[];
  strings: string[];
  events: EventSummary[];
  /** The root causes `why <ds> <node>` gives, shared by the cells. */
  causes: RootCause[];
}
