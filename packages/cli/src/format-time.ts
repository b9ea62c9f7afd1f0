/**
 * Wall-clock times for the CLI's human output: the wire speaks ISO UTC, people read their
 * local time (`TZ` respected, as the app's "today" is), on the clock of the desktop setting
 * `clockFormat` the window follows too (docs/cli.md, human output; the setting is read once
 * per command, clock-setting.ts), in the words of the language the CLI speaks (`3:05 PM`,
 * `3:05 p. m.`, `午後3:05`: @tock/i18n's formatClockTime, the window's formatter too). Pure apart
 * from the process's zone.
 */
import { type ClockChoice, formatClockTime, type Locale, usesTwelveHours } from '@tock/i18n';

/** The desktop setting `clockFormat`: the 24-hour clock, the 12-hour one, or the chosen language's. */
export type ClockSetting = ClockChoice;

/** The setting bound to the language the CLI speaks: what `system` means and the 12-hour clock's words. */
export interface LanguageClock {
  readonly setting: ClockSetting;
  readonly locale: Locale;
}

/**
 * The clock the formatters below write on: the setting in the CLI's language
 * (clock-setting.ts's answer), or a bare setting, written in English (`--json` and tests).
 */
export type ClockFormat = ClockSetting | LanguageClock;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function sameLocalDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** `clock` with its language: a bare setting is in English. */
function inLanguage(clock: ClockFormat): LanguageClock {
  return typeof clock === 'string' ? { setting: clock, locale: 'en' } : clock;
}

/** Whether `clock` means the 12-hour clock: `12h`, or `system` where the CLI's language writes it so (`en`). */
export function twelveHours(clock: ClockFormat): boolean {
  const { setting, locale } = inLanguage(clock);
  return usesTwelveHours(locale, setting);
}

/** `09:14`, or `9:14 AM` (`9:14 a. m.`, `午前9:14`) on the 12-hour clock, as the window writes it: an hour and minute of the day. */
export function timeOfDay(hours: number, minutes: number, clock: ClockFormat = '24h'): string {
  const { setting, locale } = inLanguage(clock);
  return formatClockTime(locale, { hours, minutes }, setting);
}

/** The time of day of an instant in `timeZone` (the app's, for a day the app reports), on `clock`. */
export function timeOfDayIn(iso: string, timeZone: string | undefined, clock: ClockFormat = '24h'): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  const part = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return timeOfDay(part('hour'), part('minute'), clock);
}

/**
 * `09:14` for a time on `now`'s local day; `2026-11-21 17:02` for any other day, so a
 * session left running overnight does not read as if it started this morning. On the
 * 12-hour clock `9:14 AM`, `2026-11-21 5:02 PM`.
 */
export function formatClock(iso: string, now: Date, clock: ClockFormat = '24h'): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const time = timeOfDay(at.getHours(), at.getMinutes(), clock);
  if (sameLocalDay(at, now)) return time;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/**
 * A block as `09:00–09:45`; the end shows its date only when it falls on another local day
 * than the start (`23:30–2026-11-22 00:15`), the start only when it is not on `now`'s day.
 */
export function formatSpan(startIso: string, endIso: string, now: Date, clock: ClockFormat = '24h'): string {
  return `${formatClock(startIso, now, clock)}–${formatClock(endIso, new Date(startIso), clock)}`;
}
