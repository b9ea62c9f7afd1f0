/**
 * The window's routes for Settings › Capture and the captured lane (docs/ui.md "Capture"): the
 * capture status (what is recorded, which desktop source works and why the others do not), one
 * setting at a time, a day's timeline, forgetting a range of days, and the GNOME extension's
 * install. Path bindings over the use cases `tock capture` and `tock timeline` reach
 * (use-cases/capture.ts), so the window and the CLI cannot disagree; a refused value is core's `validation_failed` naming
 * the field, and nothing changes.
 */
import { Problem, ruleLine } from '@tock/protocol';
import type { Capture } from '@tock/desktop';
import { captureUseCases, type CaptureUseCases } from '../use-cases/capture.ts';
import { route, type Route } from './route.ts';

/** The capture routes of the window's API: path bindings over capture's use cases (use-cases/capture.ts). */
export function captureRoutes(capture: Capture, cases: CaptureUseCases = captureUseCases(capture)): Route[] {
  return [
    route('GET /api/capture', () => cases.status()),
    route(
      'PATCH /api/capture/settings',
      // One setting a request, `{key: value}`: a refusal then leaves every setting as it was.
      ({ body }) => {
        const keys = Object.keys(body);
        if (keys.length !== 1) throw new Problem('validation_failed', ...ruleLine('key', { rule: 'oneCaptureSetting' }));
        const key = keys[0] as string;
        return cases.set({ key, value: body[key] });
      },
      ['capture'],
    ),
    route('GET /api/capture/timeline', ({ query }) => cases.timeline({ date: query.date })),
    route('POST /api/capture/forget', ({ body }) => cases.forget({ from: body.from, to: body.to }), ['capture']),
    route('POST /api/capture/gnome-extension', () => cases.installGnomeExtension(), ['capture']),
  ];
}
