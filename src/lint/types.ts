/**
 * The shape of a lint rule, ESLint-style: metadata that documents it (README, SARIF rule
 * metadata) and a pure `check` over one DaemonSet.
 */
import type { DaemonSet, Node } from '../model/k8s-types.js';
import type { Severity } from '../model/results.js';
import type { SnapshotIndex } from '../model/snapshot-index.js';
import type { DaemonPlacement } from '../k8s/daemonpod.js';
import type { AgentRole, RoleMatch } from '../model/roles.js';

/** What documents a rule: the README entry and the SARIF `reportingDescriptor` are built from it. */
export interface RuleMeta {
  /** Stable kebab-case id; also the README anchor. */
  id: string;
  /** The most severe level the rule reports (a finding may be milder, e.g. info for a role that needs it). */
  severity: Severity;
  /** When findings are milder than `severity`, and why (README). */
  severityNote?: string;
  /** One sentence: what the rule checks. */
  description: string;
  /** Why it matters for a DaemonSet, with the source that motivates it. */
  rationale: string;
  /** How to fix it, in one or two sentences. */
  howToFix: string;
  /** A minimal manifest fragment that fires the rule (YAML). */
  example: string;
  /** The cluster data the rule needs; without it the rule reports "not checked". */
  needsCluster?: string;
}

/** One problem a rule found in one DaemonSet. */
export interface RuleFinding {
  /** Defaults to the rule's `meta.severity`. */
  severity?: Severity;
  message: string;
  /** JSON path into the DaemonSet, e.g. `spec.template.spec.containers[0].image`. */
  path: string;
  /** What to change: a sentence, or a YAML snippet where one helps. */
  fix: string;
}

/** Shared, memoised facts about the input that several rules need. */
export interface LintContext {
  readonly index: SnapshotIndex;
  /** The roles the DaemonSet plays on its nodes (CSIDriver names of the input included). */
  roles(ds: DaemonSet): RoleMatch<AgentRole>[];
  /** The controller's placement decision for `ds` (`NodeShouldRunDaemonPod`), compiled once. */
  placement(ds: DaemonSet): DaemonPlacement;
  /** Nodes of the input on which the controller would run a pod of `ds` (`shouldRun`). */
  targetNodes(ds: DaemonSet): Node[];
}

/** A lint rule: metadata plus a pure check. */
export interface LintRule {
  meta: RuleMeta;
  /**
   * Why the rule cannot be checked on this input (e.g. no Node objects), or undefined when it
   * can. Evaluated once per run.
   */
  notChecked?(ctx: LintContext): string | undefined;
  check(ds: DaemonSet, ctx: LintContext): RuleFinding[];
}
