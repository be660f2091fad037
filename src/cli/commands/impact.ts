/** `impact <daemonset>`: what breaks if the DaemonSet is deleted, for one `--cascade` mode. */
import { Option } from 'commander';
import { CASCADES } from '../../model/results.js';
import type { Cascade } from '../../analyze/impact/index.js';
import { exitFor } from '../exit-code.js';
import { resolveDaemonSet } from '../scope.js';
import type { CommandSpec } from './spec.js';

/** The `impact` command: loads what the analysis reads, runs it for one cascade mode, gates on the risk. */
export const impactCommand: CommandSpec = {
  usage: 'impact <daemonset>',
  description: 'What breaks if the DaemonSet is deleted: pods, roles, dependents, risk and safer alternatives',
  examples: [
    'ds-doctor impact kube-system/calico-node -f fixtures/demo',
    'ds-doctor impact kube-system/calico-node --cascade=orphan',
    'kubectl ds-doctor impact logging/fluent-bit -o json   # exit 1 when the risk is high or critical',
  ],
  options: (cmd) => {
    cmd.addOption(
      new Option('--cascade <mode>', 'how kubectl delete would treat the pods, as kubectl delete --cascade')
        .choices([...CASCADES])
        .default('background'),
    );
  },
  async run(ctx, args, raw) {
    const cascade = raw['cascade'] as Cascade;
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { analyzeImpact, IMPACT_KINDS }, { causesOf, withCauses }, { renderImpact }] =
      await Promise.all([
        import('../../model/snapshot-index.js'),
        import('../../analyze/impact/index.js'),
        import('../../analyze/causes/index.js'),
        import('../../render/impact.js'),
      ]);
    const { snapshot, defaultNamespace } = await ctx.load({
      daemonSet: args[0]!,
      kinds: [...IMPACT_KINDS],
      allPods: true,
    });
    const ds = resolveDaemonSet(snapshot, args[0]!, ctx.opts, defaultNamespace);
    const index = new SnapshotIndex(snapshot);
    // What is already broken about the DaemonSet, and why, before what deleting it breaks.
    const impact = withCauses(
      analyzeImpact(index, ds, cascade, ctx.opts.now),
      causesOf(index, [ds], { now: ctx.opts.now }),
    );
    ctx.emit(impact, (d, r, md) => renderImpact(d, r, md));
    // A pipeline gates a deletion on this: high and critical fail, medium only with --fail-on warning.
    return exitFor(ctx.opts, {
      error: impact.risk === 'critical' || impact.risk === 'high',
      warning: impact.risk === 'medium',
    });
  },
};
