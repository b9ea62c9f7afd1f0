/**
 * The window's routes for tracking (docs/ui.md "Today", "History"): the snapshot and status,
 * activities (list, search, rename), start, stop, breaks, blocks of a range, daily totals,
 * logged entries, and editing or deleting sessions, entries and a session's breaks. Each calls
 * the tracker's use case of the same name; core checks what it takes and names the field.
 */
import { Problem } from '@tock/protocol';
import { route, type Route } from './route.ts';
import { snapshot, statusView, type WindowViewDeps } from './window-views.ts';

function found(deleted: boolean, what: 'session' | 'entry' | 'break'): null {
  if (!deleted) throw new Problem(`${what}_not_found` as const, `that ${what} no longer exists; it may have been deleted in another window`);
  return null;
}

/** The tracking routes of the window's API. */
export function trackingRoutes(services: WindowViewDeps): Route[] {
  const { tracker } = services;
  const tracking = ['status', 'blocks'];
  return [
    route('GET /api/state', () => snapshot(services)),
    route('GET /api/status', () => statusView(services)),
    route('GET /api/activities/all', () => tracker.listActivities()),
    // The name is shown in what runs now (status), in the prompts' suggestions and on every block.
    // Core refuses a name that is missing or not a string as it refuses a bad one, naming the field.
    route('PATCH /api/activities/:id', ({ params, body }) => tracker.renameActivity(params.id, body.name as string), ['status', 'prompts', 'blocks']),
    // The protocol's default and bounds (docs/protocol.md "Endpoints"), as the listener's search.
    route('GET /api/activities', ({ query }) => tracker.searchActivities(query.q, query.limit)),
    route(
      'POST /api/start',
      // A start from the window: an activity by id or by name, and an optional note for the new
      // session (docs/product.md "Notes on sessions"; empty: none).
      ({ body }) => {
        const note = body.note === undefined || body.note === '' ? {} : { note: body.note };
        if (body.activityID !== undefined) return tracker.startActivity({ activityID: body.activityID, ...note });
        return tracker.startActivity({ name: body.name as string, createIfMissing: body.createIfMissing === true, ...note });
      },
      tracking,
    ),
    route('POST /api/stop', () => tracker.stopActivity(), tracking),
    route('POST /api/break', () => tracker.startBreak(), tracking),
    route('POST /api/resume', () => tracker.resumeBreak(), tracking),
    route('GET /api/blocks', ({ query }) => tracker.listBlocks(query.from, query.to)),
    route('GET /api/totals', ({ query }) => tracker.dailyTotals(query.from, query.to)),
    route('POST /api/entries', ({ body }) => tracker.logEntry(body), tracking),
    route('PATCH /api/sessions/:id', ({ params, body }) => tracker.updateSession(params.id, body), tracking),
    route('DELETE /api/sessions/:id', ({ params }) => found(tracker.deleteSession(params.id), 'session'), tracking),
    // A session's breaks afterwards (docs/product.md "Breaks"): core keeps each inside its
    // session, without overlaps or future times, and names the field it refuses.
    route('POST /api/sessions/:id/breaks', ({ params, body }) => tracker.addBreak(params.id, { startedAt: body.startedAt as string, endedAt: body.endedAt as string }), tracking),
    route('PATCH /api/breaks/:id', ({ params, body }) => tracker.updateBreak(params.id, body), tracking),
    route('DELETE /api/breaks/:id', ({ params }) => found(tracker.deleteBreak(params.id), 'break'), tracking),
    route('PATCH /api/entries/:id', ({ params, body }) => tracker.updateEntry(params.id, body), tracking),
    route('DELETE /api/entries/:id', ({ params }) => found(tracker.deleteEntry(params.id), 'entry'), tracking),
  ];
}
