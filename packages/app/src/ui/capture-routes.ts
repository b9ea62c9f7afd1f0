/**
 * The window's routes for Settings › Capture and the captured lane (docs/ui.md "Capture"): the
 * capture status (what is recorded, which desktop source works and why the others do not), one
 * setting at a time, a day's timeline, forgetting a range of days, and the GNOME extension's
 * install. Each calls the capture part the `tock capture` and `tock timeline` commands use, so
 * the window and the CLI cannot disagree; a refused value is core's `validation_failed` naming
 * the field, and nothing changes.
 */
import { Problem } from '@tock/protocol';
import type { Capture } from '@tock/desktop';
import { route, type Route } from './route.ts';

/** The capture routes of the window's API. */
export function captureRoutes(capture: Capture): Route[] {
  return [
    route('GET /api/capture', () => capture.status()),
    route(
      'PATCH /api/capture/settings',
      // One setting a request, `{key: value}`: a refusal then leaves every setting as it was.
      ({ body }) => {
        const keys = Object.keys(body);
        if (keys.length !== 1) throw new Problem('validation_failed', 'give one capture setting to change', { details: [{ field: 'key', message: 'give one capture setting to change' }] });
        const key = keys[0] as string;
        return capture.set(key, body[key]);
      },
      ['capture'],
    ),
    route('GET /api/capture/timeline', ({ query }) => capture.timeline(query.date)),
    route(
      'POST /api/capture/forget',
      ({ body }) => {
        if (body.to < body.from) throw new Problem('validation_failed', `to: ${body.to} is before ${body.from}`, { details: [{ field: 'to', message: `${body.to} is before ${body.from}` }] });
        return capture.forget(body.from, body.to);
      },
      ['capture'],
    ),
    route('POST /api/capture/gnome-extension', () => capture.installGnomeExtension(), ['capture']),
  ];
}
