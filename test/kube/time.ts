/** The evaluation instant of every test object and generated fixture, and times relative to it. */

/** The evaluation instant, as RFC 3339 (run the tool with `--now` set to it). */
export const NOW_ISO = '2026-11-29T12:00:00Z';
/** The evaluation instant. */
export const NOW = new Date(NOW_ISO);
/** Seconds in a minute, an hour, a day. */
export const MIN = 60;
export const HOUR = 3600;
export const DAY = 86400;

/** An RFC 3339 time `seconds` before NOW (fractions kept as milliseconds). */
export function ago(seconds: number): string {
  return new Date(NOW.getTime() - seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

/** An RFC 3339 time `secondsAgo` seconds before NOW, in whole seconds like the API writes (negative: after NOW). */
export function at(secondsAgo: number): string {
  return new Date(NOW.getTime() - Math.round(secondsAgo) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Seconds from the RFC 3339 time `ts` to NOW. */
export function secondsBefore(ts: string): number {
  return (NOW.getTime() - Date.parse(ts)) / 1000;
}
