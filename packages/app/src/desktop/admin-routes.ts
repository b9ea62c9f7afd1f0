/**
 * The admin commands of the desktop part (docs/cli.md): `tock idle`, `tock continue`,
 * `tock open` and `tock desktop` (settings). Thin: each reads its input and calls one thing
 * the desktop or the window's server offers.
 */
import { AdminError, type AdminHandler } from '../admin.ts';
import type { Desktop } from './desktop.ts';
import { NoIdleQuestion, type IdleChoice } from './idle/watch.ts';
import { DesktopSettingsError } from './settings.ts';

/** What `POST /open` needs from the window's server: a fresh address, or a launch file that opens one. */
export interface WindowOpener {
  /** The window's origin, without a code. */
  readonly origin: string;
  /** A new address with a launch code of its own (good once, for 5 minutes): `tock open --print`. */
  launchUrl(): string;
  /** A launch file (0600, deleted after 60 s) that opens a new address; its path is all a browser gets. */
  launchFile(): string;
}

const CHOICES: readonly IdleChoice[] = ['keep', 'discard', 'stop'];

function refuse<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof NoIdleQuestion || error instanceof DesktopSettingsError) throw new AdminError(error.message);
    throw error;
  }
}

/** The desktop admin routes, keyed like the app's own (`METHOD /path`). */
export function desktopAdminRoutes(desktop: Desktop, window: () => WindowOpener): Record<string, AdminHandler> {
  return {
    'GET /idle': () => ({ question: desktop.pendingIdle(), idleSource: desktop.view().idleSource }),
    'POST /idle/answer': (input) => {
      const choice = input.choice;
      if (typeof choice !== 'string' || !CHOICES.includes(choice as IdleChoice)) {
        throw new AdminError(`answer with keep, discard or stop, not "${String(choice)}"`);
      }
      const questionID = typeof input.questionID === 'string' ? input.questionID : undefined;
      return refuse(() => desktop.answerIdle(choice as IdleChoice, questionID));
    },
    'POST /continue': () => desktop.continueLast(),
    // `{file: true}`: the CLI opens a browser on the file; otherwise it prints the address.
    'POST /open': (input) => {
      const opener = window();
      return input.file === true ? { origin: opener.origin, file: opener.launchFile() } : { url: opener.launchUrl() };
    },
    'GET /desktop': () => desktop.view(),
    'POST /desktop': (input) => refuse(() => desktop.updateSettings(input)),
  };
}
