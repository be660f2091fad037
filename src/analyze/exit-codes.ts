/**
 * What a container's last termination says: its exit code read by the shell's and the container
 * runtimes' convention (126, 127, 128+n for signal n), as `why` and the cause engine show it
 * (pod-health.ts reads it for crash loops and containers that exit).
 */
import type { ContainerState } from '../model/k8s-types.js';

type ContainerStateTerminated = NonNullable<ContainerState['terminated']>;

/** Signals by number (Linux), with what a container that died of one usually means. */
const SIGNALS: Record<number, [string, string]> = {
  1: ['SIGHUP', 'hang-up'],
  2: ['SIGINT', 'interrupted'],
  3: ['SIGQUIT', 'quit, with a core dump'],
  4: [
    'SIGILL',
    "illegal instruction: the binary uses CPU instructions this node's CPU lacks (built for a newer CPU or another architecture)",
  ],
  5: ['SIGTRAP', 'trace trap'],
  6: ['SIGABRT', 'aborted: an assertion or a fatal error in a library'],
  7: ['SIGBUS', 'bus error: bad memory access, often a truncated or memory-mapped file'],
  8: ['SIGFPE', 'arithmetic error, such as an integer division by zero'],
  9: ['SIGKILL', 'killed from outside'],
  11: ['SIGSEGV', 'segmentation fault: a crash in the program or a native library'],
  13: ['SIGPIPE', 'wrote to a closed pipe or socket'],
  15: ['SIGTERM', 'asked to stop: a failed liveness probe, a deletion, or a shutdown'],
};

/**
 * What an exit code says, by the shell's and the container runtimes' convention: 126 the command
 * cannot be run, 127 it is not found, 128+n death by signal n. SIGKILL without OOMKilled is a kill
 * from outside the cgroup's memory limit. "exec format error" is a binary of another architecture.
 */
export function exitMeaning(t: ContainerStateTerminated): string | undefined {
  if (/exec format error/i.test(t.message ?? ''))
    return 'exec format error: the binary is built for another CPU architecture';
  const code = t.exitCode;
  if (code === 126) return 'the command cannot be executed: not executable, or a permission problem';
  if (code === 127) return 'the command is not found in the image';
  if (code !== undefined && code > 128 && code <= 128 + 64) {
    const sig = SIGNALS[code - 128];
    if (!sig) return `killed by signal ${code - 128}`;
    if (code === 137)
      return t.reason === 'OOMKilled'
        ? undefined
        : 'SIGKILL: killed from outside, not for memory (the kubelet after a failed liveness probe or the grace period, or another process)';
    return `${sig[0]}: ${sig[1]}`;
  }
  return undefined;
}

/** The last termination's exit, as kubectl describe shows it, with what the code means. */
export function exitText(t: ContainerStateTerminated): string {
  const meaning = exitMeaning(t);
  return `${t.reason ?? 'Terminated'}, exit code ${t.exitCode ?? '?'}${meaning ? ` (${meaning})` : ''}`;
}

/** Exit code 0 ("Completed"). */
export function exitedZero(t: ContainerStateTerminated): boolean {
  return t.exitCode === 0 || (t.exitCode === undefined && t.reason === 'Completed');
}
