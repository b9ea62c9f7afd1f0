/**
 * A report as CSV (docs/protocol.md "GET /report"): RFC 4180 rows with a header,
 * `activity,seconds` by activity or `date,seconds` by day. One function for `tock report
 * --csv` and the window's *Download CSV*, so both files are the same byte for byte.
 */
import { csvRow, type CsvValue } from './csv.ts';
import { addDays, type DayKey } from './day.ts';
import { formatHundredths, largestRemainder, largestRemainderMinutes, shownHours, shownTable, type ClientReportRow, type TagReportRow } from '@tock/protocol';
import type { Report, ReportActivityRow, ReportDayRow, ReportRow } from './report.ts';
import type { ReportGrouping } from './report-range.ts';
import type { DailyTotal } from './shapes/activities.ts';

/** The ledger's columns of every report CSV, after the two that were there first. */
const LEDGER_COLUMNS = ['billed_seconds', 'amount', 'currency'] as const;

/** A row's ledger cells: billed seconds, the amount as its decimal text (a number to a spreadsheet, never a float here), the currency; empty where no rate applies, or where the row is billed in several currencies (see {@link amountsCell}). */
function ledgerCells(row: { billedSeconds: number; amount: string | null; currency: string | null }): CsvValue[] {
  return [row.billedSeconds, row.amount, row.currency];
}

/**
 * The column `amounts`, before `hours`: what the row is worth in every currency it is billed in, as the
 * window and `tock report` write it — `190.00 EUR + 240.00 USD`, sorted by currency, `475.00 EUR`
 * for one, empty for none. Text, since a row in two currencies has no one number: `amount` and
 * `currency` stay the numeric pair for a row in one currency (docs/decisions.md "A report CSV
 * row in several currencies").
 */
function amountsCell(row: { amounts?: readonly { currency: string; amount: string }[] }): CsvValue {
  const amounts = row.amounts ?? [];
  return amounts.length === 0 ? null : amounts.map((a) => `${a.amount} ${a.currency}`).join(' + ');
}

/**
 * The CSV text of `report`, grouped `by` as it was asked (an empty report keeps its header):
 * `activity,seconds`, `date,seconds`, `client,seconds` or `tag,seconds`, then
 * `billed_seconds,amount,currency` (docs/data.md "The ledger"), then `amounts`, every
 * currency's part ({@link amountsCell}), and last `hours`: decimal hours with two decimals, as
 * the window's and `tock report`'s tables show them (@tock/protocol `shownHours`: of the
 * minutes shown, rounded by largest remainder so that the rows add up to the total's hours;
 * rows that overlap add up to more, by the overlap's hours).
 */
export function reportCsv(report: Report, by: ReportGrouping): string {
  const rows = report.rows as (ReportRow & { billedSeconds: number; amount: string | null; currency: string | null; amounts?: { currency: string; amount: string }[] })[];
  const label = (r: ReportRow): CsvValue =>
    by === 'activity'
      ? (r as ReportActivityRow).activityName
      : by === 'day'
        ? (r as ReportDayRow).date
        : by === 'client'
          ? (r as ClientReportRow).clientName
          : (r as TagReportRow).tag;
  const first = by === 'activity' ? 'activity' : by === 'day' ? 'date' : by;
  const minutes = shownTable(
    rows.map((r) => r.seconds),
    report.totalSeconds,
  );
  const hours = shownHours(minutes.rows, minutes.total).rows;
  return (
    csvRow([first, 'seconds', ...LEDGER_COLUMNS, 'amounts', 'hours']) +
    rows.map((r, i) => csvRow([label(r), r.seconds, ...ledgerCells(r), amountsCell(r), formatHundredths(hours[i] as number)])).join('')
  );
}

/**
 * The cells of one timesheet row as decimal hours to the hundredth (5 400 s is 1.5), shared
 * out so that they add up to the row's total as shown elsewhere: `minutes` whole minutes and
 * `hundredths` hundredths of an hour (its `hours` in `tock report --csv`, the window's
 * digits). Each cell is its seconds floored to the minute, the minutes the row shows beyond
 * those going to the cells that lost the most (@tock/protocol `largestRemainderMinutes`), then
 * the hours of those minutes by largest remainder.
 */
function hoursCells(seconds: readonly number[], minutes: number, hundredths: number): number[] {
  const shown = largestRemainderMinutes(seconds, minutes);
  return largestRemainder(
    shown.map((m) => 5 * m),
    3,
    hundredths,
  ).map((c) => c / 100);
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
  // The total column is the `hours` of `tock report --csv` for the same range, row for row:
  // the activities' hours add up to the Total record's (plus the overlap's, as in the report).
  const minutes = shownTable(
    report.rows.map((r) => r.seconds),
    report.totalSeconds,
  );
  const hours = shownHours(minutes.rows, minutes.total);
  let text = csvRow(['activity', ...days, 'total']);
  for (const [i, r] of (report.rows as ReportActivityRow[]).entries()) {
    const row = byActivity.get(r.activityID) ?? new Map<string, number>();
    const total = hours.rows[i] as number;
    const shown = hoursCells(
      days.map((d) => row.get(d) ?? 0),
      minutes.rows[i] as number,
      total,
    );
    const values: CsvValue[] = days.map((d, j) => (row.has(d) ? (shown[j] as number) : null));
    text += csvRow([r.activityName, ...values, total / 100]);
  }
  const perDay = new Map(dayTotals.map((d) => [d.date, d.seconds]));
  const covered = hoursCells(
    days.map((d) => perDay.get(d) ?? 0),
    minutes.total,
    hours.total,
  );
  text += csvRow(['Total', ...covered, hours.total / 100]);
  return text;
}
