/**
 * The admin routes of capture (docs/cli.md "tock capture", "tock timeline"): path bindings over
 * capture's use cases (use-cases/capture.ts), which the window's Settings › Capture binds too
 * (docs/desktop.md "Capture").
 */
import type { Capture } from '@tock/desktop';
import { captureUseCases, type CaptureUseCases } from '../use-cases/capture.ts';
import { adminHandlers } from './server.ts';

/** The capture admin routes: path bindings over capture's use cases (use-cases/capture.ts). */
export function captureAdminRoutes(capture: Capture, cases: CaptureUseCases = captureUseCases(capture)) {
  return adminHandlers({
    'GET /capture': () => cases.status(),
    'POST /capture/set': (input) => cases.set(input),
    'POST /capture/forget': (input) => cases.forget(input),
    'POST /timeline': (input) => cases.timeline(input),
    'POST /capture/gnome-extension/install': () => cases.installGnomeExtension(),
  });
}
