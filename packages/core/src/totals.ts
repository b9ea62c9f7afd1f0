/**
 * Worked time per local day: today's total for the status (docs/product.md "The application") and per-day,
 * per-activity totals for charts. A block counts its part inside a day, breaks left out;
 * blocks that overlap each count their own time. Only blocks that overlap the asked days are
 * read, through the `ended_at` indexes, so the cost does not grow with the history.
 */

import { overlapMs, wholeSeconds } from './blocks.ts';
import { localDayAt, localDaySpans, type DayKey, type DaySpan } from './day.ts';
import type { Store } from './store.ts';

/** Worked seconds of one activity on one local day. */
export interface DailyTotal {
  day: DayKey;
  activityID: string;
  activityName: string;
  seconds: number;
}

/** Entries last at most 24 h, so one that overlaps `[from, to)` ends before `to + 24 h`. */
const ENTRY_MAX_MS = 24 * 60 * 60 * 1000;

interface Interval {
  start: number;
  end: number | null;
  activityID: string;
  /** +1 for worked time, −1 for a break. */
  sign: 1 | -1;
}

/**
 * Every session, break and entry that overlaps `[from, to)`. A running session or break has
 * `end: null`. The `ended_at IS NULL` half and the `ended_at > from` half are separate index
 * lookups (a plain OR would scan); `+started_at` keeps SQLite from choosing a
 * `started_at < to` range, which would cover the whole history.
 */
function intervalsOverlapping(store: Store, from: number, to: number): Interval[] {
  const sessions = store
    .statement(
      `SELECT started_at AS start, ended_at AS end, activity_id AS activityID, 1 AS sign
         FROM sessions WHERE ended_at > ?1 AND +started_at < ?2
       UNION ALL
       SELECT started_at, ended_at, activity_id, 1
         FROM sessions WHERE ended_at IS NULL AND started_at < ?2
       UNION ALL
       SELECT b.started_at, b.ended_at, s.activity_id, -1
         FROM breaks b JOIN sessions s ON s.id = b.session_id
        WHERE b.ended_at > ?1 AND +b.started_at < ?2
       UNION ALL
       SELECT b.started_at, b.ended_at, s.activity_id, -1
         FROM breaks b JOIN sessions s ON s.id = b.session_id
        WHERE b.ended_at IS NULL AND b.started_at < ?2
       UNION ALL
       SELECT started_at, ended_at, activity_id, 1
         FROM entries WHERE ended_at > ?1 AND ended_at < ?3 AND +started_at < ?2`,
    )
    .all(from, to, to + ENTRY_MAX_MS);
  return sessions as unknown as Interval[];
}

/** The end of an interval, a running one ending now (never before its start). */
function endOf(interval: Interval, now: number): number {
  return interval.end ?? Math.max(interval.start, now);
}

/**
 * A local day and what overlaps it, summed once: the status asks for today's total on every
 * poll, and only the running session and an open break move with the clock, so the blocks that
 * have ended are added up when they are read and the cost per poll does not grow with the
 * number of today's blocks.
 */
export interface DayIntervals {
  day: DaySpan;
  /** Worked milliseconds inside the day of every interval that has ended, breaks subtracted. */
  endedMs: number;
  /** The intervals still open (a running session, an open break): counted up to now on each call. */
  open: readonly Interval[];
}

/** The local day of `now` in `timeZone`, with what overlaps it (read from the store). */
export function dayIntervals(store: Store, now: number, timeZone: string): DayIntervals {
  const day = localDayAt(now, timeZone);
  let endedMs = 0;
  const open: Interval[] = [];
  for (const interval of intervalsOverlapping(store, day.start, day.end)) {
    if (interval.end === null) open.push(interval);
    else endedMs += interval.sign * overlapMs(interval.start, interval.end, day.start, day.end);
  }
  return { day, endedMs, open };
}

/** Worked seconds inside `day`, running sessions and breaks counted up to `now`. */
export function secondsInDay({ day, endedMs, open }: DayIntervals, now: number): number {
  let ms = endedMs;
  for (const interval of open) ms += interval.sign * overlapMs(interval.start, endOf(interval, now), day.start, day.end);
  return wholeSeconds(ms);
}

/**
 * Worked seconds per local day and activity, for every day from `fromDay` to `toDay`
 * (both included, `YYYY-MM-DD`). Only non-zero totals are listed, by day, then by
 * activity name.
 */
export function dailyTotals(store: Store, fromDay: DayKey, toDay: DayKey, now: number, timeZone: string): DailyTotal[] {
  if (fromDay > toDay) return [];
  const days = localDaySpans(fromDay, toDay, timeZone);
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return [];
  const perDay = new Map<string, { day: DayKey; activityID: string; ms: number }>();
  for (const interval of intervalsOverlapping(store, first.start, last.end)) {
    const end = endOf(interval, now);
    for (let i = firstDayEndingAfter(days, interval.start); i < days.length; i++) {
      const day = days[i] as DaySpan;
      if (day.start >= end) break;
      const ms = interval.sign * overlapMs(interval.start, end, day.start, day.end);
      if (ms === 0) continue;
      const key = `${day.day}|${interval.activityID}`;
      const cell = perDay.get(key) ?? { day: day.day, activityID: interval.activityID, ms: 0 };
      cell.ms += ms;
      perDay.set(key, cell);
    }
  }
  const names = new Map<string, string>();
  const nameOf = (id: string): string => {
    let name = names.get(id);
    if (name === undefined) {
      const row = store.statement('SELECT name FROM activities WHERE id = ?').get(id) as { name: string } | undefined;
      name = row?.name ?? '';
      names.set(id, name);
    }
    return name;
  };
  return [...perDay.values()]
    .map((c) => ({ day: c.day, activityID: c.activityID, activityName: nameOf(c.activityID), seconds: wholeSeconds(c.ms) }))
    .filter((t) => t.seconds > 0)
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.activityName.localeCompare(b.activityName)));
}

/** Index of the first day whose end is after `ms` (binary search; days are in order). */
function firstDayEndingAfter(days: DaySpan[], ms: number): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((days[mid] as DaySpan).end <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
