/**
 * What every registered reason code carries: the registries in this folder are the one list of
 * codes per family, the union types are derived from them, and docs/reasons.md is generated from
 * them (`npm run docs`).
 */
import type { Severity } from '../severity.js';

export interface ReasonEntry {
  /** The severity the code usually carries; `alsoSeverities` lists the others it can take. */
  readonly severity: Severity;
  readonly alsoSeverities?: readonly Severity[];
  /** A short phrase in the scheduler's "N node(s) …" style. */
  readonly short: string;
  /** What the code means, in one or two sentences. */
  readonly meaning: string;
  /** The upstream source the code mirrors, as `kubernetes v1.35.4 pkg/...#Function`, where there is one. */
  readonly upstream?: string;
}

/** A family of codes: its title in docs/reasons.md, where it appears in the JSON, and its entries. */
export interface ReasonFamily {
  readonly title: string;
  readonly appearsIn: string;
  readonly entries: Readonly<Record<string, ReasonEntry>>;
}
