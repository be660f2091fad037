/** `node <node>`: every DaemonSet in scope against one node. */
import { exitFor } from '../exit-code.js';
import { addStuckAfterOption, stuckAfterOf } from '../duration.js';
import { daemonSetsInScope, parseNodeArg, resolveNode, requireKinds, scopeText } from '../scope.js';
import type { CommandSpec } from './spec.js';
import { severitiesOf } from './verdicts.js';

export const nodeCommand: CommandSpec = {
  usage: 'node <node>',
  description: 'Every DaemonSet in scope against one node: the view for a misbehaving node',
  examples: ['ds-doctor node worker-5 -f fixtures/demo', 'kubectl ds-doctor node ip-10-0-1-23.ec2.internal -A'],
  options: addStuckAfterOption,
  async run(ctx, args, raw) {
    const stuckAfter = stuckAfterOf(raw);
    // A node-centric view: every DaemonSet that can put a pod on the node, unless -n narrows it.
    if (ctx.opts.namespace === undefined) ctx.opts.allNamespaces = true;
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { nodeReport }, { causesOnNode, withCauses }, { renderNodeReport }] = await Promise.all([
      import('../../model/snapshot-index.js'),
      import('../../analyze/placement/index.js'),
      import('../../analyze/causes/index.js'),
      import('../../render/placement.js'),
    ]);
    const { snapshot, defaultNamespace } = await ctx.load({
      node: parseNodeArg(args[0]!),
      kinds: ['Event', 'ControllerRevision'],
      allPods: true,
    });
    const index = new SnapshotIndex(snapshot);
    const node = resolveNode(snapshot, args[0]!);
    const daemonSets = daemonSetsInScope(snapshot, ctx.opts, defaultNamespace);
    requireKinds(snapshot, 'node', ['Node', 'Pod'], daemonSets);
    const causes = causesOnNode(index, daemonSets, node.metadata?.name ?? '', {
      now: ctx.opts.now,
      stuckAfter,
      partial: snapshot.source === 'live',
    });
    const result = withCauses(
      nodeReport(index, daemonSets, node, ctx.opts.now, scopeText(ctx.opts, defaultNamespace), stuckAfter),
      causes,
    );
    ctx.emit(result, (d, r, md) => renderNodeReport(d, r, md));
    return exitFor(ctx.opts, severitiesOf(result.daemonSets, result.causes));
  },
};
