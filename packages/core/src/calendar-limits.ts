/**
 * The bounds every calendar is read within (docs/calendar.md "Limits"), the step budget one
 * query of the meetings shares across calendars, and what such a query answers.
 */

/** The bounds every calendar is read within (docs/calendar.md "Limits"). */
export const CALENDAR_LIMITS = {
  /** A file larger than this is refused unread (bytes). */
  maxFileBytes: 10 * 1024 * 1024,
  /**
   * At most this many bytes of files are read and kept parsed over every calendar (in the order
   * they were added, each folder's files by name): the rest are refused unread, so many large
   * files cannot take the app's memory (a 9.5 MiB file of events holds about 40 MiB parsed).
   */
  maxTotalBytes: 16 * 1024 * 1024,
  /**
   * A VEVENT or VTIMEZONE of more than this many lines (each date of an RDATE or EXDATE counted
   * as one) is left out unparsed: ical.js holds about 1 KiB a value while it parses a component,
   * so one event of 600 000 dates in a 10 MiB file took 540 MiB.
   */
  maxComponentLines: 10_000,
  /**
   * At most this many VTIMEZONEs of one file are kept (each is about 3 KiB parsed; a file lists
   * the few zones its events use): the times of events in zones past them are read in the
   * person's zone.
   */
  maxZones: 1_000,
  /** At most this many occurrences of one recurring event are kept (those not expanded from near the days asked). */
  maxOccurrences: 10_000,
  /** At most this many steps of the recurrence iterators in one query, over every calendar asked: the rest waits for the next. */
  stepsPerQuery: 5_000,
  /** A rule that tries this many dates without finding one is given up (a rule that never matches). */
  stepsPerOccurrence: 2_000,
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

/** The steps the recurrence iterators may still take in one query (shared by every calendar asked). */
export interface StepBudget {
  left: number;
}

/** A fresh budget for one query: {@link CALENDAR_LIMITS}.stepsPerQuery steps. */
export function stepBudget(): StepBudget {
  return { left: CALENDAR_LIMITS.stepsPerQuery };
}
