/** `rollout <daemonset>`: is the rollout complete, progressing or stuck, and why. */
import { exitFor } from '../exit-code.js';
import { addStuckAfterOption, stuckAfterOf } from '../duration.js';
import { resolveDaemonSet, requireKinds } from '../scope.js';
import type { CommandSpec } from './spec.js';
import { OUTPUT_FORMATS } from '../options.js';
import { writeNames } from '../scripting.js';

export const rolloutCommand: CommandSpec = {
  usage: 'rollout <daemonset>',
  description: 'Is the rollout complete, progressing or stuck, and why (budget, blockers, what changed)',
  examples: ['ds-doctor rollout logging/fluent-bit -f fixtures/demo', 'kubectl ds-doctor rollout kube-proxy -n kube-system --stuck-after 5m'],
  formats: [...OUTPUT_FORMATS, 'name'],
  options: addStuckAfterOption,
  async run(ctx, args, raw) {
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { diagnoseRollout }, { causesOf, withCauses }, { renderRollout }] = await Promise.all([
      import('../../model/snapshot-index.js'),
      import('../../analyze/rollout/index.js'),
      import('../../analyze/causes/index.js'),
      import('../../render/rollout.js'),
    ]);
    const stuckAfter = stuckAfterOf(raw);
    const { snapshot, defaultNamespace } = await ctx.load({
      daemonSet: args[0]!,
      kinds: ['Event', 'ControllerRevision', 'MutatingWebhookConfiguration', 'Namespace'],
      allPods: true,
      causeAgents: true,
    });
    const index = new SnapshotIndex(snapshot);
    const ds = resolveDaemonSet(snapshot, args[0]!, ctx.opts, defaultNamespace);
    requireKinds(snapshot, 'rollout', ['Node', 'Pod'], [ds]);
    const result = withCauses(diagnoseRollout(index, ds, ctx.opts.now, stuckAfter), causesOf(index, [ds], { now: ctx.opts.now, stuckAfter }));
    if (ctx.opts.output === 'name') writeNames(ctx, [ds.metadata?.name ?? '']);
    else ctx.emit(result, (d, r, md) => renderRollout(d, r, md));
    return exitFor(ctx.opts, { error: result.verdict === 'Stuck', warning: result.verdict === 'Manual' || result.verdict === 'Pending' });
  },
};
