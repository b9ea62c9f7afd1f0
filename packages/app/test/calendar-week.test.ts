/**
 * Settings › Calendar shows the person's week (calendar-routes.ts): it begins on the setting
 * `weekStart` and its days at `dayStartsAt`, in the app's zone, and the meetings asked for span
 * exactly that week.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startOfLocalDay } from '@tock/core';
import type { Calendars } from '../src/calendar/calendars.ts';
import type { PersonDays } from '../src/person-days.ts';
import { calendarRoutes } from '../src/ui/calendar-routes.ts';
import type { CalendarView } from '@tock/window/contract';

const ZONE = 'Europe/Berlin';
/** Wednesday 25 November 2026, 12:00 in Berlin. */
const NOON = Date.UTC(2026, 10, 25, 11);

function viewOf(days: PersonDays, now = NOON): { view: CalendarView; asked: [number, number] } {
  let asked: [number, number] = [0, 0];
  const calendars = {
    meetings: (from: number, to: number) => {
      asked = [from, to];
      return [];
    },
    me: () => [],
    list: () => [],
  } as unknown as Calendars;
  const get = calendarRoutes(calendars, () => now, () => ZONE, () => days).find((r) => r.key === 'GET /api/calendars');
  const view = get?.run({ body: undefined, params: {}, query: {} } as never) as CalendarView;
  return { view, asked };
}

describe('the calendar week', () => {
  it('starts on Monday, Sunday or Saturday as weekStart says', () => {
    assert.equal(viewOf({ dayStartsAt: 0, weekStart: 1 }).view.weekOf, '2026-11-23');
    assert.equal(viewOf({ dayStartsAt: 0, weekStart: 7 }).view.weekOf, '2026-11-22');
    assert.equal(viewOf({ dayStartsAt: 0, weekStart: 6 }).view.weekOf, '2026-11-21');
  });

  it('its days start at dayStartsAt: Monday 02:30 with 04:00 is still last week, and the meetings asked for run 04:00 to 04:00', () => {
    const mondayNight = Date.UTC(2026, 10, 23, 1, 30); // 02:30 in Berlin
    const { view, asked } = viewOf({ dayStartsAt: 240, weekStart: 1 }, mondayNight);
    assert.equal(view.weekOf, '2026-11-16');
    assert.deepEqual(asked, [startOfLocalDay('2026-11-16', ZONE, 240), startOfLocalDay('2026-11-23', ZONE, 240)]);
    assert.equal(viewOf({ dayStartsAt: 0, weekStart: 1 }, mondayNight).view.weekOf, '2026-11-23');
  });
});
