/**
 * The report document (data.ts) from the analyses' results: strings escaped as every human
 * output escapes them (render/sanitize.ts), the per-node diagnoses packed (cells.ts).
 */
import {
  API_VERSION,
  VERDICTS,
  type DaemonSetDiagnosis,
  type DeleteImpact,
  type LintReport,
  type RolloutDiagnosis,
} from '../../model/results.js';
import { compareText } from '../../model/order.js';
import { escapeDocumentForHumans } from '../sanitize.js';
import { CellPacker, type CellRow } from './cells.js';
import { REPORT_KIND, type ReportData, type ReportProvenance, type ScanWithCauses } from './data.js';

/** What the report is made of: the results of the analyses, unescaped, as the JSON kinds hold them. */
export interface ReportInput {
  generator: { version: string; commit: string };
  provenance: ReportProvenance;
  groupBy: string;
  /** Every node in name order, with the value of the --group-by label ("" without it). */
  nodes: { name: string; pool: string }[];
  scan: ScanWithCauses;
  daemonSets: {
    namespace: string;
    name: string;
    diagnosis: Pick<DaemonSetDiagnosis, 'headline' | 'summary' | 'notes' | 'causes'>;
    /** One row per node, in the order of `nodes`. */
    rows: CellRow[];
    rollout: RolloutDiagnosis;
    impact: DeleteImpact;
  }[];
  lint: LintReport;
}

/**
 * The embedded document of `input`. Every string (names, messages, evidence) is escaped as the
 * table and Markdown outputs escape them (control, C1 and bidi characters made visible), so the
 * page shows what `why` prints; the page puts text into the document only as text.
 */
export function packReport(raw: ReportInput): ReportData {
  const input = escapeDocumentForHumans(raw, { markdown: false, multilineKeys: ['fix'] });
  const packer = new CellPacker(VERDICTS);
  const pools = [...new Set(input.nodes.map((n) => n.pool))].sort(compareText);
  const poolIndex = new Map(pools.map((p, i) => [p, i]));
  const daemonSets = input.daemonSets.map((ds) => {
    if (ds.rows.length !== input.nodes.length || ds.rows.some((r, i) => r.node !== input.nodes[i]!.name)) {
      throw new Error(`the rows of ${ds.namespace}/${ds.name} are not one per node in the nodes' order`);
    }
    return {
      namespace: ds.namespace,
      name: ds.name,
      headline: ds.diagnosis.headline,
      summary: ds.diagnosis.summary,
      notes: ds.diagnosis.notes ?? [],
      causes: ds.diagnosis.causes ?? [],
      cells: ds.rows.map((r) => packer.cell(r)),
      rollout: ds.rollout,
      impact: ds.impact,
    };
  });
  const { findings, notChecked, suppressed, summary, notes } = input.lint;
  return {
    apiVersion: API_VERSION,
    kind: REPORT_KIND,
    generator: input.generator,
    provenance: input.provenance,
    groupBy: input.groupBy,
    pools,
    nodes: input.nodes.map((n) => [n.name, poolIndex.get(n.pool)!]),
    scan: input.scan,
    daemonSets,
    lint: { findings, notChecked, suppressed, ...(summary ? { summary } : {}), ...(notes ? { notes } : {}) },
    verdicts: [...VERDICTS],
    reasons: packer.reasons,
    strings: packer.strings,
    events: packer.events,
    causes: packer.causes,
  };
}
