/**
 * Time as the window shows it: in the app's time zone (which decides what "today" is), not
 * necessarily the browser's. The day arithmetic is core's (`@tock/core/day`, the same code
 * the app counts today's total with, right on 23- and 25-hour days and where a DST change
 * skips midnight); this file binds it to the app's zone and clock and formats for display.
 * "Today" and the week are the person's (docs/data.md "Days and weeks"): their day starts at
 * `dayStartsAt` and their week on `weekStart`, both from the snapshot ({@link setPersonDays});
 * {@link dayKey} and {@link daySpan} stay calendar dates, which the forms build instants from.
 */
import { addDays, localDayKey, localDaySpan, localTimeOfDay, localTimeToMs, startOfWeek, type DaySpan, type WeekStartDay } from '@tock/core/day';
import { formatClockTime, formatDurationWords, usesTwelveHours } from '@tock/i18n';
import { formatDuration } from '@tock/protocol';
import { formatLocale, windowMessages } from './i18n/index.ts';

export { addDays };

let zone = 'UTC';
let offsetMs = 0;

/** Sets the app's time zone and how far the app's clock is from this browser's. */
export function setAppClock(timeZone: string, appNowIso: string): void {
  zone = timeZone;
  offsetMs = Date.parse(appNowIso) - Date.now();
}

let dayStartsAt = 0;
let firstDayOfWeek: WeekStartDay = 1;

/** Sets the person's day start (minutes after midnight) and first day of the week, from the snapshot. */
export function setPersonDays(startsAt: number | undefined, weekStartsOn: WeekStartDay | undefined): void {
  dayStartsAt = startsAt ?? 0;
  firstDayOfWeek = weekStartsOn ?? 1;
}

/** Now, by the app's clock. */
export function nowMs(): number {
  return Date.now() + offsetMs;
}

/** The app's time zone. */
export function timeZone(): string {
  return zone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function fmt(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = formatLocale();
  const k = `${locale}|${zone}|${key}`;
  let f = formatters.get(k);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    formatters.set(k, f);
  }
  return f;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the local day an instant falls on, in the app's zone. */
export function dayKey(ms: number): string {
  return localDayKey(ms, zone);
}

/** `[start, end)` of a local day in the app's zone. */
export function daySpan(day: string): DaySpan {
  return localDaySpan(day, zone);
}

/** The person's day an instant is on: with `dayStartsAt` 04:00, 02:30 is on the day before. */
export function personDayKey(ms: number): string {
  return localDayKey(ms, zone, dayStartsAt);
}

/** The person's today, by the app's clock. */
export function today(): string {
  return personDayKey(nowMs());
}

/** `[start, end)` of the person's day: from `dayStartsAt` on its date to `dayStartsAt` on the next. */
export function personDaySpan(day: string): DaySpan {
  return localDaySpan(day, zone, dayStartsAt);
}

/** The instant `HH:MM` (as minutes after midnight) on a local day stands for, in the app's zone. */
export function atLocalTime(day: string, minutes: number): number {
  return localTimeToMs(day, minutes, zone);
}

/** The first day of the person's week (the setting `weekStart`: Monday, Sunday or Saturday) holding `day`. */
export function weekStart(day: string): string {
  return startOfWeek(day, firstDayOfWeek);
}

/** Midday of a local day: an instant to format the day's name from. */
const middayOf = (day: string): number => localTimeToMs(day, 12 * 60, zone);

/** The clock setting (Settings › Desktop): `24h`, `12h`, or `system` (the window's language). */
export type ClockFormat = '24h' | '12h' | 'system';

let clock: ClockFormat = '24h';

/** Sets the clock every time of day is shown on (from the desktop settings). */
export function setClockFormat(format: ClockFormat | undefined): void {
  clock = format ?? '24h';
}

/**
 * Whether times of day are on the 12-hour clock: the setting, or with `system` the window's
 * language (`en` says 12 hours, `de` 24).
 */
export function twelveHours(): boolean {
  return usesTwelveHours(windowMessages().locale, clock);
}

/**
 * `09:15`, or on the 12-hour clock `9:15 AM` (`9:15 a. m.`, `午前9:15`): minutes after midnight
 * on the window's clock, in its language's words (@tock/i18n's formatClockTime, the CLI's too).
 */
export function timeOfDay(minutes: number, seconds?: number): string {
  return formatClockTime(windowMessages().locale, { hours: Math.floor(minutes / 60) % 24, minutes: minutes % 60, seconds }, clock);
}

/**
 * `09:15` (or `9:15 AM` on the 12-hour clock): every time of day the window shows goes
 * through here (or {@link clockSeconds}), on the clock of the setting, whatever the browser's
 * language would pick unless the setting is `system` (docs/ui.md "Durations and times of day").
 */
export function clockTime(ms: number): string {
  return timeOfDay(localTimeOfDay(ms, zone));
}

/**
 * The hour of an instant alone, for the timeline's axis: `08`, `14` on the 24-hour clock; `8`,
 * `2` on the 12-hour one (the half of the day is in every block's times, not repeated per tick).
 */
export function clockHour(ms: number): string {
  const h = Math.floor(localTimeOfDay(ms, zone) / 60) % 24;
  return twelveHours() ? String(h % 12 === 0 ? 12 : h % 12) : pad(h);
}

/** `18 Nov, 09:15`: an instant on some day (the Sync table's last change). */
export function dayAndTime(ms: number): string {
  return `${dayMonth(dayKey(ms))}, ${clockTime(ms)}`;
}

/** `Sunday, 22 November` */
export function longDay(day: string): string {
  return fmt('long', { weekday: 'long', day: 'numeric', month: 'long' }).format(middayOf(day));
}

/** `Mon 16` */
export function shortDay(day: string): string {
  return fmt('short', { weekday: 'short', day: 'numeric' }).format(middayOf(day));
}

/** `16 Nov` */
export function dayMonth(day: string): string {
  return fmt('dm', { day: 'numeric', month: 'short' }).format(middayOf(day));
}

/** `14:03:22` (or `2:03:22 PM`, `午後2:03:22`), for the request list: {@link clockTime} with the seconds. */
export function clockSeconds(ms: number): string {
  // Time zones are whole minutes off UTC, so the second of the minute is the instant's own.
  return timeOfDay(localTimeOfDay(ms, zone), Math.floor(ms / 1000) % 60);
}

/** `1:02:03` — a running clock. */
export function stopwatch(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * `3 h 12 min`, `45 min`, `0 min` — a duration, floored to the minute: in English by the
 * formatter the CLI uses too (`@tock/protocol`'s `formatDuration`), in another language by
 * `Intl` for its locale (`3 Std., 12 Min.`): 49 min 40 s is `49 min`, never 50.
 */
export function duration(seconds: number): string {
  const locale = windowMessages().locale;
  return locale === 'en' || locale === 'en-XA' ? formatDuration(seconds, 'words') : formatDurationWords(locale, seconds);
}

/** The text a time field starts with for an instant: as {@link clockTime} shows it, which the forms read back. */
export function timeInputValue(ms: number): string {
  return clockTime(ms);
}
