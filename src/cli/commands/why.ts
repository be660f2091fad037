/** `why <daemonset> [node]`: verdict and reasons for one node, or every node without a healthy pod. */
import { exitFor } from '../exit-code.js';
import { addStuckAfterOption, stuckAfterOf } from '../duration.js';
import { parseNodeArg, resolveDaemonSet, resolveNode, requireKinds } from '../scope.js';
import type { CommandSpec } from './spec.js';
import { severitiesOf } from './verdicts.js';

export const whyCommand: CommandSpec = {
  usage: 'why <daemonset> [node]',
  description: 'Why a node has no healthy pod of a DaemonSet (without a node: every such node)',
  examples: [
    'ds-doctor why logging/fluent-bit worker-1 -f fixtures/demo',
    'kubectl ds-doctor why calico-node -n kube-system',
  ],
  options: addStuckAfterOption,
  async run(ctx, args, raw) {
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { daemonSetAnswer, nodeAnswer }, { renderDaemonSetDiagnosis, renderNodeDiagnosis }] =
      await Promise.all([
        import('../../model/snapshot-index.js'),
        import('../../analyze/diagnose.js'),
        import('../../render/placement.js'),
      ]);
    const [dsArg, nodeArg] = args as [string, string | undefined];
    const stuckAfter = stuckAfterOf(raw);
    const { snapshot, defaultNamespace } = await ctx.load({
      daemonSet: dsArg,
      // With a node, a live load reads that node and the pods on it or waiting for it: the
      // requests and time do not grow with the cluster.
      ...(nodeArg ? { node: parseNodeArg(nodeArg), nodeScoped: true } : { causeAgents: true }),
      // The webhooks and namespace labels the admission chain of root causes reads.
      kinds: nodeArg
        ? ['Event', 'ControllerRevision']
        : ['Event', 'ControllerRevision', 'MutatingWebhookConfiguration', 'Namespace'],
      allPods: true,
    });
    const index = new SnapshotIndex(snapshot);
    const ds = resolveDaemonSet(snapshot, dsArg, ctx.opts, defaultNamespace);
    requireKinds(snapshot, 'why', ['Node', 'Pod'], [ds]);
    if (nodeArg) {
      const node = resolveNode(snapshot, nodeArg);
      // A live answer for one node reads that node's worth only: rules over every node stay out.
      const result = nodeAnswer(index, ds, node, ctx.opts.now, stuckAfter, snapshot.source === 'live');
      ctx.emit(result, (d, r, md) => renderNodeDiagnosis(d, r, md));
      return exitFor(ctx.opts, severitiesOf([result], result.causes));
    }
    const result = daemonSetAnswer(index, ds, ctx.opts.now, stuckAfter);
    ctx.emit(result, (d, r, md) => renderDaemonSetDiagnosis(d, r, md));
    return exitFor(ctx.opts, severitiesOf(result.nodes, result.causes));
  },
};
