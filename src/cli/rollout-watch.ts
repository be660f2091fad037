/**
 * `rollout <daemonset> --watch`: after the first load, follows the DaemonSet, its pods, its
 * revisions and the nodes with the watch API (src/load/live-watch.ts), re-runs the rollout diagnosis
 * after each change (a burst of events is diagnosed once), and prints `kubectl rollout status`'s
 * line each time it changes (src/analyze/rollout/follow.ts). Ends with exit 0 when the rollout is
 * done; with the full diagnosis and exit 1 when it is stuck or --timeout passes; with exit 130 on
 * Ctrl-C; with exit 3 when the cluster stays out of reach for --stuck-after.
 */
import type { DaemonSet } from '../model/k8s-types.js';
import type { ClusterSnapshot, LoadRequest } from '../model/snapshot.js';
import type { RolloutDiagnosis } from '../model/results.js';
import { DsDoctorError, EXIT, InputError } from '../model/errors.js';
import { escapeTerminal } from '../render/sanitize.js';
import type { CommandContext } from './context.js';

/** A burst of events (the controller writes status, then the pods change) is diagnosed once, this long after its first event. */
const DEBOUNCE_MS = 200;
/** The clock (--timeout, --stuck-after without progress) is checked this often. */
const TICK_MS = 1000;
/** Without a change, the diagnosis is made again this often (a transient state turns stuck by the clock alone). */
const REDIAGNOSE_MS = 5000;
/** A Stuck diagnosis must hold this long before following ends. */
const CONFIRM_STUCK_MS = 5000;

export interface WatchFlags {
  stuckAfter: number;
  /** --timeout in seconds; 0: none. */
  timeout: number;
}

export async function followRollout(
  ctx: CommandContext,
  request: LoadRequest,
  first: { snapshot: ClusterSnapshot; ds: DaemonSet },
  flags: WatchFlags,
): Promise<number> {
  const [
    { SnapshotIndex },
    { diagnoseRollout },
    { rolloutAnswer },
    { renderRollout },
    { followLine, followStep, startFollowing },
    { RolloutWatch },
    { isRollingUpdate },
  ] = await Promise.all([
    import('../model/snapshot-index.js'),
    import('../analyze/rollout/index.js'),
    import('../analyze/diagnose.js'),
    import('../render/rollout.js'),
    import('../analyze/rollout/follow.js'),
    import('../load/live-watch.js'),
    import('../k8s/defaults.js'),
  ]);
  const name = `${first.ds.metadata?.namespace}/${first.ds.metadata?.name}`;
  if (!isRollingUpdate(first.ds)) {
    // As kubectl rollout status: an OnDelete DaemonSet has no rollout to follow; its pods change when someone deletes them.
    throw new InputError(
      `rollout --watch: daemonset "${name}" uses the OnDelete update strategy, whose pods are replaced only when deleted, so there is no rollout to follow (kubectl rollout status refuses it too); run rollout without --watch for the pods still at an old revision`,
    );
  }
  const human = ctx.opts.output !== 'json' && ctx.opts.output !== 'yaml';
  // kubectl's lines go to stdout; with -o json or yaml, stdout holds the one document and the lines go to stderr.
  const say = (line: string) => (human ? ctx.io.stdout.write(`${escapeTerminal(line)}\n`) : ctx.note(line));
  const diagnose = (snapshot: ClusterSnapshot, ds: DaemonSet, now: Date): RolloutDiagnosis =>
    diagnoseRollout(new SnapshotIndex(snapshot), ds, now, flags.stuckAfter);

  const startMs = Date.now();
  const state = startFollowing(startMs);
  let finished = false;
  const stop = new AbortController();
  const interrupted = ctx.io.interrupted?.();
  const watch = await RolloutWatch.connect(first.snapshot, first.ds, ctx.liveOptions(), {
    changed: (kind) => {
      // kubectl's line follows each change of the DaemonSet at once; the diagnosis waits for the burst to end.
      const ds = kind === 'DaemonSet' && !finished ? watch.daemonSet() : undefined;
      if (ds) for (const line of followLine(state, ds)) say(line);
      schedule();
    },
    note: (text) => ctx.note(text),
  });
  await watch.list();

  const opts = {
    startMs,
    stuckAfterMs: flags.stuckAfter * 1000,
    timeoutMs: flags.timeout * 1000,
    confirmMs: CONFIRM_STUCK_MS,
  };
  type End = { code: number; why?: string; snapshot?: ClusterSnapshot; ds?: DaemonSet; error?: Error };
  let resolveEnd!: (end: End) => void;
  const ended = new Promise<End>((r) => (resolveEnd = r));
  const end = (e: End) => {
    if (finished) return;
    finished = true;
    resolveEnd(e);
  };

  let timer: NodeJS.Timeout | undefined;
  // A change since the last diagnosis; the last diagnosis and when it was made.
  let dirty = true;
  let last: { diagnosis: RolloutDiagnosis | undefined; snapshot: ClusterSnapshot; atMs: number } | undefined;
  function schedule(): void {
    dirty = true;
    if (!timer && !finished) timer = setTimeout(step, DEBOUNCE_MS);
  }
  function tick(): void {
    if (!timer && !finished) timer = setTimeout(step, 0);
  }
  function step(): void {
    timer = undefined;
    if (finished) return;
    const ds = watch.daemonSet();
    if (!ds) return end({ code: EXIT.problems, why: `daemonset "${name}" was deleted while its rollout was followed` });
    const now = new Date();
    if (dirty || !last || now.getTime() - last.atMs >= REDIAGNOSE_MS) {
      dirty = false;
      const snapshot = watch.snapshot();
      let fresh: RolloutDiagnosis;
      try {
        fresh = diagnose(snapshot, ds, now);
      } catch (error) {
        // A bug: said as one, not hidden behind the next change.
        return end({ code: EXIT.usage, error: error instanceof Error ? error : new Error(String(error)) });
      }
      last = { diagnosis: fresh, snapshot, atMs: now.getTime() };
    }
    const { diagnosis, snapshot } = last;
    const down = watch.down();
    const result = followStep(state, ds, diagnosis, now.getTime(), opts);
    for (const line of result.lines) say(line);
    const outcome = result.outcome;
    if (!outcome) return;
    if (outcome.end === 'complete') return end({ code: EXIT.ok, snapshot, ds });
    // Silence from a cluster out of reach is not the rollout's fault.
    if (down && outcome.end === 'stuck' && diagnosis?.verdict !== 'Stuck')
      return end({ code: EXIT.cluster, error: down });
    end({ code: EXIT.problems, why: outcome.why, snapshot, ds });
  }
  const ticker = setInterval(tick, TICK_MS);
  const onInterrupt = () => end({ code: EXIT.interrupted });
  interrupted?.addEventListener('abort', onInterrupt, { once: true });
  const running = watch
    .run(stop.signal)
    .catch((error: unknown) =>
      end({ code: EXIT.cluster, error: error instanceof Error ? error : new Error(String(error)) }),
    );
  step();

  const result = await ended;
  clearInterval(ticker);
  clearTimeout(timer);
  interrupted?.removeEventListener('abort', onInterrupt);
  stop.abort();
  await running;
  if (result.error) throw result.error;
  if (result.code === EXIT.interrupted) {
    ctx.note(`interrupted: stopped following the rollout of daemonset "${name}"`);
    return EXIT.interrupted;
  }
  if (result.code === EXIT.ok) {
    if (!human) ctx.emit(diagnose(result.snapshot!, result.ds!, new Date()), (d, r, md) => renderRollout(d, r, md));
    return EXIT.ok;
  }
  // Stuck, timed out or deleted: the full answer of `rollout`, from a fresh read with the events and root causes; from the watched objects when the cluster cannot be read again.
  if (result.ds) {
    let snapshot = result.snapshot!;
    let ds = result.ds;
    try {
      const fresh = await ctx.load(request);
      const again = fresh.snapshot.daemonSets.find(
        (d) => d.metadata?.namespace === ds.metadata?.namespace && d.metadata?.name === ds.metadata?.name,
      );
      if (again) {
        snapshot = fresh.snapshot;
        ds = again;
      }
    } catch (err) {
      // The cluster cannot be read again: the watched objects answer.
      if (!(err instanceof DsDoctorError)) throw err;
    }
    const now = new Date();
    const index = new SnapshotIndex(snapshot);
    const diagnosis = rolloutAnswer(index, ds, now, flags.stuckAfter);
    if (human) ctx.io.stdout.write('\n');
    ctx.emit(diagnosis, (d, r, md) => renderRollout(d, r, md));
  }
  ctx.note(`error: rollout of daemonset "${name}" did not complete: ${result.why}`);
  return EXIT.problems;
}
