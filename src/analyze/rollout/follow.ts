/**
 * `rollout --watch`: one step of following a rollout, from the DaemonSet as last seen and the
 * rollout diagnosis of the objects as they are now. It prints what `kubectl rollout status`
 * prints (k8s/rolloutstatus.ts), one line each time that line changes, and decides when
 * following ends: the rollout is done (kubectl's test, on `.status`), it is stuck (the diagnosis
 * says Stuck and still says so `confirmMs` later, or nothing progressed for `--stuck-after`), or
 * `--timeout` passed. Pure: the caller passes the clock.
 */
import type { DaemonSet } from '../../model/k8s-types.js';
import type { RolloutDiagnosis } from '../../model/results.js';
import { daemonSetStatusView } from '../../k8s/rolloutstatus.js';

export interface FollowOptions {
  /** When following started (ms since the epoch). */
  startMs: number;
  /** --stuck-after in ms: no progress for this long is stuck. */
  stuckAfterMs: number;
  /** --timeout in ms; 0: none. */
  timeoutMs: number;
  /** How long a Stuck diagnosis must hold before following ends (one event can be a moment between two others). */
  confirmMs: number;
}

export interface FollowState {
  /** The last line printed. */
  line?: string;
  /** What counts as progress, as last seen: kubectl's line and the pods' updated and available counts. */
  progress?: string;
  lastProgressMs: number;
  /** Since when the diagnosis has said Stuck, if it does. */
  stuckSinceMs?: number;
}

export type FollowOutcome = { end: 'complete' } | { end: 'stuck'; why: string } | { end: 'timeout'; why: string };

export interface FollowStep {
  /** Lines to print, in order (kubectl's, without the newline). */
  lines: string[];
  outcome?: FollowOutcome;
}

/** The state before the first step. */
export function startFollowing(startMs: number): FollowState {
  return { lastProgressMs: startMs };
}

/** "10m", "1h30m", "45s": a duration as the flags take it. */
export function durationText(ms: number): string {
  let s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}

/**
 * kubectl's line for `ds`, when it differs from the last one printed: called on every event of the
 * DaemonSet, so that no line is lost to a burst, as kubectl prints on each event.
 */
export function followLine(state: FollowState, ds: DaemonSet): string[] {
  const { message } = daemonSetStatusView(ds);
  if (message === state.line) return [];
  state.line = message;
  return [message];
}

/**
 * One step: `ds` as last seen, `diagnosis` of the current objects (undefined when it could not
 * be made), at `nowMs`. Changes `state` and says what to print and whether following ends.
 */
export function followStep(
  state: FollowState,
  ds: DaemonSet,
  diagnosis: RolloutDiagnosis | undefined,
  nowMs: number,
  opts: FollowOptions,
): FollowStep {
  const lines = followLine(state, ds);
  const view = daemonSetStatusView(ds);
  const progress = `${view.message}|${diagnosis?.updated ?? ''}|${diagnosis?.available ?? ''}`;
  if (progress !== state.progress) {
    state.progress = progress;
    state.lastProgressMs = nowMs;
  }
  if (view.done) return { lines, outcome: { end: 'complete' } };
  if (diagnosis?.verdict === 'Stuck') state.stuckSinceMs ??= nowMs;
  else delete state.stuckSinceMs;
  if (state.stuckSinceMs !== undefined && nowMs - state.stuckSinceMs >= opts.confirmMs) {
    return { lines, outcome: { end: 'stuck', why: 'the rollout is stuck' } };
  }
  if (nowMs - state.lastProgressMs >= opts.stuckAfterMs) {
    return {
      lines,
      outcome: { end: 'stuck', why: `no progress for ${durationText(opts.stuckAfterMs)} (--stuck-after)` },
    };
  }
  if (opts.timeoutMs > 0 && nowMs - opts.startMs >= opts.timeoutMs) {
    return { lines, outcome: { end: 'timeout', why: `timed out after ${durationText(opts.timeoutMs)} (--timeout)` } };
  }
  return { lines };
}
