/**
 * Days as stacked bars: one bar per day, one segment per activity, a grid of whole hours and
 * each day's total above its bar while the bars are wide enough. Plain SVG, no chart library.
 * The History week and the Reports day chart are the same picture at two sizes, so they are
 * drawn by this one component; the legend beside them (each activity with its total) is
 * {@link ActivityTotals}.
 */
import { largestRemainderMinutes, shownTable, type DayReportRow, type Report } from '@tock/protocol';
import { colorClass } from '../colors.ts';
import { windowMessages } from '../i18n/index.ts';
import { duration } from '../time.ts';
import type { DailyTotal } from '../types.ts';
import { barTotals, textWidth } from './bar-total.ts';
import { useChartWidth } from './chart-width.ts';

const LEFT = 40;
const TOP = 22;
const BOTTOM = 26;

/** What differs between the charts: their size, names for tests and assistive technology, and day labels. */
export interface StackedDaysProps {
  days: string[];
  totals: DailyTotal[];
  /**
   * Each day's total as the app counts it (a report's by=day rows: shared time once) and as
   * shown ({@link dayTotalsOf}), above the bars and in the summary; the segments' sum until it
   * is loaded.
   */
  dayTotals: ReadonlyMap<string, number> | null;
  height: number;
  className: string;
  testId: string;
  /** The summary read out for the picture, given each day's total. */
  label(dayTotal: (day: string) => number): string;
  /** A day as it appears in a segment's tooltip. */
  dayName(day: string): string;
  /** The label under a day's bar, or null for none; labels that would collide are thinned out here. */
  axisLabel(day: string, index: number): string | null;
}

/**
 * The `by=day` rows of a report as a map from day to seconds as shown: each day floored to the
 * minute and shared out by largest remainder, so that the days add up to the report's total as
 * shown (@tock/protocol `shownTable`: the digits of the Reports table and of `tock report --by
 * day` for the same range; docs/product.md "Durations shown to people").
 */
export function dayTotalsOf(report: Report | null): Map<string, number> | null {
  if (!report?.rows.every((r) => 'date' in r)) return null;
  const rows = report.rows as DayReportRow[];
  const shown = shownTable(
    rows.map((r) => r.seconds),
    report.totalSeconds,
  ).rows;
  return new Map(rows.map((r, i) => [r.date, (shown[i] as number) * 60]));
}

/**
 * Bars per day, stacked by activity, for the days `days` (in order). A bar is as tall as the
 * day's total: where activities shared time (their seconds add up to more than the day's
 * total), each segment is drawn at its share of the total, so shared time is drawn once and
 * no bar reaches past its label (docs/product.md "Durations shown to people").
 */
export function StackedDays({ days, totals, dayTotals, height: H, className, testId, label, dayName, axisLabel }: StackedDaysProps) {
  const [ref, W] = useChartWidth(720);
  const perDay = new Map<string, DailyTotal[]>();
  for (const t of totals) perDay.set(t.day, [...(perDay.get(t.day) ?? []), t]);
  const stacked = (day: string): number => (perDay.get(day) ?? []).reduce((s, t) => s + t.seconds, 0);
  const dayTotal = (day: string): number => dayTotals?.get(day) ?? stacked(day);
  const maxHours = Math.max(1, Math.ceil(Math.max(0, ...days.map(dayTotal)) / 3600));
  const stepHours = maxHours > 16 ? 4 : maxHours > 8 ? 2 : 1;
  const plotH = H - TOP - BOTTOM;
  const y = (seconds: number): number => TOP + plotH - (seconds / (maxHours * 3600)) * plotH;
  const slot = (W - LEFT) / Math.max(1, days.length);
  const barW = Math.max(2, Math.min(56, slot * 0.62));
  // Totals above the bars only while there is room for every one of them (bar-total.ts).
  const above = barTotals(days.map(dayTotal), slot);
  // Labels under the bars far enough apart not to touch: every `every`-th one.
  const labels = days.map((d, i) => axisLabel(d, i));
  const widest = Math.max(0, ...labels.map((l) => (l === null ? 0 : textWidth(l))));
  const every = Math.max(1, Math.ceil((widest + 8) / slot));
  const grid: number[] = [];
  for (let h = 0; h <= maxHours; h += stepHours) grid.push(h);

  return (
    <svg ref={ref} class={className} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label(dayTotal)} data-testid={testId}>
      {grid.map((h) => (
        <g key={h}>
          <line class="grid" x1={LEFT} x2={W} y1={y(h * 3600)} y2={y(h * 3600)} />
          <text class="tick" x={LEFT - 8} y={y(h * 3600) + 4} text-anchor="end">{windowMessages()('chart.axisHours', { hours: h })}</text>
        </g>
      ))}
      {days.map((day, i) => {
        const cx = LEFT + slot * i + slot / 2;
        let acc = 0;
        const total = dayTotal(day);
        // Shared time drawn once: the segments shrink to fill exactly the day's total.
        const scale = stacked(day) > total ? total / stacked(day) : 1;
        const under = i % every === 0 ? (labels[i] ?? null) : null;
        return (
          <g key={day} data-day={day}>
            {(perDay.get(day) ?? []).map((t) => {
              const y1 = y(acc + t.seconds * scale);
              const h = y(acc) - y1;
              acc += t.seconds * scale;
              return (
                <rect
                  key={t.activityID}
                  class={`segment ${colorClass(t.activityID)}`}
                  x={cx - barW / 2}
                  y={y1}
                  width={barW}
                  height={Math.max(1, h)}
                  rx={barW > 8 ? 2 : 0}
                  data-activity={t.activityName}
                >
                  <title>{windowMessages()('chart.segment', { day: dayName(day), activity: t.activityName, duration: duration(t.seconds) })}</title>
                </rect>
              );
            })}
            {above !== null && total > 0 && (
              <text class="bar-total" x={cx} y={y(total) - 6} text-anchor="middle">
                {above[i]}
              </text>
            )}
            {under !== null && (
              <text class="tick day" x={cx} y={H - 8} text-anchor="middle">
                {under}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/**
 * The colors of a stacked chart: each activity with its total over the days, most first (by
 * name where two are equal), as a list; the totals floored to the minute and shared out by
 * largest remainder, as the Reports table by activity and `tock report` show the same figures.
 */
export function ActivityTotals({ totals, label, testId }: { totals: DailyTotal[]; label: string; testId?: string }) {
  const per = new Map<string, { name: string; seconds: number }>();
  for (const t of totals) {
    const cur = per.get(t.activityID) ?? { name: t.activityName, seconds: 0 };
    cur.seconds += t.seconds;
    per.set(t.activityID, cur);
  }
  const rows = [...per.entries()].sort((a, b) => b[1].seconds - a[1].seconds || a[1].name.localeCompare(b[1].name));
  const minutes = largestRemainderMinutes(rows.map(([, r]) => r.seconds));
  return (
    <ul class="legend" aria-label={label} data-testid={testId}>
      {rows.map(([id, r], i) => (
        <li key={id}>
          <span class={`swatch ${colorClass(id)}`} aria-hidden="true" />
          <span class="legend-name">{r.name}</span>
          <span class="legend-total">{duration((minutes[i] as number) * 60)}</span>
        </li>
      ))}
    </ul>
  );
}
