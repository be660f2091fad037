/**
 * `report`: one self-contained HTML page of every DaemonSet in scope: the scan's verdicts, the
 * root causes, the coverage matrix (every DaemonSet × node, as `nodes` and `why` judge it, nodes
 * grouped by pool), and per DaemonSet its rollout, lint findings and delete impact. The page is
 * drawn from the same result objects as the JSON kinds (render/html/).
 */
import { writeFileSync } from 'node:fs';
import { InputError } from '../../model/errors.js';
import type { NodeRow } from '../../model/results.js';
import type { SnapshotKind } from '../../model/snapshot.js';
import { snapshotTime } from '../../model/snapshot-time.js';
import type { ReportProvenance } from '../../render/html/data.js';
import { addStuckAfterOption, stuckAfterOf } from '../duration.js';
import { exitFor } from '../exit-code.js';
import type { GlobalOptions } from '../options.js';
import { daemonSetsInScope, requireKinds, scopeText } from '../scope.js';
import { buildCommit, VERSION } from '../version.js';
import { checkGroupBy } from './plan.js';
import type { CommandSpec } from './spec.js';

/** What every part of the report reads besides DaemonSets, Nodes and Pods (scan, rollout, impact, lint). */
const REPORT_KINDS: readonly SnapshotKind[] = [
  'Event',
  'ControllerRevision',
  'Service',
  'EndpointSlice',
  'PodDisruptionBudget',
  'PriorityClass',
  'Namespace',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'CSIDriver',
];

/** Whether a node's own root causes are looked for: a verdict other than Healthy or Excluded, or a reason of warning or error. */
function worthCauses(row: NodeRow): boolean {
  return (row.verdict !== 'Healthy' && row.verdict !== 'Excluded') || row.reasons.some((r) => r.severity !== 'info');
}

/** The command line that gives this report again (the input's flags, not its contents). */
function commandLine(opts: GlobalOptions, raw: Record<string, unknown>): string {
  const parts = ['ds-doctor report'];
  for (const f of opts.filenames) parts.push(`-f ${f}`);
  if (opts.context) parts.push(`--context ${opts.context}`);
  if (opts.allNamespaces) parts.push('-A');
  if (opts.namespace) parts.push(`-n ${opts.namespace}`);
  if (opts.nowGiven) parts.push(`--now ${opts.now.toISOString().replace('.000Z', 'Z')}`);
  if (typeof raw['groupBy'] === 'string') parts.push(`--group-by ${raw['groupBy']}`);
  if (typeof raw['stuckAfter'] === 'string' && raw['stuckAfter'] !== '10m')
    parts.push(`--stuck-after ${raw['stuckAfter']}`);
  return parts.join(' ');
}

export const reportCommand: CommandSpec = {
  usage: 'report',
  description:
    'One self-contained HTML page: verdicts, root causes, the coverage matrix of DaemonSets × nodes by pool, and per DaemonSet its rollout, lint and delete impact',
  examples: [
    'ds-doctor report -f fixtures/demo -o demo.html',
    'kubectl ds-doctor report -A -o cluster.html --group-by topology.kubernetes.io/zone',
    'ds-doctor report -f dump/ --fail-on none > report.html',
  ],
  formats: { file: 'write the page to this file (default: standard output)' },
  options: (cmd) => {
    addStuckAfterOption(cmd);
    cmd.option(
      '--group-by <label>',
      'node label the matrix groups nodes by (default: the first present of the common pool labels)',
    );
  },
  async run(ctx, _args, raw) {
    const stuckAfter = stuckAfterOf(raw);
    const groupByFlag = raw['groupBy'] as string | undefined;
    // Loaded when the command runs, so that --help and --version start without them.
    const [
      { SnapshotIndex },
      { scan },
      { diagnoseAllNodes, whyDaemonSet },
      { diagnoseRollout },
      { analyzeImpact },
      { lint },
      { defaultGroupBy },
      { causesOf, causesOnNode, withCauses },
      { renderHtmlReport },
    ] = await Promise.all([
      import('../../model/snapshot-index.js'),
      import('../../analyze/scan.js'),
      import('../../analyze/placement/index.js'),
      import('../../analyze/rollout/index.js'),
      import('../../analyze/impact/index.js'),
      import('../../lint/lint.js'),
      import('../../analyze/plan/index.js'),
      import('../../analyze/causes/index.js'),
      import('../../render/html/report.js'),
    ]);
    const { snapshot, defaultNamespace } = await ctx.load({ kinds: [...REPORT_KINDS], allPods: true });
    const daemonSets = daemonSetsInScope(snapshot, ctx.opts, defaultNamespace);
    requireKinds(snapshot, 'report', ['Node', 'Pod'], daemonSets);
    if (groupByFlag !== undefined) checkGroupBy(groupByFlag, snapshot);
    const groupBy = groupByFlag ?? defaultGroupBy(snapshot.nodes);
    const index = new SnapshotIndex(snapshot);
    const now = ctx.opts.now;
    const scope = scopeText(ctx.opts, defaultNamespace);
    const scanReport = scan(index, daemonSets, now, scope, stuckAfter);
    const lintReport = lint(snapshot, daemonSets);
    const taken = snapshotTime(snapshot);
    const provenance: ReportProvenance = {
      source: snapshot.source,
      inputs:
        snapshot.source === 'files'
          ? ctx.opts.filenames
          : [
              `context ${ctx.opts.context ?? '(the current context)'}${ctx.opts.kubeconfig ? ` of ${ctx.opts.kubeconfig}` : ''}`,
            ],
      judgedAt: now.toISOString().replace('.000Z', 'Z'),
      judgedAtFrom: ctx.opts.nowGiven ? 'flag' : taken && taken.getTime() === now.getTime() ? 'input' : 'clock',
      scope,
      missing: snapshot.missing.map((m) => `${m.kind}: ${m.reason}${m.detail ? ` (${m.detail})` : ''}`),
      warnings: [...snapshot.warnings],
      command: commandLine(ctx.opts, raw),
    };
    const html = renderHtmlReport({
      generator: { version: VERSION, commit: buildCommit() },
      provenance,
      groupBy,
      nodes: index.nodesInNameOrder.map((n) => ({
        name: n.metadata?.name ?? '',
        pool: groupBy ? (n.metadata?.labels?.[groupBy] ?? '') : '',
      })),
      scan: scanReport,
      daemonSets: daemonSets.map((ds) => {
        const { headline, summary, notes } = whyDaemonSet(index, ds, now, stuckAfter);
        // As why <ds>, rollout, impact and why <ds> <node> give them; a node's own only where its verdict or a
        // reason is a problem or a warning (each costs milliseconds: 150,000 pairs would take minutes).
        const causes = causesOf(index, [ds], { now, stuckAfter });
        const onNode = (row: NodeRow) =>
          worthCauses(row)
            ? causesOnNode(index, [ds], row.node, { now, stuckAfter, partial: snapshot.source === 'live' })
            : [];
        return {
          namespace: ds.metadata?.namespace ?? '',
          name: ds.metadata?.name ?? '',
          diagnosis: { headline, summary, ...(notes ? { notes } : {}), causes },
          rows: diagnoseAllNodes(index, ds, now, stuckAfter).map(({ stuck: _stuck, ...row }) =>
            withCauses(row, onNode(row)),
          ),
          rollout: withCauses(diagnoseRollout(index, ds, now, stuckAfter), causes),
          impact: withCauses(analyzeImpact(index, ds, 'background', now), causes),
        };
      }),
      lint: lintReport,
    });
    const file = raw['output'];
    if (typeof file === 'string' && file !== '-') {
      try {
        writeFileSync(file, html);
      } catch (err) {
        throw new InputError(
          `-o/--output: cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
      ctx.note(
        `wrote ${file}: ${daemonSets.length} DaemonSet(s) × ${snapshot.nodes.length} node(s), ${(Buffer.byteLength(html) / 1e6).toFixed(1)} MB`,
      );
    } else {
      ctx.io.stdout.write(html);
    }
    return exitFor(ctx.opts, {
      error: scanReport.daemonSets.some((d) => d.health !== 'Healthy' && d.health !== 'RollingOut'),
      warning: scanReport.daemonSets.some((d) => d.health === 'RollingOut' || d.coverageGaps.length > 0),
    });
  },
};
