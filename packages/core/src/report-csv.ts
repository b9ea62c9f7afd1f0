/**
 * A report as CSV (docs/protocol.md "GET /report"): RFC 4180 rows with a header,
 * `activity,seconds` by activity or `date,seconds` by day. One function for `tock report
 * --csv` and the window's *Download CSV*, so both files are the same byte for byte.
 */
import { csvRow, type CsvValue } from './csv.ts';
import { addDays, type DayKey } from './day.ts';
import type { ClientReportRow, TagReportRow } from '@tock/protocol';
import type { Report, ReportActivityRow, ReportDayRow, ReportGrouping, ReportRow } from './report.ts';
import type { DailyTotal } from './shapes/activities.ts';

/** The ledger's columns of every report CSV, after the two that were there first. */
const LEDGER_COLUMNS = ['billed_seconds', 'amount', 'currency'] as const;

/** A row's ledger cells: billed seconds, the amount as its decimal text (a number to a spreadsheet, never a float here), the currency; empty where no rate applies. */
function ledgerCells(row: { billedSeconds: number; amount: string | null; currency: string | null }): CsvValue[] {
  return [row.billedSeconds, row.amount, row.currency];
}

/**
 * The CSV text of `report`, grouped `by` as it was asked (an empty report keeps its header):
 * `activity,seconds`, `date,seconds`, `client,seconds` or `tag,seconds`, then
 * `billed_seconds,amount,currency` (docs/data.md "The ledger").
 */
export function reportCsv(report: Report, by: ReportGrouping): string {
  const rows = report.rows as (ReportRow & { billedSeconds: number; amount: string | null; currency: string | null })[];
  const label = (r: ReportRow): CsvValue =>
    by === 'activity'
      ? (r as ReportActivityRow).activityName
      : by === 'day'
        ? (r as ReportDayRow).date
        : by === 'client'
          ? (r as ClientReportRow).clientName
          : (r as TagReportRow).tag;
  const first = by === 'activity' ? 'activity' : by === 'day' ? 'date' : by;
  return csvRow([first, 'seconds', ...LEDGER_COLUMNS]) + rows.map((r) => csvRow([label(r), r.seconds, ...ledgerCells(r)])).join('');
}

/** Seconds as decimal hours to the hundredth, the unit of a timesheet (5 400 s is 1.5). */
function hours(seconds: number): number {
  return Math.round((seconds / 3600) * 100) / 100;
}

/**
 * An activity × day timesheet (`tock report --csv --matrix`, docs/cli.md "tock report"): a
 * header `activity,<each day of the range>,total`, one row per activity of `report` (its
 * order: most time first) with that activity's own worked hours each day, empty where it has
 * none, and its total; then a `Total` row with each day's covered time (a second two
 * activities shared counts once, as in the report's by-day rows). Hours are decimal numbers
 * (1.5), never quoted; names go through csvField like every CSV Tock writes.
 */
export function reportMatrixCsv(report: Report, cells: readonly DailyTotal[], dayTotals: readonly { date: string; seconds: number }[]): string {
  const days: DayKey[] = [];
  for (let day = report.from; day <= report.to; day = addDays(day, 1)) days.push(day);
  const byActivity = new Map<string, Map<string, number>>();
  for (const c of cells) {
    let row = byActivity.get(c.activityID);
    if (!row) {
      row = new Map();
      byActivity.set(c.activityID, row);
    }
    row.set(c.day, (row.get(c.day) ?? 0) + c.seconds);
  }
  let text = csvRow(['activity', ...days, 'total']);
  for (const r of report.rows as ReportActivityRow[]) {
    const row = byActivity.get(r.activityID) ?? new Map<string, number>();
    const values: CsvValue[] = days.map((d) => (row.has(d) ? hours(row.get(d) as number) : null));
    text += csvRow([r.activityName, ...values, hours(r.seconds)]);
  }
  const perDay = new Map(dayTotals.map((d) => [d.date, d.seconds]));
  text += csvRow(['Total', ...days.map((d) => hours(perDay.get(d) ?? 0)), hours(report.totalSeconds)]);
  return text;
}
