/**
 * A locked screen ends the window span at once (docs/desktop.md "Capture"), on a private
 * dbus-daemon: a stand-in screensaver sends `ActiveChanged(b)` from each path the desktops use
 * (GNOME Shell's `org.gnome.ScreenSaver`, the freedesktop one of KDE Plasma and others), and
 * capture — with a stand-in focus source and a pinned clock — ends the span at the lock and
 * records the lock as idle time until the unlock. The stand-in owns the screensaver's name, as
 * the desktop's does; the same signal from another bus client is ignored and counted.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openStore, setCaptureSetting, type Store } from '@tock/core';
import { startDBusSession, until, type DBusSession } from '@tock/test-support';
import { createCapture } from '../src/capture/capture.ts';
import { connectSessionBus, type SessionBus } from '../src/capture/dbus.ts';
import { SCREEN_SAVER_SIGNALS } from '../src/capture/lock.ts';
import type { FocusedWindow, FocusSource } from '../src/capture/sources.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 26, 9);
let session: DBusSession;
let env: NodeJS.ProcessEnv;
let dir: string;

before(async () => {
  session = await startDBusSession();
  env = { PATH: process.env.PATH, DBUS_SESSION_BUS_ADDRESS: session.address };
  dir = mkdtempSync(join(tmpdir(), 'tock-capture-lock-'));
});
after(() => {
  session?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A focus source the test moves. */
function standInSource(): { source: FocusSource; focus: (w: FocusedWindow | null) => void } {
  let report: ((w: FocusedWindow | null) => void) | null = null;
  return {
    source: {
      id: 'x11',
      name: 'stand-in',
      check: async () => null,
      follow: async (onFocus) => {
        report = onFocus;
        onFocus({ app: 'code', title: 'lock.ts' });
        return { stop: () => (report = null) };
      },
    },
    focus: (w) => report?.(w),
  };
}

for (const [i, { path, iface, owner }] of SCREEN_SAVER_SIGNALS.entries()) {
  test(`${iface} at ${path}: the lock ends the window span at once, and is idle time until the unlock`, async (t) => {
    const store: Store = openStore(join(dir, `tock-${i}.db`));
    t.after(() => store.close());
    let now = T0;
    const { source, focus } = standInSource();
    setCaptureSetting(store.settings, 'windows', true);
    const capture = createCapture({ store, clock: () => now, env, homeDir: dir, focusSources: () => [source], timers: false, timeZone: () => 'UTC' });
    t.after(() => capture.stop());
    await capture.settled();
    const screenSaver: SessionBus = await connectSessionBus(env);
    t.after(() => screenSaver.close());
    assert.ok(await screenSaver.requestName(owner));
    const spans = () => capture.timeline('2026-11-26').spans.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16), s.source, s.app]);

    now += 20 * MIN; // 09:20, far under any idle threshold
    screenSaver.emitSignal(path, iface, 'ActiveChanged', 'b', [true]);
    await until('the lock', () => (capture.openSpans()[0]?.source === 'idle' ? true : undefined));
    now += 30 * MIN; // 09:50
    focus({ app: 'firefox', title: 'docs' });
    screenSaver.emitSignal(path, iface, 'ActiveChanged', 'b', [false]);
    await until('the unlock', () => (capture.openSpans()[0]?.source === 'window' ? true : undefined));
    now += 10 * MIN;
    assert.deepEqual(spans(), [
      ['09:00', '09:20', 'window', 'code'],
      ['09:20', '09:50', 'idle', null],
      ['09:50', '10:00', 'window', 'firefox'],
    ]);
    await screenSaver.releaseName(owner); // the next test's stand-in takes it at once
  });
}

test("a lock signal from a bus client that does not own the screensaver's name is ignored and counted", async (t) => {
  const store: Store = openStore(join(dir, 'tock-forged.db'));
  t.after(() => store.close());
  let now = T0;
  const { source } = standInSource();
  setCaptureSetting(store.settings, 'windows', true);
  const capture = createCapture({ store, clock: () => now, env, homeDir: dir, focusSources: () => [source], timers: false, timeZone: () => 'UTC' });
  t.after(() => capture.stop());
  await capture.settled();
  const screenSaver: SessionBus = await connectSessionBus(env);
  t.after(() => screenSaver.close());
  assert.ok(await screenSaver.requestName('org.gnome.ScreenSaver'));
  const attacker: SessionBus = await connectSessionBus(env);
  t.after(() => attacker.close());
  now += 20 * MIN;
  for (const { path, iface } of SCREEN_SAVER_SIGNALS) attacker.emitSignal(path, iface, 'ActiveChanged', 'b', [true]);
  await until('the forged locks counted', async () => ((await capture.status()).ignoredReports === 3 ? true : undefined));
  assert.equal(capture.openSpans()[0]?.source, 'window', 'no lock was taken from the forged signals');
  now += 10 * MIN;
  screenSaver.emitSignal('/org/gnome/ScreenSaver', 'org.gnome.ScreenSaver', 'ActiveChanged', 'b', [true]);
  await until("the screensaver's own lock", () => (capture.openSpans()[0]?.source === 'idle' ? true : undefined));
  assert.equal(capture.openSpans()[0]?.startMs, T0 + 30 * MIN, 'the lock began at 09:30, not at the forged 09:20');
  assert.deepEqual(
    capture.timeline('2026-11-26').spans.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16), s.source]),
    [['09:00', '09:30', 'window']],
  );
  await screenSaver.releaseName('org.gnome.ScreenSaver');
});

test('with no session bus the idle threshold alone still ends spans: capture follows as before', async (t) => {
  const store: Store = openStore(join(dir, 'tock-nobus.db'));
  t.after(() => store.close());
  const { source } = standInSource();
  setCaptureSetting(store.settings, 'windows', true);
  const capture = createCapture({ store, clock: () => T0, env: { PATH: process.env.PATH }, homeDir: dir, focusSources: () => [source], timers: false });
  t.after(() => capture.stop());
  await capture.settled();
  assert.equal((await capture.status()).state, 'following');
});
