/**
 * The window's routes for Settings › Capture and the captured lane (docs/ui.md "Capture"): the
 * capture status (what is recorded, which desktop source works and why the others do not), one
 * setting at a time, a day's timeline, forgetting a range of days, and the GNOME extension's
 * install. Each calls the capture part the `tock capture` and `tock timeline` commands use, so
 * the window and the CLI cannot disagree; a refused value is core's `validation_failed` naming
 * the field, and nothing changes.
 */
import { isLocalDate } from '@tock/protocol';
import type { Capture } from '../desktop/capture/capture.ts';
import { UiApiError, type Route } from './api.ts';

function day(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isLocalDate(value)) {
    throw new UiApiError(400, 'validation_failed', `${field}: must be a day, YYYY-MM-DD`, [{ field, message: 'must be a day, YYYY-MM-DD' }]);
  }
  return value;
}

/** The capture routes of the window's API. */
export function captureRoutes(capture: Capture): Route[] {
  return [
    { method: 'GET', pattern: '/api/capture', run: () => capture.status() },
    {
      // One setting a request, `{key: value}`: a refusal then leaves every setting as it was.
      method: 'PATCH',
      pattern: '/api/capture/settings',
      changes: ['capture'],
      run: ({ body }) => {
        const keys = Object.keys(body);
        if (keys.length !== 1) throw new UiApiError(400, 'validation_failed', 'give one capture setting to change', [{ field: 'key', message: 'give one capture setting to change' }]);
        const key = keys[0] as string;
        return capture.set(key, body[key]);
      },
    },
    {
      method: 'GET',
      pattern: '/api/capture/timeline',
      run: ({ query }) => {
        const date = query.get('date');
        return capture.timeline(date === null || date === '' ? undefined : day(date, 'date'));
      },
    },
    {
      method: 'POST',
      pattern: '/api/capture/forget',
      changes: ['capture'],
      run: ({ body }) => {
        const from = day(body.from, 'from');
        const to = day(body.to, 'to');
        if (to < from) throw new UiApiError(400, 'validation_failed', `to: ${to} is before ${from}`, [{ field: 'to', message: `${to} is before ${from}` }]);
        return capture.forget(from, to);
      },
    },
    { method: 'POST', pattern: '/api/capture/gnome-extension', changes: ['capture'], run: () => capture.installGnomeExtension() },
  ];
}
