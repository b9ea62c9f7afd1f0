/**
 * Wall-clock times of a file (Toggl's `Start date` + `Start time`) read in a time zone. Unlike
 * the window's forms, an import does not guess: a time the clock skipped (a spring-forward
 * gap) is refused, and a time the clock showed twice (fall-back) has both readings, so the
 * caller can pick the one that makes the block make sense.
 */

import { utcMs } from '../instants.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

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

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const w = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatter(timeZone).formatToParts(ms)) {
    if (part.type in w) w[part.type as keyof typeof w] = Number(part.value);
  }
  return utcMs(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** The offsets in force at the instants a wall time (read as UTC) may stand for. */
function readings(wall: number, timeZone: string): number[] {
  const offsets = new Set([offsetAt(wall - 86_400_000, timeZone), offsetAt(wall + 86_400_000, timeZone)]);
  offsets.add(offsetAt(wall - offsetAt(wall, timeZone), timeZone));
  const found: number[] = [];
  for (const offset of offsets) {
    const t = wall - offset;
    if (offsetAt(t, timeZone) === offset) found.push(t);
  }
  return found.sort((a, b) => a - b);
}

/**
 * The offset of each wall-clock day on which the zone's offset does not change (nearly all
 * of them), or null for a day with a change: then each time is worked out on its own.
 */
const steadyDays = new Map<string, number | null>();

/**
 * The offset in force all through the wall day starting at `dayStart` (read as UTC), or null
 * when it may change that day. Offsets lie within −12 h … +14 h, so the day's instants all lie
 * between 14 h before its wall start and 14 h after its wall end; when the offset is the same
 * at both of those instants, it did not change in between (no zone changes its clocks twice
 * within two days). Two formattings per day, whatever the number of rows on it.
 */
function steadyOffset(dayStart: number, timeZone: string): number | null {
  const before = offsetAt(dayStart - 14 * 3_600_000, timeZone);
  const after = offsetAt(dayStart + 38 * 3_600_000, timeZone);
  return before === after ? before : null;
}

/**
 * The instants a wall-clock time in `timeZone` stands for, earliest first: one as a rule, two
 * in the repeated hour of a fall-back, none in a spring-forward gap. Asking about a day
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
  const wall = utcMs(year, month - 1, day, hour, minute, second);
  const dayStart = utcMs(year, month - 1, day);
  const key = `${timeZone}|${dayStart}`;
  let offset = steadyDays.get(key);
  if (offset === undefined) {
    offset = steadyOffset(dayStart, timeZone);
    if (steadyDays.size > 100_000) steadyDays.clear();
    steadyDays.set(key, offset);
  }
  return offset === null ? readings(wall, timeZone) : [wall - offset];
}
