/**
 * The admin side of `tock report` (docs/cli.md "tock report"): a named range or `from`/`to`
 * days, resolved in the app's own time zone and as of its own clock, then core's report
 * (docs/protocol.md "GET /report").
 */
import { buildReport, dailyTotals, reportPeriod, REPORT_PERIODS, systemTimeZone, type Report, type ReportPeriod, type Store } from '@tock/core';
import { ruleProblem, validationProblem } from '@tock/protocol';
import { personDays } from './person-days.ts';
import type { MatrixReport } from '@tock/admin';

/** Declared once, in the admin contract (@tock/admin views.ts), which the handlers are typed by. */
export type { MatrixReport } from '@tock/admin';

/**
 * The report for an admin request `{period?, from?, to?, by?, billable?, client?}` (`client`:
 * the window's filter, a client's ID or `none`): `period` is one of
 * today, yesterday, week, last-week, month, last-month, year, last-year (the person's week and day:
 * person-days.ts) and excludes
 * `from`/`to`; without either it is today. Refusals are `validation_failed` problems whose
 * message names the field.
 */
export function reportForAdmin(store: Store, now: number, input: Record<string, unknown>): Report {
  const report = namedOrDays(store, now, input);
  if (input.matrix !== true) return report;
  return withMatrix(store, now, report);
}

function withMatrix(store: Store, now: number, report: Report): MatrixReport {
  const timeZone = systemTimeZone();
  const byDay = buildReport(store, { from: report.from, to: report.to, by: 'day' }, now, timeZone);
  return { ...report, cells: dailyTotals(store, report.from, report.to, now, timeZone), days: byDay.rows as { date: string; seconds: number }[] };
}

function namedOrDays(store: Store, now: number, input: Record<string, unknown>): Report {
  const timeZone = systemTimeZone();
  const { period, from, to, by, billable, client } = input;
  if (period === undefined || period === null) return buildReport(store, { from, to, by, billable, client }, now, timeZone);
  if (typeof period !== 'string' || !(REPORT_PERIODS as readonly string[]).includes(period)) {
    throw validationProblem([ruleProblem('period', { rule: 'oneOf', values: { options: REPORT_PERIODS.join(', ') } })]);
  }
  if ((from !== undefined && from !== null) || (to !== undefined && to !== null)) {
    throw validationProblem([ruleProblem('period', { rule: 'periodOrRange' })]);
  }
  return buildReport(store, { ...reportPeriod(period as ReportPeriod, now, timeZone, personDays(store.settings)), by, billable, client }, now, timeZone);
}
