/**
 * Recurring events of a calendar file (docs/calendar.md): a series and its expansion state, the
 * rules that repeat with a simple period, the rules that can never fall on a date, and the two
 * ways an expansion stops short.
 */

import type ICAL from 'ical.js';
import { DAY_MS, type EventData, type WallTime } from './calendar-times.ts';

/**
 * A recurring event: its iterator, what it expanded so far, what it leaves out. A periodic one
 * (DAILY or WEEKLY without COUNT, RDATE or BY parts other than days and times of day) is
 * expanded afresh for each query from a start moved on by whole periods, so a query of a day
 * five years on costs as much as one of the first day; the others are expanded once from
 * DTSTART and kept.
 */
export interface Series {
  data: EventData;
  periodic: { recur: ICAL.Recur; start: ICAL.Time; periodMs: number } | undefined;
  iterators: ICAL.RecurIterator[];
  /** Wall times of the RDATEs (and DTSTART), sorted, each once, at most one past the occurrences kept. */
  rdates: number[];
  /** The index in {@link rdates} of the next one not yet merged in. */
  nextRdate: number;
  /** Occurrences expanded so far (wall ms, sorted), and whether there are no more. */
  walls: number[];
  done: boolean;
  exdates: WallTime[];
  /** The wall time each iterator gives next (+Infinity: ended; undefined: not asked yet). */
  heads: (number | undefined)[];
}

/** This query's steps ran out: the iterator goes on at the next query. */
export class OutOfSteps extends Error {
  override name = 'OutOfSteps' as const;
}

/** A rule tried too many dates without finding one: it is given up. */
export class Runaway extends Error {
  override name = 'Runaway' as const;
}

/**
 * The period after which a rule repeats itself exactly (ms of wall time), when that is simple
 * to know: DAILY or WEEKLY without COUNT, with BY parts only of days of the week (no ordinals)
 * and times of day. Otherwise undefined.
 */
export function periodOf(recur: ICAL.Recur): number | undefined {
  if (recur.count) return undefined;
  const parts = recur.parts as Record<string, unknown[] | undefined>;
  const given = Object.keys(parts).filter((k) => (parts[k]?.length ?? 0) > 0);
  if (given.some((k) => !['BYDAY', 'BYHOUR', 'BYMINUTE', 'BYSECOND'].includes(k))) return undefined;
  const byDay = parts.BYDAY as string[] | undefined;
  if (byDay?.some((d) => /^[+-]?\d/.test(d))) return undefined;
  const interval = recur.interval > 0 ? recur.interval : 1;
  if (recur.freq === 'DAILY') return interval * (byDay?.length ? 7 : 1) * DAY_MS;
  if (recur.freq === 'WEEKLY') return interval * 7 * DAY_MS;
  return undefined;
}

/** The most days each month has (February in a leap year). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a rule's BYMONTH and BYMONTHDAY can never meet (the 30th of February, the 31st of
 * April): ical.js would look for such a day until the step budget ran out.
 */
export function neverOnADate(recur: ICAL.Recur): boolean {
  const parts = recur.parts as { BYMONTH?: number[]; BYMONTHDAY?: number[] };
  const months = parts.BYMONTH;
  const days = parts.BYMONTHDAY;
  if (!months?.length || !days?.length) return false;
  return !months.some((m) => days.some((d) => Math.abs(d) <= (MONTH_DAYS[m - 1] ?? 0)));
}
