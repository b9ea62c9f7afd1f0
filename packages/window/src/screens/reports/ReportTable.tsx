/**
 * The Reports screen's tables: by activity, by day, by client or by tag, each with its time,
 * hours (and share), its billed time and money where anything is billed, the overlap and the total.
 */
import type { ComponentChildren } from 'preact';
import type { ActivityReportRow, ClientReportRow, DayReportRow, Report, TagReportRow } from '@tock/protocol';
import { colorClass } from '../../colors.ts';
import { useT } from '../../i18n/index.ts';
import { rangeLabel, tableDay } from '../../report-format.ts';
import { hasBilling, type ShownCells, shownCells, timeLabel } from './cells.ts';
import type { By } from './query.ts';

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

export function ActivityTable({ report }: { report: Report }) {
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

export function DayTable({ report }: { report: Report }) {
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
export function NamedTable({ report, by }: { report: Report; by: 'client' | 'tag' }) {
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
