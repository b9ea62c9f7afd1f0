/**
 * The admin routes of capture (docs/cli.md "tock capture", "tock timeline"): thin, each calls
 * one thing the capture part offers. The window's Settings › Capture can call the same (see
 * docs/desktop.md "Capture").
 */
import { AdminError } from '../admin.ts';
import type { Capture } from '@tock/desktop';
import { adminHandlers } from './server.ts';

/** The capture admin routes. */
export function captureAdminRoutes(capture: Capture) {
  return adminHandlers({
    'GET /capture': () => capture.status(),
    'POST /capture/set': ({ key, value }) => capture.set(key, value),
    'POST /capture/forget': ({ from, to }) => {
      if (to < from) throw new AdminError(`--to ${to} is before --from ${from}`);
      return capture.forget(from, to);
    },
    'POST /timeline': ({ date }) => capture.timeline(date ?? undefined),
    'POST /capture/gnome-extension/install': () => capture.installGnomeExtension(),
  });
}
