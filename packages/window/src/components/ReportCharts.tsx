/**
 * The Reports screen's charts. By day: one bar per day of the range, stacked by activity
 * (SVG, like the History week, with fewer day labels as the range grows). By activity: a
 * ranked list of bars, longest first. Both are pictures of the table below them: a summary
 * for screen readers in `aria-label`, the numbers themselves in the table.
 */
import { formatList } from '@tock/i18n';
import { largestRemainderMinutes, type Report } from '@tock/protocol';
import { ActivityTotals, dayTotalsOf, StackedDays } from './StackedDays.tsx';
import { colorClass } from '../colors.ts';
import { axisDay, tableDay } from '../report-format.ts';
import { useT } from '../i18n/index.ts';
import { rankedLabel } from '../list-lines.ts';
import { duration } from '../time.ts';
import type { DailyTotal } from '../types.ts';

/** Bars per day, stacked by activity, for the days `days` (in order). */
export function DayBars({ days, totals, report }: { days: string[]; totals: DailyTotal[]; report: Report }) {
  // A label under every day up to two weeks; then every few days (StackedDays thins them further to the width).
  const t = useT();
  const labelEvery = days.length <= 14 ? 1 : days.length <= 31 ? 3 : days.length <= 92 ? 7 : 30;
  const label = (dayTotal: (day: string) => number): string => {
    const worked = days.filter((d) => dayTotal(d) > 0);
    const busiest = worked.reduce<string | undefined>((best, d) => (best === undefined || dayTotal(d) > dayTotal(best) ? d : best), undefined);
    if (busiest === undefined) return t('chart.dayEmpty');
    if (days.length <= 14) return t('chart.dayList', { days: formatList(t.locale, days.map((d) => `${tableDay(d)} ${duration(dayTotal(d))}`)) });
    return t('chart.daySummary', { worked: worked.length, count: days.length, busiest: tableDay(busiest), duration: duration(dayTotal(busiest)) });
  };
  return (
    <StackedDays
      days={days}
      totals={totals}
      dayTotals={dayTotalsOf(report)}
      height={220}
      className="report-chart"
      testId="report-day-chart"
      label={label}
      dayName={tableDay}
      axisLabel={(day, i) => (i % labelEvery === 0 ? axisDay(day, days.length <= 7) : null)}
    />
  );
}

/** One activity's time, for the ranked bars. */
export interface RankedRow {
  activityID: string;
  activityName: string;
  seconds: number;
}

/**
 * Activities as bars, most time first (the order the report gives), each with its time as the
 * table below shows it: floored and shared out by largest remainder over all the rows.
 */
export function RankedBars({ rows }: { rows: RankedRow[] }) {
  const t = useT();
  const max = Math.max(1, ...rows.map((r) => r.seconds));
  const minutes = largestRemainderMinutes(rows.map((r) => r.seconds));
  const time = (i: number): string => duration((minutes[i] as number) * 60);
  const shown = rows.slice(0, 12);
  const rest = rows.length - shown.length;
  const label = rankedLabel(
    t,
    shown.map((r, i) => `${r.activityName} ${time(i)}`),
    rest,
  );
  return (
    <div class="ranked" role="img" aria-label={label} data-testid="report-activity-chart">
      {shown.map((r, i) => (
        <div class="ranked-row" key={r.activityID}>
          <span class="ranked-name">
            <span class={`swatch ${colorClass(r.activityID)}`} />
            {r.activityName}
          </span>
          <span class="ranked-track">
            <span class={`ranked-bar ${colorClass(r.activityID)}`} style={{ width: `${Math.max(0.5, (r.seconds / max) * 100)}%` }} />
          </span>
          <span class="ranked-value">{time(i)}</span>
        </div>
      ))}
      {rest > 0 && <p class="muted ranked-more">{t('chart.rankedMore', { rest })}</p>}
    </div>
  );
}

/** The colors of the day chart: each activity with its total over the range, most first. */
export function ActivityLegend({ totals }: { totals: DailyTotal[] }) {
  const t = useT();
  return <ActivityTotals totals={totals} label={t('chart.legend')} testId="report-legend" />;
}
