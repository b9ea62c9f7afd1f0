/**
 * The admin routes of capture (docs/cli.md "tock capture", "tock timeline"): path bindings over
 * capture's use cases (use-cases/capture.ts), which the window's Settings › Capture binds too
 * (docs/desktop.md "Capture").
 */
import { AdminError } from '../admin.ts';
import type { Capture } from '@tock/desktop';
import { isProblem } from '@tock/protocol';
import { captureUseCases, type CaptureUseCases } from '../use-cases/capture.ts';
import { adminHandlers } from './server.ts';

/** The capture admin routes: path bindings over capture's use cases (use-cases/capture.ts). */
export function captureAdminRoutes(capture: Capture, cases: CaptureUseCases = captureUseCases(capture)) {
  return adminHandlers({
    'GET /capture': () => cases.status(),
    'POST /capture/set': (input) => cases.set(input),
    'POST /capture/forget': ({ from, to }) => {
      try {
        return cases.forget({ from, to });
      } catch (error) {
        // The CLI's words for the backward range: its flags, not the fields.
        if (isProblem(error, 'validation_failed') && error.details?.[0]?.field === 'to') throw new AdminError(`--to ${to} is before --from ${from}`);
        throw error;
      }
    },
    'POST /timeline': (input) => cases.timeline(input),
    'POST /capture/gnome-extension/install': () => cases.installGnomeExtension(),
  });
}
