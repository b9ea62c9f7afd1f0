/**
 * What a report is asked for (docs/protocol.md "GET /report"): its query read and checked with
 * @tock/protocol's rules (a range of local days, a grouping, the billable and client filters),
 * and the named ranges of `tock report` and the window's Reports screen turned into days.
 * Export and invoices read their days with the same {@link readQueryField}.
 */

import { checkedProblem, checkField, QUERY_SCHEMAS, ruleProblem, validationProblem, type FieldProblem, type ReportBy } from '@tock/protocol';
import { addDays, localDayKey, startOfWeek, type DayKey, type WeekStartDay } from './day.ts';

/** How a report groups its rows. */
export type ReportGrouping = ReportBy;

/**
 * What a report is asked for. Every field is optional (absent or `null`: `from` and `to`
 * default to today, `by` to `activity`); values are checked, since they come from a query
 * string, an admin request or a form.
 */
export interface ReportQuery {
  from?: unknown;
  to?: unknown;
  by?: unknown;
  billable?: unknown;
  /**
   * Only the time of one client's activities: its ID, or {@link NO_CLIENT} for time without a
   * client. The window's Reports screen asks for it; the signed `GET /report` has no such
   * parameter (docs/protocol.md "GET /report").
   */
  client?: unknown;
}

/** The `client` of a report query that keeps only the time without a client. */
export const NO_CLIENT = 'none';

/** The longest range a report covers, in days (a leap year). */
export const REPORT_MAX_DAYS = 366;

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
    problems.push(checkedProblem(as, checked));
    return undefined;
  }
  return checked.value as string;
}

/** Number of calendar days from `from` to `to`, both included (negative when `to` is before `from`). */
function daysBetween(from: DayKey, to: DayKey): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** A checked report query: the range, the grouping and the billable filter. */
export interface ReportRange {
  from: DayKey;
  to: DayKey;
  by: ReportGrouping;
  /** Only billable blocks (true), only the others (false), or every block (undefined). */
  billable?: boolean;
  /** Only one client's time (its ID), only the time without a client (null), or all of it (undefined). */
  client?: string | null;
}

/**
 * Checks a report query and fills in its defaults (today, by activity), or throws the
 * `validation_failed` problem the listener answers with 400: a malformed or impossible date,
 * `to` before `from`, a range over {@link REPORT_MAX_DAYS} days, or an unknown grouping.
 */
export function readReportQuery(query: ReportQuery, now: number, timeZone: string, dayStartsAt = 0): ReportRange {
  const problems: FieldProblem[] = [];
  const today = localDayKey(now, timeZone, dayStartsAt);
  const input = query ?? {};
  const from = readQueryField('from', input.from, today, problems);
  const to = readQueryField('to', input.to, today, problems);
  const by = (readQueryField('by', input.by, 'activity', problems) ?? 'activity') as ReportGrouping;
  if (from !== undefined && to !== undefined) {
    const days = daysBetween(from, to);
    if (days < 1) problems.push(ruleProblem('to', { rule: 'notBeforeFrom', values: { from } }));
    else if (days > REPORT_MAX_DAYS) problems.push(ruleProblem('to', { rule: 'reportDays', values: { days, max: REPORT_MAX_DAYS } }));
  }
  const billableText = input.billable === 'true' ? true : input.billable === 'false' ? false : input.billable;
  const billable = readQueryField('billable', billableText, undefined, problems) as boolean | undefined;
  const client = readClient(input.client, problems);
  if (problems.length > 0 || from === undefined || to === undefined) throw validationProblem(problems);
  return { from, to, by, ...(billable === undefined ? {} : { billable }), ...(client === undefined ? {} : { client }) };
}

/** A report's client filter: absent or empty is every client; {@link NO_CLIENT} is null. */
function readClient(value: unknown, problems: FieldProblem[]): string | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 64) {
    problems.push(ruleProblem('client', { rule: 'clientFilter', values: { none: NO_CLIENT } }));
    return undefined;
  }
  return value === NO_CLIENT ? null : value;
}

/** The named ranges of `tock report` and the window's Reports screen. */
export const REPORT_PERIODS = ['today', 'yesterday', 'week', 'last-week', 'month', 'last-month', 'year', 'last-year'] as const;

/** One of {@link REPORT_PERIODS}. */
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/**
 * The first and last local day of a named range as of `now` in `timeZone`: today,
 * yesterday, this week or the last (weeks start on `days.weekStart`, Monday by default; days at
 * `days.dayStartsAt`, midnight by default), this month or the last, this
 * year or the last. "This week", "this month" and "this year" run to their last day, so the
 * days still to come show as zeros.
 */
export function reportPeriod(period: ReportPeriod, now: number, timeZone: string, days: { dayStartsAt?: number; weekStart?: WeekStartDay } = {}): { from: DayKey; to: DayKey } {
  const today = localDayKey(now, timeZone, days.dayStartsAt);
  const [year, month] = today.split('-').map(Number) as [number, number];
  const monday = startOfWeek(today, days.weekStart);
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
