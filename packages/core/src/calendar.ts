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
import { CALENDAR_LIMITS, stepBudget, type CalendarMeeting, type StepBudget } from './calendar-limits.ts';
import { neverOnADate, OutOfSteps, periodOf, Runaway, type Series } from './calendar-recurrence.ts';
import { calendarProblemLine, type CalendarProblem } from './calendar-problems.ts';
import { componentLines, splitCalendar, type CalendarPart } from './calendar-split.ts';
import { endOf, instantOf, isIanaZone, seriesDuration, wallOf, ZONE_SLACK_MS, type EventData, type WallTime, type Zone } from './calendar-times.ts';

export { CALENDAR_LIMITS, stepBudget, type CalendarMeeting, type StepBudget } from './calendar-limits.ts';
export { splitCalendar, type CalendarPart } from './calendar-split.ts';
export { CalendarFileError, calendarProblemLine, type CalendarProblem, type CalendarProblemCode } from './calendar-problems.ts';

/** The first line of an error, at most 200 characters: a problem is one line. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').slice(0, 200);
}

/**
 * A calendar file parsed once (with {@link parseCalendar}, or part by part from
 * {@link splitCalendar}: `new ParsedCalendar()`, {@link add} each part — a caller can give the
 * event loop a turn between parts — then {@link finish}): the count of events and the problems
 * found, and the meetings of any stretch of time on request.
 */
export class ParsedCalendar {
  /** One problem per thing not understood or cut short (a code and values), without the file's name (the caller adds it). */
  readonly found: CalendarProblem[] = [];

  /** {@link found}'s English lines. */
  get problems(): string[] {
    return this.found.map(calendarProblemLine);
  }
  private readonly singles: EventData[] = [];
  /** The singles by their earliest possible instant (wall − 14 h), for a binary search. */
  private singlesSorted: { from: number; data: EventData }[] = [];
  private readonly series: Series[] = [];
  /** Overrides by UID: their RECURRENCE-ID wall times, which the series leaves to them. */
  private readonly overridden = new Map<string, WallTime[]>();
  /** The current query's budget, and the steps since the last occurrence found. */
  private budget: StepBudget = stepBudget();
  private sinceOccurrence = 0;

  private readonly zones = new Map<string, ICAL.Timezone>();
  private readonly unknownZones = new Set<string>();
  private zonesCut = false;
  private eventCount = 0;

  /** Events in the file (VEVENTs), meetings or not. */
  get events(): number {
    return this.eventCount;
  }

  /** Adds one part of the file: a VTIMEZONE (add them first) or a VEVENT's text. */
  add(part: CalendarPart): void {
    if (componentLines(part.text, CALENDAR_LIMITS.maxComponentLines) > CALENDAR_LIMITS.maxComponentLines) {
      if (part.kind === 'vevent') this.eventCount++;
      this.problem({ code: 'calendar_component_too_long', values: { component: part.kind === 'vevent' ? 'VEVENT' : 'VTIMEZONE', max: CALENDAR_LIMITS.maxComponentLines } });
      return;
    }
    if (part.kind === 'vtimezone' && this.zones.size >= CALENDAR_LIMITS.maxZones) {
      // Left unparsed: 75 000 zones in a 10 MiB file held 256 MiB.
      if (!this.zonesCut) this.problem({ code: 'calendar_zones_cut', values: { max: CALENDAR_LIMITS.maxZones } });
      this.zonesCut = true;
      return;
    }
    let component: ICAL.Component;
    try {
      component = new ICAL.Component(ICAL.parse(part.text));
    } catch (error) {
      if (part.kind === 'vevent') this.eventCount++;
      this.problem({ code: part.kind === 'vevent' ? 'calendar_event_unreadable' : 'calendar_zone_unreadable', values: { error: firstLine(error) } });
      return;
    }
    if (part.kind === 'vtimezone') {
      try {
        const tz = new ICAL.Timezone(component);
        // An IANA name is read through Intl (zoneOf): its VTIMEZONE is never needed.
        if (typeof tz.tzid === 'string' && !isIanaZone(tz.tzid)) this.zones.set(tz.tzid, tz);
      } catch (error) {
        this.problem({ code: 'calendar_zone_unreadable', values: { error: firstLine(error) } });
      }
      return;
    }
    this.eventCount++;
    try {
      this.addEvent(component, (prop, time) => this.zoneOf(prop, time));
    } catch (error) {
      this.problem({ code: 'calendar_event_unreadable', values: { error: firstLine(error) } });
    }
  }

  /** Makes the calendar ready to answer: call once after the last {@link add}. */
  finish(): this {
    this.singlesSorted = this.singles.map((data) => ({ from: data.start.wall - ZONE_SLACK_MS, data })).sort((a, b) => a.from - b.from);
    return this;
  }

  private zoneOf(prop: ICAL.Property, time: ICAL.Time): Zone {
    if (time.zone === ICAL.Timezone.utcTimezone) return { kind: 'utc' };
    const tzid = prop.getParameter('tzid');
    if (typeof tzid !== 'string' || tzid === '') return { kind: 'floating' };
    if (isIanaZone(tzid)) return { kind: 'iana', name: tzid };
    const named = this.zones.get(tzid);
    if (named !== undefined) return { kind: 'vtimezone', tz: named };
    if (!this.unknownZones.has(tzid)) {
      this.unknownZones.add(tzid);
      this.problem({ code: 'calendar_zone_unknown', values: { zone: tzid.slice(0, 60) } });
    }
    return { kind: 'floating' };
  }

  private problem(problem: CalendarProblem): void {
    if (this.found.length < 20) this.found.push(problem);
  }

  /** Adds a problem found before parsing (by {@link splitCalendar}). */
  note(problem: CalendarProblem): void {
    this.problem(problem);
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
    let periodic: Series['periodic'];
    for (const rule of rules) {
      const recur = rule.getFirstValue();
      if (!(recur instanceof ICAL.Recur)) continue;
      if (recur.freq === 'SECONDLY' || recur.freq === 'MINUTELY') {
        this.problem({ code: 'calendar_repeats_too_often', values: { summary: summary.slice(0, 60), every: recur.freq === 'SECONDLY' ? 'second' : 'minute' } });
        continue;
      }
      if (neverOnADate(recur)) continue; // BYMONTH=2;BYMONTHDAY=30: DTSTART only
      iterators.push(this.counted(recur.iterator(start)));
      const periodMs = periodOf(recur);
      if (periodMs !== undefined && rules.length === 1 && rdateProps.length === 0) periodic = { recur, start, periodMs };
    }
    const rdates: number[] = [];
    for (const prop of rdateProps) {
      for (const given of prop.getValues()) {
        // A PERIOD (`start/end` or `start/duration`) begins an occurrence as a DATE-TIME does; it lasts the event's length.
        const value = given instanceof ICAL.Period ? given.start : given;
        if (value instanceof ICAL.Time && !value.isDate) rdates.push(wallOf(value));
      }
    }
    const exdates: WallTime[] = [];
    for (const prop of event.getAllProperties('exdate')) {
      for (const value of prop.getValues()) if (value instanceof ICAL.Time) exdates.push({ wall: wallOf(value), zone: zoneOf(prop, value) });
    }
    // The first occurrence is DTSTART even when the rule would not give it (RFC 5545 3.8.5.3).
    rdates.push(startWall.wall);
    // Each date once, and none past the occurrences ever kept (a file may list 600 000): the
    // expansion then costs what the occurrences kept cost, whatever the file repeats.
    const sorted = rdates.sort((a, b) => a - b).filter((wall, i, all) => i === 0 || wall !== all[i - 1]);
    this.series.push({ data, periodic, iterators, rdates: sorted.slice(0, CALENDAR_LIMITS.maxOccurrences + 1), nextRdate: 0, walls: [], done: false, exdates, heads: iterators.map(() => undefined) });
  }

  /**
   * The meetings overlapping `[fromMs, toMs)`, sorted by start: `timeZone` reads floating
   * times, `me` (lowercase addresses) leaves out what the person declined.
   */
  meetingsBetween(fromMs: number, toMs: number, timeZone: string, me: readonly string[] = [], budget: StepBudget = stepBudget()): CalendarMeeting[] {
    this.budget = budget;
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
      const startMs = instantOf(data.start, timeZone);
      add(data, startMs, endOf(data, startMs, timeZone));
    }
    for (const series of this.series) {
      const { data } = series;
      if (!data.counts || declined(data)) continue;
      let walls: number[];
      if (series.periodic !== undefined) walls = this.periodicWalls(series, series.periodic, lowWall, highWall);
      else {
        this.expand(series, highWall);
        walls = series.walls;
      }
      // Only the exceptions that may fall in the window are read as instants (a file may list
      // 540 000 of them in zones, and reading each costs the zone's rules at every ask).
      const skip = new Set<number>();
      for (const ex of series.exdates) if (ex.wall >= lowWall && ex.wall <= highWall) skip.add(instantOf(ex, timeZone));
      for (const ov of this.overridden.get(data.uid) ?? []) if (ov.wall >= lowWall && ov.wall <= highWall) skip.add(instantOf(ov, timeZone));
      let a = 0;
      let b = walls.length;
      while (a < b) {
        const mid = (a + b) >> 1;
        if ((walls[mid] as number) < lowWall) a = mid + 1;
        else b = mid;
      }
      const durationMs = seriesDuration(data, timeZone);
      for (let i = a; i < walls.length && (walls[i] as number) <= highWall; i++) {
        const startMs = instantOf({ wall: walls[i] as number, zone: data.start.zone }, timeZone);
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
        this.problem({ code: 'calendar_occurrences_cut', values: { summary: series.data.summary.slice(0, 60), max: CALENDAR_LIMITS.maxOccurrences } });
        return;
      }
      let best = series.rdates[series.nextRdate] ?? Number.POSITIVE_INFINITY;
      let from = -1;
      for (let k = 0; k < series.iterators.length; k++) {
        let head = series.heads[k];
        if (head === undefined) {
          const next = this.step(series.iterators[k] as ICAL.RecurIterator);
          if (next === 'budget') return; // this query's steps ran out: the next one goes on
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
      if (from === -1) series.nextRdate++;
      else series.heads[from] = undefined;
      if (best > (series.walls[series.walls.length - 1] ?? Number.NEGATIVE_INFINITY)) series.walls.push(best);
    }
  }

  /** The walls of a periodic series between `lowWall` and `highWall`, from a start moved on by whole periods. */
  private periodicWalls(series: Series, periodic: NonNullable<Series['periodic']>, lowWall: number, highWall: number): number[] {
    const first = series.data.start.wall;
    const periods = Math.max(0, Math.floor((lowWall - first) / periodic.periodMs) - 1);
    const walls: number[] = [];
    let iterator: ICAL.RecurIterator;
    if (periods === 0) {
      iterator = periodic.recur.iterator(periodic.start);
      // The first occurrence is DTSTART even when the rule would not give it (RFC 5545 3.8.5.3).
      if (first >= lowWall && first <= highWall) walls.push(first);
    } else {
      const d = new Date(first + periods * periodic.periodMs);
      const start = ICAL.Time.fromData(
        { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), isDate: false },
        periodic.start.zone,
      );
      iterator = periodic.recur.iterator(start);
    }
    this.counted(iterator);
    for (;;) {
      const wall = this.step(iterator);
      if (wall === 'budget' || wall > highWall) break;
      if (wall >= lowWall && !walls.includes(wall)) walls.push(wall);
    }
    return walls.sort((a, b) => a - b);
  }

  /** The next occurrence of `iterator` (wall ms; +Infinity when it ended), or 'budget' when this query's steps ran out. */
  private step(iterator: ICAL.RecurIterator): number | 'budget' {
    if (iterator.completed) return Number.POSITIVE_INFINITY;
    // Out of steps for this ask (another file may have taken them): the next ask goes on.
    if (this.budget.left <= 0) return 'budget';
    this.budget.left--;
    this.sinceOccurrence = 0;
    try {
      const next = iterator.next();
      return next === null ? Number.POSITIVE_INFINITY : wallOf(next);
    } catch (error) {
      if (error instanceof OutOfSteps) return 'budget';
      iterator.completed = true;
      if (error instanceof Runaway) this.problem({ code: 'calendar_recurrence_runaway', values: { tries: CALENDAR_LIMITS.stepsPerOccurrence } });
      else this.problem({ code: 'calendar_recurrence_failed', values: { error: firstLine(error) } });
      return Number.POSITIVE_INFINITY;
    }
  }

  /**
   * Counts every candidate date `iterator` tries as a step, so that a rule that never matches
   * (FREQ=DAILY;BYWEEKNO=53;BYMONTH=6) is given up instead of looping for ever, and a query
   * stops at its budget.
   */
  private counted(iterator: ICAL.RecurIterator): ICAL.RecurIterator {
    const original = (iterator as unknown as { check_contracting_rules: () => boolean }).check_contracting_rules;
    const count = (): void => {
      if (--this.budget.left < 0) throw new OutOfSteps();
      if (++this.sinceOccurrence > CALENDAR_LIMITS.stepsPerOccurrence) throw new Runaway();
    };
    (iterator as unknown as { check_contracting_rules: () => boolean }).check_contracting_rules = function (this: ICAL.RecurIterator) {
      count();
      return original.call(this);
    };
    return iterator;
  }
}

/** Parses the text of an `.ics` file at once; throws a one-line Error when it is not iCalendar. */
export function parseCalendar(text: string): ParsedCalendar {
  const problems: CalendarProblem[] = [];
  const calendar = new ParsedCalendar();
  for (const part of splitCalendar(text, problems)) calendar.add(part);
  for (const problem of problems) calendar.note(problem);
  return calendar.finish();
}
