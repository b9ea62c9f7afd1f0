/**
 * Instants on the wire: ISO-8601 strings in, ISO-8601 UTC `Z` strings out, milliseconds
 * since the epoch inside. Parsing is strict (a date, a time, an offset) so that a value that
 * is not clearly an instant is refused rather than guessed at.
 */

import { parseDateTime } from '@tock/protocol';

/** The ISO-8601 UTC form of an instant, with milliseconds (`2026-11-22T09:15:00.000Z`). */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
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
