/**
 * Attacks on the tray's bus (issue 35 findings 5 and 7; docs/desktop.md "The tray", "Its bus"),
 * played on a private dbus-daemon with a stand-in StatusNotifierWatcher (a connection of the
 * test that owns `org.kde.StatusNotifierWatcher` and records each RegisterStatusNotifierItem):
 *
 * - one 64 MiB method call to the item of a real `tock app` process: the app drops the
 *   connection after the message's header, connects again and registers again; a signed
 *   `GET /status` keeps answering within its bound meanwhile and the app's RSS (VmRSS from
 *   /proc) grows by at most 64 MiB. The old reader (a `Buffer.concat` per chunk, no limit) held
 *   the app for seconds and grew it by hundreds of MiB.
 * - 20 `Activate` calls, or 20 clicks on *Open Tock*, in a burst open one window; another
 *   opens 2 s later (injected clock).
 * - a client that is no tray host clicks *Quit Tock* or calls `Activate`: refused
 *   (`AccessDenied`), nothing happens; the host's click quits.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { createTracker, openStore } from '@tock/core';
import { type DBusSession, startDBusSession, until } from '@tock/test-support';
import { createDesktop, type Desktop } from '@tock/desktop/desktop';
import { openBusConnection as connectSessionBus, type BusConnection as SessionBus } from '@tock/desktop/dbus/connection';
import { type StatusNotifierTray, statusNotifierTray } from '@tock/desktop/tray/status-notifier';
import type { TrayTimers } from '@tock/desktop/tray/tray-feed';
import { signed, startTarget } from './attack-support/target.ts';

const DBUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' };
const ITEM = { path: '/StatusNotifierItem', interface: 'org.kde.StatusNotifierItem' };
const MIB = 1024 * 1024;
/** How long a signed GET /status may take while the attack runs (the old reader held the app for seconds). */
const STATUS_BOUND_MS = 2_000;

let session: DBusSession;
let env: NodeJS.ProcessEnv;
/** The stand-in StatusNotifierWatcher. */
let watcher: SessionBus;
/** Each RegisterStatusNotifierItem: who sent it and the service it named. */
const registrations: { sender: string; service: string }[] = [];

async function connect(): Promise<SessionBus> {
  const bus = await connectSessionBus(env);
  assert.ok(bus, 'the test connects to its bus');
  return bus;
}

async function ownName(bus: SessionBus, name: string): Promise<void> {
  const [granted] = await bus.call({ ...DBUS, member: 'RequestName', signature: 'su', body: [name, 4] });
  assert.equal(granted, 1, `the test owns ${name}`);
}

before(async () => {
  session = await startDBusSession();
  env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: session.address };
  watcher = await connect();
  watcher.serve('/StatusNotifierWatcher', (call) => {
    if (call.member === 'RegisterStatusNotifierItem') {
      registrations.push({ sender: call.sender ?? '', service: String(call.body?.[0]) });
      watcher.reply(call, '', []);
    } else watcher.fail(call, 'org.freedesktop.DBus.Error.UnknownMethod', `no method ${String(call.member)}`);
  });
  await ownName(watcher, 'org.kde.StatusNotifierWatcher');
});

after(() => {
  watcher?.close();
  session?.stop();
});

/** The app's resident memory in MiB (VmRSS). */
function rssMiB(pid: number): number {
  const kib = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  assert.ok(kib, 'VmRSS is in /proc/<pid>/status');
  return Number(kib) / 1024;
}

test('one 64 MiB D-Bus message to the tray of a real app: dropped after its header, the tray registers again, /status keeps answering and RSS stays within 64 MiB', { timeout: 120_000 }, async (t) => {
  const app = await startTarget({ DBUS_SESSION_BUS_ADDRESS: session.address });
  t.after(() => app.dispose());
  const pid = app.process().child.pid as number;
  const first = await until('the app’s tray registers with the watcher', async () => registrations.find((r) => r.service.startsWith(`org.kde.StatusNotifierItem-${pid}-`)));
  const itemOwner = first.sender;
  assert.deepEqual(await watcher.call({ destination: first.service, path: ITEM.path, interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [ITEM.interface, 'Id'] }), [['s', 'tock']]);
  const rssBefore = rssMiB(pid);

  const attacker = await connect();
  t.after(() => attacker.close());
  const registered = registrations.length;
  let attacking = true;
  const sent = attacker
    .call({ destination: itemOwner, ...ITEM, member: 'Activate', signature: 'ay', body: [Buffer.alloc(64 * MIB, 0x41)] })
    .then(
      () => 'answered',
      (error: unknown) => String(error),
    )
    .finally(() => {
      attacking = false;
    });
  // Signed GET /status, one after another, until the tray has registered again (and the call ended).
  let slowest = 0;
  let answered = 0;
  let peak = rssBefore;
  while (attacking || registrations.length === registered) {
    const started = performance.now();
    const answer = await signed(app.port, app.token, { target: '/status' });
    slowest = Math.max(slowest, performance.now() - started);
    assert.equal(answer.status, 200, answer.text);
    answered++;
    peak = Math.max(peak, rssMiB(pid));
    assert.ok(answered < 2_000, 'the tray registers again');
  }
  const outcome = await sent;
  assert.match(outcome, /NoReply|Disconnected/, 'the tray dropped the connection rather than answer');
  const again = registrations.at(-1);
  assert.ok(again && registrations.length > registered, 'the tray registered again');
  assert.notEqual(again.sender, itemOwner, 'from a new connection');
  // The item answers on the new connection.
  assert.deepEqual(await watcher.call({ destination: again.sender, path: ITEM.path, interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [ITEM.interface, 'Id'] }), [['s', 'tock']]);
  assert.match(app.output(), /tray: a D-Bus message of \d+ bytes is over the limit of 1048576; connecting to the session bus again/);
  const rssAfter = rssMiB(pid);
  t.diagnostic(`GET /status ×${answered}, slowest ${Math.round(slowest)} ms; RSS ${rssBefore.toFixed(1)} → peak ${peak.toFixed(1)} → ${rssAfter.toFixed(1)} MiB`);
  assert.ok(slowest <= STATUS_BOUND_MS, `GET /status answered within ${STATUS_BOUND_MS} ms (slowest ${Math.round(slowest)} ms)`);
  assert.ok(peak - rssBefore <= 64, `RSS grew by ${(peak - rssBefore).toFixed(1)} MiB at most, within 64`);
});

interface Rig {
  desktop: Desktop;
  tray: StatusNotifierTray;
  now: { ms: number };
  opened: Array<string | undefined>;
  quits: number;
  /** What the tray reported (onError). */
  errors: string[];
}

const manualTimers: TrayTimers = { setTimeout: () => 0, clearTimeout: () => {} };

/** The desktop part of an app with the real tray on the test's bus; its clock in the test's hands. */
async function rig(t: TestContext): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'tock-tray-attack-'));
  const store = openStore(join(dir, 'tock.db'));
  const now = { ms: Date.parse('2026-11-23T09:00:00.000Z') };
  const clock = (): number => now.ms;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const r = { now, opened: [], quits: 0, errors: [] } as unknown as Rig;
  let made: StatusNotifierTray | undefined;
  const real = statusNotifierTray({ env, onError: (m) => r.errors.push(m) });
  r.desktop = createDesktop({
    store,
    tracker,
    clock,
    timers: false,
    notifier: { name: 'none', notify: async () => {} },
    idleSources: () => [],
    tray: (hooks) => {
      made = real(hooks) as StatusNotifierTray;
      return made;
    },
    trayTimers: manualTimers,
    openWindow: (screen) => r.opened.push(screen),
    quit: () => r.quits++,
  });
  t.after(async () => {
    await r.desktop.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  assert.ok(made);
  r.tray = made;
  await made.ready;
  assert.equal(made.state(), 'shown', 'registered with the stand-in watcher');
  t.after(() => assert.deepEqual(r.errors.filter((e) => !/over the limit/.test(e)), [], 'the tray reported nothing else'));
  return r;
}

type Layout = [number, [string, [string, unknown]][], [string, Layout][]];

/** The ID of the menu item labelled `label`, read with GetLayout. */
async function menuItem(bus: SessionBus, tray: StatusNotifierTray, label: string): Promise<number> {
  const [, root] = (await bus.call({ destination: tray.uniqueName, path: '/MenuBar', interface: 'com.canonical.dbusmenu', member: 'GetLayout', signature: 'iias', body: [0, -1, []] })) as [number, Layout];
  const found = root[2].map(([, child]) => child).find(([, props]) => props.some(([key, [, value]]) => key === 'label' && value === label));
  assert.ok(found, `the menu has ${label}`);
  return found[0];
}

const click = (bus: SessionBus, tray: StatusNotifierTray, id: number): Promise<unknown[]> =>
  bus.call({ destination: tray.uniqueName, path: '/MenuBar', interface: 'com.canonical.dbusmenu', member: 'Event', signature: 'isvu', body: [id, 'clicked', ['s', ''], 0] });
const activate = (bus: SessionBus, tray: StatusNotifierTray): Promise<unknown[]> => bus.call({ destination: tray.uniqueName, ...ITEM, member: 'Activate', signature: 'ii', body: [0, 0] });
/** Lets the action a click runs after its reply (setImmediate) happen. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('20 Activate calls in a burst open one window, and 20 clicks on Open Tock none more; 2 s later one opens again', { timeout: 30_000 }, async (t) => {
  const r = await rig(t);
  const host = await connect();
  t.after(() => host.close());
  await ownName(host, 'org.kde.StatusNotifierHost-7001');
  await Promise.all(Array.from({ length: 20 }, () => activate(host, r.tray)));
  await settle();
  assert.deepEqual(r.opened, [undefined], 'one window');
  const open = await menuItem(host, r.tray, 'Open Tock');
  r.now.ms += 1_999;
  await Promise.all(Array.from({ length: 20 }, () => click(host, r.tray, open)));
  await settle();
  assert.equal(r.opened.length, 1, 'still one window within 2 s of it');
  r.now.ms += 1;
  await Promise.all(Array.from({ length: 20 }, () => click(host, r.tray, open)));
  await settle();
  assert.deepEqual(r.opened, [undefined, undefined], 'one more, 2 s after the first');
});

test('a bus client that is no tray host cannot click Quit Tock or Activate; the host and the watcher can', { timeout: 30_000 }, async (t) => {
  const r = await rig(t);
  const foreign = await connect();
  t.after(() => foreign.close());
  const quit = await menuItem(foreign, r.tray, 'Quit Tock'); // reading the menu is open to all
  await assert.rejects(click(foreign, r.tray, quit), (error: Error & { errorName?: string }) => error.errorName === 'org.freedesktop.DBus.Error.AccessDenied');
  await assert.rejects(
    foreign.call({ destination: r.tray.uniqueName, path: '/MenuBar', interface: 'com.canonical.dbusmenu', member: 'EventGroup', signature: 'a(isvu)', body: [[[quit, 'clicked', ['s', ''], 0]]] }),
    /AccessDenied/,
  );
  await assert.rejects(activate(foreign, r.tray), /AccessDenied/);
  // A name that is not a host's does not make a host either.
  await ownName(foreign, 'org.example.StatusNotifierHostile-1');
  await assert.rejects(click(foreign, r.tray, quit), /AccessDenied/);
  await settle();
  assert.equal(r.quits, 0, 'the app did not quit');
  assert.deepEqual(r.opened, [], 'no window opened');

  // The watcher (most panels' host too) and a StatusNotifierHost (KDE Plasma's) can.
  await activate(watcher, r.tray);
  await settle();
  assert.deepEqual(r.opened, [undefined]);
  const host = await connect();
  t.after(() => host.close());
  await ownName(host, 'org.kde.StatusNotifierHost-7002');
  await click(host, r.tray, quit);
  await settle();
  assert.equal(r.quits, 1, 'the host’s click quits');
});

test('a 2 MiB message in-process: the tray reconnects, registers again and still serves the host', { timeout: 30_000 }, async (t) => {
  const r = await rig(t);
  const attacker = await connect();
  t.after(() => attacker.close());
  const before = r.tray.uniqueName;
  const registered = registrations.length;
  await assert.rejects(attacker.call({ destination: before, ...ITEM, member: 'Activate', signature: 'ay', body: [Buffer.alloc(2 * MIB)] }), /NoReply|Disconnected/);
  await until('the tray registered again', async () => r.tray.connections === 2 && r.tray.state() === 'shown' && registrations.length > registered);
  assert.notEqual(r.tray.uniqueName, before);
  assert.equal(registrations.at(-1)?.sender, r.tray.uniqueName);
  const host = await connect();
  t.after(() => host.close());
  await ownName(host, 'org.kde.StatusNotifierHost-7003');
  await activate(host, r.tray);
  await settle();
  assert.deepEqual(r.opened, [undefined], 'clicks work on the new connection');
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0] ?? '', /^tray: a D-Bus message of 2097\d{3} bytes is over the limit of 1048576; connecting to the session bus again$/);
});
