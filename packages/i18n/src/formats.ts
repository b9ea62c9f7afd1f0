/**
 * Numbers, dates, times, money, lists, relative times and durations for a locale, all through
 * `Intl` (docs/i18n.md "Formats"). Machine output (`--json`, CSV, the API) never goes through
 * these: it keeps ISO dates and `.` decimals whatever the language.
 */
import type { Locale } from './languages.ts';
import { intlLocale } from './messages.ts';

/** How a time of day is written: `14:05`, `2:05 PM`, or as the locale writes it. */
export type ClockChoice = '24h' | '12h' | 'locale';

/** Whether the locale writes times of day on a 12-hour clock (`en`: yes; `de`, `fr`, `ja`: no). */
export function localeUses12Hour(locale: Locale): boolean {
  const cycle = new Intl.DateTimeFormat(intlLocale(locale), { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h11' || cycle === 'h12';
}

/** A time of day in `timeZone`: `clock` as set, or the locale's own clock for `'locale'`. */
export function formatTimeOfDay(locale: Locale, ms: number, timeZone: string, clock: ClockChoice = 'locale'): string {
  const hourCycle = clock === '24h' ? 'h23' : clock === '12h' ? 'h12' : undefined;
  return new Intl.DateTimeFormat(intlLocale(locale), { timeZone, hour: 'numeric', minute: '2-digit', ...(hourCycle ? { hourCycle } : {}) }).format(ms);
}

/** A calendar date in `timeZone` in the locale's order and words (`style` as `Intl`'s `dateStyle`). */
export function formatDate(locale: Locale, ms: number, timeZone: string, style: 'full' | 'long' | 'medium' | 'short' = 'medium'): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { timeZone, dateStyle: style }).format(ms);
}

/** A number with the locale's digits, grouping and decimal mark. */
export function formatNumber(locale: Locale, value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlLocale(locale), options).format(value);
}

/** An amount of money in `currency` (ISO 4217, `EUR`), written as the locale writes it. */
export function formatCurrency(locale: Locale, amount: number, currency: string): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency }).format(amount);
}

/** `a, b and c` in the locale's words. */
export function formatList(locale: Locale, items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
  return new Intl.ListFormat(intlLocale(locale), { style: 'long', type }).format(items);
}

/** `in 5 minutes`, `3 days ago`, `yesterday` in the locale's words. */
export function formatRelativeTime(locale: Locale, value: number, unit: Intl.RelativeTimeFormatUnit): string {
  return new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'auto' }).format(value, unit);
}

/** `Intl.DurationFormat` (Node 23 and later), typed here until TypeScript's lib has it. */
interface DurationFormatter {
  format(duration: { hours?: number; minutes?: number }): string;
}
type DurationFormatConstructor = new (locale: string, options: { style: 'long' | 'short' | 'narrow'; minutesDisplay?: 'always' | 'auto' }) => DurationFormatter;

/**
 * Seconds as hours and minutes in words (`2 hr, 10 min`, `2 Std., 10 Min.`, `2 時間 10 分`),
 * floored to the minute like every duration Tock shows; zero hours are left out, zero minutes
 * alone are `0 min`.
 */
export function formatDurationWords(locale: Locale, seconds: number, style: 'long' | 'short' | 'narrow' = 'short'): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  const duration = { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
  const DurationFormat = (Intl as unknown as { DurationFormat?: DurationFormatConstructor }).DurationFormat;
  if (DurationFormat === undefined) {
    const unit = (value: number, name: 'hour' | 'minute'): string => new Intl.NumberFormat(intlLocale(locale), { style: 'unit', unit: name, unitDisplay: style }).format(value);
    return duration.hours > 0 ? `${unit(duration.hours, 'hour')} ${unit(duration.minutes, 'minute')}` : unit(duration.minutes, 'minute');
  }
  const shown = duration.hours > 0 ? (duration.minutes > 0 ? duration : { hours: duration.hours }) : { minutes: duration.minutes };
  // Zero minutes would be left out as well, leaving nothing: shown as `0 Min.`.
  return new DurationFormat(intlLocale(locale), duration.hours > 0 ? { style } : { style, minutesDisplay: 'always' }).format(shown);
}
