/** `rollout <daemonset>`: is the rollout complete, progressing or stuck, and why. */
import { exitFor } from '../exit-code.js';
import { addStuckAfterOption, parseDuration, stuckAfterOf } from '../duration.js';
import { InputError } from '../../model/errors.js';
import type { LoadRequest } from '../../model/snapshot.js';
import { resolveDaemonSet, requireKinds } from '../scope.js';
import type { CommandSpec } from './spec.js';
import { OUTPUT_FORMATS } from '../options.js';
import { writeNames } from '../scripting.js';

export const rolloutCommand: CommandSpec = {
  usage: 'rollout <daemonset>',
  description: 'Is the rollout complete, progressing or stuck, and why (budget, blockers, what changed)',
  examples: [
    'ds-doctor rollout logging/fluent-bit -f fixtures/demo',
    'kubectl ds-doctor rollout kube-proxy -n kube-system --stuck-after 5m',
    'kubectl ds-doctor rollout kube-system/kube-proxy --watch --timeout 10m --stuck-after 3m',
  ],
  formats: [...OUTPUT_FORMATS, 'name'],
  options: (cmd) => {
    addStuckAfterOption(cmd);
    cmd.option(
      '-w, --watch',
      'follow the rollout live until it completes (exit 0), is stuck or --timeout passes (exit 1, with the diagnosis), printing kubectl rollout status lines',
      false,
    );
    cmd.option('--timeout <duration>', 'with --watch: give up after this long (e.g. 10m; default 0: no limit)');
  },
  async run(ctx, args, raw) {
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { diagnoseRollout }, { causesOf, withCauses }, { renderRollout }] = await Promise.all([
      import('../../model/snapshot-index.js'),
      import('../../analyze/rollout/index.js'),
      import('../../analyze/causes/index.js'),
      import('../../render/rollout.js'),
    ]);
    const stuckAfter = stuckAfterOf(raw);
    const watch = Boolean(raw['watch']);
    const timeout = typeof raw['timeout'] === 'string' ? parseDuration('--timeout', raw['timeout']) : 0;
    if (!watch && raw['timeout'] !== undefined)
      throw new InputError('--timeout: only with --watch (a rollout without --watch is read once)');
    if (watch && ctx.opts.output === 'name')
      throw new InputError('-o name: not with --watch (it prints kubectl rollout status lines, then the diagnosis)');
    if (watch && ctx.opts.filenames.length)
      throw new InputError('--watch: follows a live cluster; it cannot be used with -f (a dump does not change)');
    if (watch && ctx.opts.nowGiven)
      throw new InputError(
        '--now: --watch follows the cluster as it changes, judged at each moment; it cannot be given a time',
      );
    const request: LoadRequest = {
      daemonSet: args[0]!,
      kinds: ['Event', 'ControllerRevision', 'MutatingWebhookConfiguration', 'Namespace'],
      allPods: true,
      causeAgents: true,
    };
    const { snapshot, defaultNamespace } = await ctx.load(request);
    const ds = resolveDaemonSet(snapshot, args[0]!, ctx.opts, defaultNamespace);
    requireKinds(snapshot, 'rollout', ['Node', 'Pod'], [ds]);
    if (watch) {
      const { followRollout } = await import('../rollout-watch.js');
      return followRollout(ctx, request, { snapshot, ds }, { stuckAfter, timeout });
    }
    const index = new SnapshotIndex(snapshot);
    const result = withCauses(
      diagnoseRollout(index, ds, ctx.opts.now, stuckAfter),
      causesOf(index, [ds], { now: ctx.opts.now, stuckAfter }),
    );
    if (ctx.opts.output === 'name') writeNames(ctx, [ds.metadata?.name ?? '']);
    else ctx.emit(result, (d, r, md) => renderRollout(d, r, md));
    return exitFor(ctx.opts, {
      error: result.verdict === 'Stuck',
      warning: result.verdict === 'Manual' || result.verdict === 'Pending',
    });
  },
};
