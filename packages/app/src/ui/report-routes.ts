/**
 * The window's routes for the Reports screen (docs/ui.md "Reports"): the report of a named
 * range or of `from`/`to` days, and the two downloads — the report as CSV and the export of the
 * same range as CSV. Each calls the function `tock report` and `tock export` use (core's
 * report and export through the app's reportForAdmin and startExport), so the window and the
 * CLI can never disagree.
 */
import { reportCsv, type Report, type ReportGrouping } from '@tock/core';
import type { AppServices } from '../app.ts';
import { startExport } from '../exports.ts';
import { reportForAdmin } from '../reports.ts';
import type { Route } from './api.ts';
import { Download } from './download.ts';

/** `period`, `from`, `to`, `by` from a query string; absent ones stay undefined. */
function reportInput(query: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of ['period', 'from', 'to', 'by', 'billable']) {
    const value = query.get(key);
    if (value !== null && value !== '') input[key] = value;
  }
  return input;
}

/** `tock-report-2026-11-01-to-2026-11-30-by-day.csv` */
function reportFileName(report: Pick<Report, 'from' | 'to'>, by: ReportGrouping): string {
  const range = report.from === report.to ? report.from : `${report.from}-to-${report.to}`;
  return `tock-report-${range}-by-${by}.csv`;
}

/** The Reports screen's routes of the window's API. */
export function reportRoutes(services: AppServices): Route[] {
  const report = (query: URLSearchParams): Report => reportForAdmin(services.store, services.clock(), reportInput(query));
  return [
    { method: 'GET', pattern: '/api/report', run: ({ query }) => report(query) },
    {
      method: 'GET',
      pattern: '/api/report.csv',
      run: ({ query }) => {
        const asked = query.get('by');
        const by: ReportGrouping = asked === 'day' || asked === 'client' || asked === 'tag' ? asked : 'activity';
        const result = report(query);
        return new Download(reportFileName(result, by), 'text/csv; charset=utf-8', [reportCsv(result, by)][Symbol.iterator]());
      },
    },
    {
      method: 'GET',
      pattern: '/api/export.csv',
      run: ({ query }) => {
        const started = startExport(services.store, services.clock, { format: 'csv', from: query.get('from') ?? undefined, to: query.get('to') ?? undefined });
        return new Download(started.fileName, started.contentType, started.chunks, started.close);
      },
    },
  ];
}
