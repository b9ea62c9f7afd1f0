/**
 * Reading the History forms' `<input type="time">` values as instants in the app's zone.
 */
import { addDays, wallToMs } from '../../time.ts';

/** Minutes after midnight of an `HH:MM` value, or null when the field is empty or not a time. */
export function minutesOf(hhmm: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The instant of `HH:MM` (as minutes after midnight) on `day` in the app's zone. */
export function atMinutes(day: string, minutes: number): number {
  return wallToMs(day, Math.floor(minutes / 60), minutes % 60);
}

/** The instants of a start–end on one day; an end at or before the start is on the next day. */
export function rangeOf(day: string, from: string, to: string): { start: number; end: number } | null {
  const a = minutesOf(from);
  const b = minutesOf(to);
  if (a === null || b === null) return null;
  const start = atMinutes(day, a);
  let end = atMinutes(day, b);
  if (end <= start) end = atMinutes(addDays(day, 1), b);
  return { start, end };
}
