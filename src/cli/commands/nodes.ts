/** `nodes <daemonset>`: one row per node, filterable by verdict and node labels. */
import { InputError } from '../../model/errors.js';
import { VERDICTS, type Verdict } from '../../model/results.js';
import { compileLabelSelector, parseSelectorString } from '../../k8s/labels.js';
import { exitFor } from '../exit-code.js';
import { resolveDaemonSet, requireKinds } from '../scope.js';
import type { CommandSpec } from './spec.js';
import { severitiesOf } from './verdicts.js';

function collect(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

export const nodesCommand: CommandSpec = {
  usage: 'nodes <daemonset>',
  description: 'One row per node: verdict, pod, readiness, revision and main reason',
  examples: [
    'ds-doctor nodes kube-system/calico-node -f fixtures/demo',
    'ds-doctor nodes fluent-bit -n logging --verdict Unhealthy,Pending -l node-pool=gpu',
  ],
  options: (cmd) => {
    cmd.option('--verdict <verdicts>', `only these verdicts (comma-separated: ${VERDICTS.join(', ')})`, collect, []);
    cmd.option('-l, --selector <selector>', 'only nodes whose labels match this selector (e.g. node-pool=gpu)');
  },
  async run(ctx, args, raw) {
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { daemonSetNodes }, { causesOf, withCauses }, { renderDaemonSetNodes }] =
      await Promise.all([
        import('../../model/snapshot-index.js'),
        import('../../analyze/placement/index.js'),
        import('../../analyze/causes/index.js'),
        import('../../render/placement.js'),
      ]);
    // raw['verdict'] is unknown (commander's collect() makes it a list); the rule takes the
    // assertion for a generic call's inferred type argument.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    const verdicts = (raw['verdict'] as string[]).map((v) => {
      const match = VERDICTS.find((x) => x.toLowerCase() === v.toLowerCase());
      if (!match) throw new InputError(`--verdict: "${v}" is not a verdict (one of ${VERDICTS.join(', ')})`);
      return match;
    }) as Verdict[];
    let nodeFilter: Set<string> | undefined;
    const { snapshot, defaultNamespace } = await ctx.load({
      daemonSet: args[0]!,
      kinds: ['Event', 'ControllerRevision'],
      allPods: true,
    });
    if (typeof raw['selector'] === 'string') {
      let compiled;
      try {
        compiled = compileLabelSelector(parseSelectorString(raw['selector']));
      } catch (err) {
        throw new InputError(`-l/--selector: ${(err as Error).message}`);
      }
      if (!compiled.ok) throw new InputError(`-l/--selector: ${compiled.error}`);
      const matches = compiled.matches;
      nodeFilter = new Set(
        snapshot.nodes.filter((n) => matches(n.metadata?.labels)).map((n) => n.metadata?.name ?? ''),
      );
    }
    const index = new SnapshotIndex(snapshot);
    const ds = resolveDaemonSet(snapshot, args[0]!, ctx.opts, defaultNamespace);
    requireKinds(snapshot, 'nodes', ['Node', 'Pod'], [ds]);
    const result = withCauses(
      daemonSetNodes(index, ds, ctx.opts.now, { verdicts, ...(nodeFilter ? { nodes: nodeFilter } : {}) }),
      causesOf(index, [ds], { now: ctx.opts.now }),
    );
    ctx.emit(result, (d, r, md) => renderDaemonSetNodes(d, r, md));
    return exitFor(ctx.opts, severitiesOf(result.nodes, result.causes));
  },
};
