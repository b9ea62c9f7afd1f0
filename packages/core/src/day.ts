/**
 * Local calendar days: which day an instant falls on in a time zone, and the instants a day
 * (or a wall-clock time on it) starts at. Days are not always 24 hours long (23 and 25 on DST
 * changes, and some zones skip midnight), so a day's start is found from the zone's real
 * offsets via `Intl`, never by adding 24 hours.
 *
 * The one implementation for the app and the window: every function takes the zone as an
 * argument and the module uses nothing but `Intl` and `Date`, so the window's bundle imports
 * it as `@tock/core/day`. The process's own zone is in zone.ts.
 */

import type { FieldRule } from '@tock/protocol';
import { utcMs } from './instants.ts';

/**
 * A day that is not `YYYY-MM-DD` or not on the calendar: a RangeError as before, with its rule
 * (`dayKeyShape`, `notCalendarDay` `{day}`; the English is rule-lines.ts's) for the doors that
 * word it in the person's language (docs/i18n.md).
 */
export class DayKeyError extends RangeError {
  readonly rule: FieldRule;
  constructor(message: string, rule: FieldRule) {
    super(message);
    this.rule = rule;
  }
}

/** A local calendar day as `YYYY-MM-DD`. */
export type DayKey = string;

/** The half-open span `[start, end)` of one local day, in ms since the epoch. */
export interface DaySpan {
  day: DayKey;
  start: number;
  end: number;
}

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();
const dayStarts = new Map<string, number>();

/** Throws a one-line error when `timeZone` is not an IANA zone `Intl` knows. */
export function assertTimeZone(timeZone: string): void {
  try {
    formatter(timeZone);
  } catch {
    throw new RangeError(`unknown time zone "${timeZone}"; use an IANA name such as "Europe/Berlin"`);
  }
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(ms: number, timeZone: string): WallClock {
  const out: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatter(timeZone).formatToParts(ms)) {
    if (part.type in out) out[part.type as keyof WallClock] = Number(part.value);
  }
  return out;
}

function keyOf(year: number, month: number, day: number): DayKey {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The local day an instant falls on — the one definition of "a day" (docs/data.md "Days and
 * weeks"). With `dayStartsAt` (minutes after midnight, 0 to 360: the setting `dayStartsAt`) a
 * day runs from that time on its date to that time on the next date, so 02:30 with 04:00 (240)
 * is on the day before. Days tile time: each instant is on exactly one day, DST included.
 */
export function localDayKey(ms: number, timeZone: string, dayStartsAt = 0): DayKey {
  const w = wallClock(ms, timeZone);
  const date = keyOf(w.year, w.month, w.day);
  if (dayStartsAt === 0) return date;
  return ms < startOfLocalDay(date, timeZone, dayStartsAt) ? addDays(date, -1) : date;
}

/** The zone's offset from UTC at an instant, in ms (Berlin in summer: +7 200 000). */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return utcMs(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

function parseDayKey(day: DayKey): [number, number, number] {
  const m = DAY_KEY.exec(day);
  if (!m) throw new DayKeyError(`"${day}" is not a day; use YYYY-MM-DD`, { rule: 'dayKeyShape', values: { day } });
  const parts: [number, number, number] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (keyOf(...civil(utcMs(parts[0], parts[1] - 1, parts[2]))) !== day) {
    throw new DayKeyError(`"${day}" is not a day of the calendar`, { rule: 'notCalendarDay', values: { day } });
  }
  return parts;
}

function civil(utc: number): [number, number, number] {
  const d = new Date(utc);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}

/** The day after (or, with a negative `days`, before) a day. */
export function addDays(day: DayKey, days: number): DayKey {
  const [y, m, d] = parseDayKey(day);
  return keyOf(...civil(utcMs(y, m - 1, d + days)));
}

/**
 * The first instant of a local day. Usually local midnight; where a DST change skips
 * midnight, the first instant that exists on that day; where midnight happens twice, the first.
 */
export function startOfLocalDay(day: DayKey, timeZone: string, dayStartsAt = 0): number {
  if (dayStartsAt !== 0) return startAfterMidnight(day, timeZone, dayStartsAt);
  const cacheKey = `${timeZone}|${day}`;
  const cached = dayStarts.get(cacheKey);
  if (cached !== undefined) return cached;
  const [y, m, d] = parseDayKey(day);
  const wallMidnight = utcMs(y, m - 1, d);
  // Two rounds of "midnight minus the offset there" land on midnight even when the offset
  // changes between the first guess and midnight.
  let t = wallMidnight - offsetAt(wallMidnight, timeZone);
  t = wallMidnight - offsetAt(t, timeZone);
  if (!(localDayKey(t, timeZone) === day && localDayKey(t - 1, timeZone) < day)) {
    t = firstInstantOnOrAfter(day, wallMidnight, timeZone);
  }
  if (dayStarts.size > 4096) dayStarts.clear();
  dayStarts.set(cacheKey, t);
  return t;
}

/**
 * The first instant a day that starts `dayStartsAt` minutes after midnight begins: the first at
 * which the clock shows its date at that time or later. A time the clock shows twice is its
 * first; a time it skips (spring forward) starts the day at the change itself, the first instant
 * past the skipped time, so no instant is left out of both days.
 */
function startAfterMidnight(day: DayKey, timeZone: string, dayStartsAt: number): number {
  if (!Number.isInteger(dayStartsAt) || dayStartsAt < 0 || dayStartsAt > DAY_STARTS_AT_MAX) throw new RangeError(`dayStartsAt ${dayStartsAt} is not 0 to ${DAY_STARTS_AT_MAX} minutes`);
  const at = localTimeToMs(day, dayStartsAt, timeZone);
  const wallAt = (ms: number): string => {
    const w = wallClock(ms, timeZone);
    return `${keyOf(w.year, w.month, w.day)} ${String(w.hour * 60 + w.minute).padStart(4, '0')}`;
  };
  const target = `${day} ${String(dayStartsAt).padStart(4, '0')}`;
  if (wallAt(at) === target) return at;
  // Skipped: the clock jumps over the time within the few hours before `at` (wall time rises there).
  let lo = at - 4 * HOUR_MS;
  let hi = at;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallAt(mid) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The latest a day may start: 06:00, as minutes after midnight. */
export const DAY_STARTS_AT_MAX = 360;

/** Binary search, to the millisecond, for the first instant whose local day is `day` or later. */
function firstInstantOnOrAfter(day: DayKey, wallMidnight: number, timeZone: string): number {
  // UTC offsets lie within −12 h … +14 h, so the day starts inside this window.
  let lo = wallMidnight - 15 * HOUR_MS;
  let hi = wallMidnight + 15 * HOUR_MS;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDayKey(mid, timeZone) >= day) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The span of a local day: its first instant and the first instant of the next day. */
export function localDaySpan(day: DayKey, timeZone: string, dayStartsAt = 0): DaySpan {
  return { day, start: startOfLocalDay(day, timeZone, dayStartsAt), end: startOfLocalDay(addDays(day, 1), timeZone, dayStartsAt) };
}

/** The span last answered by {@link localDayAt}, its zone and the time its days start. */
let lastDay: { timeZone: string; dayStartsAt: number; span: DaySpan } | undefined;

/**
 * The span of the local day an instant falls on. `GET /status` asks for today on every
 * call, and finding the day costs an `Intl` formatting; every instant inside the last span
 * answered falls on that same day (the span is exact, DST included), so it is answered again.
 */
export function localDayAt(ms: number, timeZone: string, dayStartsAt = 0): DaySpan {
  if (lastDay !== undefined && lastDay.timeZone === timeZone && lastDay.dayStartsAt === dayStartsAt && ms >= lastDay.span.start && ms < lastDay.span.end) {
    return { ...lastDay.span };
  }
  const span = localDaySpan(localDayKey(ms, timeZone, dayStartsAt), timeZone, dayStartsAt);
  lastDay = { timeZone, dayStartsAt, span: { ...span } };
  return span;
}

/** The spans of every day from `fromDay` to `toDay`, both included, in order. */
export function localDaySpans(fromDay: DayKey, toDay: DayKey, timeZone: string, dayStartsAt = 0): DaySpan[] {
  parseDayKey(toDay);
  const spans: DaySpan[] = [];
  for (let day = fromDay; day <= toDay; day = addDays(day, 1)) spans.push(localDaySpan(day, timeZone, dayStartsAt));
  return spans;
}

/**
 * The instant a wall-clock time on a local day stands for, `minutes` after its midnight as the
 * clock reads (09:30 is 570). A time the clock skips (a spring-forward gap) is read with the
 * offset from before the change, so it lands as far past the change as it was into the gap
 * (02:30 in Berlin on 2026-03-29 is 03:30 CEST); a time the clock shows twice is its first.
 * These are Temporal's `compatible` rules, what calendars do with such times.
 */
export function localTimeToMs(day: DayKey, minutes: number, timeZone: string): number {
  const [y, m, d] = parseDayKey(day);
  const wall = utcMs(y, m - 1, d) + minutes * MINUTE_MS;
  const found = readingsOfWall(wall, timeZone);
  // In a gap the offset in force a day before is the one from before the change.
  return found.length > 0 ? (found[0] as number) : wall - offsetAt(wall - DAY_MS, timeZone);
}

/**
 * The instants a wall-clock time in `timeZone` stands for, earliest first: one as a rule, two
 * in the repeated hour of a fall-back, none in a spring-forward gap. For callers that must not
 * guess (an import refuses a skipped time and picks between the readings of a repeated one);
 * {@link localTimeToMs} is this with Temporal's `compatible` choice. Asking about a wall day
 * costs a few `Intl` formattings once; later times on the same day are arithmetic.
 */
export function wallTimeInstants(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  timeZone: string,
): number[] {
  return readingsOfWall(utcMs(year, month - 1, day, hour, minute, second), timeZone);
}

/**
 * The offset of each wall-clock day on which the zone's offset does not change (nearly all
 * of them), or null for a day with a change: then each time is worked out on its own.
 */
const steadyDays = new Map<string, number | null>();

/** Every reading of a wall time given as the instant it would be in UTC, earliest first. */
function readingsOfWall(wall: number, timeZone: string): number[] {
  const dayStart = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  const key = `${timeZone}|${dayStart}`;
  let offset = steadyDays.get(key);
  if (offset === undefined) {
    offset = steadyOffset(dayStart, timeZone);
    if (steadyDays.size > 100_000) steadyDays.clear();
    steadyDays.set(key, offset);
  }
  return offset === null ? readingsNearChange(wall, timeZone) : [wall - offset];
}

/**
 * The offset in force all through the wall day starting at `dayStart` (read as UTC), or null
 * when it may change that day. Offsets lie within −12 h … +14 h, so the day's instants all lie
 * between 14 h before its wall start and 14 h after its wall end; when the offset is the same
 * at both of those instants, it did not change in between (no zone changes its clocks twice
 * within two days). Two formattings per day, whatever the number of times asked about on it.
 */
function steadyOffset(dayStart: number, timeZone: string): number | null {
  const before = offsetAt(dayStart - 14 * HOUR_MS, timeZone);
  const after = offsetAt(dayStart + 38 * HOUR_MS, timeZone);
  return before === after ? before : null;
}

/**
 * The readings of a wall time on a day the offset changes: each offset in force a day either
 * side (and the one at the first guess) that maps the instant back to the same wall time.
 */
function readingsNearChange(wall: number, timeZone: string): number[] {
  const offsets = new Set([offsetAt(wall - DAY_MS, timeZone), offsetAt(wall + DAY_MS, timeZone)]);
  offsets.add(offsetAt(wall - offsetAt(wall, timeZone), timeZone));
  const found: number[] = [];
  for (const offset of offsets) {
    const t = wall - offset;
    if (offsetAt(t, timeZone) === offset) found.push(t);
  }
  return found.sort((a, b) => a - b);
}

/**
 * The wall-clock date and time of an instant in a zone, `YYYY-MM-DD HH:MM:SS` (24 h): the form
 * spreadsheets read as a date and time (the export's `localStart`/`localEnd`, docs/data.md).
 */
export function localDateTime(ms: number, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${keyOf(w.year, w.month, w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/** The wall-clock time of an instant in a zone, as minutes after midnight (09:30 is 570). */
export function localTimeOfDay(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return w.hour * 60 + w.minute;
}

/** The day a week starts on: ISO weekday numbers, Monday 1 … Sunday 7 (as `Intl.Locale` weekInfo has them). */
export type WeekStartDay = 1 | 6 | 7;

/**
 * The first day of the week a day is in: Monday by default; Sunday (7) or Saturday (6) when the
 * setting `weekStart` says so (weekStartDay).
 */
export function startOfWeek(day: DayKey, weekStart: WeekStartDay = 1): DayKey {
  const [y, m, d] = parseDayKey(day);
  const isoWeekday = ((new Date(utcMs(y, m - 1, d)).getUTCDay() + 6) % 7) + 1; // Monday 1 … Sunday 7
  return addDays(day, -((isoWeekday - weekStart + 7) % 7));
}
