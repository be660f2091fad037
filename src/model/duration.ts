const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days of a month (1–12) in the proleptic Gregorian calendar, as Go's time package counts them. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1]!;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/**
 * Milliseconds since the epoch of an RFC 3339 time, or NaN when the text is not one: the
 * format as Go's time.Parse(time.RFC3339) takes it (which metav1.Time uses), with real calendar
 * and clock ranges. Date.parse would take "2026-02-30" as 2 March, and "1" as the year 2001.
 */
export function parseRfc3339(text: string): number {
  const m = RFC3339.exec(text);
  if (!m) return Number.NaN;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
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
