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

/** Readings of whole wall hours in which the zone's offset does not change: the common case. */
const steadyHours = new Map<string, number | null>();

/**
 * The instants a wall-clock time in `timeZone` stands for, earliest first: one as a rule, two
 * in the repeated hour of a fall-back, none in a spring-forward gap. Asking about an hour
 * costs a few `Intl` formattings once; later times in the same hour are arithmetic.
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
  const hourStart = utcMs(year, month - 1, day, hour);
  const key = `${timeZone}|${hourStart}`;
  let offset = steadyHours.get(key);
  if (offset === undefined) {
    const first = readings(hourStart, timeZone);
    const last = readings(hourStart + 3_599_999, timeZone);
    offset =
      first.length === 1 && last.length === 1 && hourStart - (first[0] as number) === hourStart + 3_599_999 - (last[0] as number)
        ? hourStart - (first[0] as number)
        : null;
    if (steadyHours.size > 100_000) steadyHours.clear();
    steadyHours.set(key, offset);
  }
  return offset === null ? readings(wall, timeZone) : [wall - offset];
}
