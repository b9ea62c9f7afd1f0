/**
 * The GNOME Shell focus source (docs/desktop.md "Capture"): Tock's shell extension
 * (gnome-extension/, installed by `tock capture gnome-extension install`) serves
 * `app.tock.Capture.Shell` at `/app/tock/Capture` on GNOME Shell's bus name. GNOME offers no
 * other way to learn the focused window on Wayland.
 *
 * Tock owns `app.tock.Capture` and serves `app.tock.Capture.Gnome.FocusChanged(app, title)`
 * and `Ready()` there. Tock tells the extension its *titles* setting with `Configure(titles)`
 * when it starts following, when the shell changes hands, when the setting changes and when
 * the extension says `Ready` — as it is enabled again while Tock follows (GNOME Shell disables
 * extensions while the screen is locked), knowing no setting; for an extension older than
 * version 4, which says no `Ready`, the shell's `ExtensionStateChanged` (enabled) does. The extension answers only the
 * owner of `app.tock.Capture`, with the focused window now; from then on it reports each
 * change of focus or title in one call to that connection alone, sent NO_REPLY_EXPECTED, whose
 * title is empty while titles is off — one message per change and none back, where version 2
 * took four (a call, its reply, Tock's question and its answer). A `FocusChanged` or `Ready`
 * counts only from the unique name that owns `org.gnome.Shell` at that moment; any other
 * caller is refused and counted. A Tock that starts while another connection still holds
 * `app.tock.Capture` (the Tock it restarts, not yet gone) waits in the bus daemon's queue for
 * it, up to 10 s.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunCommand, runCommand } from '../run-command.ts';
import { GNOME_EXTENSION_FORMATS, GNOME_SHELL_OLDEST, type GnomeExtensionFormatName, gnomeExtensionFormatFor } from './gnome-extension-formats.ts';
import { ACCESS_DENIED, type BusReportHooks, connectSessionBus, DBusCallError, DBusRefusal, type NameOwner, type SessionBus } from './dbus.ts';
import { FocusSourceUnavailable, noSessionBus, SourceReason, type FocusedWindow, type FocusFollower, type FocusSource, type FocusSourceContext } from './focus-source.ts';
import { busNumber, MUTTER_IDLE_MONITOR, watchMutterIdle } from './mutter-idle.ts';
import { EXTENSION_ENABLED, extensionInfoValue, loadedExtensionVersion, olderExtension, SHELL_EXTENSIONS } from './gnome-extension-version.ts';

/** The idle watch lives in mutter-idle.ts; the GNOME source and its tests reach it here. */
export { busNumber, type IdleWatchHandlers, MUTTER_IDLE_MONITOR, watchMutterIdle } from './mutter-idle.ts';

/** The extension's identity and the D-Bus contract between it and Tock (the same names as gnome-extension/focus.js). */
export const GNOME_EXTENSION = {
  uuid: 'tock-capture@tock.app',
  /** The extension serves {@link GNOME_EXTENSION.iface} on GNOME Shell's connection. */
  busName: 'org.gnome.Shell',
  path: '/app/tock/Capture',
  /** `Configure(b titles) -> (s app, s title)`, answered only to the owner of `app.tock.Capture`. */
  iface: 'app.tock.Capture.Shell',
  /** Tock's name, where the extension reports. */
  tockBusName: 'app.tock.Capture',
  /** `FocusChanged(s app, s title)`, served by Tock: the focused window now (title empty while titles is off). */
  tockIface: 'app.tock.Capture.Gnome',
} as const;

/**
 * The extension's files in this checkout (shell-43/ and shell-45/, one per format:
 * gnome-extension-formats.ts), beside this module. The installed app passes the folder its one
 * resolver finds (@tock/admin's package-files.ts, `CaptureOptions.gnomeExtensionDir`): the bundle's
 * chunks sit in lib/chunks/, so a path beside this module would not exist once installed.
 */
export const GNOME_EXTENSION_DIR: string = fileURLToPath(new URL('./gnome-extension', import.meta.url));

/** The window in a report or in `Configure`'s answer; the title is dropped when titles are off, whatever the message holds. */
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
 * refuses `Configure` to anyone but the owner of Tock's name: that refusal is its answer here
 * (an older extension, without `Configure`, answers UnknownMethod: it must be reinstalled).
 */
async function reach(env: NodeJS.ProcessEnv, onDropped?: () => void): Promise<{ bus: SessionBus | null; reason: SourceReason | null }> {
  const missing = noSessionBus(env);
  if (missing !== null) return { bus: null, reason: missing };
  let bus: SessionBus;
  try {
    bus = await connectSessionBus(env, undefined, onDropped);
  } catch (error) {
    return { bus: null, reason: SourceReason.other(error) };
  }
  try {
    if (!(await nameHasOwner(bus, GNOME_EXTENSION.busName))) {
      bus.close();
      return { bus: null, reason: new SourceReason('not_running', 'GNOME Shell is not running on this session bus', { program: 'GNOME Shell' }) };
    }
    await bus.call(GNOME_EXTENSION.busName, GNOME_EXTENSION.path, GNOME_EXTENSION.iface, 'Configure', 'b', [false]).catch((error: unknown) => {
      if (!(error instanceof DBusCallError && error.dbusName === ACCESS_DENIED)) throw error;
    });
    return { bus, reason: null };
  } catch {
    bus.close();
    return { bus: null, reason: new SourceReason('gnome_extension', "Tock's GNOME Shell extension does not answer (or is an older one): run `tock capture gnome-extension install`, then log out and back in") };
  }
}

/**
 * How long following waits for Tock's name while another connection owns it: a Tock that
 * stops (restarting) lets go of it as its process ends.
 */
const NAME_WAIT_MS = 10_000;

/** The GNOME source: needs GNOME Shell on the session bus with Tock's extension enabled. */
export function gnomeFocusSource(context: Pick<FocusSourceContext, 'env'> & BusReportHooks): FocusSource {
  const { env } = context;
  const titles = (): boolean => context.titles?.() ?? false;
  return {
    id: 'gnome',
    name: 'GNOME Shell (Tock extension)',
    async check() {
      return (await this.diagnose?.())?.text ?? null;
    },
    async diagnose() {
      const { bus, reason } = await reach(env);
      bus?.close();
      return reason;
    },
    // Works, but an extension older than this Tock's (no Ready): the shell says which it loaded.
    async notice() {
      if (noSessionBus(env) !== null) return null;
      const bus = await connectSessionBus(env);
      try {
        return olderExtension(await loadedExtensionVersion(bus, GNOME_EXTENSION.uuid));
      } finally {
        bus.close();
      }
    },
    async follow(onFocus, onLost) {
      // A message over 1 MiB from anyone is dropped and counted, the connection kept.
      const { bus, reason } = await reach(env, () => context.ignored?.());
      if (bus === null) throw new FocusSourceUnavailable(reason?.text ?? 'GNOME Shell does not answer');
      const { busName, path, iface, tockBusName, tockIface } = GNOME_EXTENSION;
      let stopped = false;
      let shell: NameOwner | null = null;
      let configuring = false;
      let again = false;
      // The titles setting the shell holds now (null: not configured since it took its name).
      let told: boolean | null = null;
      // One Configure at a time: a change that comes while one is asked makes one more.
      const configure = async (): Promise<void> => {
        if (configuring) {
          again = true;
          return;
        }
        configuring = true;
        try {
          do {
            again = false;
            const owner = shell?.current() ?? null;
            if (owner === null || stopped) return;
            const withTitles = titles();
            const answer = await bus.call(owner, path, iface, 'Configure', 'b', [withTitles]);
            if (owner !== shell?.current()) continue;
            told = withTitles;
            if (!stopped) onFocus(asWindow(answer, withTitles));
          } while (again);
        } finally {
          configuring = false;
        }
      };
      let unsubscribe = (): void => {};
      try {
        // A new shell (GNOME Shell restarted) is configured at once; the old one is no longer heard.
        const watch = await bus.watchNameOwner(busName, () => {
          told = null;
          void configure().catch(() => {});
        });
        shell = watch;
        const fromShell = (sender: string): DBusRefusal | null => {
          if (sender === watch.current()) return null;
          context.ignored?.();
          return new DBusRefusal(`only the owner of ${busName} reports the focus`);
        };
        // Served before the name is asked for: the extension may speak as soon as it is ours.
        // Both are sent NO_REPLY_EXPECTED: no answer goes back.
        bus.serve(path, tockIface, {
          FocusChanged: {
            in: 'ss',
            out: '',
            run: (args, sender) => {
              const refused = fromShell(sender);
              if (refused !== null) return refused;
              if (stopped || told === null) return undefined;
              onFocus(asWindow(args, titles()));
              // The setting changed by another way than capture's own: tell the shell now.
              if (told !== titles()) void configure().catch(() => {});
              return undefined;
            },
          },
          // The extension (enabled again: after the screen's lock, an update) has no setting: tell it.
          Ready: {
            in: '',
            out: '',
            run: (_args, sender) => {
              const refused = fromShell(sender);
              if (refused !== null) return refused;
              told = null;
              if (!stopped) void configure().catch(() => {});
              return undefined;
            },
          },
        });
        // An extension older than version 4 says no Ready: the shell's own signal that it
        // enabled Tock's extension (again) tells the same. It counts only from the shell.
        await bus.onSignal(SHELL_EXTENSIONS.path, SHELL_EXTENSIONS.iface, 'ExtensionStateChanged', (body, sender) => {
          if (stopped || body[0] !== GNOME_EXTENSION.uuid) return;
          if (sender !== watch.current()) {
            context.ignored?.();
            return;
          }
          if (extensionInfoValue(body[1], 'state') !== EXTENSION_ENABLED) return;
          told = null;
          void configure().catch(() => {});
        });
        // A Tock restarting may still hold the name for a moment: wait in the bus daemon's queue.
        if (!(await bus.requestName(tockBusName, NAME_WAIT_MS))) throw new FocusSourceUnavailable(`${tockBusName} is taken on the session bus (another Tock running?)`);
        // The setting changed: the shell hears it before it reports again.
        unsubscribe =
          context.onSettingsChanged?.(() => {
            if (told !== null && told !== titles()) void configure().catch(() => {});
          }) ?? unsubscribe;
        await configure();
      } catch (error) {
        unsubscribe();
        bus.close();
        throw error instanceof FocusSourceUnavailable ? error : new FocusSourceUnavailable(`GNOME Shell: ${error instanceof Error ? error.message : String(error)}`);
      }
      bus.onClose((why) => {
        if (!stopped) onLost(why);
      });
      const follower: FocusFollower = {
        stop() {
          stopped = true;
          unsubscribe();
          bus.close();
        },
        // Mutter's idle monitor over this connection: no gdbus process per idle read.
        async idleMs() {
          const [ms] = await bus.call(MUTTER_IDLE_MONITOR.busName, MUTTER_IDLE_MONITOR.path, MUTTER_IDLE_MONITOR.iface, 'GetIdletime');
          return busNumber(ms);
        },
        // Mutter's idle watches: no message at all while the person works or stays away.
        watchIdle: (thresholdMs, onIdle, onActive) => watchMutterIdle(bus, thresholdMs, { onIdle, onActive, ignored: () => context.ignored?.() }),
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
  /** The running GNOME Shell's version as read (`43.9`), or null when none was found. */
  shellVersion: string | null;
  /** The format installed: `imports` (GNOME Shell 43–44) or `module` (45 and later). */
  format: GnomeExtensionFormatName;
  /** Whether it is in the person's `org.gnome.shell enabled-extensions` now. */
  enabled: boolean;
  next: string;
}

/**
 * The running GNOME Shell's version: its `ShellVersion` property on the session bus when it
 * runs (the shell in use, even if a newer one was installed since), else `gnome-shell
 * --version` ("GNOME Shell 43.9"), else null.
 */
export async function readGnomeShellVersion(env: NodeJS.ProcessEnv, run: RunCommand = runCommand): Promise<string | null> {
  try {
    const bus = await connectSessionBus(env);
    try {
      const [value] = await bus.call(GNOME_EXTENSION.busName, '/org/gnome/Shell', 'org.freedesktop.DBus.Properties', 'Get', 'ss', ['org.gnome.Shell', 'ShellVersion']);
      // A variant comes as [signature, value].
      const version = Array.isArray(value) ? value[1] : value;
      if (typeof version === 'string' && version !== '') return version;
    } finally {
      bus.close();
    }
  } catch {
    // No bus, or no shell on it: ask the binary.
  }
  try {
    return /GNOME Shell\s+(\S+)/.exec(await run(['gnome-shell', '--version'], { env }))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The uuids of a gsettings string list as `gsettings get` prints it (`['a', 'b']`, `@as []`);
 * throws on text of another shape, so that a list it cannot read is never written over.
 */
export function parseGsettingsList(text: string): string[] {
  if (!/^\s*(@as \[\]|\[.*\])\s*$/s.test(text)) throw new Error(`not a gsettings string list: ${text.slice(0, 80)}`);
  return [...text.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => (m[1] as string).replace(/\\(.)/g, '$1'));
}

/** A string list as `gsettings set` takes it. */
function gsettingsList(items: readonly string[]): string {
  return `[${items.map((i) => `'${i.replace(/[\\']/g, '\\$&')}'`).join(', ')}]`;
}

/**
 * Enables the extension for the person: adds it to `org.gnome.shell enabled-extensions` and
 * takes it out of `disabled-extensions` (what `gnome-extensions enable` does, which refuses an
 * extension the running shell has not loaded yet — every freshly installed one on Wayland).
 */
async function enableForPerson(env: NodeJS.ProcessEnv, run: RunCommand): Promise<boolean> {
  const { uuid } = GNOME_EXTENSION;
  try {
    const enabled = parseGsettingsList(await run(['gsettings', 'get', 'org.gnome.shell', 'enabled-extensions'], { env }));
    if (!enabled.includes(uuid)) await run(['gsettings', 'set', 'org.gnome.shell', 'enabled-extensions', gsettingsList([...enabled, uuid])], { env });
    const disabled = parseGsettingsList(await run(['gsettings', 'get', 'org.gnome.shell', 'disabled-extensions'], { env }).catch(() => '[]'));
    if (disabled.includes(uuid)) await run(['gsettings', 'set', 'org.gnome.shell', 'disabled-extensions', gsettingsList(disabled.filter((u) => u !== uuid))], { env });
    return parseGsettingsList(await run(['gsettings', 'get', 'org.gnome.shell', 'enabled-extensions'], { env })).includes(uuid);
  } catch {
    return false;
  }
}

/**
 * Installs the extension in the format the running GNOME Shell loads (its version read by
 * {@link readGnomeShellVersion}; the ES module format when none is found, as every GNOME
 * from 45 loads) into the person's extensions folder, and enables it for the person. GNOME
 * Shell loads a new extension only as it starts: on Wayland that is the next login.
 */
export async function installGnomeExtension(env: NodeJS.ProcessEnv, run: RunCommand = runCommand, source: string = GNOME_EXTENSION_DIR): Promise<GnomeExtensionInstall> {
  const shellVersion = await readGnomeShellVersion(env, run);
  const format = shellVersion === null ? 'module' : gnomeExtensionFormatFor(shellVersion);
  if (format === null) throw new Error(`GNOME Shell ${shellVersion} is older than ${GNOME_SHELL_OLDEST}, which Tock's extension needs: use the X11 session, or upgrade`);
  const dir = gnomeExtensionTarget(env);
  const from = join(source, GNOME_EXTENSION_FORMATS[format].folder);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const file of ['metadata.json', 'extension.js']) copyFileSync(join(from, file), join(dir, file));
  const enabled = await enableForPerson(env, run);
  const shell = shellVersion === null ? 'GNOME Shell (version not found; the format of GNOME 45 and later)' : `GNOME Shell ${shellVersion}`;
  const relogin = 'GNOME Shell loads a new extension only as it starts: log out and back in once (on X11, Alt+F2 r also does), then `tock capture status`';
  return {
    dir,
    uuid: GNOME_EXTENSION.uuid,
    shellVersion,
    format,
    enabled,
    next: enabled
      ? `installed for ${shell} and enabled; ${relogin}`
      : `installed for ${shell}; enable it with \`gnome-extensions enable ${GNOME_EXTENSION.uuid}\` (or the Extensions app); ${relogin}`,
  };
}
