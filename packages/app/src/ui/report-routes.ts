/**
 * The window's routes for the Reports screen (docs/ui.md "Reports"): the report of a named
 * range or of `from`/`to` days, and the two downloads — the report as CSV and the export of the
 * same range as CSV. Each calls the function `tock report` and `tock export` use (core's
 * report and export through the app's reportForAdmin and startExport), so the window and the
 * CLI can never disagree.
 */
import { reportCsv, type Report, type ReportGrouping, type Store } from '@tock/core';
import { startExport } from '../exports.ts';
import { reportForAdmin } from '../reports.ts';
import type { WindowQueryOf } from '@tock/window/contract';
import { route, type Route } from './route.ts';
import { Download } from './download.ts';

/** The report's options from the query: the ones given (an empty parameter is not given). */
function reportInput(query: WindowQueryOf<'GET /api/report'>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
}

/** `tock-report-2026-11-01-to-2026-11-30-by-day.csv` */
function reportFileName(report: Pick<Report, 'from' | 'to'>, by: ReportGrouping): string {
  const range = report.from === report.to ? report.from : `${report.from}-to-${report.to}`;
  return `tock-report-${range}-by-${by}.csv`;
}

/** The report routes of the window's API. */
/** What the report routes use of the app: the store and the clock, nothing else. */
export interface ReportRouteDeps {
  readonly store: Store;
  readonly clock: () => number;
}

export function reportRoutes(services: ReportRouteDeps): Route[] {
  const report = (query: WindowQueryOf<'GET /api/report'>): Report => reportForAdmin(services.store, services.clock(), reportInput(query));
  return [
    route('GET /api/report', ({ query }) => report(query)),
    route('GET /api/report.csv', ({ query }) => {
      const by: ReportGrouping = query.by === 'day' || query.by === 'client' || query.by === 'tag' ? query.by : 'activity';
      const result = report(query);
      return new Download(reportFileName(result, by), 'text/csv; charset=utf-8', [reportCsv(result, by)][Symbol.iterator]());
    }),
    route('GET /api/export.csv', ({ query }) => {
      const started = startExport(services.store, services.clock, { format: 'csv', from: query.from, to: query.to });
      return new Download(started.fileName, started.contentType, started.chunks, started.close);
    }),
  ];
}
