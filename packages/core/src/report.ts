/**
 * Reports (docs/protocol.md "GET /report"): worked seconds over a range of local calendar
 * days, per activity or per day. One function serves `GET /report`, `tock report` and the
 * window's Reports screen. Seconds follow the rules of today's total (docs/product.md
 * "The application"): each session and entry counts its part inside the range, breaks left
 * out, overlapping blocks each count their own time, a running session counts up to now.
 *
 * The sums are SQL aggregates over the blocks that overlap the range, found through the
 * `ended_at` indexes (as in totals.ts), so a report never loads the blocks into JavaScript
 * and its cost follows the blocks of the range, not the size of the history.
 */

import {
  checkField,
  QUERY_SCHEMAS,
  validationProblem,
  type ActivityReportRow,
  type DayReportRow,
  type FieldProblem,
  type Report,
  type ReportBy,
  type ReportRow,
} from '@tock/protocol';
import { addDays, localDayKey, localDaySpan, startOfWeek, type DayKey, type DaySpan } from './day.ts';
import type { Store } from './store.ts';

/** The wire result and its rows, as @tock/protocol defines them (docs/protocol.md "GET /report"). */
export type { Report, ReportRow };

/** How a report groups its rows. */
export type ReportGrouping = ReportBy;

/** A row of a report by activity: an activity with time in the range. */
export type ReportActivityRow = ActivityReportRow;

/** A row of a report by day: one local calendar day of the range. */
export type ReportDayRow = DayReportRow;

/**
 * What a report is asked for. Every field is optional (absent or `null`: `from` and `to`
 * default to today, `by` to `activity`); values are checked, since they come from a query
 * string, an admin request or a form.
 */
export interface ReportQuery {
  from?: unknown;
  to?: unknown;
  by?: unknown;
}

/** The longest range a report covers, in days (a leap year). */
export const REPORT_MAX_DAYS = 366;

/** Entries last at most 24 h, so one that overlaps `[from, to)` ends before `to + 24 h`. */
const ENTRY_MAX_MS = 24 * 60 * 60 * 1000;

/**
 * Every block that overlaps `[?1, ?2)` as (activity, start, end, sign): sessions and entries
 * count (+1), breaks are taken off (−1); a running session or break ends at `?4` (now, never
 * before its start). Each half is one index range: `ended_at > from` on the `ended_at`
 * indexes (a plain OR with `ended_at IS NULL` would scan), `+started_at` keeps SQLite from
 * choosing a `started_at < to` range, which would cover the whole history, and entries are
 * bounded above by `?3` (`to + 24 h`). Breaks lie inside their sessions, so they are read
 * through the sessions of the range (`breaks_by_session`; CROSS JOIN keeps that order),
 * never by looking sessions up from breaks across the whole history.
 */
const BLOCKS = `
  range_sessions AS MATERIALIZED (
    SELECT id, activity_id, started_at AS s, ended_at AS e
      FROM sessions WHERE ended_at > ?1 AND +started_at < ?2
    UNION ALL
    SELECT id, activity_id, started_at, max(started_at, ?4)
      FROM sessions WHERE ended_at IS NULL AND started_at < ?2
  ),
  blocks AS (
    SELECT activity_id, s, e, 1 AS sign FROM range_sessions
    UNION ALL
    SELECT activity_id, started_at, ended_at, 1
      FROM entries WHERE ended_at > ?1 AND ended_at < ?3 AND +started_at < ?2
    UNION ALL
    SELECT rs.activity_id, b.started_at, coalesce(b.ended_at, max(b.started_at, ?4)), -1
      FROM range_sessions rs CROSS JOIN breaks b ON b.session_id = rs.id
  )`;

/**
 * Seconds per activity: each block's part inside `[?1, ?2)`, summed per activity in ms and
 * then cut to whole seconds (as today's total is), most seconds first, ties by name.
 */
const BY_ACTIVITY = `
  WITH ${BLOCKS},
  totals AS (
    SELECT activity_id, sum(sign * max(0, min(e, ?2) - max(s, ?1))) AS ms FROM blocks GROUP BY activity_id
  )
  SELECT a.id AS activityID, a.name AS activityName, CAST(t.ms / 1000 AS INTEGER) AS seconds
    FROM totals t JOIN activities a ON a.id = t.activity_id
   WHERE t.ms >= 1000
   ORDER BY seconds DESC, a.name_key, a.name, a.id`;

/**
 * The range's days, one row each, for the by-day sum: `ds` is the day's first instant (the
 * rowid, so "days that start in this span" is a range lookup), `de` the next day's.
 */
const DAYS_TABLE = `CREATE TEMP TABLE IF NOT EXISTS tock_report_days (
  ds INTEGER PRIMARY KEY, de INTEGER NOT NULL, day TEXT NOT NULL)`;

/**
 * Milliseconds per day: each block joined with the days it overlaps. A day that overlaps
 * `[s, e)` starts before `e` and, being at most `?5` long (the range's longest day), after
 * `s − ?5`: a rowid range of one or two days per block rather than every day of the range.
 */
const BY_DAY = `
  WITH ${BLOCKS}
  SELECT d.day AS day, sum(blk.sign * max(0, min(blk.e, d.de) - max(blk.s, d.ds))) AS ms
    FROM blocks blk JOIN temp.tock_report_days d ON d.ds < blk.e AND d.ds > blk.s - ?5 AND d.de > blk.s
   GROUP BY d.day`;

/** The report's SQL, for the query-plan test. */
export const REPORT_SQL = { byActivity: BY_ACTIVITY, byDay: BY_DAY } as const;

/** The query fields of `GET /report`: the one rule for a day and a grouping, in every path. */
const REPORT_FIELDS = QUERY_SCHEMAS['/report'].properties;

/**
 * Reads one field of a report or export range with @tock/protocol's rule, so the listener,
 * the CLI and the window refuse a bad day or grouping in the same words. Absent (`undefined`
 * or `null`) gives `fallback`.
 */
export function readQueryField<F extends keyof typeof REPORT_FIELDS, T>(name: F, value: unknown, fallback: T, problems: FieldProblem[], as: string = name): string | T | undefined {
  if (value === undefined || value === null) return fallback;
  const checked = checkField(REPORT_FIELDS[name], value);
  if ('message' in checked) {
    problems.push({ field: as, message: checked.message });
    return undefined;
  }
  return checked.value as string;
}

/** Number of calendar days from `from` to `to`, both included (negative when `to` is before `from`). */
function daysBetween(from: DayKey, to: DayKey): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** A checked report query: the range and the grouping. */
export interface ReportRange {
  from: DayKey;
  to: DayKey;
  by: ReportGrouping;
}

/**
 * Checks a report query and fills in its defaults (today, by activity), or throws the
 * `validation_failed` problem the listener answers with 400: a malformed or impossible date,
 * `to` before `from`, a range over {@link REPORT_MAX_DAYS} days, or an unknown grouping.
 */
export function readReportQuery(query: ReportQuery, now: number, timeZone: string): ReportRange {
  const problems: FieldProblem[] = [];
  const today = localDayKey(now, timeZone);
  const input = query ?? {};
  const from = readQueryField('from', input.from, today, problems);
  const to = readQueryField('to', input.to, today, problems);
  const by = (readQueryField('by', input.by, 'activity', problems) ?? 'activity') as ReportGrouping;
  if (from !== undefined && to !== undefined) {
    const days = daysBetween(from, to);
    if (days < 1) problems.push({ field: 'to', message: `must not be before from (${from})` });
    else if (days > REPORT_MAX_DAYS) {
      problems.push({ field: 'to', message: `the range covers ${days} days; a report covers at most ${REPORT_MAX_DAYS}` });
    }
  }
  if (problems.length > 0 || from === undefined || to === undefined) throw validationProblem(problems);
  return { from, to, by };
}

/**
 * The report for `query` (docs/protocol.md "GET /report") as of `now` (ms since the epoch),
 * over the local calendar days of `timeZone` (an IANA name). By activity: only activities
 * with time, most seconds first, ties by name. By day: every day of the range, zeros
 * included, in order. `totalSeconds` is the sum of the rows. Throws `validation_failed`
 * (see {@link readReportQuery}) for a bad query.
 */
export function buildReport(store: Store, query: ReportQuery, now: number, timeZone: string): Report {
  const { from, to, by } = readReportQuery(query, now, timeZone);
  const days: DaySpan[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(localDaySpan(day, timeZone));
  const start = (days[0] as DaySpan).start;
  const end = (days[days.length - 1] as DaySpan).end;
  const at = Math.floor(now);
  let rows: ReportRow[];
  if (by === 'activity') {
    rows = (store.statement(BY_ACTIVITY).all(start, end, end + ENTRY_MAX_MS, at) as unknown as ReportActivityRow[]).map(
      (r) => ({ activityID: r.activityID, activityName: r.activityName, seconds: r.seconds }),
    );
  } else {
    rows = secondsPerDay(store, days, start, end, at);
  }
  const totalSeconds = rows.reduce((sum, row) => sum + row.seconds, 0);
  return { from, to, timeZone, totalSeconds, rows };
}

/** Every day of `days` with its worked seconds (zeros included), in order. */
function secondsPerDay(store: Store, days: DaySpan[], start: number, end: number, at: number): ReportDayRow[] {
  store.statement(DAYS_TABLE).run();
  store.statement('DELETE FROM temp.tock_report_days').run();
  const insert = store.statement('INSERT INTO temp.tock_report_days (ds, de, day) VALUES (?, ?, ?)');
  let longest = 0;
  for (const d of days) {
    // A day that a zone skipped altogether (Samoa, 2011-12-30) is empty: it has no instant.
    if (d.end > d.start) insert.run(d.start, d.end, d.day);
    longest = Math.max(longest, d.end - d.start);
  }
  const ms = new Map<string, number>();
  for (const row of store.statement(BY_DAY).all(start, end, end + ENTRY_MAX_MS, at, longest) as unknown as {
    day: string;
    ms: number;
  }[]) {
    ms.set(row.day, row.ms);
  }
  store.statement('DELETE FROM temp.tock_report_days').run();
  return days.map((d) => ({ date: d.day, seconds: Math.max(0, Math.floor((ms.get(d.day) ?? 0) / 1000)) }));
}

/** The named ranges of `tock report` and the window's Reports screen. */
export const REPORT_PERIODS = ['today', 'yesterday', 'week', 'last-week', 'month', 'last-month'] as const;

/** One of {@link REPORT_PERIODS}. */
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/**
 * The first and last local day of a named range as of `now` in `timeZone`: today,
 * yesterday, this week or the last (weeks start on Monday), this month or the last. "This
 * week" and "this month" run to their last day, so the days still to come show as zeros.
 */
export function reportPeriod(period: ReportPeriod, now: number, timeZone: string): { from: DayKey; to: DayKey } {
  const today = localDayKey(now, timeZone);
  const [year, month] = today.split('-').map(Number) as [number, number];
  const monday = startOfWeek(today);
  const firstOfMonth = `${today.slice(0, 8)}01`;
  const lastOfMonth = addDays(monthStart(year, month + 1), -1);
  switch (period) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'week':
      return { from: monday, to: addDays(monday, 6) };
    case 'last-week':
      return { from: addDays(monday, -7), to: addDays(monday, -1) };
    case 'month':
      return { from: firstOfMonth, to: lastOfMonth };
    case 'last-month':
      return { from: monthStart(year, month - 1), to: addDays(firstOfMonth, -1) };
  }
}

/** The first day of a month given as year and month number (months past 12 or before 1 roll over). */
function monthStart(year: number, month: number): DayKey {
  const y = year + Math.floor((month - 1) / 12);
  const m = ((((month - 1) % 12) + 12) % 12) + 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`;
}
