/**
 * Reading the History forms' date field and typed times (`09:30`, `9:30 AM`, `午前9:30`) as instants
 * in the app's zone, and the rules a typed start and end keep (docs/ui.md "Times you enter"):
 * an end before the start is a mistake unless the person said the block ends the next day,
 * and a block over 12 hours is logged only after a confirmation.
 */
import { readClockTime } from '@tock/i18n';
import { windowMessages } from '../../i18n/index.ts';
import { addDays, atLocalTime, duration, twelveHours } from '../../time.ts';

/** Blocks longer than this ask "log it anyway?" before they are sent. */
export const LONG_BLOCK_MS = 12 * 3_600_000;

/**
 * Minutes after midnight of a typed time — `09:30`, `9:30`, `0930`, `9.30` on the 24-hour
 * clock, or `9:30 AM`, `2:05 pm`, `2pm`, `2:05 p. m.`, `午後2:05` on the 12-hour one, in any of
 * the window's languages (a time the window shows must read back: @tock/i18n's
 * readClockTime, bounded and lenient) — or null when the field is empty or holds no time of
 * day (`25:00`, `9:75`, `13 PM`, `soon`, anything past 32 characters).
 */
export function minutesOf(typed: string): number | null {
  return readClockTime(typed);
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

/** A typed start and end read as instants, or what is wrong with them and which field it is about. */
export type RangeReading = { ok: true; start: number; end: number } | { ok: false; field: 'day' | 'from' | 'to'; message: string };

/** How to write a time, on the window's clock. */
export function timeForm(): string {
  return windowMessages()(twelveHours() ? 'times.form12' : 'times.form24');
}

/**
 * The instants of a start–end typed on `day`. The end is on the same day unless `endsNextDay`
 * (an explicit choice in the form): "From 11:00 To 10:30" is a mistake to show, never a
 * 23 h 30 min block.
 */
export function readRange(day: string, from: string, to: string, endsNextDay = false): RangeReading {
  const t = windowMessages();
  const a = minutesOf(from);
  if (a === null) return { ok: false, field: 'from', message: from.trim() ? t('times.writeStart', { form: timeForm() }) : t('times.enterStart') };
  const b = minutesOf(to);
  if (b === null) return { ok: false, field: 'to', message: to.trim() ? t('times.writeEnd', { form: timeForm() }) : t('log.enterEnd') };
  const start = atMinutes(day, a);
  if (start === null) return { ok: false, field: 'day', message: t('times.chooseDay') };
  const end = atLocalTime(endsNextDay ? addDays(day, 1) : day, b);
  if (end <= start) {
    return {
      ok: false,
      field: 'to',
      message:
        end === start
          ? t('times.endIsStart')
          : t('times.endsBefore', { to: to.trim(), from: from.trim() }),
    };
  }
  return { ok: true, start, end };
}

/** The question to ask before sending a block of `ms`, or null when it is 12 hours or less. */
export function longBlockQuestion(ms: number): string | null {
  return ms > LONG_BLOCK_MS ? windowMessages()('times.longBlock', { duration: duration(ms / 1000) }) : null;
}
