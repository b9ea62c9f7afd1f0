/**
 * The times of a calendar file (docs/calendar.md): a wall-clock time and the zone it is read in
 * (UTC, an IANA name through `Intl`, the file's own VTIMEZONE, or floating: the person's zone),
 * the event data read from a VEVENT, and the instants they stand for.
 */

import ICAL from 'ical.js';
import { assertTimeZone, localTimeToMs } from './day.ts';
import { utcMs } from './instants.ts';

/** How a time of the file is read: in UTC, in a zone, or floating (the person's zone). */
export type Zone = { kind: 'utc' } | { kind: 'iana'; name: string } | { kind: 'vtimezone'; tz: ICAL.Timezone } | { kind: 'floating' };

/** A wall-clock time (its fields read as UTC ms) and the zone it is read in. */
export interface WallTime {
  wall: number;
  zone: Zone;
}

/** A meeting-shaped event: start, how long, summary, declining addresses. */
export interface EventData {
  uid: string;
  start: WallTime;
  /** The end as a wall time, or a duration in ms. */
  end: WallTime | { durationMs: number };
  summary: string;
  declinedBy: string[];
  /** False for cancelled or transparent events: they take their occurrence and give nothing. */
  counts: boolean;
}

/** An hour, in ms. */
export const HOUR_MS = 3_600_000;
/** A day of wall time, in ms. */
export const DAY_MS = 24 * HOUR_MS;
/** Wall times lie within −14 h … +12 h of their instant; a query widens by this. */
export const ZONE_SLACK_MS = 15 * HOUR_MS;

/** A wall time of the file as ms (its fields read as UTC). */
export function wallOf(t: ICAL.Time): number {
  return utcMs(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

/** What {@link isIanaZone} found, by name (cleared past 1000 names). */
const ianaZones = new Map<string, boolean>();

/** Whether `Intl` knows `name` as a time zone. */
export function isIanaZone(name: string): boolean {
  let known = ianaZones.get(name);
  if (known === undefined) {
    try {
      assertTimeZone(name);
      known = true;
    } catch {
      known = false;
    }
    if (ianaZones.size > 1000) ianaZones.clear();
    ianaZones.set(name, known);
  }
  return known;
}

/** The instant of a wall time, floating ones in `timeZone`. */
export function instantOf(time: WallTime, timeZone: string): number {
  const { wall, zone } = time;
  if (zone.kind === 'utc') return wall;
  if (zone.kind === 'vtimezone') {
    const d = new Date(wall);
    const t = ICAL.Time.fromData({
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      isDate: false,
    });
    return wall - zone.tz.utcOffset(t) * 1000;
  }
  const name = zone.kind === 'iana' ? zone.name : timeZone;
  const dayStart = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  const day = new Date(dayStart).toISOString().slice(0, 10);
  const ms = wall - dayStart;
  return localTimeToMs(day, Math.floor(ms / 60_000), name) + (ms % 60_000);
}

/** The instant an occurrence starting at `startMs` ends: after its duration, or at its end's wall time. */
export function endOf(data: EventData, startMs: number, timeZone: string): number {
  return 'durationMs' in data.end ? startMs + data.end.durationMs : instantOf(data.end, timeZone);
}

/** A series' length in ms: from its first start to its first end. */
export function seriesDuration(data: EventData, timeZone: string): number {
  return endOf(data, instantOf(data.start, timeZone), timeZone) - instantOf(data.start, timeZone);
}
