/**
 * The window's routes for the Reports screen (docs/ui.md "Reports"): the report of a named
 * range or of `from`/`to` days, and the two downloads — the report as CSV and the export of the
 * same range as CSV. Path bindings over the use cases `tock report` and `tock export` reach
 * (use-cases/data.ts), so the window and the CLI can never disagree.
 */
import { reportCsv, type Report, type ReportGrouping, type Store } from '@tock/core';
import { reportUseCases, type ReportUseCases } from '../use-cases/data.ts';
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

/** What the report routes use of the app: the store and the clock, nothing else. */
export interface ReportRouteDeps {
  readonly store: Store;
  readonly clock: () => number;
}

/** The report routes of the window's API: path bindings over the reports' use cases (use-cases/data.ts). */
export function reportRoutes(services: ReportRouteDeps, data: ReportUseCases = reportUseCases(services)): Route[] {
  const report = (query: WindowQueryOf<'GET /api/report'>): Report => data.report(reportInput(query));
  return [
    route('GET /api/report', ({ query }) => report(query)),
    route('GET /api/report.csv', ({ query }) => {
      const by: ReportGrouping = query.by === 'day' || query.by === 'client' || query.by === 'tag' ? query.by : 'activity';
      const result = report(query);
      return new Download(reportFileName(result, by), 'text/csv; charset=utf-8', [reportCsv(result, by)][Symbol.iterator]());
    }),
    route('GET /api/export.csv', ({ query }) => {
      const started = data.startExport({ format: 'csv', from: query.from, to: query.to });
      return new Download(started.fileName, started.contentType, started.chunks, started.close);
    }),
  ];
}
