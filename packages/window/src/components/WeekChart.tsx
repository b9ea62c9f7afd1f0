/**
 * A week of work as stacked bars (StackedDays): one bar per day, one segment per activity,
 * with the day's total above it; the legend below doubles as the table of totals per activity.
 */
import { formatList } from '@tock/i18n';
import type { Report } from '@tock/protocol';
import { ActivityTotals, dayTotalsOf, StackedDays } from './StackedDays.tsx';
import { useT } from '../i18n/index.ts';
import { duration, shortDay } from '../time.ts';
import type { DailyTotal } from '../types.ts';

interface Props {
  days: string[];
  totals: DailyTotal[];
  /** The week's report by day: the days' and the week's totals, shared time counted once. */
  report: Report | null;
}

/** The week's bars, a label under every day, the week's total in the summary. */
export function WeekChart({ days, totals, report }: Props) {
  const t = useT();
  const weekTotal = report?.totalSeconds ?? totals.reduce((s, t) => s + t.seconds, 0);
  const label = (dayTotal: (day: string) => number): string =>
    t('chart.weekLabel', { days: formatList(t.locale, days.map((d) => `${shortDay(d)} ${duration(dayTotal(d))}`)), week: duration(weekTotal) });
  return (
    <StackedDays days={days} totals={totals} dayTotals={dayTotalsOf(report)} height={240} className="week-chart" testId="week-chart" label={label} dayName={shortDay} axisLabel={shortDay} />
  );
}

/**
 * Totals per activity over the week, biggest first, as a legend; nothing for an empty week,
 * which the list of sessions and entries below says once.
 */
export function WeekLegend({ totals }: { totals: DailyTotal[] }) {
  const t = useT();
  if (totals.length === 0) return null;
  return <ActivityTotals totals={totals} label={t('chart.weekLegend')} />;
}
