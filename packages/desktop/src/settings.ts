/**
 * The desktop settings (docs/desktop.md "Settings"): the idle threshold, the reminder and the
 * working hours it keeps to, the tray, and the clock the window shows times of day on. Kept as one JSON value in the store's settings; what is missing
 * takes its default, so an older app's value still reads.
 */

import type { Language } from '@tock/i18n/languages';
import { type FieldRule, type Problem, ruleProblem, validationProblem } from '@tock/protocol';
import type { ClockFormat, DesktopSettings, WorkingHours } from './view.ts';

export type { ClockFormat, DesktopSettings, WorkingHours } from './view.ts';

const CLOCK_FORMATS: readonly ClockFormat[] = ['24h', '12h', 'system'];

/** The defaults: idle after 10 minutes, no reminder, Monday to Friday 09:00–17:00, in the tray. */
const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = {
  idleThresholdMinutes: 10,
  reminderEnabled: false,
  reminderAfterMinutes: 15,
  workingHours: { from: '09:00', to: '17:00', days: [1, 2, 3, 4, 5] },
  tray: true,
  clockFormat: '24h',
};

/**
 * A refused setting: a `validation_failed` {@link Problem} naming `field`, its message `field:
 * why`, the rule's code and values beside it for Settings › Desktop to say in the language.
 */
function settingProblem(field: string, rule: FieldRule): Problem {
  return validationProblem([ruleProblem(field, rule)]);
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after local midnight of an `HH:MM` time. */
export function minutesOfDay(hhmm: string): number {
  const m = HHMM.exec(hhmm);
  if (!m) throw settingProblem('workingHours', { rule: 'timeLike', values: { sent: hhmm } });
  return Number(m[1]) * 60 + Number(m[2]);
}

function wholeMinutes(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw settingProblem(field, { rule: 'wholeUnits', values: { unit: 'minutes', min, max } });
  }
  return value;
}

/**
 * Applies `patch` (fields as the window or CLI sends them) to `current` and returns the
 * result, or throws a `validation_failed` Problem for the first field that is refused.
 */
export function updateDesktopSettings(current: DesktopSettings, patch: Record<string, unknown>): DesktopSettings {
  const next: DesktopSettings = { ...current, workingHours: { ...current.workingHours } };
  if (patch.idleThresholdMinutes !== undefined) next.idleThresholdMinutes = wholeMinutes(patch.idleThresholdMinutes, 'idleThresholdMinutes', 0, 240);
  if (patch.reminderEnabled !== undefined) {
    if (typeof patch.reminderEnabled !== 'boolean') throw settingProblem('reminderEnabled', { rule: 'boolean' });
    next.reminderEnabled = patch.reminderEnabled;
  }
  if (patch.tray !== undefined) {
    if (typeof patch.tray !== 'boolean') throw settingProblem('tray', { rule: 'boolean' });
    next.tray = patch.tray;
  }
  if (patch.clockFormat !== undefined) {
    if (!CLOCK_FORMATS.includes(patch.clockFormat as ClockFormat)) throw settingProblem('clockFormat', { rule: 'clockFormatChoice' });
    next.clockFormat = patch.clockFormat as ClockFormat;
  }
  if (patch.reminderAfterMinutes !== undefined) next.reminderAfterMinutes = wholeMinutes(patch.reminderAfterMinutes, 'reminderAfterMinutes', 1, 480);
  if (patch.workingHours !== undefined) {
    const hours = patch.workingHours as Partial<WorkingHours> | null;
    if (!hours || typeof hours !== 'object') throw settingProblem('workingHours', { rule: 'workingHoursShape' });
    const from = typeof hours.from === 'string' ? hours.from : next.workingHours.from;
    const to = typeof hours.to === 'string' ? hours.to : next.workingHours.to;
    // An end before the start runs over midnight; only an empty span is refused.
    if (minutesOfDay(to) === minutesOfDay(from)) {
      throw settingProblem('workingHours', { rule: 'workingHoursEmpty', values: { from, to } });
    }
    const days = hours.days === undefined ? next.workingHours.days : hours.days;
    if (!Array.isArray(days) || days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) {
      throw settingProblem('workingHours', { rule: 'weekdayNumbers' });
    }
    next.workingHours = { from, to, days: [...new Set(days as number[])].sort() };
  }
  return next;
}

/**
 * The clock of a locale, for a `clockFormat` nobody set (docs/decisions.md "The clock follows
 * the locale until set"): the person's language in the region of their environment's time
 * formats — `en_US` the 12-hour clock, `en_GB`, `de`, `fr`, `es`, `ja` the 24-hour one. Without
 * a region (`C`, `C.UTF-8`, a bare `en`) or in the pseudo-locale's (`XA`), the 24-hour clock,
 * as ISO 8601 writes times.
 */
export function localeClockFormat(language: Language, region: string | null): '24h' | '12h' {
  if (region === null || region === 'XA') return '24h';
  let cycle: string | undefined;
  try {
    cycle = new Intl.DateTimeFormat(`${language}-${region}`, { hour: 'numeric' }).resolvedOptions().hourCycle;
  } catch {
    return '24h';
  }
  return cycle === 'h11' || cycle === 'h12' ? '12h' : '24h';
}

/**
 * What the store keeps after `patch` made `next`: the fields kept before and those the patch
 * gave, at `next`'s values — only what the person set, so a default (the clock, which follows
 * the locale) is never written down as if chosen. A whole object saved by an older app keeps
 * every field it has as set: its `24h` stays 24h.
 */
export function savedDesktopSettings(stored: unknown, next: DesktopSettings, patch: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = stored && typeof stored === 'object' ? { ...(stored as Record<string, unknown>) } : {};
  for (const key of Object.keys(DEFAULT_DESKTOP_SETTINGS) as (keyof DesktopSettings)[]) {
    if (patch[key] !== undefined) kept[key] = next[key];
  }
  return kept;
}

/** Whether the stored value holds a `clockFormat` the person set (or an older app saved whole). */
export function storedClockFormatSet(stored: unknown): boolean {
  return !!stored && typeof stored === 'object' && typeof (stored as Record<string, unknown>).clockFormat === 'string';
}

/** Reads a stored value, defaults filling whatever is missing or unreadable. */
export function readDesktopSettings(stored: unknown): DesktopSettings {
  if (!stored || typeof stored !== 'object') return DEFAULT_DESKTOP_SETTINGS;
  try {
    return updateDesktopSettings(DEFAULT_DESKTOP_SETTINGS, stored as Record<string, unknown>);
  } catch {
    return DEFAULT_DESKTOP_SETTINGS;
  }
}

/**
 * How many minutes ago the working hours that hold a local moment began — `weekday` (0 =
 * Sunday) and `minutes` after local midnight — or null outside them. Hours over midnight
 * (18:00–09:00) belong to the day they begin on: 02:00 on Saturday is inside Friday's.
 */
export function minutesIntoWorkingHours(hours: WorkingHours, weekday: number, minutes: number): number | null {
  const from = minutesOfDay(hours.from);
  const to = minutesOfDay(hours.to);
  if (from < to) return hours.days.includes(weekday) && minutes >= from && minutes < to ? minutes - from : null;
  if (minutes >= from && hours.days.includes(weekday)) return minutes - from;
  if (minutes < to && hours.days.includes((weekday + 6) % 7)) return minutes + 1440 - from;
  return null;
}

/**
 * How many minutes after a local moment — `weekday` (0 = Sunday) and `minutes` after local
 * midnight — the next working hours begin (always ahead: one beginning now is the next
 * week's), or null when no weekday is listed.
 */
export function minutesUntilWorkingHours(hours: WorkingHours, weekday: number, minutes: number): number | null {
  const from = minutesOfDay(hours.from);
  for (let day = 0; day <= 7; day++) {
    const ahead = day * 1440 + from - minutes;
    if (ahead > 0 && hours.days.includes((weekday + day) % 7)) return ahead;
  }
  return null;
}
