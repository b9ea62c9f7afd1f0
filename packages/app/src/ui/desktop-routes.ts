/**
 * The window's routes for the desktop part (docs/ui.md "Desktop"): answer the idle
 * question, continue the last activity, read and change the desktop settings. A refused
 * setting comes back as `validation_failed` with the field, so the window shows it there.
 */
import type { Desktop } from '@tock/desktop';
import { route, type Route } from './route.ts';

/** The desktop routes of the window's API. */
export function desktopRoutes(desktop: Desktop): Route[] {
  const tracking = ['desktop', 'status', 'blocks'];
  return [
    route('GET /api/desktop', () => desktop.view()),
    route('PATCH /api/desktop/settings', ({ body }) => desktop.updateSettings(body), ['desktop']),
    route('POST /api/idle/:id/answer', ({ params, body }) => desktop.answerIdle(body.choice, params.id), tracking),
    route('POST /api/continue', () => desktop.continueLast(), tracking),
  ];
}
