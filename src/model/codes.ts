/** Default short phrases per reason code, in the scheduler's "N node(s) …" style (from the registry). */
import type { Reason, ReasonCode } from './results.js';
import { PLACEMENT_REASONS } from './reasons/index.js';

export const SHORT_PHRASE: Record<ReasonCode, string> = Object.fromEntries(
  Object.entries(PLACEMENT_REASONS).map(([code, entry]) => [code, entry.short]),
) as Record<ReasonCode, string>;

/** A reason without its short phrase gets the code's default one. */
export function withShort(r: Omit<Reason, 'short'> & { short?: string }): Reason {
  return { ...r, short: r.short ?? SHORT_PHRASE[r.code] };
}
