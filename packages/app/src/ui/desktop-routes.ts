/**
 * The window's routes for the desktop part (docs/ui.md "Desktop"): answer the idle
 * question, continue the last activity, read and change the desktop settings. A refused
 * setting comes back as `validation_failed` with the field, so the window shows it there.
 */
import type { Desktop } from '../desktop/desktop.ts';
import type { IdleChoice } from '../desktop/idle/watch.ts';
import { UiApiError, type Route } from './api.ts';

const CHOICES: readonly IdleChoice[] = ['keep', 'discard', 'stop'];

/** The desktop routes of the window's API. */
export function desktopRoutes(desktop: Desktop): Route[] {
  return [
    { method: 'GET', pattern: '/api/desktop', run: () => desktop.view() },
    {
      method: 'PATCH',
      pattern: '/api/desktop/settings',
      changes: ['desktop'],
      run: ({ body }) => desktop.updateSettings(body),
    },
    {
      method: 'POST',
      pattern: '/api/idle/:id/answer',
      changes: ['desktop', 'status', 'blocks'],
      run: ({ params, body }) => {
        const choice = body.choice;
        if (typeof choice !== 'string' || !CHOICES.includes(choice as IdleChoice)) {
          throw new UiApiError(400, 'validation_failed', 'choice: must be keep, discard or stop', [{ field: 'choice', message: 'must be keep, discard or stop' }]);
        }
        return desktop.answerIdle(choice as IdleChoice, params.id);
      },
    },
    { method: 'POST', pattern: '/api/continue', changes: ['desktop', 'status', 'blocks'], run: () => desktop.continueLast() },
  ];
}
