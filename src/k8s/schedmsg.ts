/**
 * Parsing of the scheduler's FailedScheduling message (`FitError.Error`,
 * pkg/scheduler/framework/types.go) in every form since 1.28: the histogram, the PreFilter
 * message, the PostFilter messages (DynamicResources' and the preemption suffix, with or without
 * the 1.28 double period), and both TaintToleration wordings.
 */
import type { ReasonCode } from '../model/results.js';

export interface FitErrorEntry {
  count: number;
  reason: string;
}

export interface ParsedFitError {
  totalNodes: number;
  entries: FitErrorEntry[];
  /** The text after `preemption: `, if any. */
  preemption?: string;
  /** A PreFilter message that replaced the histogram. */
  preFilter?: string;
}

const HEAD = /^0\/(\d+) nodes are available:\s*/;

function splitHistogram(text: string): FitErrorEntry[] {
  const entries: FitErrorEntry[] = [];
  // Entries look like "<count> <reason>", joined by ", "; reasons may contain commas inside braces.
  const re = /(\d+) ((?:[^,{]|\{[^}]*\})+?)(?=, \d+ |$)/g;
  for (const m of text.matchAll(re)) entries.push({ count: Number(m[1]), reason: m[2]!.trim() });
  return entries;
}

/** Parses a FailedScheduling message; undefined when it is not in the scheduler's format. */
export function parseFitError(message: string): ParsedFitError | undefined {
  const m = HEAD.exec(message.trim());
  if (!m) return undefined;
  const totalNodes = Number(m[1]);
  let rest = message.trim().slice(m[0].length);
  // The histogram (or PreFilter message) ends with "."; the PostFilter plugins' messages follow,
  // joined by ", " — 1.34+ puts DynamicResources' before preemption's: ". no new claims to
  // deallocate, preemption: …".
  let post = '';
  const end = rest.indexOf('. ');
  if (end >= 0) {
    post = rest.slice(end + 2);
    rest = rest.slice(0, end);
  } else {
    rest = rest.replace(/\.$/, '');
  }
  let preemption: string | undefined;
  const p = post.indexOf('preemption: ');
  if (p >= 0) preemption = post.slice(p + 'preemption: '.length).replace(/\.\.$/, '.');
  const entries = splitHistogram(rest);
  if (entries.length === 0) return { totalNodes, entries, preFilter: rest, ...(preemption ? { preemption } : {}) };
  return { totalNodes, entries, ...(preemption ? { preemption } : {}) };
}

/** Entries that concern the daemon pod's own target node (not the NodeAffinity pin noise). */
export function targetNodeEntries(parsed: ParsedFitError): FitErrorEntry[] {
  return parsed.entries.filter(
    (e) =>
      !/didn't satisfy plugin\(s\) \[NodeAffinity\]/.test(e.reason) &&
      !(parsed.entries.length > 1 && /didn't match Pod's node affinity\/selector/.test(e.reason) && e.count > 1),
  );
}

/** Maps one scheduler filter reason to our reason code. */
export function codeForSchedulerReason(reason: string): ReasonCode {
  if (/^Insufficient /.test(reason)) return 'InsufficientResource';
  if (/^Too many pods/.test(reason)) return 'TooManyPods';
  if (/free ports/.test(reason)) return 'HostPortConflict';
  if (/untolerated taint|taints that the pod didn't tolerate/.test(reason)) return 'UntoleratedTaint';
  if (/node affinity\/selector|scheduler-enforced node affinity/.test(reason)) return 'NodeAffinityMismatch';
  if (/requested node name/.test(reason)) return 'NodeNameMismatch';
  if (/waiting for scheduling gates/.test(reason)) return 'SchedulingGated';
  if (/volume|PersistentVolume|disk|ReadWriteOncePod|free storage/i.test(reason)) return 'VolumeConflict';
  return 'FailedScheduling';
}

/** What the preemption suffix says about the target node: can preemption help? */
export function preemptionVerdict(
  preemption: string | undefined,
): 'not-tried' | 'no-victims' | 'not-helpful' | 'not-eligible' | 'unknown' {
  if (!preemption) return 'not-tried';
  if (/not eligible/.test(preemption)) return 'not-eligible';
  if (/No preemption victims found/.test(preemption)) return 'no-victims';
  if (/Preemption is not helpful/.test(preemption)) return 'not-helpful';
  return 'unknown';
}
