/**
 * Time as the window shows it: in the app's time zone (which decides what "today" is), not
 * necessarily the browser's. The day arithmetic is core's (`@tock/core/day`, the same code
 * the app counts today's total with, right on 23- and 25-hour days and where a DST change
 * skips midnight); this file binds it to the app's zone and clock and formats for display.
 */
import { addDays, localDayKey, localDaySpan, localTimeOfDay, localTimeToMs, startOfWeek, type DaySpan } from '@tock/core/day';
import { formatDuration } from '@tock/protocol';

export { addDays };

let zone = 'UTC';
let offsetMs = 0;

/** Sets the app's time zone and how far the app's clock is from this browser's. */
export function setAppClock(timeZone: string, appNowIso: string): void {
  zone = timeZone;
  offsetMs = Date.parse(appNowIso) - Date.now();
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
  const k = `${zone}|${key}`;
  let f = formatters.get(k);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, { ...options, timeZone: zone });
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

/** The instant `HH:MM` (as minutes after midnight) on a local day stands for, in the app's zone. */
export function atLocalTime(day: string, minutes: number): number {
  return localTimeToMs(day, minutes, zone);
}

/** The Monday that starts the week of `day`. */
export function weekStart(day: string): string {
  return startOfWeek(day);
}

/** Midday of a local day: an instant to format the day's name from. */
const middayOf = (day: string): number => localTimeToMs(day, 12 * 60, zone);

/**
 * `09:15`: every time of day the window shows goes through here (or {@link clockSeconds}),
 * on the 24-hour clock, whatever the browser's language would pick (docs/ui.md "Times").
 */
export function clockTime(ms: number): string {
  const minutes = localTimeOfDay(ms, zone);
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
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

/** `14:03:22`, for the request list. */
export function clockSeconds(ms: number): string {
  return fmt('hms', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(ms);
}

/** `1:02:03` — a running clock. */
export function stopwatch(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * `3 h 12 min`, `45 min`, `0 min` — a duration, floored to the minute by the formatter the
 * CLI uses too (`@tock/protocol`'s `formatDuration`): 49 min 40 s is `49 min`, never 50.
 */
export function duration(seconds: number): string {
  return formatDuration(seconds, 'words');
}

/** `HH:MM` for an `<input type="time">` from an instant. */
export function timeInputValue(ms: number): string {
  const minutes = localTimeOfDay(ms, zone);
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
