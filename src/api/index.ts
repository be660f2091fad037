/**
 * ds-doctor as a library: `import { … } from 'ds-doctor'`. Three steps, as the CLI takes them:
 * load a snapshot (from files or a cluster), run an analysis on it, render the result. The
 * results are the JSON kinds of the CLI's `-o json` (docs/output.md), the same contract.
 *
 *   const snapshot = await loadSnapshotFromFiles(['dump/']);
 *   const report = scanDaemonSets(snapshot, { now: new Date() });
 *   process.stdout.write(renderText(report, { format: 'table' }));
 *
 * Nothing here writes to a cluster, touches `process`, or reads the clock: `now` is passed in.
 */
import type { DaemonSet } from '../model/k8s-types.js';
import type { ClusterSnapshot } from '../model/snapshot.js';
import type {
  DaemonSetDiagnosis,
  LintReport,
  NodeDiagnosis,
  RolloutDiagnosis,
  ScanHealth,
  ScanReport,
} from '../model/results.js';
import { InputError } from '../model/errors.js';
import { SnapshotIndex } from '../model/snapshot-index.js';
import { compareText } from '../model/order.js';
import { compileLabelSelector, parseSelectorString } from '../k8s/labels.js';
import { filterScanHealth, scan } from '../analyze/scan.js';
import { daemonSetAnswer, nodeAnswer, rolloutAnswer } from '../analyze/diagnose.js';
import { DEFAULT_STUCK_AFTER } from '../analyze/stuck.js';
import { lint } from '../lint/lint.js';
import { RULES } from '../lint/registry.js';
import { renderJson, renderYaml } from '../render/document.js';
import { renderContext } from '../render/context.js';
import { escapeDocumentForHumans } from '../render/sanitize.js';
import { renderScan } from '../render/scan.js';
import { renderLint } from '../render/lint.js';
import { renderRollout } from '../render/rollout.js';
import { renderDaemonSetDiagnosis, renderNodeDiagnosis } from '../render/placement.js';
import { renderSarif } from '../render/sarif.js';
import { renderLintJunit, renderScanJunit } from '../render/junit.js';

export { loadSnapshotFromFiles, loadSnapshotFromCluster, type ClusterOptions } from './load.js';
export type { ClusterSnapshot, LoadedSnapshot, LoadRequest } from '../model/snapshot.js';
export type { ConfigOverrides } from '../client/kubeconfig-overrides.js';
export type * from '../model/results.js';
export type { DaemonSet, Node, Pod } from '../model/k8s-types.js';
export { API_VERSION } from '../model/results.js';
export { DsDoctorError, InputError, ClusterError } from '../model/errors.js';

/** Which DaemonSets of a snapshot an analysis covers. */
export interface Scope {
  /** One namespace; without it (and without allNamespaces) every namespace in the snapshot. */
  namespace?: string;
  allNamespaces?: boolean;
  /** A kubectl label selector (`app=agent,tier!=test`) the DaemonSets' labels must match. */
  selector?: string;
}

/** The time an analysis judges at, and after how long a pod that does not start counts as stuck. */
export interface AnalysisOptions {
  now: Date;
  /** Seconds (default 600, as `--stuck-after 10m`). */
  stuckAfterSeconds?: number;
}

/** The DaemonSets of the snapshot in scope, by namespace and name. */
export function daemonSetsOf(snapshot: ClusterSnapshot, scope: Scope = {}): DaemonSet[] {
  let matches: (labels: Record<string, string> | undefined) => boolean = () => true;
  if (scope.selector !== undefined) {
    const compiled = compileLabelSelector(parseSelectorString(scope.selector));
    if (!compiled.ok) throw new InputError(`selector: ${compiled.error}`);
    matches = compiled.matches;
  }
  const ns = scope.allNamespaces ? undefined : scope.namespace;
  return snapshot.daemonSets
    .filter((d) => (ns === undefined || d.metadata?.namespace === ns) && matches(d.metadata?.labels))
    .sort(
      (a, b) =>
        compareText(a.metadata?.namespace ?? '', b.metadata?.namespace ?? '') ||
        compareText(a.metadata?.name ?? '', b.metadata?.name ?? ''),
    );
}

/** One DaemonSet by namespace and name; an InputError when it is not in the snapshot. */
export function daemonSetOf(snapshot: ClusterSnapshot, namespace: string, name: string): DaemonSet {
  const ds = snapshot.daemonSets.find((d) => d.metadata?.namespace === namespace && d.metadata?.name === name);
  if (!ds) throw new InputError(`daemonset "${name}" not found in namespace "${namespace}"`);
  return ds;
}

function scopeText(scope: Scope): string {
  return scope.allNamespaces
    ? 'all namespaces'
    : scope.namespace
      ? `namespace ${scope.namespace}`
      : 'all namespaces in the input';
}

/** `scan`: the health, counts and top problem of every DaemonSet in scope, and the root causes across them. */
export function scanDaemonSets(
  snapshot: ClusterSnapshot,
  options: AnalysisOptions & Scope & { health?: ScanHealth[] },
): ScanReport {
  const report = scan(
    new SnapshotIndex(snapshot),
    daemonSetsOf(snapshot, options),
    options.now,
    scopeText(options),
    options.stuckAfterSeconds ?? DEFAULT_STUCK_AFTER,
  );
  return options.health ? filterScanHealth(report, new Set(options.health)) : report;
}

/** `lint`: the best-practice findings of the DaemonSets in scope (bare manifests are fine). */
export function lintDaemonSets(snapshot: ClusterSnapshot, scope: Scope = {}): LintReport {
  return lint(snapshot, daemonSetsOf(snapshot, scope));
}

/** `rollout`: whether a DaemonSet's rollout is complete, progressing or stuck, and why. */
export function diagnoseRollout(snapshot: ClusterSnapshot, ds: DaemonSet, options: AnalysisOptions): RolloutDiagnosis {
  return rolloutAnswer(new SnapshotIndex(snapshot), ds, options.now, options.stuckAfterSeconds ?? DEFAULT_STUCK_AFTER);
}

/** `why <ds>`: every node without a healthy pod of the DaemonSet, with the reasons. */
export function diagnoseDaemonSet(
  snapshot: ClusterSnapshot,
  ds: DaemonSet,
  options: AnalysisOptions,
): DaemonSetDiagnosis {
  return daemonSetAnswer(
    new SnapshotIndex(snapshot),
    ds,
    options.now,
    options.stuckAfterSeconds ?? DEFAULT_STUCK_AFTER,
  );
}

/** `why <ds> <node>`: the verdict on one node and its reasons. */
export function diagnoseNode(
  snapshot: ClusterSnapshot,
  ds: DaemonSet,
  nodeName: string,
  options: AnalysisOptions,
): NodeDiagnosis {
  const node = snapshot.nodes.find((n) => n.metadata?.name === nodeName);
  if (!node) throw new InputError(`node "${nodeName}" not found`);
  const stuckAfter = options.stuckAfterSeconds ?? DEFAULT_STUCK_AFTER;
  return nodeAnswer(new SnapshotIndex(snapshot), ds, node, options.now, stuckAfter, false);
}

/** A result the renderers know. */
export type Result = ScanReport | LintReport | RolloutDiagnosis | DaemonSetDiagnosis | NodeDiagnosis;

/** How to render: a document format, or the CLI's human formats with their settings. */
export interface RenderOptions {
  format: 'json' | 'yaml' | 'table' | 'wide' | 'markdown';
  /** ANSI colour (default off). */
  color?: boolean;
  /** Terminal width tables are cut to (default: none). */
  columns?: number;
  /** Tables without their header line (scan, lint). */
  noHeaders?: boolean;
}

/** A result as the CLI prints it; every string from the input escaped for a terminal (or Markdown). */
export function renderText(result: Result, options: RenderOptions): string {
  if (options.format === 'json') return renderJson(result);
  if (options.format === 'yaml') return renderYaml(result);
  const markdown = options.format === 'markdown';
  const ctx = renderContext({
    color: Boolean(options.color) && !markdown,
    wide: options.format === 'wide',
    ...(options.columns ? { columns: options.columns } : {}),
    ...(options.noHeaders ? { noHeaders: true } : {}),
  });
  const safe = escapeDocumentForHumans(result, {
    markdown,
    multilineKeys: result.kind === 'LintReport' ? ['fix'] : [],
  });
  switch (safe.kind) {
    case 'ScanReport':
      return renderScan(safe, ctx, markdown);
    case 'LintReport':
      return renderLint(safe, ctx, markdown);
    case 'RolloutDiagnosis':
      return renderRollout(safe, ctx, markdown);
    case 'DaemonSetDiagnosis':
      return renderDaemonSetDiagnosis(safe, ctx, markdown);
    case 'NodeDiagnosis':
      return renderNodeDiagnosis(safe, ctx, markdown);
  }
}

/** A LintReport as SARIF 2.1.0 (code scanning). */
export function renderLintSarif(report: LintReport, options: { toolVersion: string; cwd: string }): string {
  return renderSarif(
    report,
    RULES.map((r) => r.meta),
    options,
  );
}

/**
 * A ScanReport or LintReport as JUnit XML; `failOn` (default error) is the level that fails a
 * test case, as --fail-on. Lint needs the DaemonSets it ran on (one suite each).
 */
export function renderJunit(
  result: ScanReport | LintReport,
  options: { now: Date; failOn?: 'error' | 'warning' | 'none'; daemonSets?: DaemonSet[] },
): string {
  const failOn = options.failOn ?? 'error';
  if (result.kind === 'ScanReport') return renderScanJunit(result, { failOn, now: options.now });
  const refs = (options.daemonSets ?? []).map((d) => ({
    namespace: d.metadata?.namespace ?? '',
    name: d.metadata?.name ?? '',
  }));
  return renderLintJunit(
    result,
    refs,
    RULES.map((r) => r.meta.id),
    { failOn, now: options.now },
  );
}
