/**
 * The Reports screen's charts. By day: one bar per day of the range, stacked by activity
 * (SVG, like the History week, with fewer day labels as the range grows). By activity: a
 * ranked list of bars, longest first. Both are pictures of the table below them: a summary
 * for screen readers in `aria-label`, the numbers themselves in the table.
 */
import { colorClass } from '../colors.ts';
import { axisDay, tableDay } from '../report-format.ts';
import { duration } from '../time.ts';
import type { DailyTotal } from '../types.ts';

const W = 720;
const H = 220;
const LEFT = 40;
const TOP = 22;
const BOTTOM = 26;

/** `3h 12m`: a total short enough to sit above a bar. */
function compact(seconds: number): string {
  return duration(seconds).replace(' min', 'm').replace(' h', 'h');
}

/** Bars per day, stacked by activity, for the days `days` (in order). */
export function DayBars({ days, totals }: { days: string[]; totals: DailyTotal[] }) {
  const perDay = new Map<string, DailyTotal[]>();
  for (const t of totals) perDay.set(t.day, [...(perDay.get(t.day) ?? []), t]);
  const dayTotal = (day: string): number => (perDay.get(day) ?? []).reduce((s, t) => s + t.seconds, 0);
  const maxHours = Math.max(1, Math.ceil(Math.max(0, ...days.map(dayTotal)) / 3600));
  const stepHours = maxHours > 16 ? 4 : maxHours > 8 ? 2 : 1;
  const plotH = H - TOP - BOTTOM;
  const y = (seconds: number): number => TOP + plotH - (seconds / (maxHours * 3600)) * plotH;
  const slot = (W - LEFT) / Math.max(1, days.length);
  const barW = Math.max(2, Math.min(56, slot * 0.62));
  // A label under every day up to two weeks; then every few days, so labels never collide.
  const labelEvery = days.length <= 14 ? 1 : days.length <= 31 ? 3 : days.length <= 92 ? 7 : 30;
  const totalsAbove = days.length <= 14;
  const grid: number[] = [];
  for (let h = 0; h <= maxHours; h += stepHours) grid.push(h);
  const worked = days.filter((d) => dayTotal(d) > 0);
  const busiest = worked.reduce<string | undefined>((best, d) => (best === undefined || dayTotal(d) > dayTotal(best) ? d : best), undefined);
  const label =
    worked.length === 0
      ? 'Time per day: nothing tracked in this range.'
      : days.length <= 14
        ? `Time per day: ${days.map((d) => `${tableDay(d)} ${duration(dayTotal(d))}`).join(', ')}.`
        : `Time per day: ${worked.length} of ${days.length} days with tracked time; the most on ${tableDay(busiest as string)}, ${duration(dayTotal(busiest as string))}. Every day is in the table below.`;

  return (
    <svg class="report-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-testid="report-day-chart">
      {grid.map((h) => (
        <g key={h}>
          <line class="grid" x1={LEFT} x2={W} y1={y(h * 3600)} y2={y(h * 3600)} />
          <text class="tick" x={LEFT - 8} y={y(h * 3600) + 4} text-anchor="end">{`${h}h`}</text>
        </g>
      ))}
      {days.map((day, i) => {
        const cx = LEFT + slot * i + slot / 2;
        let acc = 0;
        const total = dayTotal(day);
        return (
          <g key={day} data-day={day}>
            {(perDay.get(day) ?? []).map((t) => {
              const y1 = y(acc + t.seconds);
              const h = y(acc) - y1;
              acc += t.seconds;
              return (
                <rect key={t.activityID} class={`segment ${colorClass(t.activityID)}`} x={cx - barW / 2} y={y1} width={barW} height={Math.max(1, h)} rx={barW > 8 ? 2 : 0} data-activity={t.activityName}>
                  <title>{`${tableDay(day)}: ${t.activityName}, ${duration(t.seconds)}`}</title>
                </rect>
              );
            })}
            {totalsAbove && total > 0 && (
              <text class="bar-total" x={cx} y={y(total) - 6} text-anchor="middle">
                {compact(total)}
              </text>
            )}
            {i % labelEvery === 0 && (
              <text class="tick day" x={cx} y={H - 8} text-anchor="middle">
                {axisDay(day, days.length <= 7)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** One activity's time, for the ranked bars. */
export interface RankedRow {
  activityID: string;
  activityName: string;
  seconds: number;
}

/** Activities as bars, most time first (the order the report gives). */
export function RankedBars({ rows }: { rows: RankedRow[] }) {
  const max = Math.max(1, ...rows.map((r) => r.seconds));
  const shown = rows.slice(0, 12);
  const rest = rows.length - shown.length;
  const label = `Time per activity, most first: ${shown.map((r) => `${r.activityName} ${duration(r.seconds)}`).join(', ')}${rest > 0 ? `, and ${rest} more in the table below` : ''}.`;
  return (
    <div class="ranked" role="img" aria-label={label} data-testid="report-activity-chart">
      {shown.map((r) => (
        <div class="ranked-row" key={r.activityID}>
          <span class="ranked-name">
            <span class={`swatch ${colorClass(r.activityID)}`} />
            {r.activityName}
          </span>
          <span class="ranked-track">
            <span class={`ranked-bar ${colorClass(r.activityID)}`} style={{ width: `${Math.max(0.5, (r.seconds / max) * 100)}%` }} />
          </span>
          <span class="ranked-value">{duration(r.seconds)}</span>
        </div>
      ))}
      {rest > 0 && <p class="muted ranked-more">and {rest} more below</p>}
    </div>
  );
}

/** The colors of the day chart: each activity with its total over the range, most first. */
export function ActivityLegend({ totals }: { totals: DailyTotal[] }) {
  const per = new Map<string, { name: string; seconds: number }>();
  for (const t of totals) {
    const cur = per.get(t.activityID) ?? { name: t.activityName, seconds: 0 };
    cur.seconds += t.seconds;
    per.set(t.activityID, cur);
  }
  const rows = [...per.entries()].sort((a, b) => b[1].seconds - a[1].seconds || a[1].name.localeCompare(b[1].name));
  return (
    <ul class="legend" aria-label="Activities in the chart" data-testid="report-legend">
      {rows.map(([id, r]) => (
        <li key={id}>
          <span class={`swatch ${colorClass(id)}`} aria-hidden="true" />
          <span class="legend-name">{r.name}</span>
          <span class="legend-total">{duration(r.seconds)}</span>
        </li>
      ))}
    </ul>
  );
}
