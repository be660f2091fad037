/**
 * Pure helpers of the live benchmark (bench/live.ts): the requests one client made, read from the
 * API server's audit log (one JSON event per line, Metadata level), and how figures are shown.
 */

/** One request as the audit log tells it: its verb and URI. */
export interface AuditedRequest {
  verb: string;
  requestURI: string;
}

/** The requests a client made and the distinct ones, `verb path?query` with continue tokens elided. */
export interface RequestTally {
  count: number;
  /** `verb /path?sorted&query` → how many times, sorted by path. */
  distinct: [string, number][];
}

/**
 * The completed requests of the user agents `agent` accepts in audit-log text (JSON lines): one
 * per `ResponseComplete` event, so a request is counted once whatever stages the policy logs.
 * Lines that are not JSON (a line cut by a concurrent write) are skipped.
 */
export function requestsOf(text: string, agent: (userAgent: string) => boolean): AuditedRequest[] {
  const out: AuditedRequest[] = [];
  for (const line of text.split('\n')) {
    // The agent is matched on the raw line first: most events are other clients' (controllers).
    if (!line.includes('"ResponseComplete"')) continue;
    let e: { stage?: unknown; userAgent?: unknown; verb?: unknown; requestURI?: unknown };
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      continue;
    }
    if (e.stage !== 'ResponseComplete' || typeof e.userAgent !== 'string' || !agent(e.userAgent)) continue;
    out.push({
      verb: typeof e.verb === 'string' ? e.verb : '',
      requestURI: typeof e.requestURI === 'string' ? e.requestURI : '',
    });
  }
  return out;
}

/** `list /api/v1/pods?continue=…&limit=500`: the query sorted, a continue token shown as `…`. */
export function describeRequest(r: AuditedRequest): string {
  const url = new URL(r.requestURI, 'https://x');
  if (url.searchParams.has('continue')) url.searchParams.set('continue', '…');
  url.searchParams.sort();
  const query = decodeURIComponent(url.searchParams.toString());
  return `${r.verb} ${url.pathname}${query ? `?${query}` : ''}`;
}

/** The count and the distinct requests, each with how often it was made. */
export function tally(requests: AuditedRequest[]): RequestTally {
  const counts = new Map<string, number>();
  for (const r of requests) {
    const d = describeRequest(r);
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  return { count: requests.length, distinct: [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) };
}

/** The user agent ds-doctor sends (src/client/credentials.ts). */
export const isDsDoctor = (userAgent: string): boolean => userAgent === 'ds-doctor';
/** kubectl's user agent: `kubectl/v1.35.4 (linux/amd64) kubernetes/…`. */
export const isKubectl = (userAgent: string): boolean => userAgent.startsWith('kubectl/');

/** `0.62×`: a figure over its baseline; `—` when either is missing or the baseline is zero. */
export function ratioText(value: number | undefined, baseline: number | undefined): string {
  if (
    value === undefined ||
    baseline === undefined ||
    !Number.isFinite(value) ||
    !Number.isFinite(baseline) ||
    baseline <= 0
  )
    return '—';
  return `${(value / baseline).toFixed(2)}×`;
}

/** The median of the values (the lower middle one for an even count); undefined for none. */
export function medianOf(values: number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * The median of each round's ratio `top[i] / bottom[i]`, over the rounds that gave both figures
 * (undefined: that run failed): two commands run one after the other in each round see the same
 * load, which a ratio of their medians can pair a fast run of one with a slow run of the other.
 */
export function pairedRatio(top: (number | undefined)[], bottom: (number | undefined)[]): number | undefined {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(top.length, bottom.length); i++) {
    const a = top[i];
    const b = bottom[i];
    if (a !== undefined && b !== undefined && b > 0) ratios.push(a / b);
  }
  return medianOf(ratios);
}
