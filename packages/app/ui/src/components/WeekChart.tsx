/**
 * A week of work as stacked bars: one bar per day, one segment per activity, with the day's
 * total above it. Plain SVG, no chart library; the legend below doubles as the table of
 * totals per activity.
 */
import { colorClass } from '../colors.ts';
import { duration, shortDay } from '../time.ts';
import type { DailyTotal } from '../types.ts';

const W = 720;
const H = 240;
const LEFT = 40;
const TOP = 22;
const BOTTOM = 26;

interface Props {
  days: string[];
  totals: DailyTotal[];
}

export function WeekChart({ days, totals }: Props) {
  const perDay = new Map<string, DailyTotal[]>();
  for (const t of totals) perDay.set(t.day, [...(perDay.get(t.day) ?? []), t]);
  const dayTotal = (day: string): number => (perDay.get(day) ?? []).reduce((s, t) => s + t.seconds, 0);
  const maxHours = Math.max(1, Math.ceil(Math.max(0, ...days.map(dayTotal)) / 3600));
  const stepHours = maxHours > 8 ? 2 : 1;
  const plotH = H - TOP - BOTTOM;
  const y = (seconds: number): number => TOP + plotH - (seconds / (maxHours * 3600)) * plotH;
  const slot = (W - LEFT) / days.length;
  const barW = Math.min(56, slot * 0.6);
  const grid: number[] = [];
  for (let h = 0; h <= maxHours; h += stepHours) grid.push(h);
  const weekTotal = totals.reduce((s, t) => s + t.seconds, 0);
  const summary = days
    .map((d) => `${shortDay(d)} ${duration(dayTotal(d))}`)
    .join(', ');

  return (
    <svg class="week-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Daily totals: ${summary}. Week: ${duration(weekTotal)}.`} data-testid="week-chart">
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
                <rect key={t.activityID} class={`segment ${colorClass(t.activityID)}`} x={cx - barW / 2} y={y1} width={barW} height={Math.max(1, h)} data-activity={t.activityName}>
                  <title>{`${shortDay(day)}: ${t.activityName}, ${duration(t.seconds)}`}</title>
                </rect>
              );
            })}
            {total > 0 && (
              <text class="bar-total" x={cx} y={y(total) - 6} text-anchor="middle">
                {duration(total).replace(' min', 'm').replace(' h', 'h')}
              </text>
            )}
            <text class="tick day" x={cx} y={H - 8} text-anchor="middle">
              {shortDay(day)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Totals per activity over the week, biggest first, as a legend. */
export function WeekLegend({ totals }: { totals: DailyTotal[] }) {
  const per = new Map<string, { name: string; seconds: number }>();
  for (const t of totals) {
    const cur = per.get(t.activityID) ?? { name: t.activityName, seconds: 0 };
    cur.seconds += t.seconds;
    per.set(t.activityID, cur);
  }
  const rows = [...per.entries()].sort((a, b) => b[1].seconds - a[1].seconds);
  if (rows.length === 0) return <p class="muted">Nothing tracked this week.</p>;
  return (
    <ul class="legend" aria-label="Totals per activity this week">
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
