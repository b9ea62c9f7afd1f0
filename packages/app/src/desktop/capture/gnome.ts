/**
 * The GNOME Shell focus source (docs/desktop.md "Capture"): Tock's shell extension
 * (gnome-extension/, installed by `tock capture gnome-extension install`) serves
 * `app.tock.Capture.Shell` at `/app/tock/Capture` on GNOME Shell's bus name: `GetFocused()`
 * at start, then the `FocusChanged(app, title)` signal. GNOME offers no other way to learn the
 * focused window on Wayland.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_FILES } from '../../package-files.ts';
import { runCommand } from '../run-command.ts';
import { connectSessionBus, type SessionBus } from './dbus.ts';
import { FocusSourceUnavailable, type FocusedWindow, type FocusFollower, type FocusSource, type FocusSourceContext } from './sources.ts';

/** The extension's identity and its D-Bus contract (the same names as gnome-extension/extension.js). */
export const GNOME_EXTENSION = {
  uuid: 'tock-capture@tock.app',
  busName: 'org.gnome.Shell',
  path: '/app/tock/Capture',
  iface: 'app.tock.Capture.Shell',
} as const;

/**
 * The extension's files as shipped with Tock, found through the one resolver: the bundle's
 * chunks sit in lib/chunks/, so a path beside this module would not exist once installed.
 */
export const GNOME_EXTENSION_DIR = PACKAGE_FILES.gnomeExtension;

function asWindow(body: unknown[]): FocusedWindow | null {
  const [app, title] = body.map((v) => (typeof v === 'string' && v !== '' ? v : null));
  return app === null && title === null ? null : { app: app ?? null, title: title ?? null };
}

async function nameHasOwner(bus: SessionBus, name: string): Promise<boolean> {
  const [owned] = await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner', 's', [name]);
  return owned === true;
}

/** Connects and says why the extension cannot answer, or null with the open bus. */
async function reach(env: NodeJS.ProcessEnv): Promise<{ bus: SessionBus | null; reason: string | null }> {
  let bus: SessionBus;
  try {
    bus = await connectSessionBus(env);
  } catch (error) {
    return { bus: null, reason: error instanceof Error ? error.message : String(error) };
  }
  try {
    if (!(await nameHasOwner(bus, GNOME_EXTENSION.busName))) {
      bus.close();
      return { bus: null, reason: 'GNOME Shell is not running on this session bus' };
    }
    await bus.call(GNOME_EXTENSION.busName, GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'GetFocused');
    return { bus, reason: null };
  } catch {
    bus.close();
    return { bus: null, reason: "Tock's GNOME Shell extension does not answer: run `tock capture gnome-extension install`, then log out and back in" };
  }
}

/** The GNOME source: needs GNOME Shell on the session bus with Tock's extension enabled. */
export function gnomeFocusSource(context: Pick<FocusSourceContext, 'env'>): FocusSource {
  const { env } = context;
  return {
    id: 'gnome',
    name: 'GNOME Shell (Tock extension)',
    async check() {
      const { bus, reason } = await reach(env);
      bus?.close();
      return reason;
    },
    async follow(onFocus, onLost) {
      const { bus, reason } = await reach(env);
      if (bus === null) throw new FocusSourceUnavailable(reason ?? 'GNOME Shell does not answer');
      let stopped = false;
      await bus.onSignal(GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'FocusChanged', (body) => onFocus(asWindow(body)));
      onFocus(asWindow(await bus.call(GNOME_EXTENSION.busName, GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'GetFocused')));
      bus.onClose((why) => {
        if (!stopped) onLost(why);
      });
      const follower: FocusFollower = {
        stop() {
          stopped = true;
          bus.close();
        },
      };
      return follower;
    },
  };
}

/** Where GNOME Shell looks for a user's extensions (`$XDG_DATA_HOME`, else `~/.local/share`). */
export function gnomeExtensionTarget(env: NodeJS.ProcessEnv): string {
  const data = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share');
  return join(data, 'gnome-shell', 'extensions', GNOME_EXTENSION.uuid);
}

/** What `tock capture gnome-extension install` did. */
export interface GnomeExtensionInstall {
  dir: string;
  uuid: string;
  /** Whether `gnome-extensions enable` accepted it now; otherwise after the next login. */
  enabled: boolean;
  next: string;
}

/** Copies the extension into the user's extensions and asks GNOME to enable it. */
export async function installGnomeExtension(env: NodeJS.ProcessEnv): Promise<GnomeExtensionInstall> {
  const dir = gnomeExtensionTarget(env);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const file of ['metadata.json', 'extension.js']) copyFileSync(join(GNOME_EXTENSION_DIR, file), join(dir, file));
  let enabled = false;
  try {
    await runCommand(['gnome-extensions', 'enable', GNOME_EXTENSION.uuid], { env });
    enabled = true;
  } catch {
    enabled = false;
  }
  return {
    dir,
    uuid: GNOME_EXTENSION.uuid,
    enabled,
    next: enabled
      ? 'enabled; on Wayland GNOME Shell loads a new extension at the next login: log out and back in, then `tock capture status`'
      : `log out and back in, then \`gnome-extensions enable ${GNOME_EXTENSION.uuid}\` and \`tock capture status\``,
  };
}
