const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Milliseconds since the epoch of an RFC 3339 time, or NaN when the text is not one: the
 * format as Go's time.Parse(time.RFC3339) takes it (which metav1.Time uses), with real calendar
 * and clock ranges. Date.parse would take "2026-02-30" as 2 March, and "1" as the year 2001.
 */
export function parseRfc3339(text: string): number {
  const m = RFC3339.exec(text);
  if (!m) return Number.NaN;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHours = m[9] === undefined ? 0 : Number(m[9]);
  const offsetMinutes = m[10] === undefined ? 0 : Number(m[10]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return Number.NaN;
  const fraction = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const offset = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return Date.UTC(year, month - 1, day, hour, minute, second, fraction) - offset;
}

/** Durations the way kubectl prints ages: 45s, 12m, 3h20m, 5d; "<unknown>" for no duration (NaN). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '<unknown>';
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return `${d}d${h % 24 ? `${h % 24}h` : ''}`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

/** Age of an RFC 3339 timestamp at `now`, or "<unknown>". */
export function ageOf(timestamp: string | null | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  return formatDuration(now.getTime() - parseRfc3339(timestamp));
}
