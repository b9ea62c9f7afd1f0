/**
 * A report as CSV (docs/protocol.md "GET /report"): RFC 4180 rows with a header,
 * `activity,seconds` by activity or `date,seconds` by day. One function for `tock report
 * --csv` and the window's *Download CSV*, so both files are the same byte for byte.
 */
import { csvRow } from './csv.ts';
import type { Report, ReportActivityRow, ReportDayRow, ReportGrouping } from './report.ts';

/** The CSV text of `report`, grouped `by` as it was asked (an empty report keeps its header). */
export function reportCsv(report: Report, by: ReportGrouping): string {
  if (by === 'activity') {
    return csvRow(['activity', 'seconds']) + (report.rows as ReportActivityRow[]).map((r) => csvRow([r.activityName, r.seconds])).join('');
  }
  return csvRow(['date', 'seconds']) + (report.rows as ReportDayRow[]).map((r) => csvRow([r.date, r.seconds])).join('');
}
