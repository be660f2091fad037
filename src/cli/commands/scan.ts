/** `scan`: every DaemonSet in scope, its health and top problem. */
import { exitFor } from '../exit-code.js';
import { addStuckAfterOption, stuckAfterOf } from '../duration.js';
import { daemonSetsInScope, scopeText, requireKinds } from '../scope.js';
import type { CommandSpec } from './spec.js';
import { OUTPUT_FORMATS } from '../options.js';
import { addHealthOption, addScriptingOptions, daemonSetSelectorOf, healthFilterOf, writeNames } from '../scripting.js';

export const scanCommand: CommandSpec = {
  usage: 'scan',
  description: 'Every DaemonSet in scope: health, counts (reported and recomputed) and top problem',
  examples: [
    'ds-doctor scan -f fixtures/demo',
    'kubectl ds-doctor scan -A -o json',
    'kubectl ds-doctor scan -A --health Degraded,Stuck,Failing -o name',
    'ds-doctor scan -A -l app=agent -o junit > scan.xml',
  ],
  formats: [...OUTPUT_FORMATS, 'name', 'junit'],
  options: (cmd) => {
    addStuckAfterOption(cmd);
    addScriptingOptions(cmd);
    addHealthOption(cmd);
  },
  async run(ctx, _args, raw) {
    const stuckAfter = stuckAfterOf(raw);
    const selector = daemonSetSelectorOf(raw);
    const health = healthFilterOf(raw);
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { scan, filterScanHealth }, { renderScan }] = await Promise.all([
      import('../../model/snapshot-index.js'),
      import('../../analyze/scan.js'),
      import('../../render/scan.js'),
    ]);
    const { snapshot, defaultNamespace } = await ctx.load({
      kinds: ['Event', 'ControllerRevision', 'MutatingWebhookConfiguration', 'Namespace'],
      causeAgents: true,
      ...(selector ? { daemonSetSelector: selector.text } : {}),
    });
    const daemonSets = daemonSetsInScope(snapshot, ctx.opts, defaultNamespace).filter((d) => !selector || selector.matches(d));
    requireKinds(snapshot, 'scan', ['Node', 'Pod'], daemonSets);
    const index = new SnapshotIndex(snapshot);
    const full = scan(index, daemonSets, ctx.opts.now, scopeText(ctx.opts, defaultNamespace), stuckAfter);
    const report = health ? filterScanHealth(full, health) : full;
    if (ctx.opts.output === 'name')
      writeNames(
        ctx,
        report.daemonSets.map((d) => d.name),
      );
    else if (ctx.opts.output === 'junit') ctx.io.stdout.write((await import('../../render/junit.js')).renderScanJunit(report, { failOn: ctx.opts.failOn, now: ctx.opts.now }));
    else ctx.emit(report, (d, r, md) => renderScan(d, r, md));
    return exitFor(ctx.opts, {
      error: report.daemonSets.some((d) => d.health !== 'Healthy' && d.health !== 'RollingOut'),
      warning: report.daemonSets.some((d) => d.health === 'RollingOut' || d.coverageGaps.length > 0),
    });
  },
};
