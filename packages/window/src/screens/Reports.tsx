/**
 * Reports: where the time went over a range — the ranges of `tock report` (today, yesterday,
 * this and last week, this and last month, this and last year) or any days, by activity, day, client or tag, all
 * of it or only the billable (or the other) time, of every client, one client or time without one. A chart, the table with its total (and,
 * where anything is billed, the billed time and amounts per currency), and two downloads: the report as CSV and the export of the same range
 * as CSV (the very files `tock report --csv` and `tock export --format csv` write). The app
 * computes everything (docs/ui.md "Reports"); this screen only asks and draws.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type ActivityReportRow, decimalHours, type Report } from '@tock/protocol';
import { ApiError, download, messageOf, pathOf, request } from '../api.ts';
import { ActivityLegend, DayBars, RankedBars } from '../components/ReportCharts.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { useT } from '../i18n/index.ts';
import { localHours, rangeLabel } from '../report-format.ts';
import { useLoaded } from '../load.ts';
import { useAppState } from '../state.ts';
import { addDays, duration } from '../time.ts';
import type { Client, DailyTotal } from '../types.ts';
import { filterParams, NO_CLIENT, type Query } from './reports/query.ts';
import { RangeForm } from './reports/RangeForm.tsx';
import { ActivityTable, DayTable, NamedTable } from './reports/ReportTable.tsx';

/** How often a report that includes a running session is refreshed. */
const REFRESH_MS = 60_000;

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to && days.length < 400; d = addDays(d, 1)) days.push(d);
  return days;
}

/** The Reports screen. */
export function Reports() {
  const { blocksVersion, ledgerVersion, snapshot } = useAppState();
  const t = useT();
  const [query, setQuery] = useState<Query>({ period: 'week', from: '', to: '', by: 'activity', billable: 'all', client: '' });
  const { data: clients } = useLoaded(() => request('GET /api/clients'), [ledgerVersion], [] as Client[]);
  // A client removed (here or in another window) is no longer a choice: back to every client.
  useEffect(() => {
    if (query.client !== '' && query.client !== NO_CLIENT && !clients.some((c) => c.id === query.client)) setQuery((q) => ({ ...q, client: '' }));
  }, [clients]);
  const [report, setReport] = useState<Report | null>(null);
  const [totals, setTotals] = useState<DailyTotal[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  // A link cannot send the session header: the download goes through fetch (api.ts).
  const fetchDownload = (event: MouseEvent): void => {
    event.preventDefault();
    setDownloadError(null);
    download((event.currentTarget as HTMLAnchorElement).getAttribute('href') as string).catch((e: unknown) => setDownloadError(messageOf(e)));
  };
  const [tick, setTick] = useState(0);
  const tracking = Boolean(snapshot?.status.isTracking && !snapshot.status.isOnBreak);
  const asked = useRef(0);

  useEffect(() => {
    if (!tracking) return;
    const id = setInterval(() => setTick((n) => n + 1), REFRESH_MS);
    return () => clearInterval(id);
  }, [tracking]);

  useEffect(() => {
    const ask = ++asked.current;
    const params: Record<string, string> =
      query.period === 'custom' ? { from: query.from, to: query.to, ...filterParams(query) } : { period: query.period, ...filterParams(query) };
    // Custom days start from the range shown last; nothing to ask until there is one.
    if (query.period === 'custom' && (!query.from || !query.to)) return;
    setLoading(true);
    request('GET /api/report', { query: params })
      .then(async (r) => {
        // The day chart stacks every activity's time, which a billable or client filter does not narrow: no chart then.
        const perActivity = query.by === 'day' && query.billable === 'all' && query.client === '' ? await request('GET /api/totals', { query: { from: r.from, to: r.to } }) : [];
        if (ask !== asked.current) return;
        setReport(r);
        setTotals(perActivity);
        setError(null);
        // Custom starts from the range the named one showed.
        if (query.period !== 'custom' && (query.from !== r.from || query.to !== r.to)) setQuery((q) => (q === query ? { ...q, from: r.from, to: r.to } : q));
      })
      .catch((e: unknown) => {
        if (ask !== asked.current) return;
        setError(e instanceof ApiError ? e : new ApiError(0, 'error', messageOf(e)));
      })
      .finally(() => ask === asked.current && setLoading(false));
  }, [query.period, query.by, query.billable, query.client, query.period === 'custom' ? query.from : '', query.period === 'custom' ? query.to : '', blocksVersion, ledgerVersion, tick]);

  const fieldError = error && (error.about('from') || error.about('to')) ? error : null;
  const shown = report;
  const csvParams = shown ? { from: shown.from, to: shown.to } : null;

  return (
    <div class="screen">
      <ScreenHead title={t('screen.reports')}>{t('report.intro')}</ScreenHead>
      <RangeForm query={query} onChange={setQuery} error={fieldError} clients={clients} />
      {error && !fieldError && (
        <p class="error" role="alert">
          {error.message}
        </p>
      )}
      <section class="card report" aria-labelledby="report-heading" aria-busy={loading ? 'true' : undefined}>
        <div class="report-head">
          <div>
            <h2 id="report-heading" data-range={shown ? `${shown.from}/${shown.to}` : undefined}>
              {shown ? rangeLabel(shown.from, shown.to) : t('report.report')}
            </h2>
            {shown && (
              <p class="report-total">
                <strong data-testid="report-total">{duration(shown.totalSeconds)}</strong>
                <span class="muted">
                  {' '}
                  {t('report.kind', { billable: query.billable, hours: localHours(decimalHours(shown.totalSeconds)) })}
                </span>
              </p>
            )}
          </div>
          {shown && csvParams && (
            <div class="downloads" role="group" aria-label={t('report.downloads')}>
              <a class="button" href={pathOf('GET /api/report.csv', { query: { ...csvParams, ...filterParams(query) } })} download data-testid="download-report" onClick={fetchDownload}>
                <span aria-hidden="true">↓ </span>
                {t('report.reportCsv')}
              </a>
              <a class="button" href={pathOf('GET /api/export.csv', { query: csvParams })} download data-testid="download-export" onClick={fetchDownload}>
                <span aria-hidden="true">↓ </span>
                {t('report.exportCsv')}
                <span class="visually-hidden"> {t('report.exportHint')}</span>
              </a>
              {downloadError && (
                <p class="field-error" role="alert">
                  {downloadError}
                </p>
              )}
            </div>
          )}
        </div>
        {shown && shown.totalSeconds === 0 && <p class="muted empty">{t('report.empty')}</p>}
        {shown && shown.totalSeconds > 0 && query.by === 'day' && 'date' in (shown.rows[0] ?? {}) && (
          <>
            {query.billable === 'all' && query.client === '' && (
              <>
                <DayBars days={daysOf(shown.from, shown.to)} totals={totals} report={shown} />
                <ActivityLegend totals={totals} />
              </>
            )}
            <DayTable report={shown} />
          </>
        )}
        {shown && shown.totalSeconds > 0 && query.by === 'activity' && 'activityID' in (shown.rows[0] ?? {}) && (
          <>
            <RankedBars rows={shown.rows as ActivityReportRow[]} />
            <ActivityTable report={shown} />
          </>
        )}
        {shown && shown.totalSeconds > 0 && query.by === 'client' && 'clientID' in (shown.rows[0] ?? {}) && <NamedTable report={shown} by="client" />}
        {shown && shown.totalSeconds > 0 && query.by === 'tag' && 'tag' in (shown.rows[0] ?? {}) && <NamedTable report={shown} by="tag" />}
      </section>
      <p class="visually-hidden" aria-live="polite">
        {shown && !loading ? t('report.live', { range: rangeLabel(shown.from, shown.to), duration: duration(shown.totalSeconds) }) : ''}
      </p>
    </div>
  );
}
