/**
 * Wall-clock times for the CLI's human output: the wire speaks ISO UTC, people read their
 * local time (`TZ` respected, as the app's "today" is), on the clock of the desktop setting
 * `clockFormat` the window follows too (docs/cli.md, human output; the setting is read once
 * per command, clock-setting.ts). Pure apart from the process's zone and, for `system`, its
 * language.
 */

/** The desktop setting `clockFormat`: the 24-hour clock, the 12-hour one, or the system's language's. */
export type ClockFormat = '24h' | '12h' | 'system';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function sameLocalDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** Whether `clock` means the 12-hour clock: `12h`, or `system` where the language writes it so (`en-US`). */
export function twelveHours(clock: ClockFormat): boolean {
  if (clock !== 'system') return clock === '12h';
  const cycle = new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h11' || cycle === 'h12';
}

/** `09:14`, or `9:14 AM` on the 12-hour clock (as the window writes it): an hour and minute of the day. */
export function timeOfDay(hours: number, minutes: number, clock: ClockFormat = '24h'): string {
  if (!twelveHours(clock)) return `${pad(hours)}:${pad(minutes)}`;
  return `${hours % 12 === 0 ? 12 : hours % 12}:${pad(minutes)} ${hours < 12 ? 'AM' : 'PM'}`;
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
