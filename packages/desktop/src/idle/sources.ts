/**
 * Where the user's idle time comes from (docs/desktop.md "Idle time"). One small interface,
 * one implementation per desktop mechanism, each a short helper run with a deadline:
 *
 * - GNOME: `org.gnome.Mutter.IdleMonitor.GetIdletime` on the session bus (milliseconds);
 * - KDE: `org.freedesktop.ScreenSaver.GetSessionIdleTime` on the session bus (milliseconds);
 * - X11: the screen-saver extension through `xprintidle` (milliseconds);
 * - logind: the session's `IdleHint` / `IdleSinceHint` on the system bus;
 * - macOS: `ioreg`'s `HIDIdleTime` (nanoseconds);
 * - Windows: `GetLastInputInfo` through PowerShell (milliseconds).
 *
 * D-Bus goes through the `gdbus` / `busctl` commands rather than a library: no maintained
 * D-Bus library is installed, and a subprocess with a deadline cannot hang the event loop
 * (docs/decisions.md "Desktop helpers as subprocesses"). Parsing is separate and pure, so
 * each source's parser is tested with real helper output on any machine.
 */
import { Problem } from '@tock/protocol';
import { runCommand, type RunCommand } from '../run-command.ts';

/** One way to read how long the user has not touched keyboard or pointer. */
export interface IdleSource {
  /**
   * Which source this is (`mutter`, `kde`, `x11`, `logind`, `macos`, `windows`), so that the
   * window names it and says what it needs in the person's language; a stand-in may have none.
   */
  readonly id?: string;
  /** Short name shown in the settings: `GNOME (Mutter)`, `X11 (xprintidle)`, … */
  readonly name: string;
  /**
   * What this source needs to work, said so a person can act on it (`install xprintidle
   * (Debian/Ubuntu: apt install xprintidle)`): shown when no source works.
   */
  readonly hint?: string;
  /** Milliseconds since the last input; rejects when the source cannot answer now. */
  idleMs(): Promise<number>;
}

function wholeNumber(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new Problem('desktop_unavailable', `unexpected ${what} output`);
  return Number(text);
}

/** `gdbus call … GetIdletime` prints `(uint64 12345,)`. */
export function parseGdbusNumber(output: string): number {
  return wholeNumber(/^\((?:uint64|uint32|int64|int32)?\s*(\d+),\)$/.exec(output.trim())?.[1], 'gdbus');
}

/** `xprintidle` prints the idle milliseconds alone. */
export function parseXprintidle(output: string): number {
  return wholeNumber(output.trim(), 'xprintidle');
}

/**
 * `busctl get-property … IdleHint IdleSinceHint` prints `b true` and `t <µs since the epoch>`.
 * Not idle → 0; idle → the time since the hint was set.
 */
export function parseLogindIdle(output: string, nowMs: number): number {
  const lines = output.trim().split('\n').map((l) => l.trim());
  const hint = /^b (true|false)$/.exec(lines[0] ?? '')?.[1];
  const since = wholeNumber(/^t (\d+)$/.exec(lines[1] ?? '')?.[1], 'busctl');
  if (hint === undefined) throw new Problem('desktop_unavailable', 'unexpected busctl output');
  if (hint === 'false' || since === 0) return 0;
  return Math.max(0, nowMs - Math.floor(since / 1000));
}

/** `ioreg -c IOHIDSystem -d 4 -r -k HIDIdleTime` has a line `"HIDIdleTime" = <ns>`. */
export function parseIoregIdle(output: string): number {
  const ns = /"HIDIdleTime"\s*=\s*(\d+)/.exec(output)?.[1];
  return Math.floor(wholeNumber(ns, 'ioreg') / 1_000_000);
}

/** The PowerShell script prints the milliseconds since the last input alone. */
export function parsePowerShellIdle(output: string): number {
  return wholeNumber(output.trim(), 'PowerShell');
}

/** GetLastInputInfo through PowerShell: no native module, no build step on Windows. */
export const WINDOWS_IDLE_SCRIPT = [
  'Add-Type @"',
  'using System; using System.Runtime.InteropServices;',
  'public static class TockIdle {',
  '  [StructLayout(LayoutKind.Sequential)] struct LASTINPUTINFO { public uint cbSize; public uint dwTime; }',
  '  [DllImport("user32.dll")] static extern bool GetLastInputInfo(ref LASTINPUTINFO info);',
  '  public static uint Ms() { var i = new LASTINPUTINFO(); i.cbSize = (uint)Marshal.SizeOf(i);',
  '    if (!GetLastInputInfo(ref i)) throw new Exception("GetLastInputInfo failed");',
  '    return unchecked((uint)Environment.TickCount - i.dwTime); }',
  '}',
  '"@',
  '[TockIdle]::Ms()',
].join('\n');

/** What the sources need: a helper runner (tests inject a fake), the clock and the environment. */
export interface SourceContext {
  run?: RunCommand;
  clock?: () => number;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Aborted when the app stops: a running helper is killed. */
  signal?: AbortSignal;
}

function commandSource(id: string, name: string, hint: string, argv: readonly string[], parse: (output: string) => number, context: SourceContext): IdleSource {
  const run = context.run ?? runCommand;
  return {
    id,
    name,
    hint,
    idleMs: async () => parse(await run(argv, { timeoutMs: context.timeoutMs, env: context.env, signal: context.signal })),
  };
}

/** GNOME Shell's idle monitor (Wayland and X11 sessions alike). */
export function mutterIdleSource(context: SourceContext = {}): IdleSource {
  return commandSource(
    'mutter',
    'GNOME (Mutter idle monitor)',
    "a GNOME session: gnome-shell's idle monitor over D-Bus, read with gdbus (Debian/Ubuntu: apt install libglib2.0-bin)",
    ['gdbus', 'call', '--session', '--dest', 'org.gnome.Mutter.IdleMonitor', '--object-path', '/org/gnome/Mutter/IdleMonitor/Core', '--method', 'org.gnome.Mutter.IdleMonitor.GetIdletime'],
    parseGdbusNumber,
    context,
  );
}

/** KDE Plasma's screen saver interface (KIdleTime behind it), in milliseconds. */
export function kdeIdleSource(context: SourceContext = {}): IdleSource {
  return commandSource(
    'kde',
    'KDE (screen saver interface)',
    "a KDE Plasma session: its screen saver interface over D-Bus, read with gdbus (Debian/Ubuntu: apt install libglib2.0-bin)",
    ['gdbus', 'call', '--session', '--dest', 'org.freedesktop.ScreenSaver', '--object-path', '/ScreenSaver', '--method', 'org.freedesktop.ScreenSaver.GetSessionIdleTime'],
    parseGdbusNumber,
    context,
  );
}

/** X11's screen-saver extension through `xprintidle`; needs `DISPLAY`. */
export function x11IdleSource(context: SourceContext = {}): IdleSource {
  return commandSource('x11', 'X11 (xprintidle)', 'an X11 session (DISPLAY set) and xprintidle (Debian/Ubuntu: apt install xprintidle; Fedora: dnf install xprintidle)', ['xprintidle'], parseXprintidle, context);
}

/** logind's idle hint for the caller's session (set by the desktop or by `systemd-logind` itself). */
export function logindIdleSource(context: SourceContext = {}): IdleSource {
  const clock = context.clock ?? Date.now;
  return commandSource(
    'logind',
    'logind (IdleHint)',
    "systemd-logind and busctl, with a desktop or screen locker that sets the session's IdleHint",
    ['busctl', '--system', 'get-property', 'org.freedesktop.login1', '/org/freedesktop/login1/session/auto', 'org.freedesktop.login1.Session', 'IdleHint', 'IdleSinceHint'],
    (output) => parseLogindIdle(output, clock()),
    context,
  );
}

/** macOS: the HID system's idle time. */
export function macIdleSource(context: SourceContext = {}): IdleSource {
  return commandSource('macos', 'macOS (HIDIdleTime)', 'ioreg (part of macOS) on PATH', ['ioreg', '-c', 'IOHIDSystem', '-d', '4', '-r', '-k', 'HIDIdleTime'], parseIoregIdle, context);
}

/** Windows: GetLastInputInfo. PowerShell starts slowly, so its deadline is longer. */
export function windowsIdleSource(context: SourceContext = {}): IdleSource {
  return commandSource(
    'windows',
    'Windows (GetLastInputInfo)',
    'Windows PowerShell (powershell.exe) on PATH',
    ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command', WINDOWS_IDLE_SCRIPT],
    parsePowerShellIdle,
    { ...context, timeoutMs: context.timeoutMs ?? 10_000 },
  );
}

/** The sources worth trying on `platform`, best first (a desktop's own monitor before the generic ones). */
export function idleSourcesFor(platform: NodeJS.Platform, context: SourceContext = {}): IdleSource[] {
  const env = context.env ?? process.env;
  if (platform === 'darwin') return [macIdleSource(context)];
  if (platform === 'win32') return [windowsIdleSource(context)];
  const sources: IdleSource[] = [];
  if (env.DBUS_SESSION_BUS_ADDRESS || env.XDG_RUNTIME_DIR) sources.push(mutterIdleSource(context), kdeIdleSource(context));
  if (env.DISPLAY) sources.push(x11IdleSource(context));
  sources.push(logindIdleSource(context));
  return sources;
}
