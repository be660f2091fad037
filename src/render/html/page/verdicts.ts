/** How a verdict, a health, a risk and a severity look: a symbol and a word always go with the colour. */

export interface Look {
  symbol: string;
  /** A CSS class of the palette in style.ts. */
  tone: 'ok' | 'off' | 'bad' | 'wait' | 'warn' | 'odd' | 'info';
}

/** Per DaemonSet × node verdict (docs/design.md §4.1). */
export const VERDICT_LOOK: Record<string, Look> = {
  Healthy: { symbol: '✓', tone: 'ok' },
  Excluded: { symbol: '○', tone: 'off' },
  Missing: { symbol: '✗', tone: 'bad' },
  Pending: { symbol: '…', tone: 'wait' },
  Unhealthy: { symbol: '!', tone: 'warn' },
  Misscheduled: { symbol: '≠', tone: 'odd' },
};

/** Scan health. */
export const HEALTH_LOOK: Record<string, Look> = {
  Healthy: { symbol: '✓', tone: 'ok' },
  RollingOut: { symbol: '↻', tone: 'info' },
  Degraded: { symbol: '!', tone: 'warn' },
  Stuck: { symbol: '■', tone: 'bad' },
  Failing: { symbol: '✗', tone: 'bad' },
};

export const SEVERITY_LOOK: Record<string, Look> = {
  error: { symbol: '✗', tone: 'bad' },
  warning: { symbol: '!', tone: 'warn' },
  info: { symbol: 'i', tone: 'info' },
};

export const RISK_LOOK: Record<string, Look> = {
  critical: { symbol: '✗', tone: 'bad' },
  high: { symbol: '!', tone: 'warn' },
  medium: { symbol: '~', tone: 'wait' },
  low: { symbol: '✓', tone: 'ok' },
};

export const ROLLOUT_LOOK: Record<string, Look> = {
  Complete: { symbol: '✓', tone: 'ok' },
  Progressing: { symbol: '↻', tone: 'info' },
  Stuck: { symbol: '■', tone: 'bad' },
  Pending: { symbol: '…', tone: 'wait' },
  Manual: { symbol: '‖', tone: 'warn' },
};

const UNKNOWN: Look = { symbol: '?', tone: 'off' };

/** The look of `word` in `looks`, or a neutral one. */
export function lookOf(looks: Record<string, Look>, word: string): Look {
  return looks[word] ?? UNKNOWN;
}
