/**
 * The admin routes of calendars (docs/calendar.md, docs/cli.md "tock calendar"): thin, each
 * calls one thing the calendars offer. `tock settings get|set calendarMe` is answered here too:
 * it wraps the ledger's settings routes and hands every other key on to them.
 */
import type { Calendars } from '../calendar/calendars.ts';
import { CALENDAR_SETTINGS } from '../calendar/calendars.ts';
import { isProblem, ruleProblem, validationProblem } from '@tock/protocol';
import { adminHandlers, type AdminHandlers } from './server.ts';

/** The calendar admin routes; `settings` the routes `tock settings` reaches for the other keys. */
export function calendarAdminRoutes(calendars: Calendars, settings: AdminHandlers<'POST /settings/get' | 'POST /settings/set'>) {
  return adminHandlers({
    'GET /calendars': () => calendars.list(),
    'POST /calendars/add': ({ path, name }) => calendars.add(path, name ?? undefined),
    'POST /calendars/remove': ({ calendar }) => calendars.remove(calendar),
    'POST /settings/get': (input) => (input.key === CALENDAR_SETTINGS.me ? calendars.me() : namingCalendarMe(() => settings['POST /settings/get'](input))),
    'POST /settings/set': (input) => (input.key === CALENDAR_SETTINGS.me ? calendars.setMe(input.value) : namingCalendarMe(() => settings['POST /settings/set'](input))),
  });
}

/** The ledger's refusal of a key it does not know, with `calendarMe` among the keys it names: `tock settings` takes it too. */
function namingCalendarMe<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    const [problem] = isProblem(error) ? (error.details ?? []) : [];
    if (problem?.rule !== 'notASetting') throw error;
    const values = problem.values ?? {};
    throw validationProblem([ruleProblem('key', { rule: 'notASetting', values: { ...values, keys: `${String(values.keys)}, ${CALENDAR_SETTINGS.me}` } })]);
  }
}
