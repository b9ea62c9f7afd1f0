/**
 * Reports (docs/protocol.md "GET /report"): worked seconds over a range of local calendar
 * days, per activity or per day. One function serves `GET /report`, `tock report` and the
 * window's Reports screen. Seconds follow the rules of today's total (docs/product.md
 * "The application"): each session and entry counts its part inside the range, breaks left
 * out, a running session counts up to now and nothing after now counts. A second covered by
 * several blocks counts once in the total and in a day's row; an activity's row counts that
 * activity's own covered time, so activity rows can add up to more than the total, by
 * `overlapSeconds`.
 *
 * The blocks that overlap the range are found through the `ended_at` indexes (totals.ts), so
 * a report's cost follows the blocks of the range, not the size of the history; they are
 * joined in JavaScript (blocks.ts), in whole seconds.
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
import { clipSpans, coveredLength, coveredPerDay, unionOfSpans } from './blocks.ts';
import { addDays, localDayKey, localDaySpan, startOfWeek, type DayKey, type DaySpan } from './day.ts';
import type { Store } from './store.ts';
import {
  activityNames,
  BLOCKS_OVERLAPPING_SQL,
  blocksOverlapping,
  daySeconds,
  secondOf,
  spansByActivity,
  workedSpans,
} from './totals.ts';

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

/** The report's SQL, for the query-plan test: the one read of totals.ts. */
export const REPORT_SQL = { blocks: BLOCKS_OVERLAPPING_SQL } as const;

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
 * with time, most seconds first, ties by name; each counts its own covered time. By day:
 * every day of the range, zeros included, in order; the rows add up to `totalSeconds`, the
 * covered time of the range, each second once. `overlapSeconds` is the activity rows' sum
 * minus `totalSeconds` whichever way the rows are grouped. Throws `validation_failed` (see
 * {@link readReportQuery}) for a bad query.
 */
export function buildReport(store: Store, query: ReportQuery, now: number, timeZone: string): Report {
  const { from, to, by } = readReportQuery(query, now, timeZone);
  const days: DaySpan[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(localDaySpan(day, timeZone));
  const first = days[0] as DaySpan;
  const last = days[days.length - 1] as DaySpan;
  const at = Math.floor(now);
  const spans = clipSpans(
    workedSpans(blocksOverlapping(store, first.start, last.end), at),
    secondOf(first.start),
    Math.min(secondOf(last.end), secondOf(at)),
  );
  const union = unionOfSpans(spans);
  const totalSeconds = union.reduce((sum, span) => sum + span.end - span.start, 0);
  const nameOf = activityNames(store);
  const activities = [...spansByActivity(spans)]
    .map(([activityID, own]) => ({ activityID, ...nameOf(activityID), seconds: coveredLength(own) }))
    .filter((a) => a.seconds > 0)
    .sort(
      (a, b) =>
        b.seconds - a.seconds ||
        compareText(a.nameKey, b.nameKey) ||
        compareText(a.name, b.name) ||
        compareText(a.activityID, b.activityID),
    );
  const overlapSeconds = activities.reduce((sum, a) => sum + a.seconds, 0) - totalSeconds;
  const rows: ReportRow[] =
    by === 'activity'
      ? activities.map((a) => ({ activityID: a.activityID, activityName: a.name, seconds: a.seconds }))
      : coveredPerDay(union, days.map(daySeconds)).map((seconds, i) => ({ date: (days[i] as DaySpan).day, seconds }));
  return { from, to, timeZone, totalSeconds, overlapSeconds, rows };
}

/** Orders text as SQLite's BINARY collation does for the names Tock keeps (code units). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The named ranges of `tock report` and the window's Reports screen. */
export const REPORT_PERIODS = ['today', 'yesterday', 'week', 'last-week', 'month', 'last-month', 'year', 'last-year'] as const;

/** One of {@link REPORT_PERIODS}. */
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/**
 * The first and last local day of a named range as of `now` in `timeZone`: today,
 * yesterday, this week or the last (weeks start on Monday), this month or the last, this
 * year or the last. "This week", "this month" and "this year" run to their last day, so the
 * days still to come show as zeros.
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
    case 'year':
      return { from: monthStart(year, 1), to: addDays(monthStart(year + 1, 1), -1) };
    case 'last-year':
      return { from: monthStart(year - 1, 1), to: addDays(monthStart(year, 1), -1) };
  }
}

/** The first day of a month given as year and month number (months past 12 or before 1 roll over). */
function monthStart(year: number, month: number): DayKey {
  const y = year + Math.floor((month - 1) / 12);
  const m = ((((month - 1) % 12) + 12) % 12) + 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`;
}
