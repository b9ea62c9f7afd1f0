/**
 * The window's routes for Settings › Calendar (docs/calendar.md): the calendars with what each
 * holds this week, adding a file or a folder, removing one, and the person's addresses
 * (`calendarMe`). Each calls the calendars the `tock calendar` commands use, so the window and
 * the CLI cannot disagree; a refusal is the same one line.
 */
import { addDays, localDayKey, startOfLocalDay, startOfWeek, systemTimeZone } from '@tock/core';
import type { Calendars } from '../calendar/calendars.ts';
import type { PersonDays } from '../person-days.ts';
import type { CalendarView } from '@tock/window/contract';
import { route, type Route } from './route.ts';

/**
 * The calendars with this week's meetings: the person's week (its first day the setting
 * `weekStart`, its days starting at `dayStartsAt`) in the app's zone.
 */
function calendarView(calendars: Calendars, nowMs: number, timeZone: string, days: PersonDays): CalendarView {
  const weekOf = startOfWeek(localDayKey(nowMs, timeZone, days.dayStartsAt), days.weekStart);
  const from = startOfLocalDay(weekOf, timeZone, days.dayStartsAt);
  const to = startOfLocalDay(addDays(weekOf, 7), timeZone, days.dayStartsAt);
  const meetings = calendars.meetings(from, to).sort((a, b) => a.startMs - b.startMs);
  return {
    weekOf,
    me: calendars.me(),
    calendars: calendars.list().map((c) => ({
      ...c,
      week: meetings.filter((m) => m.span.app === c.name).map((m) => ({ start: m.span.start, end: m.span.end, summary: m.span.title })),
    })),
  };
}

/** The calendar routes of the window's API; `days`: the person's day and week (person-days.ts), midnight and Monday by default. */
export function calendarRoutes(
  calendars: Calendars,
  clock: () => number,
  timeZone: () => string = systemTimeZone,
  days: () => PersonDays = () => ({ dayStartsAt: 0, weekStart: 1 }),
): Route[] {
  const view = (): CalendarView => calendarView(calendars, clock(), timeZone(), days());
  return [
    route('GET /api/calendars', view),
    route(
      'POST /api/calendars',
      async ({ body }) => {
        await calendars.add(body.path, body.name ?? undefined);
        return view();
      },
      ['capture'],
    ),
    route(
      'POST /api/calendars/remove',
      ({ body }) => {
        calendars.remove(body.calendar);
        return view();
      },
      ['capture'],
    ),
    route(
      'PUT /api/calendars/me',
      ({ body }) => {
        calendars.setMe(body.addresses ?? []);
        return view();
      },
      ['capture'],
    ),
  ];
}
