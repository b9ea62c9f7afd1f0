/**
 * Worked time per local day: today's total for the status (docs/product.md "The application") and per-day,
 * per-activity totals for charts. A block counts its part inside a day, breaks left out; a
 * second covered by several blocks counts once (overall, and within one activity for the
 * per-activity totals), and nothing counts after now, so a day's total never exceeds the time
 * that has passed in it. Times are counted in whole seconds of the clock: each start and end is
 * taken to its second (rounded down) before blocks are joined, so every total is a whole number
 * of seconds and totals, rows and overlaps add up exactly (docs/decisions.md "Overlaps counted
 * once"). Only blocks that overlap the asked days are read, through the `ended_at` indexes, so
 * the cost does not grow with the history.
 */

import {
  clipSpans,
  coverageOf,
  coveredPerDay,
  coveredWithin,
  spanWithout,
  unionOfSpans,
  type Coverage,
  type Span,
} from './blocks.ts';
import { localDayAt, localDaySpans, type DayKey, type DaySpan } from './day.ts';
import { readDayStartsAt } from './ledger-settings.ts';
import type { DailyTotal } from './shapes/activities.ts';
import type { Store } from './store.ts';
/** Entries last at most 24 h, so one that overlaps `[from, to)` ends before `to + 24 h`. */
const ENTRY_MAX_MS = 24 * 60 * 60 * 1000;

/**
 * Every session that overlaps `[?1, ?2)` (kind 0), the breaks of those sessions (kind 1, read
 * through `breaks_by_session`; CROSS JOIN keeps that order) and every entry that overlaps it
 * (kind 2), in ms; a running session or break has `end` null. Sessions are three index
 * lookups (a plain OR would scan): those that end within a day after the range
 * (`sessions_by_ended_at`, bounded by `?3`, `to + 24 h`), the few longer than a day that end
 * later (`sessions_long`, whose expression the query repeats), the running one; so a range of
 * long ago does not read every session ended since. `+started_at` keeps SQLite from choosing a
 * `started_at < to` range, which would cover the whole history; entries are bounded above by
 * `?3` too.
 */
export const BLOCKS_OVERLAPPING_SQL = `
  WITH range_sessions AS MATERIALIZED (
    SELECT id, activity_id, started_at, ended_at, tags, billable
      FROM sessions WHERE ended_at > ?1 AND ended_at < ?3 AND +started_at < ?2
    UNION ALL
    SELECT id, activity_id, started_at, ended_at, tags, billable
      FROM sessions WHERE ended_at - started_at > 86400000 AND ended_at >= ?3 AND +started_at < ?2
    UNION ALL
    SELECT id, activity_id, started_at, ended_at, tags, billable
      FROM sessions WHERE ended_at IS NULL AND started_at < ?2
  )
  SELECT 0 AS kind, id AS sessionID, activity_id AS activityID, started_at AS start, ended_at AS end, tags, billable
    FROM range_sessions
  UNION ALL
  SELECT 1, rs.id, rs.activity_id, b.started_at, b.ended_at, NULL, NULL
    FROM range_sessions rs CROSS JOIN breaks b ON b.session_id = rs.id
  UNION ALL
  SELECT 2, id, activity_id, started_at, ended_at, tags, billable
    FROM entries WHERE ended_at > ?1 AND ended_at < ?3 AND +started_at < ?2`;

/** What a block carries for the ledger: its id, tags (JSON text; null: none) and own billable flag (null: its activity's). */
export interface BlockLedgerColumns {
  id: string;
  tags: string | null;
  billable: number | null;
}

/** A session as the totals read it, in ms; `end` null while it runs. */
interface SessionTimes extends BlockLedgerColumns {
  activityID: string;
  start: number;
  end: number | null;
  breaks: { start: number; end: number | null }[];
}

/** The sessions and entries that overlap `[from, to)` (ms), sessions with their breaks. */
interface BlocksRead {
  sessions: SessionTimes[];
  entries: ({ activityID: string; start: number; end: number } & BlockLedgerColumns)[];
}

/**
 * Reads every block that overlaps `[from, to)` (ms) from the store. Its rows come as arrays, in
 * the SQL's column order: node:sqlite makes an object a row otherwise, which cost a year's
 * report (40 000 rows) a quarter of its time.
 */
export function blocksOverlapping(store: Store, from: number, to: number): BlocksRead {
  const statement = store.statement(BLOCKS_OVERLAPPING_SQL);
  statement.setReturnArrays(true);
  const rows = statement.all(from, to, to + ENTRY_MAX_MS) as unknown as [
    kind: 0 | 1 | 2,
    sessionID: string,
    activityID: string,
    start: number,
    end: number | null,
    tags: string | null,
    billable: number | null,
  ][];
  const sessions = new Map<string, SessionTimes>();
  const entries: BlocksRead['entries'] = [];
  for (const [kind, id, activityID, start, end, tags, billable] of rows) {
    if (kind === 0) sessions.set(id, { id, activityID, start, end, breaks: [], tags, billable });
  }
  for (const [kind, id, activityID, start, end, tags, billable] of rows) {
    if (kind === 1) sessions.get(id)?.breaks.push({ start, end });
    else if (kind === 2) entries.push({ id, activityID, start, end: end as number, tags, billable });
  }
  return { sessions: [...sessions.values()], entries };
}

/** The whole second of the clock an instant falls in. */
export function secondOf(ms: number): number {
  return Math.floor(ms / 1000);
}

/** A span of worked time of one activity, in whole seconds of the clock, with the block it belongs to. */
export interface WorkedSpan extends Span {
  activityID: string;
  /** The session or entry it is (part of). */
  block: BlockLedgerColumns;
}

/**
 * The worked spans of a session, in whole seconds: its span without its breaks. A running
 * session, or a break still on, ends at `now` (never before its start); a break still open in
 * a session that has ended ends with the session.
 */
function sessionSpans(session: SessionTimes, now: number): WorkedSpan[] {
  const start = secondOf(session.start);
  const end = secondOf(session.end ?? Math.max(session.start, now));
  const breaks = session.breaks.map((b) => ({
    start: secondOf(b.start),
    end: secondOf(b.end ?? Math.max(b.start, session.end ?? now)),
  }));
  const block = { id: session.id, tags: session.tags, billable: session.billable };
  return spanWithout({ start, end }, breaks).map((s) => ({ activityID: session.activityID, start: s.start, end: s.end, block }));
}

/** Every worked span of what was read, in whole seconds, running parts counted up to `now`. */
export function workedSpans(read: BlocksRead, now: number): WorkedSpan[] {
  const spans: WorkedSpan[] = [];
  for (const session of read.sessions) spans.push(...sessionSpans(session, now));
  for (const entry of read.entries) {
    spans.push({ activityID: entry.activityID, start: secondOf(entry.start), end: secondOf(entry.end), block: { id: entry.id, tags: entry.tags, billable: entry.billable } });
  }
  return spans;
}

/** Worked spans grouped by activity. */
export function spansByActivity(spans: readonly WorkedSpan[]): Map<string, WorkedSpan[]> {
  const byActivity = new Map<string, WorkedSpan[]>();
  for (const span of spans) {
    const list = byActivity.get(span.activityID);
    if (list === undefined) byActivity.set(span.activityID, [span]);
    else list.push(span);
  }
  return byActivity;
}

/** A local day as a span of whole seconds. */
export function daySeconds(day: DaySpan): Span {
  return { start: secondOf(day.start), end: secondOf(day.end) };
}

/**
 * A local day and what overlaps it, joined once: the status asks for today's total on every
 * poll, and only running sessions (and their open breaks) move with the clock, so the blocks
 * that have ended are joined into one {@link Coverage} when they are read, and a poll costs
 * O(log n) in the number of today's blocks.
 */
export interface DayIntervals {
  day: DaySpan;
  /** The worked seconds inside the day of every block that has ended, joined. */
  ended: Coverage;
  /** The sessions still running: counted up to now on each call. */
  open: readonly SessionTimes[];
}

/** The local day of `now` in `timeZone` (starting at the setting `dayStartsAt`), with what overlaps it (read from the store). */
export function dayIntervals(store: Store, now: number, timeZone: string): DayIntervals {
  const day = localDayAt(now, timeZone, readDayStartsAt(store.settings));
  const read = blocksOverlapping(store, day.start, day.end);
  const open = read.sessions.filter((s) => s.end === null);
  const ended = workedSpans({ sessions: read.sessions.filter((s) => s.end !== null), entries: read.entries }, now);
  const { start, end } = daySeconds(day);
  return { day, ended: coverageOf(clipSpans(ended, start, end)), open };
}

/**
 * Worked seconds inside `day` up to `now`: the ended blocks and the running sessions, each
 * second once, nothing after now.
 */
export function secondsInDay({ day, ended, open }: DayIntervals, now: number): number {
  const { start } = daySeconds(day);
  const limit = Math.min(daySeconds(day).end, secondOf(now));
  if (limit <= start) return 0;
  let seconds = coveredWithin(ended, start, limit);
  const running = unionOfSpans(clipSpans(open.flatMap((s) => sessionSpans(s, now)), start, limit));
  for (const span of running) seconds += span.end - span.start - coveredWithin(ended, span.start, span.end);
  return seconds;
}

/**
 * Worked seconds per local day and activity, for every day from `fromDay` to `toDay`
 * (both included, `YYYY-MM-DD`): each activity's own covered time (a second that two blocks
 * of one activity cover counts once), nothing after `now`. Only non-zero totals are listed,
 * by day, then by activity name.
 */
export function dailyTotals(store: Store, fromDay: DayKey, toDay: DayKey, now: number, timeZone: string): DailyTotal[] {
  if (fromDay > toDay) return [];
  const days = localDaySpans(fromDay, toDay, timeZone, readDayStartsAt(store.settings));
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return [];
  const limit = Math.min(secondOf(last.end), secondOf(now));
  const spans = clipSpans(workedSpans(blocksOverlapping(store, first.start, last.end), now), secondOf(first.start), limit);
  const daySpans = days.map(daySeconds);
  const totals: DailyTotal[] = [];
  const byActivity = spansByActivity(spans);
  const nameOf = activityNames(store, byActivity.keys());
  for (const [activityID, own] of byActivity) {
    const perDay = coveredPerDay(unionOfSpans(own), daySpans);
    perDay.forEach((seconds, i) => {
      if (seconds > 0) totals.push({ day: (days[i] as DaySpan).day, activityID, activityName: nameOf(activityID).name, seconds });
    });
  }
  return totals.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.activityName.localeCompare(b.activityName)));
}

/** The names of the activities of a JSON array of IDs, as arrays: one statement for a range's activities. */
const ACTIVITY_NAMES_SQL = 'SELECT id, name, name_key FROM activities WHERE id IN (SELECT value FROM json_each(?))';

/**
 * The name of each activity of `ids` and the key names sort by (`name_key`), read in one
 * statement (a month of 2 000 activities: 3.5 ms, 8.5 ms one look-up each); an ID of none: ''.
 */
export function activityNames(store: Store, ids: Iterable<string>): (id: string) => { name: string; nameKey: string } {
  const names = new Map<string, { name: string; nameKey: string }>();
  const read = store.statement(ACTIVITY_NAMES_SQL);
  read.setReturnArrays(true);
  for (const [id, name, nameKey] of read.all(JSON.stringify([...new Set(ids)])) as unknown as [string, string, string][]) names.set(id, { name, nameKey });
  return (id) => names.get(id) ?? { name: '', nameKey: '' };
}
