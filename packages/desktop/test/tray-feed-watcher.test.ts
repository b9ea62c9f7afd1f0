/**
 * The tray feed follows the app (hears of writes, sets its timer) only while a tray can be seen
 * (issue 30; docs/desktop.md "The tray"): on a private dbus-daemon with no StatusNotifierWatcher
 * it never starts; when
 * Debian's xapp-sn-watcher appears (under a private Xvfb, with a status applet name the test
 * owns, as in tray.test.ts) it starts and the item shows what changed meanwhile; when the
 * watcher goes it stops; no model is built until the item is about to be seen. Without a
 * session bus it never starts and builds nothing.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { createTracker, openStore } from '@tock/core';
import { startTraySession, type TraySession, until, XAPP_SN_WATCHER } from '@tock/test-support';
import { createDesktop } from '../src/desktop.ts';
import { openBusConnection as connectSessionBus, type BusConnection as SessionBus } from '../src/dbus/connection.ts';
import { type StatusNotifierTray, statusNotifierTray } from '../src/tray/status-notifier.ts';
import { LONGEST_WAIT_MS, type TrayTimers, WRITE_SETTLE_MS } from '../src/tray/tray-feed.ts';

const run = promisify(execFile);
const T0 = Date.parse('2026-11-23T09:00:00.000Z');
const WATCHER = 'org.kde.StatusNotifierWatcher';
const DBUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' };

let session: TraySession | undefined;
let env: NodeJS.ProcessEnv;
let host: SessionBus;
let watcher: ChildProcess | null = null;

before(async () => {
  session = await startTraySession();
  env = { ...process.env, ...session.env };
  const bus = await connectSessionBus(env);
  assert.ok(bus, 'the test connects to its bus');
  host = bus;
  // xapp-sn-watcher serves StatusNotifierItems only while a status applet runs.
  await host.call({ ...DBUS, member: 'RequestName', signature: 'su', body: ['org.x.StatusIconMonitor.tock_feed_test', 4] });
});

after(() => {
  watcher?.kill('SIGKILL');
  host?.close();
  session?.stop();
});

async function watcherRuns(): Promise<boolean> {
  return ((await host.call({ ...DBUS, member: 'NameHasOwner', signature: 's', body: [WATCHER] })) as boolean[])[0] === true;
}

/** Models handed to the tray so far. */
let models = 0;

/** The tray, counting the models the feed hands it. */
function counted(tray: StatusNotifierTray): StatusNotifierTray {
  const show = tray.show.bind(tray);
  tray.show = (model) => {
    models++;
    show(model);
  };
  return tray;
}

/** Timers that count what the feed asks for and never fire (the test fires them with `fire()`). */
function countingTimers(): TrayTimers & { running: Map<number, () => void>; started: number; fire: () => void } {
  let next = 1;
  const counting = {
    running: new Map<number, () => void>(),
    started: 0,
    fire: () => {
      const [id, callback] = [...counting.running][0] ?? [];
      assert.ok(id !== undefined && callback, 'a timer is set');
      counting.running.delete(id);
      callback();
    },
    setTimeout: (callback: () => void) => {
      counting.started++;
      counting.running.set(next, callback);
      return next++;
    },
    clearTimeout: (id: unknown) => {
      counting.running.delete(id as number);
    },
  };
  return counting;
}

test('the tray feed looks only while a StatusNotifierWatcher shows the item', { timeout: 40_000 }, async (t) => {
  assert.equal(await watcherRuns(), false, 'no watcher yet');
  const dir = mkdtempSync(join(tmpdir(), 'tock-tray-feed-'));
  const store = openStore(join(dir, 'tock.db'));
  // The session here lasts no time: kept, so no dropped crumb's minute sets a wake of its own
  // (that wake is tray-feed.test.ts's).
  store.settings.set('minSessionSeconds', 0);
  const now = { ms: T0 };
  const clock = (): number => now.ms;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const timers = countingTimers();
  let made: StatusNotifierTray | undefined;
  const real = statusNotifierTray({ env, onError: (m) => assert.fail(m) });
  const desktop = createDesktop({
    store,
    tracker,
    clock,
    timers: false,
    notifier: { name: 'none', notify: async () => {} },
    idleSources: () => [],
    tray: (hooks) => {
      made = real(hooks) as StatusNotifierTray;
      return counted(made);
    },
    trayTimers: timers,
    openWindow: () => {},
    quit: () => {},
  });
  t.after(async () => {
    await desktop.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  assert.ok(made);
  const tray = made;
  await tray.ready;
  assert.equal(tray.state(), 'no-host');
  assert.equal(desktop.trayFeed.looking, false, 'no watcher: the feed does not look');
  assert.equal(timers.started, 0);
  assert.equal(models, 0, 'nor builds a model nobody can see');

  // Tracking starts while nobody can see the tray.
  tracker.startActivity({ name: 'Writing docs', createIfMissing: true });

  watcher = spawn(XAPP_SN_WATCHER, [], { env, stdio: 'ignore' });
  await until('the item shown by the watcher', async () => (tray.state() === 'shown' ? true : undefined));
  assert.equal(desktop.trayFeed.looking, true, 'a watcher appeared: the feed looks');
  assert.ok(models > 0, 'the item got a model');
  assert.equal(timers.started, 1);
  assert.equal(timers.running.size, 1);
  const status = await run('busctl', ['--user', '--json=short', 'get-property', tray.serviceName, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'Status'], { env });
  assert.equal((JSON.parse(status.stdout) as { data: string }).data, 'Active', 'the item shows what changed while nobody could see it');

  // One timer while shown: to the running session's next minute; a write brings it closer.
  let looks = 0;
  const refresh = desktop.trayFeed.refresh.bind(desktop.trayFeed);
  desktop.trayFeed.refresh = () => {
    looks++;
    return refresh();
  };
  // Today's total is known to the second: its minute is looked at half a second early.
  assert.equal(desktop.trayFeed.nextWakeAtMs, T0 + 59_500, 'a session runs: a wake at its next minute');
  tracker.stopActivity();
  assert.equal(desktop.trayFeed.nextWakeAtMs, T0 + WRITE_SETTLE_MS, 'a write: a wake just after it');
  now.ms += WRITE_SETTLE_MS;
  timers.fire();
  assert.equal(looks, 1, 'a write: it looks');
  assert.equal(timers.running.size, 1);
  assert.equal(desktop.trayFeed.nextWakeAtMs, now.ms + LONGEST_WAIT_MS, 'nothing running: the next wake is the hourly guard');
  now.ms += LONGEST_WAIT_MS;
  timers.fire();
  assert.equal(looks, 1, 'nothing written, nothing running: no look');

  watcher.kill('SIGKILL');
  watcher = null;
  await until('the item without a host', async () => (tray.state() === 'no-host' ? true : undefined));
  assert.equal(desktop.trayFeed.looking, false, 'the watcher went: the feed stopped looking');
  assert.equal(timers.running.size, 0);
});

test('without a session bus the tray feed never looks', async (t) => {
  models = 0;
  const dir = mkdtempSync(join(tmpdir(), 'tock-tray-feed-'));
  const store = openStore(join(dir, 'tock.db'));
  const tracker = createTracker({ store, clock: () => T0, timeZone: 'UTC' });
  const timers = countingTimers();
  let made: StatusNotifierTray | undefined;
  const desktop = createDesktop({
    store,
    tracker,
    clock: () => T0,
    timers: false,
    notifier: { name: 'none', notify: async () => {} },
    idleSources: () => [],
    tray: (hooks) => {
      made = statusNotifierTray({ env: {} })(hooks) as StatusNotifierTray;
      return counted(made);
    },
    trayTimers: timers,
    openWindow: () => {},
    quit: () => {},
  });
  t.after(async () => {
    await desktop.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await made?.ready;
  assert.equal(desktop.view().tray, 'unavailable');
  assert.equal(desktop.trayFeed.looking, false);
  assert.equal(timers.started, 0);
  assert.equal(models, 0, 'no model built');
});
