/**
 * Settings › Calendar's shapes (docs/calendar.md): what the window's calendar routes answer.
 * Plain types: the window bundles the contract, which must reach no Node module.
 */

/** A meeting of this week as the screen lists it. */
export interface CalendarWeekMeeting {
  start: string;
  end: string;
  summary: string | null;
}

/** One calendar: as `tock calendar list` shows it, with this week's meetings. */
export interface CalendarEntry {
  id: string;
  name: string;
  path: string;
  events: number;
  /** One line per file refused or not understood, in English. */
  problems: string[];
  /** Beside each of `problems`: its code and values (`path` the file), worded in the person's language (docs/i18n.md). */
  reasons: { code: string; values: Readonly<Record<string, string | number>> }[];
  /** This week's meetings (Monday to Sunday in the app's zone), oldest first. */
  week: CalendarWeekMeeting[];
}

/** Settings › Calendar: the calendars, the person's addresses (`calendarMe`), the week shown. */
export interface CalendarView {
  calendars: CalendarEntry[];
  me: string[];
  /** The first day of the week shown: the person's week (the setting `weekStart`). */
  weekOf: string;
}
