/**
 * Reports: where the time went over a range — the ranges of `tock report` (today, yesterday,
 * this and last week, this and last month, this and last year) or any days, by activity, day, client or tag, all
 * of it or only the billable (or the other) time, of every client, one client or time without one. A chart, the table with its total (and,
 * where anything is billed, the billed time and amounts per currency), and two downloads: the report as CSV and the export of the same range
 * as CSV (the very files `tock report --csv` and `tock export --format csv` write). The app
 * computes everything (docs/ui.md "Reports"); this screen only asks and draws.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  decimalHours,
  formatHundredths,
  largestRemainderMinutes,
  shownHours,
  shownShares,
  shownTable,
  type ActivityReportRow, type ClientReportRow, type DayReportRow, type Report, type TagReportRow } from '@tock/protocol';
import { ApiError, download, messageOf, pathOf, request } from '../api.ts';
import { colorClass } from '../colors.ts';
import { describedByError, FieldError } from '../components/FieldError.tsx';
import { ActivityLegend, DayBars, RankedBars } from '../components/ReportCharts.tsx';
import { ScreenHead } from '../components/ScreenHead.tsx';
import { type MessageKey, useT, windowMessages } from '../i18n/index.ts';
import { localHours, moneyList, rangeLabel, tableDay } from '../report-format.ts';
import { useLoaded } from '../load.ts';
import { useAppState } from '../state.ts';
import { addDays, duration } from '../time.ts';
import type { Client, DailyTotal } from '../types.ts';

/** The named ranges, as `tock report` names them. */
const PERIODS = ['today', 'yesterday', 'week', 'last-week', 'month', 'last-month', 'year', 'last-year'] as const;
type Period = (typeof PERIODS)[number] | 'custom';
type By = 'activity' | 'day' | 'client' | 'tag';
type Billable = 'all' | 'true' | 'false';

const GROUPINGS = ['activity', 'day', 'client', 'tag'] as const;
const BILLABLE = [
  ['all', 'billable.all'],
  ['true', 'editor.billable'],
  ['false', 'editor.notBillable'],
] as const satisfies readonly (readonly [Billable, MessageKey])[];

/** What the screen shows: a named range or custom days, and the grouping. */
interface Query {
  period: Period;
  from: string;
  to: string;
  by: By;
  billable: Billable;
  /** One client's ID, `none` for time without a client, or empty for every client. */
  client: string;
}

/** The `client` that asks for time without a client (core's report). */
const NO_CLIENT = 'none';

/** The query string's grouping, billable filter (none for all time) and client (none for every client). */
function filterParams(query: Query): Record<string, string> {
  return { by: query.by, ...(query.billable === 'all' ? {} : { billable: query.billable }), ...(query.client === '' ? {} : { client: query.client }) };
}

/** How often a report that includes a running session is refreshed. */
const REFRESH_MS = 60_000;

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to && days.length < 400; d = addDays(d, 1)) days.push(d);
  return days;
}

/** A required date field of the custom range, with its message under it. */
function DayField({ id, label, value, error, onInput }: { id: string; label: string; value: string; error: string | undefined; onInput(day: string): void }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="date" value={value} required {...describedByError(error, `${id}-error`)} onInput={(e) => onInput((e.target as HTMLInputElement).value)} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The range and grouping controls. Named ranges apply at once; custom days on *Show*. */
function RangeForm({ query, onChange, error, clients }: { query: Query; onChange(q: Query): void; error: ApiError | null; clients: readonly Client[] }) {
  const [from, setFrom] = useState(query.from);
  const [to, setTo] = useState(query.to);
  // A cleared date field is caught here: the app would read a missing day as today.
  const [missing, setMissing] = useState<{ from?: string; to?: string }>({});
  useEffect(() => {
    setFrom(query.from);
    setTo(query.to);
  }, [query.from, query.to]);
  const t = useT();
  const fromError = missing.from ?? error?.about('from');
  const toError = missing.to ?? error?.about('to');
  return (
    <section class="card report-controls" aria-label={t('report.controls')}>
      <fieldset class="chips">
        <legend>{t('report.range')}</legend>
        {[...PERIODS, 'custom' as const].map((value) => (
          <label key={value} class="chip">
            <input
              type="radio"
              name="report-period"
              value={value}
              checked={query.period === value}
              onChange={() => onChange({ ...query, period: value })}
            />
            <span>{t(`period.${value}`)}</span>
          </label>
        ))}
      </fieldset>
      {query.period === 'custom' && (
        <form
          class="custom-range"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const empty = { ...(from ? {} : { from: t('report.chooseFirst') }), ...(to ? {} : { to: t('report.chooseLast') }) };
            setMissing(empty);
            if (empty.from || empty.to) return;
            onChange({ ...query, from, to });
          }}
        >
          <DayField id="report-from" label={t('log.from')} value={from} error={fromError} onInput={setFrom} />
          <DayField id="report-to" label={t('log.to')} value={to} error={toError} onInput={setTo} />
          <button type="submit" class="primary">
            {t('report.show')}
          </button>
        </form>
      )}
      <fieldset class="chips">
        <legend>{t('report.groupBy')}</legend>
        {GROUPINGS.map((value) => (
          <label key={value} class="chip">
            <input type="radio" name="report-by" value={value} checked={query.by === value} onChange={() => onChange({ ...query, by: value })} />
            <span>{t(`by.${value}`)}</span>
          </label>
        ))}
      </fieldset>
      <fieldset class="chips">
        <legend>{t('editor.billable')}</legend>
        {BILLABLE.map(([value, text]) => (
          <label key={value} class="chip">
            <input type="radio" name="report-billable" value={value} checked={query.billable === value} onChange={() => onChange({ ...query, billable: value })} />
            <span>{t(text)}</span>
          </label>
        ))}
      </fieldset>
      {clients.length > 0 && (
        <div class="report-client">
          <label for="report-client">{t('report.forClient')}</label>
          <select id="report-client" value={query.client} onChange={(e) => onChange({ ...query, client: (e.target as HTMLSelectElement).value })}>
            <option value="">{t('report.allClients')}</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value={NO_CLIENT}>{t('report.noClient')}</option>
          </select>
        </div>
      )}
    </section>
  );
}

/** A row's worked and billed time, and what it is worth. */
type LedgerRow = { seconds: number; billedSeconds: number; amount: string | null; currency: string | null; amounts?: { amount: string; currency: string }[] };

/** A row's money, each currency on its own: its `amounts`, else its one `amount`. */
function rowAmounts(row: LedgerRow | undefined): { amount: string; currency: string }[] {
  if (row === undefined) return [];
  if (row.amounts !== undefined) return row.amounts;
  return row.amount === null || row.currency === null ? [] : [{ amount: row.amount, currency: row.currency }];
}

/**
 * A report's cells as shown (docs/product.md "Durations shown to people"): each row's time
 * floored and shared out by largest remainder so the column adds up to the total as shown,
 * with the overlap (time several rows shared, counted once in the total) as a row of its own;
 * the decimal hours and the shares the same way (@tock/protocol `shownHours`, `shownShares`:
 * the CLI's digits). Billed time is shared out the same way over its own sum; `billedTotal`
 * is null where rows share blocks (by tag: a block with two tags is billed under each), since
 * their sum would bill a block twice.
 */
export interface ShownCells {
  rows: { time: string; hours: string; share: string; billed: string; amount: string }[];
  overlap: { time: string; hours: string; share: string } | null;
  total: { time: string; hours: string; share: string; billed: string | null; amount: string };
}

/** Whether a report has anything billed to show: billed time or an amount on any row. */
export function hasBilling(report: Report): boolean {
  return report.amounts.length > 0 || (report.rows as LedgerRow[]).some((r) => r.billedSeconds > 0 || rowAmounts(r).length > 0);
}

/** The {@link ShownCells} of a report; `sharedBlocks` when its rows may count one block twice (by tag). */
export function shownCells(report: Report, sharedBlocks = false): ShownCells {
  const rows = report.rows as LedgerRow[];
  const seconds = rows.map((r) => r.seconds);
  const table = shownTable(seconds, report.totalSeconds);
  const hours = shownHours(table.rows, table.total);
  const shares = shownShares(seconds, report.totalSeconds);
  const t = windowMessages();
  const percent = (p: number): string => (report.totalSeconds > 0 ? t('report.percent', { percent: p }) : '–');
  const words = (minutes: number): string => duration(minutes * 60);
  const hundredths = (h: number): string => localHours(formatHundredths(h));
  const billed = largestRemainderMinutes(rows.map((r) => r.billedSeconds));
  const billedSum = billed.reduce((a, b) => a + b, 0);
  const overlapping = table.overlap > 0 || hours.overlap > 0 || shares.overlap > 0;
  return {
    rows: table.rows.map((m, i) => ({
      time: words(m),
      hours: hundredths(hours.rows[i] as number),
      share: percent(shares.rows[i] as number),
      billed: words(billed[i] as number),
      amount: moneyList(rowAmounts(rows[i])),
    })),
    overlap: overlapping
      ? { time: `−${words(table.overlap)}`, hours: hundredths(-hours.overlap), share: `−${percent(shares.overlap)}` }
      : null,
    total: {
      time: words(table.total),
      hours: hundredths(hours.total),
      share: percent(100),
      billed: sharedBlocks ? null : words(billedSum),
      amount: moneyList(report.amounts),
    },
  };
}

/** The time column's heading: *Worked* beside *Billed*, else *Time*. */
function timeLabel(billing: boolean): string {
  return windowMessages()(billing ? 'report.worked' : 'report.time');
}

/** A row's billed time and amount cells, when the table shows billing. */
function BilledCells({ cells, billing }: { cells: ShownCells['rows'][number] | undefined; billing: boolean }) {
  const t = useT();
  if (!billing) return null;
  return (
    <>
      <td class="num" data-label={t('report.billed')}>{cells?.billed}</td>
      <td class="num" data-label={t('report.amount')}>{cells?.amount}</td>
    </>
  );
}

/**
 * A report's table: a first column of `first`, Time and Hours (and Share, with `withShare`;
 * Billed and Amount where anything is billed), the rows given, the overlap when rows shared
 * time, and the total in the foot. On a narrow window each row is stacked: the name on a line
 * of its own, then each figure after its column's name (`data-label`), so nothing is hidden.
 */
function ReportTable({
  report,
  cells,
  caption,
  first,
  by,
  withShare,
  billing,
  children,
}: {
  report: Report;
  cells: ShownCells;
  caption: 'activity' | 'day' | 'client' | 'tag';
  first: string;
  by: By;
  withShare?: boolean;
  billing: boolean;
  children: ComponentChildren;
}) {
  const t = useT();
  return (
    <div class="table-wrap">
      <table class="report-table" data-testid="report-table">
        <caption class="visually-hidden">
          {t('report.caption', { table: caption, range: rangeLabel(report.from, report.to) })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col" class="num">
              {timeLabel(billing)}
            </th>
            <th scope="col" class="num">
              {t('report.hours')}
            </th>
            {withShare && (
              <th scope="col" class="num">
                {t('report.share')}
              </th>
            )}
            {billing && (
              <>
                <th scope="col" class="num">
                  {t('report.billed')}
                </th>
                <th scope="col" class="num">
                  {t('report.amount')}
                </th>
              </>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        <tfoot>
          {cells.overlap && (
            <tr class="overlap-row" data-testid="report-overlap">
              <th scope="row">{t(by === 'tag' ? 'report.overlapTag' : 'report.overlapTime')}</th>
              <td class="num" data-label={timeLabel(billing)}>{cells.overlap.time}</td>
              <td class="num" data-label={t('report.hours')}>{cells.overlap.hours}</td>
              {withShare && <td class="num" data-label={t('report.share')}>{cells.overlap.share}</td>}
              {billing && (
                <>
                  <td class="num" />
                  <td class="num" />
                </>
              )}
            </tr>
          )}
          <tr>
            <th scope="row">{t('report.total')}</th>
            <td class="num" data-label={timeLabel(billing)}>{cells.total.time}</td>
            <td class="num" data-label={t('report.hours')}>{cells.total.hours}</td>
            {withShare && <td class="num" data-label={t('report.share')}>{cells.total.share}</td>}
            {billing && (
              <>
                <td class="num" data-label={t('report.billed')}>
                  {cells.total.billed ?? (
                    <>
                      <span aria-hidden="true">–</span>
                      <span class="visually-hidden">{t('report.notAdded')}</span>
                    </>
                  )}
                </td>
                <td class="num" data-label={t('report.amount')} data-testid="report-amounts">
                  {cells.total.amount}
                </td>
              </>
            )}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function ActivityTable({ report }: { report: Report }) {
  const t = useT();
  const cells = shownCells(report);
  const billing = hasBilling(report);
  return (
    <ReportTable report={report} cells={cells} caption="activity" first={t('by.activity')} by="activity" withShare billing={billing}>
      {(report.rows as ActivityReportRow[]).map((r, i) => (
        <tr key={r.activityID}>
          <th scope="row">
            <span class={`swatch ${colorClass(r.activityID)}`} aria-hidden="true" />
            {r.activityName}
          </th>
          <td class="num" data-label={timeLabel(billing)}>{cells.rows[i]?.time}</td>
          <td class="num" data-label={t('report.hours')}>{cells.rows[i]?.hours}</td>
          <td class="num" data-label={t('report.share')}>{cells.rows[i]?.share}</td>
          <BilledCells cells={cells.rows[i]} billing={billing} />
        </tr>
      ))}
    </ReportTable>
  );
}

function DayTable({ report }: { report: Report }) {
  const t = useT();
  const cells = shownCells(report);
  const billing = hasBilling(report);
  return (
    <ReportTable report={report} cells={cells} caption="day" first={t('by.day')} by="day" billing={billing}>
      {(report.rows as DayReportRow[]).map((r, i) => (
        <tr key={r.date} class={r.seconds === 0 ? 'zero' : undefined} data-date={r.date}>
          <th scope="row">{tableDay(r.date)}</th>
          <td class="num" data-label={timeLabel(billing)}>{cells.rows[i]?.time}</td>
          <td class="num" data-label={t('report.hours')}>{cells.rows[i]?.hours}</td>
          <BilledCells cells={cells.rows[i]} billing={billing} />
        </tr>
      ))}
    </ReportTable>
  );
}

/** By client or by tag: a name per row (time without a client or a tag last, in italics). */
function NamedTable({ report, by }: { report: Report; by: 'client' | 'tag' }) {
  const t = useT();
  const cells = shownCells(report, by === 'tag');
  const billing = hasBilling(report);
  const names =
    by === 'client'
      ? (report.rows as ClientReportRow[]).map((r) => ({ key: r.clientID ?? '', name: r.clientName }))
      : (report.rows as TagReportRow[]).map((r) => ({ key: r.tag ?? '', name: r.tag }));
  return (
    <ReportTable report={report} cells={cells} caption={by} first={t(`by.${by}`)} by={by} withShare billing={billing}>
      {names.map((n, i) => (
        <tr key={n.key} data-testid="report-row">
          <th scope="row">{n.name ?? <em class="muted">{by === 'client' ? t('report.noClient') : t('report.noTag')}</em>}</th>
          <td class="num" data-label={timeLabel(billing)}>{cells.rows[i]?.time}</td>
          <td class="num" data-label={t('report.hours')}>{cells.rows[i]?.hours}</td>
          <td class="num" data-label={t('report.share')}>{cells.rows[i]?.share}</td>
          <BilledCells cells={cells.rows[i]} billing={billing} />
        </tr>
      ))}
    </ReportTable>
  );
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
