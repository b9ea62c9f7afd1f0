/**
 * The KDE Plasma focus source (docs/desktop.md "Capture"): Tock owns `app.tock.Capture` on
 * the session bus and serves `app.tock.Capture.KWin.Activated(app, title)` at
 * `/app/tock/Capture`; it writes {@link KWIN_SCRIPT} into its home and has KWin load and run
 * it over D-Bus (`org.kde.KWin /Scripting loadScript`, then `run` on the script's object —
 * `/Scripting/Script<N>` on Plasma 6, `/<N>` on Plasma 5). The script calls Tock back with
 * `callDBus` at every activation (`workspace.windowActivated` on Plasma 6,
 * `workspace.clientActivated` on Plasma 5) and caption change of the active window. A call
 * counts only from the unique name that owns `org.kde.KWin` at that moment (KWin's scripts
 * call from KWin's own connection); any other caller is refused and counted. The status says
 * which API the script follows, by KWin's version ({@link kwinScriptingApi}).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAPTURED_TEXT_LIMITS } from '@tock/core';
import { type BusReportHooks, connectSessionBus, DBusRefusal, type SessionBus } from './dbus.ts';
import { busNumber } from './mutter-idle.ts';
import { FocusSourceUnavailable, noSessionBus, SourceReason, type FocusedWindow, type FocusFollower, type FocusSource, type FocusSourceContext } from './focus-source.ts';

/** Tock's side of the contract, and KWin's. */
export const KWIN_CONTRACT = {
  busName: 'app.tock.Capture',
  path: '/app/tock/Capture',
  iface: 'app.tock.Capture.KWin',
  pluginName: 'tock-capture',
  kwin: 'org.kde.KWin',
  scripting: '/Scripting',
  scriptingIface: 'org.kde.kwin.Scripting',
  scriptIface: 'org.kde.kwin.Script',
} as const;

/**
 * The KWin script (Plasma 5 and 6): reports the active window's class and caption to Tock,
 * cut to 128 and 512 characters as capture keeps them (an X11 client may set a caption of
 * megabytes; the whole of it would never cross the bus).
 */
export const KWIN_SCRIPT = `// Written by Tock (docs/desktop.md "Capture"): tells Tock which window is active.
var TOCK = ["${KWIN_CONTRACT.busName}", "${KWIN_CONTRACT.path}", "${KWIN_CONTRACT.iface}", "Activated"];
var followed = null;
function cut(text, max) {
  var s = String(text || "");
  if (s.length <= max) return s;
  var units = 0;
  for (var n = 0; n < max && units < s.length; n++) {
    var c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < s.length && (s.charCodeAt(units + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return s.slice(0, units);
}
function report(w) {
  if (!w) { callDBus(TOCK[0], TOCK[1], TOCK[2], TOCK[3], "", ""); return; }
  callDBus(TOCK[0], TOCK[1], TOCK[2], TOCK[3], cut(w.resourceClass, ${CAPTURED_TEXT_LIMITS.app}), cut(w.caption, ${CAPTURED_TEXT_LIMITS.title}));
}
function onCaption() { if (followed) report(followed); }
function activated(w) {
  if (followed && followed.captionChanged) followed.captionChanged.disconnect(onCaption);
  followed = w || null;
  if (followed && followed.captionChanged) followed.captionChanged.connect(onCaption);
  report(followed);
}
if (workspace.windowActivated) workspace.windowActivated.connect(activated);
else workspace.clientActivated.connect(activated);
activated(workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);
`;

/**
 * The scripting API the script follows on KWin `version` (KWin's own word, its support
 * information's `KWin version:` line): Plasma 6's `workspace.windowActivated` from KWin 6,
 * Plasma 5's `workspace.clientActivated` before — what the script finds on `workspace`.
 */
export function kwinScriptingApi(version: string): { plasma: '5' | '6'; signal: string } | null {
  const major = Number(/^(\d+)\./.exec(version)?.[1] ?? Number.NaN);
  if (!Number.isInteger(major) || major < 5) return null;
  return major >= 6 ? { plasma: '6', signal: 'workspace.windowActivated' } : { plasma: '5', signal: 'workspace.clientActivated' };
}

async function nameHasOwner(bus: SessionBus, name: string): Promise<boolean> {
  const [owned] = await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner', 's', [name]);
  return owned === true;
}

async function runScript(bus: SessionBus, id: number): Promise<void> {
  const { kwin, scriptIface, scripting, scriptingIface } = KWIN_CONTRACT;
  for (const path of [`/Scripting/Script${id}`, `/${id}`]) {
    try {
      await bus.call(kwin, path, scriptIface, 'run');
      return;
    } catch {
      // The other Plasma's path.
    }
  }
  await bus.call(kwin, scripting, scriptingIface, 'start');
}

/** The KDE source: needs KWin on the session bus. */
export function kdeFocusSource(context: FocusSourceContext & BusReportHooks): FocusSource {
  const { env, homeDir } = context;
  return {
    id: 'kde',
    name: 'KDE Plasma (KWin script)',
    async check() {
      return (await this.diagnose?.())?.text ?? null;
    },
    async diagnose() {
      const missing = noSessionBus(env);
      if (missing !== null) return missing;
      let bus: SessionBus;
      try {
        bus = await connectSessionBus(env);
      } catch (error) {
        return SourceReason.other(error);
      }
      try {
        return (await nameHasOwner(bus, KWIN_CONTRACT.kwin)) ? null : new SourceReason('not_running', 'KWin is not running on this session bus (not a KDE Plasma session)', { program: 'KWin' });
      } catch (error) {
        return SourceReason.other(error);
      } finally {
        bus.close();
      }
    },
    // Which of Plasma's scripting APIs the script follows here, by KWin's version.
    async notice() {
      if (noSessionBus(env) !== null) return null;
      const bus = await connectSessionBus(env);
      try {
        const [info] = await bus.call(KWIN_CONTRACT.kwin, '/KWin', 'org.kde.KWin', 'supportInformation');
        const version = /^KWin version: (\S+)/m.exec(String(info))?.[1];
        const api = version === undefined ? null : kwinScriptingApi(version);
        if (version === undefined || api === null) return null;
        return new SourceReason('kwin_api', `KWin ${version}: the script follows Plasma ${api.plasma}'s scripting API (${api.signal})`, { version, ...api });
      } finally {
        bus.close();
      }
    },
    async follow(onFocus, onLost) {
      const reason = await this.check();
      if (reason !== null) throw new FocusSourceUnavailable(reason);
      // A message over 1 MiB from anyone is dropped and counted, the connection kept.
      const bus = await connectSessionBus(env, undefined, () => context.ignored?.());
      const { busName, path, iface, kwin, scripting, scriptingIface, pluginName } = KWIN_CONTRACT;
      let stopped = false;
      try {
        const kwinOwner = await bus.watchNameOwner(kwin);
        if (!(await bus.requestName(busName))) throw new FocusSourceUnavailable(`${busName} is taken on the session bus (another Tock running?)`);
        bus.serve(path, iface, {
          Activated: {
            in: 'ss',
            out: '',
            run: ([app, title], sender) => {
              if (sender !== kwinOwner.current()) {
                context.ignored?.();
                return new DBusRefusal(`only the owner of ${kwin} reports the active window`);
              }
              const a = typeof app === 'string' && app !== '' ? app : null;
              const t = typeof title === 'string' && title !== '' ? title : null;
              onFocus(a === null && t === null ? null : ({ app: a, title: t } satisfies FocusedWindow));
              return undefined;
            },
          },
        });
        const file = join(homeDir, 'kwin-capture.js');
        writeFileSync(file, KWIN_SCRIPT, { mode: 0o600 });
        await bus.call(kwin, scripting, scriptingIface, 'unloadScript', 's', [pluginName]).catch(() => {});
        const [id] = await bus.call(kwin, scripting, scriptingIface, 'loadScript', 'ss', [file, pluginName]);
        if (typeof id !== 'number' || id < 0) throw new FocusSourceUnavailable('KWin did not load the capture script');
        await runScript(bus, id);
      } catch (error) {
        bus.close();
        throw error instanceof FocusSourceUnavailable ? error : new FocusSourceUnavailable(`KWin: ${error instanceof Error ? error.message : String(error)}`);
      }
      bus.onClose((why) => {
        if (!stopped) onLost(why);
      });
      const follower: FocusFollower = {
        // KDE's screen saver interface (KIdleTime behind it) over this connection: no gdbus process per idle read.
        async idleMs() {
          const [ms] = await bus.call('org.freedesktop.ScreenSaver', '/ScreenSaver', 'org.freedesktop.ScreenSaver', 'GetSessionIdleTime');
          return busNumber(ms);
        },
        stop() {
          stopped = true;
          bus
            .call(kwin, scripting, scriptingIface, 'unloadScript', 's', [pluginName])
            .catch(() => {})
            .finally(() => bus.close());
        },
      };
      return follower;
    },
  };
}
