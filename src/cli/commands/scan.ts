/** `scan`: every DaemonSet in scope, its health and top problem. */
import { exitFor } from '../exit-code.js';
import { addStuckAfterOption, stuckAfterOf } from '../duration.js';
import { daemonSetsInScope, scopeText, requireKinds } from '../scope.js';
import type { CommandSpec } from './spec.js';

export const scanCommand: CommandSpec = {
  usage: 'scan',
  description: 'Every DaemonSet in scope: health, counts (reported and recomputed) and top problem',
  examples: ['ds-doctor scan -f fixtures/demo', 'kubectl ds-doctor scan -A -o json'],
  options: addStuckAfterOption,
  async run(ctx, _args, raw) {
    const stuckAfter = stuckAfterOf(raw);
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { scan }, { renderScan }] = await Promise.all([import('../../model/snapshot-index.js'), import('../../analyze/scan.js'), import('../../render/scan.js')]);
    const { snapshot, defaultNamespace } = await ctx.load({ kinds: ['Event', 'ControllerRevision', 'MutatingWebhookConfiguration', 'Namespace'], causeAgents: true });
    const daemonSets = daemonSetsInScope(snapshot, ctx.opts, defaultNamespace);
    requireKinds(snapshot, 'scan', ['Node', 'Pod'], daemonSets);
    const index = new SnapshotIndex(snapshot);
    const report = scan(index, daemonSets, ctx.opts.now, scopeText(ctx.opts, defaultNamespace), stuckAfter);
    ctx.emit(report, (d, r, md) => renderScan(d, r, md));
    return exitFor(ctx.opts, {
      error: report.daemonSets.some((d) => d.health !== 'Healthy' && d.health !== 'RollingOut'),
      warning: report.daemonSets.some((d) => d.health === 'RollingOut' || d.coverageGaps.length > 0),
    });
  },
};
