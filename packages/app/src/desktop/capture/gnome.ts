/**
 * The GNOME Shell focus source (docs/desktop.md "Capture"): Tock's shell extension
 * (gnome-extension/, installed by `tock capture gnome-extension install`) serves
 * `app.tock.Capture.Shell` at `/app/tock/Capture` on GNOME Shell's bus name. GNOME offers no
 * other way to learn the focused window on Wayland.
 *
 * Tock owns `app.tock.Capture` and serves `app.tock.Capture.Gnome.FocusChanged()` there; the
 * extension calls it — a method call to Tock's name, never a broadcast — when the focus or the
 * focused window's title changes, and it carries nothing. Tock then asks the shell
 * `GetFocused(titles)` with its *titles* setting, so a title leaves the shell only when Tock
 * records titles, and only to Tock (the extension answers only the owner of
 * `app.tock.Capture`). A `FocusChanged` counts only from the unique name that owns
 * `org.gnome.Shell` at that moment; any other caller is refused and counted.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_FILES } from '../../package-files.ts';
import { runCommand } from '../run-command.ts';
import { ACCESS_DENIED, type BusReportHooks, connectSessionBus, DBusCallError, DBusRefusal, type NameOwner, type SessionBus } from './dbus.ts';
import { FocusSourceUnavailable, type FocusedWindow, type FocusFollower, type FocusSource, type FocusSourceContext } from './sources.ts';

/** The extension's identity and the D-Bus contract between it and Tock (the same names as gnome-extension/extension.js). */
export const GNOME_EXTENSION = {
  uuid: 'tock-capture@tock.app',
  /** The extension serves {@link GNOME_EXTENSION.iface} on GNOME Shell's connection. */
  busName: 'org.gnome.Shell',
  path: '/app/tock/Capture',
  /** `GetFocused(b titles) -> (s app, s title)`, answered only to the owner of `app.tock.Capture`. */
  iface: 'app.tock.Capture.Shell',
  /** Tock's name, where the extension reports. */
  tockBusName: 'app.tock.Capture',
  /** `FocusChanged()`, served by Tock: "ask me again". */
  tockIface: 'app.tock.Capture.Gnome',
} as const;

/**
 * The extension's files as shipped with Tock, found through the one resolver: the bundle's
 * chunks sit in lib/chunks/, so a path beside this module would not exist once installed.
 */
export const GNOME_EXTENSION_DIR = PACKAGE_FILES.gnomeExtension;

/** The window in `GetFocused`'s answer; the title is dropped when titles are off, whatever the answer holds. */
function asWindow(body: unknown[], titles: boolean): FocusedWindow | null {
  const [app, title] = body.map((v) => (typeof v === 'string' && v !== '' ? v : null));
  const kept = titles ? (title ?? null) : null;
  return (app ?? null) === null && kept === null ? null : { app: app ?? null, title: kept };
}

async function nameHasOwner(bus: SessionBus, name: string): Promise<boolean> {
  const [owned] = await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner', 's', [name]);
  return owned === true;
}

/**
 * Connects and says why the extension cannot answer, or null with the open bus. The extension
 * refuses `GetFocused` to anyone but the owner of Tock's name: that refusal is its answer here.
 */
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
    await bus.call(GNOME_EXTENSION.busName, GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'GetFocused', 'b', [false]).catch((error: unknown) => {
      if (!(error instanceof DBusCallError && error.dbusName === ACCESS_DENIED)) throw error;
    });
    return { bus, reason: null };
  } catch {
    bus.close();
    return { bus: null, reason: "Tock's GNOME Shell extension does not answer (or is an older one): run `tock capture gnome-extension install`, then log out and back in" };
  }
}

/** The GNOME source: needs GNOME Shell on the session bus with Tock's extension enabled. */
export function gnomeFocusSource(context: Pick<FocusSourceContext, 'env'> & BusReportHooks): FocusSource {
  const { env } = context;
  const titles = (): boolean => context.titles?.() ?? false;
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
      const { busName, path, iface, tockBusName, tockIface } = GNOME_EXTENSION;
      let stopped = false;
      let shell: NameOwner | null = null;
      let asking = false;
      let askAgain = false;
      // One question at a time: reports that come while one is asked make one more question,
      // so a window retitling itself in a loop costs the bus no more than the answers it reads.
      const ask = async (): Promise<void> => {
        if (asking) {
          askAgain = true;
          return;
        }
        asking = true;
        try {
          do {
            askAgain = false;
            const owner = shell?.current() ?? null;
            if (owner === null || stopped) return;
            const withTitles = titles();
            const answer = await bus.call(owner, path, iface, 'GetFocused', 'b', [withTitles]);
            if (!stopped) onFocus(asWindow(answer, withTitles));
          } while (askAgain);
        } finally {
          asking = false;
        }
      };
      try {
        // A new shell (GNOME Shell restarted) is asked at once; the old one is no longer heard.
        const watch = await bus.watchNameOwner(busName, () => void ask().catch(() => {}));
        shell = watch;
        if (!(await bus.requestName(tockBusName))) throw new FocusSourceUnavailable(`${tockBusName} is taken on the session bus (another Tock running?)`);
        bus.serve(path, tockIface, {
          FocusChanged: {
            in: '',
            out: '',
            run: (_args, sender) => {
              if (sender !== watch.current()) {
                context.ignored?.();
                return new DBusRefusal(`only the owner of ${busName} reports the focus`);
              }
              void ask().catch(() => {});
              return undefined;
            },
          },
        });
        await ask();
      } catch (error) {
        bus.close();
        throw error instanceof FocusSourceUnavailable ? error : new FocusSourceUnavailable(`GNOME Shell: ${error instanceof Error ? error.message : String(error)}`);
      }
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
