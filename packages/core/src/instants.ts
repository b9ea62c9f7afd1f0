/**
 * Instants on the wire: ISO-8601 strings in, ISO-8601 UTC `Z` strings out, milliseconds
 * since the epoch inside. Parsing is strict (a date, a time, an offset) so that a value that
 * is not clearly an instant is refused rather than guessed at.
 */

import { parseDateTime } from '@tock/protocol';

const DAY_MS = 86_400_000;
/** The last instant a `Date` holds (±8.64e15 ms: ECMA-262 "Time Values and Time Range"). */
const MAX_TIME_MS = 8.64e15;
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** The UTC day {@link toIso} wrote last: its first millisecond and its date with the `T` (`2026-11-22T`). */
let dayStart = Number.NaN;
let dayPrefix = '';

/**
 * The ISO-8601 UTC form of an instant, with milliseconds (`2026-11-22T09:15:00.000Z`): exactly
 * `new Date(ms).toISOString()`, a RangeError where that throws. The date is V8's, written once
 * a UTC day and kept; the time of day is written here from integer arithmetic (0.06 µs against
 * 0.43; a range's blocks write two a block: docs/decisions.md "ISO dates: V8's day, our time").
 * Other instants (not whole milliseconds, outside a `Date`'s range) go to V8 as they are.
 */
export function toIso(ms: number): string {
  let t = ms - dayStart;
  if (t >= 0 && t < DAY_MS && Number.isInteger(t)) {
    const hours = Math.floor(t / 3_600_000);
    t -= hours * 3_600_000;
    const minutes = Math.floor(t / 60_000);
    t -= minutes * 60_000;
    const seconds = Math.floor(t / 1000);
    return `${dayPrefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[t - seconds * 1000]}Z`;
  }
  const iso = new Date(ms).toISOString();
  const start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  // A day is kept whole or not at all: the last day a `Date` holds has one millisecond.
  if (Number.isInteger(ms) && start + DAY_MS <= MAX_TIME_MS + 1) {
    dayStart = start;
    dayPrefix = iso.slice(0, -13); // less `hh:mm:ss.sssZ`
  }
  return iso;
}

/**
 * Milliseconds since the epoch of an ISO-8601 instant with an explicit offset (`Z` or
 * `±hh:mm`), or `undefined` when the text is not one: @tock/protocol's `parseDateTime`, the
 * one parser of wire times (fractions finer than a millisecond are dropped).
 */
export const parseIsoInstant: (text: string) => number | undefined = parseDateTime;

/** `Date.UTC` without its quirk of reading years 0–99 as 1900–1999. */
export function utcMs(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}
