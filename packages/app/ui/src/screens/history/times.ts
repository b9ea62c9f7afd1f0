/**
 * Reading the History forms' `<input type="date">` and `<input type="time">` values as
 * instants in the app's zone.
 */
import { addDays, atLocalTime } from '../../time.ts';

/** Minutes after midnight of an `HH:MM` value, or null when the field is empty or not a time. */
export function minutesOf(hhmm: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/**
 * The instant of a wall-clock time (minutes after midnight) on `day` in the app's zone, or
 * null when `day` is not a `YYYY-MM-DD` day (a cleared date field).
 */
export function atMinutes(day: string, minutes: number): number | null {
  try {
    return atLocalTime(day, minutes);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * The instants of a start–end on one day; an end at or before the start is on the next day.
 * Null when a time or the day is missing.
 */
export function rangeOf(day: string, from: string, to: string): { start: number; end: number } | null {
  const a = minutesOf(from);
  const b = minutesOf(to);
  if (a === null || b === null) return null;
  const start = atMinutes(day, a);
  let end = atMinutes(day, b);
  if (start === null || end === null) return null;
  if (end <= start) end = atLocalTime(addDays(day, 1), b);
  return { start, end };
}
