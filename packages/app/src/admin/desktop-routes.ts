/**
 * The admin routes of the desktop part (docs/cli.md): `tock idle`, `tock continue`,
 * `tock open`, and the desktop view and settings (`GET`/`POST /desktop`: the CLI reads its
 * clock format there; no command prints the view). Thin: each calls one thing the desktop or the
 * window's server offers. Their refusals are problems, which the admin socket answers as one line.
 */
import type { Desktop } from '@tock/desktop';
import { adminHandlers } from './server.ts';

/** What `POST /open` needs from the window's server: a fresh address, or a launch file that opens one. */
export interface WindowOpener {
  /** The window's origin, without a code. */
  readonly origin: string;
  /** A new address with a launch code of its own (good once, for 5 minutes): `tock open --print`. */
  launchUrl(): string;
  /** A launch file (0600, deleted after 60 s) that opens a new address; its path is all a browser gets. */
  launchFile(): string;
}

/** The desktop's admin routes; `window` is asked only when a window is to be opened. */
export function desktopAdminRoutes(desktop: Desktop, window: () => WindowOpener) {
  return adminHandlers({
    // Not probed yet (timers off): probe now, so `tock idle` names what `tock capture` names.
    'GET /idle': async () => {
      if (!desktop.idleReader.probed) await desktop.probeIdleSources();
      return { question: desktop.pendingIdle(), idleSource: desktop.view().idleSource };
    },
    'POST /idle/answer': ({ choice, questionID }) => desktop.answerIdle(choice, questionID ?? undefined),
    'POST /continue': () => desktop.continueLast(),
    'POST /open': ({ file }) => {
      const opener = window();
      return file === true ? { origin: opener.origin, file: opener.launchFile() } : { url: opener.launchUrl() };
    },
    'GET /desktop': () => desktop.view(),
    'POST /desktop': (input) => desktop.updateSettings(input),
  });
}
