/**
 * What a calendar file's reading finds wrong (docs/calendar.md "Problems"): each problem a code
 * and values, the person's words in the `problems` catalogs (`problem.calendar.<code>`,
 * docs/i18n.md), and its English line made here from the same code — so a problem cannot be
 * added as a bare line without a code. The app adds its own (a file missing, too large, not a
 * file) and the file's path.
 */

/** One problem of a calendar file, without the file's path (the app adds it as `path`). */
export type CalendarProblem =
  /** A `BEGIN:VEVENT` or `BEGIN:VTIMEZONE` without its `END:`: the rest of the file is left out. */
  | { code: 'calendar_unended'; values: { component: 'VEVENT' | 'VTIMEZONE' } }
  /** A VEVENT or VTIMEZONE of more than `max` lines or dates: it is left out unparsed. */
  | { code: 'calendar_component_too_long'; values: { component: 'VEVENT' | 'VTIMEZONE'; max: number } }
  /** An event ical.js could not read (its own words in `error`). */
  | { code: 'calendar_event_unreadable'; values: { error: string } }
  /** A VTIMEZONE ical.js could not read (its own words in `error`). */
  | { code: 'calendar_zone_unreadable'; values: { error: string } }
  /** A file of more than `max` VTIMEZONEs: the times in the zones past them are read in the person's zone. */
  | { code: 'calendar_zones_cut'; values: { max: number } }
  /** A `TZID` neither IANA nor the file's: the times are read in the person's zone. */
  | { code: 'calendar_zone_unknown'; values: { zone: string } }
  /** An event repeating every second or minute: not a meeting. */
  | { code: 'calendar_repeats_too_often'; values: { summary: string; every: 'second' | 'minute' } }
  /** A recurring event past the occurrences kept. */
  | { code: 'calendar_occurrences_cut'; values: { summary: string; max: number } }
  /** A recurrence rule that found no date in `tries` steps. */
  | { code: 'calendar_recurrence_runaway'; values: { tries: number } }
  /** A recurrence ical.js could not follow (its own words in `error`). */
  | { code: 'calendar_recurrence_failed'; values: { error: string } }
  /** The file does not begin with `BEGIN:VCALENDAR`. */
  | { code: 'calendar_not_ical'; values: Record<string, never> }
  /** The app's: the file is gone. */
  | { code: 'calendar_file_missing'; values: Record<string, never> }
  /** The app's: a file over the size of one file (`kib` and `limitKib` rounded up; `size` and `limit` in bytes). */
  | { code: 'calendar_file_too_large'; values: { kib: number; limitKib: number; size: number; limit: number } }
  /** The app's: a file over what is left of the total read over every calendar. */
  | { code: 'calendar_total_too_large'; values: { kib: number; limitKib: number; size: number; limit: number } }
  /** The app's: not a regular file (`kind`: `symlink`, `fifo`, `socket`, `device`, `folder`, `other`). */
  | { code: 'calendar_not_regular'; values: { kind: string } }
  /** The app's: the file could not be read (the system's error code, or its words). */
  | { code: 'calendar_unreadable'; values: { error: string } };

/** A problem's code. */
export type CalendarProblemCode = CalendarProblem['code'];

/** Thrown by core's calendar reading for a file it cannot read at all; the app keeps its `problem`. */
export class CalendarFileError extends Error {
  readonly problem: CalendarProblem;
  constructor(problem: CalendarProblem) {
    super(calendarProblemLine(problem));
    this.problem = problem;
    this.name = 'CalendarFileError';
  }
}

/** `n` bytes as a person reads them (@tock/sync's `bytesText`, which core cannot import): `5.0 MiB`, `300 KiB`. */
function bytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

const KINDS: Record<string, string> = { symlink: 'a symbolic link', fifo: 'a FIFO', socket: 'a socket', device: 'a device', folder: 'a folder' };

/** A problem's English line, as `tock calendar list` and the app's output have always said it (the path added by the app). */
export function calendarProblemLine(p: CalendarProblem): string {
  switch (p.code) {
    case 'calendar_unended':
      return `a ${p.values.component} does not end (END:${p.values.component} missing): it is left out`;
    case 'calendar_component_too_long':
      return `a ${p.values.component} has more than ${p.values.max} lines or dates: it is left out`;
    case 'calendar_event_unreadable':
      return `an event could not be read: ${p.values.error}`;
    case 'calendar_zone_unreadable':
      return `a VTIMEZONE could not be read: ${p.values.error}`;
    case 'calendar_zones_cut':
      return `more than ${p.values.max} time zones: the times in the others are read in your zone`;
    case 'calendar_zone_unknown':
      return `unknown time zone "${p.values.zone}": its times are read in your zone`;
    case 'calendar_repeats_too_often':
      return `"${p.values.summary}" repeats every ${p.values.every}: not read as a meeting`;
    case 'calendar_occurrences_cut':
      return `"${p.values.summary}" has more than ${p.values.max} occurrences: later ones are not read`;
    case 'calendar_recurrence_runaway':
      return `a recurrence found no date in ${p.values.tries} tries: the rest of it is not read`;
    case 'calendar_recurrence_failed':
      return `a recurrence could not be followed: ${p.values.error}`;
    case 'calendar_not_ical':
      return 'not an iCalendar file: it does not begin with BEGIN:VCALENDAR';
    case 'calendar_file_missing':
      return 'is missing: put it back, or remove this calendar';
    case 'calendar_file_too_large':
      return `is ${bytes(p.values.size)}, over the ${bytes(p.values.limit)} a calendar file may have; it is not read`;
    case 'calendar_total_too_large':
      return `is ${bytes(p.values.size)}, over what is left of the ${bytes(p.values.limit)} Tock reads of all calendars; it is not read`;
    case 'calendar_not_regular':
      return `is ${KINDS[p.values.kind] ?? 'not a regular file'}, not a regular file; it is not read`;
    case 'calendar_unreadable':
      return `could not be read (${p.values.error})`;
  }
}
