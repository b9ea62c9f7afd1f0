/**
 * Instants on the wire: ISO-8601 strings in, ISO-8601 UTC `Z` strings out, milliseconds
 * since the epoch inside. Parsing is strict (a date, a time, an offset) so that a value that
 * is not clearly an instant is refused rather than guessed at.
 */

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/** The ISO-8601 UTC form of an instant, with milliseconds (`2026-11-22T09:15:00.000Z`). */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Milliseconds since the epoch of an ISO-8601 instant with an explicit offset (`Z` or
 * `±hh:mm`), or `undefined` when the text is not one. Fractions finer than a millisecond
 * are dropped (Python's `isoformat()` sends microseconds).
 */
export function parseIsoInstant(text: string): number | undefined {
  const m = ISO_INSTANT.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '0', frac = '', z, sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const millis = Number((frac + '000').slice(0, 3));
  const offset = z ? 0 : (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const utc = utcMs(year, month - 1, day, hour, minute, second, millis) - offset;
  return Number.isFinite(utc) ? utc : undefined;
}

/** `Date.UTC` without its quirk of reading years 0–99 as 1900–1999. */
export function utcMs(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month, 0)).getUTCDate();
}
