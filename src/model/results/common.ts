/**
 * What the result documents share (docs/design.md §4): the apiVersion, a reference to a namespaced
 * object, the root causes the cause engine finds across objects, and the outcome of one context
 * when a command reads several.
 */
import type { CauseCode } from '../reasons/index.js';
import type { Severity } from '../severity.js';

export const API_VERSION = 'ds-doctor/v1';

export interface ObjectRef {
  namespace: string;
  name: string;
}

/** An object a root cause names: the one to look at or fix. */
export interface CauseObject {
  kind: string;
  namespace?: string;
  name: string;
}

/**
 * A root cause found across objects (src/analyze/causes/): the chain from the symptom to the one
 * object an SRE must fix, shortest first, with its evidence and the fix that works.
 */
export interface RootCause {
  /** The kubeconfig context it was found in, when the command read several. */
  context?: string;
  code: CauseCode;
  severity: Severity;
  /** The chain on one line: "worker-5: network not ready → calico-node not there (…) → affects …". */
  summary: string;
  /** The steps from the symptom to the cause, one phrase each. */
  chain: string[];
  /** The nodes the cause is seen on (empty when it is not about nodes). */
  nodes: string[];
  /** The object to look at or fix. */
  cause: CauseObject;
  /** The DaemonSets whose symptoms it explains. */
  affects: ObjectRef[];
  evidence: string[];
  fix: string;
  /** The upstream code, issue or vendor documentation the link rests on. */
  reference?: string;
}

/**
 * One cluster of a command that reads several (`--context` repeated, `--all-contexts`): how many
 * DaemonSets it gave, the exit code the command would give for it alone, and, when it could not be
 * read, the one error line.
 */
export interface ContextOutcome {
  context: string;
  scope?: string;
  daemonSets: number;
  exitCode: number;
  error?: string;
}
