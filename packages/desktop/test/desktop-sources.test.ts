/**
 * Each idle source and notifier writer against the output and argv of the real helpers. The
 * GNOME, KDE, logind, macOS and Windows mechanisms cannot run here: their helpers are stood in
 * for by a fake runner that checks the exact command and answers with recorded output.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  idleSourcesFor,
  kdeIdleSource,
  logindIdleSource,
  macIdleSource,
  mutterIdleSource,
  parseGdbusNumber,
  parseIoregIdle,
  parseLogindIdle,
  windowsIdleSource,
  WINDOWS_IDLE_SCRIPT,
} from '../src/idle/sources.ts';
import { actionInvokedParser, freedesktopNotifyArgv, macNotifyCommand, parseNotificationId, windowsToastCommand } from '../src/notify.ts';
import type { RunCommand } from '../src/run-command.ts';

function answering(expected: string[], output: string): RunCommand & { calls: number } {
  const run = (async (argv: readonly string[]) => {
    run.calls++;
    assert.deepEqual(argv.slice(0, expected.length), expected);
    return output;
  }) as RunCommand & { calls: number };
  run.calls = 0;
  return run;
}

test('GNOME: Mutter IdleMonitor.GetIdletime over the session bus', async () => {
  const run = answering(['gdbus', 'call', '--session', '--dest', 'org.gnome.Mutter.IdleMonitor', '--object-path', '/org/gnome/Mutter/IdleMonitor/Core', '--method', 'org.gnome.Mutter.IdleMonitor.GetIdletime'], '(uint64 61234,)\n');
  assert.equal(await mutterIdleSource({ run }).idleMs(), 61234);
});

test('KDE: org.freedesktop.ScreenSaver.GetSessionIdleTime over the session bus', async () => {
  const run = answering(['gdbus', 'call', '--session', '--dest', 'org.freedesktop.ScreenSaver', '--object-path', '/ScreenSaver', '--method', 'org.freedesktop.ScreenSaver.GetSessionIdleTime'], '(uint32 4200,)\n');
  assert.equal(await kdeIdleSource({ run }).idleMs(), 4200);
});

test('logind: IdleHint and IdleSinceHint (µs) give the time since the hint was set', async () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  const sinceUs = (now - 90_000) * 1000;
  const run = answering(['busctl', '--system', 'get-property', 'org.freedesktop.login1', '/org/freedesktop/login1/session/auto', 'org.freedesktop.login1.Session', 'IdleHint', 'IdleSinceHint'], `b true\nt ${sinceUs}\n`);
  assert.equal(await logindIdleSource({ run, clock: () => now }).idleMs(), 90_000);
  assert.equal(parseLogindIdle(`b false\nt ${sinceUs}\n`, now), 0);
});

test('macOS: ioreg HIDIdleTime is in nanoseconds', async () => {
  const output = '+-o IOHIDSystem  <class IOHIDSystem>\n    {\n      "HIDIdleTime" = 1520000000\n      "HIDPointerAcceleration" = 45056\n    }\n';
  const run = answering(['ioreg', '-c', 'IOHIDSystem'], output);
  assert.equal(await macIdleSource({ run }).idleMs(), 1520);
  assert.equal(parseIoregIdle(output), 1520);
});

test('Windows: GetLastInputInfo through PowerShell', async () => {
  const run = answering(['powershell.exe', '-NoProfile', '-NonInteractive', '-Command', WINDOWS_IDLE_SCRIPT], '31337\r\n');
  assert.equal(await windowsIdleSource({ run }).idleMs(), 31337);
  assert.match(WINDOWS_IDLE_SCRIPT, /GetLastInputInfo/);
  assert.match(WINDOWS_IDLE_SCRIPT, /Environment\]?::TickCount|Environment.TickCount/);
});

test('output a source does not understand is a failure, not a number', () => {
  assert.throws(() => parseGdbusNumber('Error: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown'), { code: 'desktop_unavailable' });
  assert.throws(() => parseIoregIdle('nothing here'), { code: 'desktop_unavailable' });
  assert.throws(() => parseLogindIdle('garbage', 0), { code: 'desktop_unavailable' });
});

test('the candidates per platform, best first', () => {
  const names = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] => idleSourcesFor(platform, { env }).map((s) => s.name);
  assert.deepEqual(names('linux', { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x', DISPLAY: ':0' }), [
    'GNOME (Mutter idle monitor)',
    'KDE (screen saver interface)',
    'X11 (xprintidle)',
    'logind (IdleHint)',
  ]);
  assert.deepEqual(names('linux', {}), ['logind (IdleHint)']);
  assert.deepEqual(names('darwin', {}), ['macOS (HIDIdleTime)']);
  assert.deepEqual(names('win32', {}), ['Windows (GetLastInputInfo)']);
});

test('every source says what it needs, naming the package to install where there is one', () => {
  const sources = [...idleSourcesFor('linux', { env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x', DISPLAY: ':0' } }), ...idleSourcesFor('darwin'), ...idleSourcesFor('win32')];
  const hints = Object.fromEntries(sources.map((s) => [s.name, s.hint]));
  assert.match(hints['X11 (xprintidle)'] ?? '', /apt install xprintidle/);
  assert.match(hints['GNOME (Mutter idle monitor)'] ?? '', /gnome-shell's idle monitor over D-Bus.*apt install libglib2\.0-bin/);
  assert.match(hints['KDE (screen saver interface)'] ?? '', /KDE Plasma/);
  assert.match(hints['logind (IdleHint)'] ?? '', /IdleHint/);
  for (const source of sources) assert.ok((source.hint ?? '').length > 0, source.name);
});

test('freedesktop Notify: typed arguments with the Continue action', () => {
  const argv = freedesktopNotifyArgv({ title: 'Nothing is being tracked', body: 'Continue "Writing"?', action: { id: 'continue', label: 'Continue' } });
  assert.deepEqual(argv, [
    'busctl', '--user', 'call', '--',
    'org.freedesktop.Notifications', '/org/freedesktop/Notifications', 'org.freedesktop.Notifications', 'Notify',
    'susssasa{sv}i', 'Tock', '0', 'tock', 'Nothing is being tracked', 'Continue "Writing"?', '2', 'continue', 'Continue', '0', '-1',
  ]);
  assert.equal(parseNotificationId('u 42\n'), 42);
  assert.equal(parseNotificationId('Call failed'), null);
});

test('dbus-monitor lines: ActionInvoked signals become (id, action)', () => {
  const seen: [number, string][] = [];
  const feed = actionInvokedParser((id, action) => seen.push([id, action]));
  for (const line of [
    'signal time=1.2 sender=:1.9 -> destination=(null destination) serial=7 path=/org/freedesktop/Notifications; interface=org.freedesktop.Notifications; member=NotificationClosed',
    '   uint32 3',
    '   uint32 2',
    'signal time=1.3 sender=:1.9 -> destination=(null destination) serial=8 path=/org/freedesktop/Notifications; interface=org.freedesktop.Notifications; member=ActionInvoked',
    '   uint32 42',
    '   string "continue"',
  ]) feed(line);
  assert.deepEqual(seen, [[42, 'continue']]);
});

test('macOS and Windows notification writers pass the text as data (more in notify.test.ts)', () => {
  const n = { title: 'Nothing is being tracked', body: 'Continue "Q&A <draft>"? It\'s 5 \\ 6' };
  const mac = macNotifyCommand(n);
  assert.deepEqual(mac.argv.slice(-2), [n.title, n.body]);
  const win = windowsToastCommand(n);
  assert.equal(win.argv[0], 'powershell.exe');
  assert.equal(win.env['TOCK_NOTIFY_BODY'], n.body);
});
