/**
 * Meetings from the person's calendar (docs/calendar.md): the text of an `.ics` file parsed
 * once with ical.js into a {@link ParsedCalendar}, which answers the meetings of a stretch of
 * time. Pure: no files, no clock — the app reads the files, watches them and keeps one parsed
 * calendar per file.
 *
 * What counts as a meeting: a `VEVENT` with a start time (all-day events are ignored), not
 * `STATUS:CANCELLED`, not `TRANSP:TRANSPARENT`, not declined by one of the person's addresses
 * (`ATTENDEE;PARTSTAT=DECLINED`), and longer than nothing. Recurrence follows `RRULE`, `RDATE`
 * and `EXDATE`; an event with a `RECURRENCE-ID` replaces the occurrence it names. Times with a
 * `TZID` are read in that zone (an IANA name through `Intl`, else the file's `VTIMEZONE`),
 * floating times in the person's zone.
 *
 * Hostile files stay cheap: recurrences are expanded lazily, only as far as a query asks and
 * at most {@link CALENDAR_LIMITS}' steps, so a billion-times `RRULE` or an `UNTIL` in 9999
 * costs what the days asked cost; what is cut short is said in `problems`, one line each.
 */

import ICAL from 'ical.js';
import { assertTimeZone, localTimeToMs } from './day.ts';
import { utcMs } from './instants.ts';

/** The bounds every calendar is read within (docs/calendar.md "Limits"). */
export const CALENDAR_LIMITS = {
  /** A file larger than this is refused unread (bytes). */
  maxFileBytes: 10 * 1024 * 1024,
  /** At most this many occurrences of one recurring event are ever expanded. */
  maxOccurrences: 10_000,
  /** At most this many steps of the recurrence iterators per calendar, all queries together. */
  maxSteps: 100_000,
  /** A summary is cut to this many characters (as captured titles are). */
  maxSummary: 512,
  /** A meeting longer than this is not a meeting (a week-long "busy" block): ignored. */
  maxMeetingMs: 24 * 3_600_000,
} as const;

/** One meeting: its instants and summary. */
export interface CalendarMeeting {
  startMs: number;
  endMs: number;
  summary: string;
}

/** How a time of the file is read: in UTC, in a zone, or floating (the person's zone). */
type Zone = { kind: 'utc' } | { kind: 'iana'; name: string } | { kind: 'vtimezone'; tz: ICAL.Timezone } | { kind: 'floating' };

/** A wall-clock time (its fields read as UTC ms) and the zone it is read in. */
interface WallTime {
  wall: number;
  zone: Zone;
}

/** A meeting-shaped event: start, how long, summary, declining addresses. */
interface EventData {
  uid: string;
  start: WallTime;
  /** The end as a wall time, or a duration in ms. */
  end: WallTime | { durationMs: number };
  summary: string;
  declinedBy: string[];
  /** False for cancelled or transparent events: they take their occurrence and give nothing. */
  counts: boolean;
}

/** A recurring event: its iterator, what it expanded so far, what it leaves out. */
interface Series {
  data: EventData;
  iterators: ICAL.RecurIterator[];
  /** Wall times of RDATEs not yet merged in, sorted. */
  rdates: number[];
  /** Occurrences expanded so far (wall ms, sorted), and whether there are no more. */
  walls: number[];
  done: boolean;
  exdates: WallTime[];
  /** The wall time each iterator gives next (+Infinity: ended; undefined: not asked yet). */
  heads: (number | undefined)[];
}

const HOUR_MS = 3_600_000;
/** Wall times lie within −14 h … +12 h of their instant; a query widens by this. */
const ZONE_SLACK_MS = 15 * HOUR_MS;

function wallOf(t: ICAL.Time): number {
  return utcMs(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 200);
}

/**
 * A calendar file parsed once (parse with {@link parseCalendar}): the count of events and the
 * problems found, and the meetings of any stretch of time on request.
 */
export class ParsedCalendar {
  /** Events in the file (VEVENTs), meetings or not. */
  readonly events: number;
  /** One line per thing not understood or cut short, without the file's name (the caller adds it). */
  readonly problems: string[] = [];
  private readonly singles: EventData[] = [];
  /** The singles by their earliest possible instant (wall − 14 h), for a binary search. */
  private singlesSorted: { from: number; data: EventData }[] = [];
  private readonly series: Series[] = [];
  /** Overrides by UID: their RECURRENCE-ID wall times, which the series leaves to them. */
  private readonly overridden = new Map<string, WallTime[]>();
  private steps = 0;
  private stepsReported = false;

  /** Parses the text of an `.ics` file. Throws a one-line Error when it is not iCalendar at all. */
  constructor(text: string) {
    let root: ICAL.Component;
    try {
      root = new ICAL.Component(ICAL.parse(text));
    } catch (error) {
      throw new Error(`not an iCalendar file: ${firstLine(error)}`);
    }
    const zones = new Map<string, ICAL.Timezone>();
    for (const vtz of root.getAllSubcomponents('vtimezone')) {
      try {
        const tz = new ICAL.Timezone(vtz);
        if (typeof tz.tzid === 'string') zones.set(tz.tzid, tz);
      } catch (error) {
        this.problem(`a VTIMEZONE could not be read: ${firstLine(error)}`);
      }
    }
    const events = root.name === 'vevent' ? [root] : root.getAllSubcomponents('vevent');
    this.events = events.length;
    const unknownZones = new Set<string>();
    const zoneOf = (prop: ICAL.Property, time: ICAL.Time): Zone => {
      if (time.zone === ICAL.Timezone.utcTimezone) return { kind: 'utc' };
      const tzid = prop.getParameter('tzid');
      if (typeof tzid !== 'string' || tzid === '') return { kind: 'floating' };
      const named = zones.get(tzid);
      if (isIanaZone(tzid)) return { kind: 'iana', name: tzid };
      if (named !== undefined) return { kind: 'vtimezone', tz: named };
      if (!unknownZones.has(tzid)) {
        unknownZones.add(tzid);
        this.problem(`unknown time zone "${tzid.slice(0, 60)}": its times are read in your zone`);
      }
      return { kind: 'floating' };
    };
    for (const event of events) {
      try {
        this.addEvent(event, zoneOf);
      } catch (error) {
        this.problem(`an event could not be read: ${firstLine(error)}`);
      }
    }
    this.singlesSorted = this.singles.map((data) => ({ from: data.start.wall - ZONE_SLACK_MS, data })).sort((a, b) => a.from - b.from);
  }

  private problem(line: string): void {
    if (this.problems.length < 20) this.problems.push(line);
  }

  private addEvent(event: ICAL.Component, zoneOf: (prop: ICAL.Property, time: ICAL.Time) => Zone): void {
    const startProp = event.getFirstProperty('dtstart');
    const start = startProp?.getFirstValue();
    if (startProp === null || !(start instanceof ICAL.Time)) return;
    if (start.isDate) return; // all day: not a meeting
    const startWall: WallTime = { wall: wallOf(start), zone: zoneOf(startProp, start) };
    let end: EventData['end'] = { durationMs: 0 };
    const endProp = event.getFirstProperty('dtend');
    const endValue = endProp?.getFirstValue();
    if (endProp && endValue instanceof ICAL.Time && !endValue.isDate) {
      end = { wall: wallOf(endValue), zone: zoneOf(endProp, endValue) };
    } else {
      const duration = event.getFirstPropertyValue('duration');
      if (duration instanceof ICAL.Duration) end = { durationMs: duration.toSeconds() * 1000 };
    }
    const status = String(event.getFirstPropertyValue('status') ?? '').toUpperCase();
    const transp = String(event.getFirstPropertyValue('transp') ?? '').toUpperCase();
    const declinedBy: string[] = [];
    for (const attendee of event.getAllProperties('attendee')) {
      if (String(attendee.getParameter('partstat') ?? '').toUpperCase() !== 'DECLINED') continue;
      const address = String(attendee.getFirstValue() ?? '').replace(/^mailto:/i, '').trim().toLowerCase();
      if (address !== '') declinedBy.push(address);
    }
    const summary = String(event.getFirstPropertyValue('summary') ?? '').replace(/\s+/g, ' ').trim().slice(0, CALENDAR_LIMITS.maxSummary);
    const uid = String(event.getFirstPropertyValue('uid') ?? '');
    const data: EventData = { uid, start: startWall, end, summary, declinedBy, counts: status !== 'CANCELLED' && transp !== 'TRANSPARENT' };
    const recurrenceProp = event.getFirstProperty('recurrence-id');
    const recurrenceId = recurrenceProp?.getFirstValue();
    if (recurrenceProp && recurrenceId instanceof ICAL.Time) {
      const list = this.overridden.get(uid) ?? [];
      list.push({ wall: wallOf(recurrenceId), zone: zoneOf(recurrenceProp, recurrenceId) });
      this.overridden.set(uid, list);
      this.singles.push(data);
      return;
    }
    const rules = event.getAllProperties('rrule');
    const rdateProps = event.getAllProperties('rdate');
    if (rules.length === 0 && rdateProps.length === 0) {
      this.singles.push(data);
      return;
    }
    const iterators: ICAL.RecurIterator[] = [];
    for (const rule of rules) {
      const recur = rule.getFirstValue();
      if (!(recur instanceof ICAL.Recur)) continue;
      if (recur.freq === 'SECONDLY' || recur.freq === 'MINUTELY') {
        this.problem(`"${summary.slice(0, 60)}" repeats every ${recur.freq === 'SECONDLY' ? 'second' : 'minute'}: not read as a meeting`);
        continue;
      }
      iterators.push(this.counted(recur.iterator(start)));
    }
    const rdates: number[] = [];
    for (const prop of rdateProps) {
      for (const value of prop.getValues()) if (value instanceof ICAL.Time && !value.isDate) rdates.push(wallOf(value));
    }
    const exdates: WallTime[] = [];
    for (const prop of event.getAllProperties('exdate')) {
      for (const value of prop.getValues()) if (value instanceof ICAL.Time) exdates.push({ wall: wallOf(value), zone: zoneOf(prop, value) });
    }
    if (iterators.length === 0) rdates.push(startWall.wall);
    rdates.sort((a, b) => a - b);
    this.series.push({ data, iterators, rdates, walls: [], done: false, exdates, heads: iterators.map(() => undefined) });
    // The first occurrence is DTSTART even when the rule would not give it (RFC 5545 3.8.5.3).
    if (iterators.length > 0) rdates.unshift(startWall.wall);
  }

  /**
   * The meetings overlapping `[fromMs, toMs)`, sorted by start: `timeZone` reads floating
   * times, `me` (lowercase addresses) leaves out what the person declined.
   */
  meetingsBetween(fromMs: number, toMs: number, timeZone: string, me: readonly string[] = []): CalendarMeeting[] {
    const declined = (data: EventData): boolean => me.length > 0 && data.declinedBy.some((a) => me.includes(a));
    const found: CalendarMeeting[] = [];
    const add = (data: EventData, startMs: number, endMs: number): void => {
      if (endMs > fromMs && startMs < toMs && endMs > startMs && endMs - startMs <= CALENDAR_LIMITS.maxMeetingMs) {
        found.push({ startMs, endMs, summary: data.summary });
      }
    };
    const lowWall = fromMs - ZONE_SLACK_MS - CALENDAR_LIMITS.maxMeetingMs;
    const highWall = toMs + ZONE_SLACK_MS;
    // Singles (and overrides): those that may start in the window.
    let lo = 0;
    let hi = this.singlesSorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.singlesSorted[mid] as { from: number }).from < lowWall - ZONE_SLACK_MS) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.singlesSorted.length; i++) {
      const { from, data } = this.singlesSorted[i] as { from: number; data: EventData };
      if (from > highWall) break;
      if (!data.counts || declined(data)) continue;
      const startMs = toMs_(data.start, timeZone);
      add(data, startMs, endOf(data, startMs, timeZone));
    }
    for (const series of this.series) {
      const { data } = series;
      if (!data.counts || declined(data)) continue;
      this.expand(series, highWall);
      const skip = new Set<number>();
      for (const ex of series.exdates) skip.add(toMs_(ex, timeZone));
      for (const ov of this.overridden.get(data.uid) ?? []) skip.add(toMs_(ov, timeZone));
      const walls = series.walls;
      let a = 0;
      let b = walls.length;
      while (a < b) {
        const mid = (a + b) >> 1;
        if ((walls[mid] as number) < lowWall) a = mid + 1;
        else b = mid;
      }
      const durationMs = seriesDuration(data, timeZone);
      for (let i = a; i < walls.length && (walls[i] as number) <= highWall; i++) {
        const startMs = toMs_({ wall: walls[i] as number, zone: data.start.zone }, timeZone);
        if (skip.has(startMs)) continue;
        add(data, startMs, startMs + durationMs);
      }
    }
    return found.sort((x, y) => x.startMs - y.startMs || x.endMs - y.endMs);
  }

  /** Expands `series` up to the wall time `untilWall`, within the limits. */
  private expand(series: Series, untilWall: number): void {
    while (!series.done && (series.walls[series.walls.length - 1] ?? Number.NEGATIVE_INFINITY) <= untilWall) {
      if (series.walls.length >= CALENDAR_LIMITS.maxOccurrences) {
        series.done = true;
        this.problem(`"${series.data.summary.slice(0, 60)}" has more than ${CALENDAR_LIMITS.maxOccurrences} occurrences: later ones are not read`);
        return;
      }
      let best = series.rdates[0] ?? Number.POSITIVE_INFINITY;
      let from = -1;
      for (let k = 0; k < series.iterators.length; k++) {
        let head = series.heads[k];
        if (head === undefined) {
          const next = this.step(series.iterators[k] as ICAL.RecurIterator);
          if (next === 'budget') {
            series.done = true;
            return;
          }
          head = next;
          series.heads[k] = head;
        }
        if (head < best) {
          best = head;
          from = k;
        }
      }
      if (best === Number.POSITIVE_INFINITY) {
        series.done = true;
        return;
      }
      if (from === -1) series.rdates.shift();
      else series.heads[from] = undefined;
      if (best > (series.walls[series.walls.length - 1] ?? Number.NEGATIVE_INFINITY)) series.walls.push(best);
    }
  }

  /** The next occurrence of `iterator` (wall ms; +Infinity when it ended), or 'budget' when the steps ran out. */
  private step(iterator: ICAL.RecurIterator): number | 'budget' {
    if (iterator.completed) return Number.POSITIVE_INFINITY;
    if (this.steps >= CALENDAR_LIMITS.maxSteps) {
      if (!this.stepsReported) {
        this.stepsReported = true;
        this.problem(`its recurrences need more than ${CALENDAR_LIMITS.maxSteps} steps: later occurrences are not read`);
      }
      return 'budget';
    }
    this.steps++;
    try {
      const next = iterator.next();
      return next === null ? Number.POSITIVE_INFINITY : wallOf(next);
    } catch (error) {
      if (error instanceof StepBudget) return this.step(iterator);
      iterator.completed = true;
      this.problem(`a recurrence could not be followed: ${firstLine(error)}`);
      return Number.POSITIVE_INFINITY;
    }
  }

  /**
   * Counts every candidate date `iterator` tries as a step, so that a rule that never matches
   * (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30) stops at the budget instead of looping for ever.
   */
  private counted(iterator: ICAL.RecurIterator): ICAL.RecurIterator {
    const original = (iterator as unknown as { check_contracting_rules: () => boolean }).check_contracting_rules;
    const steps = (): number => ++this.steps;
    (iterator as unknown as { check_contracting_rules: () => boolean }).check_contracting_rules = function (this: ICAL.RecurIterator) {
      if (steps() > CALENDAR_LIMITS.maxSteps) throw new StepBudget();
      return original.call(this);
    };
    return iterator;
  }
}

class StepBudget extends Error {
  override name = 'StepBudget' as const;
}

/** Parses the text of an `.ics` file; throws a one-line Error when it is not iCalendar. */
export function parseCalendar(text: string): ParsedCalendar {
  return new ParsedCalendar(text);
}

const ianaZones = new Map<string, boolean>();

/** Whether `Intl` knows `name` as a time zone. */
function isIanaZone(name: string): boolean {
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

const DAY_MS = 24 * HOUR_MS;

/** The instant of a wall time, floating ones in `timeZone`. */
function toMs_(time: WallTime, timeZone: string): number {
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

function endOf(data: EventData, startMs: number, timeZone: string): number {
  return 'durationMs' in data.end ? startMs + data.end.durationMs : toMs_(data.end, timeZone);
}

/** A series' length in ms: from its first start to its first end. */
function seriesDuration(data: EventData, timeZone: string): number {
  return endOf(data, toMs_(data.start, timeZone), timeZone) - toMs_(data.start, timeZone);
}
