/**
 * `rollout <daemonset>`: is the rollout complete, progressing or stuck, and why. With
 * `-l/--selector` instead of a name, every DaemonSet in scope whose labels match, one answer after
 * another (as `kubectl rollout status daemonset -l …` goes through each), in a
 * `RolloutDiagnosisList` for -o json/yaml.
 */
import { exitFor } from '../exit-code.js';
import { addStuckAfterOption, parseDuration, stuckAfterOf } from '../duration.js';
import { InputError } from '../../model/errors.js';
import type { LoadRequest } from '../../model/snapshot.js';
import { daemonSetsInScope, resolveDaemonSet, requireKinds, scopeText } from '../scope.js';
import type { CommandSpec } from './spec.js';
import { OUTPUT_FORMATS } from '../options.js';
import { daemonSetSelectorOf, writeNames } from '../scripting.js';
import { API_VERSION, type RolloutDiagnosis } from '../../model/results.js';
import { Option } from 'commander';

/** What a rollout answer reads besides DaemonSets, Nodes and Pods. */
const ROLLOUT_KINDS: LoadRequest['kinds'] = [
  'Event',
  'ControllerRevision',
  'MutatingWebhookConfiguration',
  'Namespace',
];

export const rolloutCommand: CommandSpec = {
  usage: 'rollout [daemonset]',
  description: 'Is the rollout complete, progressing or stuck, and why (budget, blockers, what changed)',
  examples: [
    'ds-doctor rollout logging/fluent-bit -f fixtures/demo',
    'kubectl ds-doctor rollout kube-proxy -n kube-system --stuck-after 5m',
    'kubectl ds-doctor rollout kube-system/kube-proxy --watch --timeout 10m --stuck-after 3m',
    'kubectl ds-doctor rollout -A -l app.kubernetes.io/part-of=monitoring -o name',
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
    cmd.addOption(
      new Option(
        '-l, --selector <selector>',
        'instead of a name: every DaemonSet in scope whose labels match, as kubectl rollout status -l (e.g. app=agent)',
      ),
    );
  },
  async run(ctx, args, raw) {
    // Loaded when the command runs, so that --help and --version start without them.
    const [{ SnapshotIndex }, { rolloutAnswer }, { renderRollout }] = await Promise.all([
      import('../../model/snapshot-index.js'),
      import('../../analyze/diagnose.js'),
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
    const selector = daemonSetSelectorOf(raw);
    if (selector && args[0] !== undefined)
      throw new InputError(`-l/--selector: give a DaemonSet name or a selector, not both (${args[0]})`);
    if (!selector && args[0] === undefined)
      throw new InputError("rollout: missing argument 'daemonset' (a DaemonSet name, or -l/--selector)");
    if (selector && watch) throw new InputError('-l/--selector: not with --watch (it follows one DaemonSet)');
    // One DaemonSet by name, or every one in scope that -l selects: each answered alike.
    const request: LoadRequest = selector
      ? { kinds: ROLLOUT_KINDS, causeAgents: true, daemonSetSelector: selector.text }
      : { daemonSet: args[0]!, kinds: ROLLOUT_KINDS, allPods: true, causeAgents: true };
    const { snapshot, defaultNamespace } = await ctx.load(request);
    const daemonSets = selector
      ? daemonSetsInScope(snapshot, ctx.opts, defaultNamespace).filter((d) => selector.matches(d))
      : [resolveDaemonSet(snapshot, args[0]!, ctx.opts, defaultNamespace)];
    if (selector && !daemonSets.length)
      throw new InputError(
        `-l/--selector ${selector.text}: no DaemonSet in ${scopeText(ctx.opts, defaultNamespace)} matches`,
      );
    requireKinds(snapshot, 'rollout', ['Node', 'Pod'], daemonSets);
    if (watch) {
      const { followRollout } = await import('../rollout-watch.js');
      return followRollout(ctx, request, { snapshot, ds: daemonSets[0]! }, { stuckAfter, timeout });
    }
    const index = new SnapshotIndex(snapshot);
    const items: RolloutDiagnosis[] = daemonSets.map((d) => rolloutAnswer(index, d, ctx.opts.now, stuckAfter));
    if (ctx.opts.output === 'name')
      writeNames(
        ctx,
        items.map((r) => r.daemonSet.name),
      );
    else if (selector)
      ctx.emit({ apiVersion: API_VERSION, kind: 'RolloutDiagnosisList' as const, items }, (d, r, md) =>
        d.items.map((x) => renderRollout(x, r, md)).join('\n'),
      );
    else ctx.emit(items[0]!, (d, r, md) => renderRollout(d, r, md));
    return exitFor(ctx.opts, {
      error: items.some((r) => r.verdict === 'Stuck'),
      warning: items.some((r) => r.verdict === 'Manual' || r.verdict === 'Pending'),
    });
  },
};
