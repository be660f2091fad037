/** `scan`: every DaemonSet in scope, its health and top problem; with several contexts, every cluster's. */
import { exitFor } from '../exit-code.js';
import { addStuckAfterOption, stuckAfterOf } from '../duration.js';
import { daemonSetsInScope, scopeText, requireKinds } from '../scope.js';
import { addAllContextsOption, contextsToRead, eachContext } from '../contexts.js';
import type { CommandContext } from '../context.js';
import type { ScanReport } from '../../model/results.js';
import type { CommandSpec } from './spec.js';
import { OUTPUT_FORMATS } from '../options.js';
import { addHealthOption, addScriptingOptions, daemonSetSelectorOf, healthFilterOf, writeNames } from '../scripting.js';
import { InputError } from '../../model/errors.js';

/** One cluster's (or one input's) scan, filtered by --health, and the exit code it gives. */
async function scanOne(
  ctx: CommandContext,
  raw: Record<string, unknown>,
  stuckAfter: number,
): Promise<{ result: ScanReport; exitCode: number }> {
  const selector = daemonSetSelectorOf(raw);
  const health = healthFilterOf(raw);
  // Loaded when the command runs, so that --help and --version start without them.
  const [{ SnapshotIndex }, { scan, filterScanHealth }] = await Promise.all([
    import('../../model/snapshot-index.js'),
    import('../../analyze/scan.js'),
  ]);
  const { snapshot, defaultNamespace } = await ctx.load({
    kinds: ['Event', 'ControllerRevision', 'MutatingWebhookConfiguration', 'Namespace'],
    causeAgents: true,
    ...(selector ? { daemonSetSelector: selector.text } : {}),
  });
  const daemonSets = daemonSetsInScope(snapshot, ctx.opts, defaultNamespace).filter(
    (d) => !selector || selector.matches(d),
  );
  requireKinds(snapshot, 'scan', ['Node', 'Pod'], daemonSets);
  const index = new SnapshotIndex(snapshot);
  const full = scan(index, daemonSets, ctx.opts.now, scopeText(ctx.opts, defaultNamespace), stuckAfter);
  const report = health ? filterScanHealth(full, health) : full;
  const exitCode = exitFor(ctx.opts, {
    error: report.daemonSets.some((d) => d.health !== 'Healthy' && d.health !== 'RollingOut'),
    warning: report.daemonSets.some((d) => d.health === 'RollingOut' || d.coverageGaps.length > 0),
  });
  return { result: report, exitCode };
}

export const scanCommand: CommandSpec = {
  usage: 'scan',
  description:
    'Every DaemonSet in scope: health, counts (reported and recomputed) and top problem (several clusters: --context repeated, --all-contexts)',
  examples: [
    'ds-doctor scan -f fixtures/demo',
    'kubectl ds-doctor scan -A -o json',
    'kubectl ds-doctor scan -A --health Degraded,Stuck,Failing -o name',
    'ds-doctor scan -A -l app=agent -o junit > scan.xml',
    'kubectl ds-doctor scan -A --context prod-eu --context prod-us',
  ],
  formats: [...OUTPUT_FORMATS, 'name', 'junit'],
  multiContext: true,
  options: (cmd) => {
    addStuckAfterOption(cmd);
    addScriptingOptions(cmd);
    addHealthOption(cmd);
    addAllContextsOption(cmd);
  },
  async run(ctx, _args, raw) {
    const stuckAfter = stuckAfterOf(raw);
    const { renderScan } = await import('../../render/scan.js');
    const contexts = await contextsToRead(ctx, raw);
    if (contexts && (ctx.opts.output === 'name' || ctx.opts.output === 'junit')) {
      throw new InputError(
        `-o ${ctx.opts.output}: one cluster at a time (the names and test cases of several clusters would not say which)`,
      );
    }
    let report: ScanReport;
    let exitCode: number;
    if (contexts) {
      const { combineScans, worstExitCode } = await import('../../analyze/contexts.js');
      const parts = await eachContext(ctx, contexts, (one) => scanOne(one, raw, stuckAfter));
      report = combineScans(parts);
      exitCode = worstExitCode(parts);
    } else {
      ({ result: report, exitCode } = await scanOne(ctx, raw, stuckAfter));
    }
    if (ctx.opts.output === 'name')
      writeNames(
        ctx,
        report.daemonSets.map((d) => d.name),
      );
    else if (ctx.opts.output === 'junit')
      ctx.io.stdout.write(
        (await import('../../render/junit.js')).renderScanJunit(report, { failOn: ctx.opts.failOn, now: ctx.opts.now }),
      );
    else ctx.emit(report, (d, r, md) => renderScan(d, r, md));
    return exitCode;
  },
};
