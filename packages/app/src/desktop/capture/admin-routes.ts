/**
 * The admin commands of capture (docs/cli.md "tock capture", "tock timeline"): thin, each
 * reads its input and calls one thing the capture part offers. The window's Settings › Capture
 * can call the same (see docs/desktop.md "Capture").
 */
import { isLocalDate } from '@tock/protocol';
import { AdminError, type AdminHandler } from '../../admin.ts';
import type { Capture } from './capture.ts';

function day(input: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const value = input[field];
  if (value === undefined || value === null || value === '') {
    if (required) throw new AdminError(`give --${field} YYYY-MM-DD`);
    return undefined;
  }
  if (typeof value !== 'string' || !isLocalDate(value)) throw new AdminError(`--${field} takes a day as YYYY-MM-DD, not "${String(value)}"`);
  return value;
}

/** The capture admin routes, keyed like the app's own (`METHOD /path`). */
export function captureAdminRoutes(capture: Capture): Record<string, AdminHandler> {
  return {
    'GET /capture': () => capture.status(),
    'POST /capture/set': (input) => {
      if (typeof input.key !== 'string') throw new AdminError('give a setting: tock capture set KEY VALUE');
      return capture.set(input.key, input.value);
    },
    'POST /capture/forget': (input) => {
      const from = day(input, 'from', true) as string;
      const to = day(input, 'to', true) as string;
      if (to < from) throw new AdminError(`--to ${to} is before --from ${from}`);
      return capture.forget(from, to);
    },
    'POST /timeline': (input) => capture.timeline(day(input, 'date', false)),
    'POST /capture/gnome-extension/install': () => capture.installGnomeExtension(),
  };
}
