/**
 * The tray for real (docs/desktop.md "The tray"): a private dbus-daemon, Debian's
 * xapp-sn-watcher as the StatusNotifierWatcher (it runs under a private Xvfb and takes the
 * watcher's name once a status applet — here a name the test owns — is on the bus), the item
 * read with `busctl` (not Tock's D-Bus library) on its unique and its well-known name, the menu
 * clicked through `com.canonical.dbusmenu.Event` by the test's connection as a tray host (it owns
 * a `org.kde.StatusNotifierHost-*` name: only a host's clicks count, attack-tray.test.ts), and
 * the signals watched on the bus.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { createTracker, openStore, type Tracker } from '@tock/core';
import { startTraySession, type TraySession, until, XAPP_SN_WATCHER } from '@tock/test-support';
import { createDesktop, type Desktop } from '../src/desktop.ts';
import { iconArgb } from '../src/tray/icons.ts';
import { openBusConnection as connectSessionBus, type BusMessage, type BusConnection as SessionBus } from '../src/dbus/connection.ts';
import { type StatusNotifierTray, statusNotifierTray } from '../src/tray/status-notifier.ts';
import type { TrayAction } from '../src/tray/tray.ts';
import type { TrayTimers } from '../src/tray/tray-feed.ts';

const run = promisify(execFile);
const T0 = Date.parse('2026-11-23T09:00:00.000Z');
const MIN = 60_000;

let session: TraySession | undefined;
let env: NodeJS.ProcessEnv;
/** The test's own connection: the status applet xapp-sn-watcher waits for, and the signal watcher. */
let host: SessionBus;
let watcher: ChildProcess | null = null;
const signals: BusMessage[] = [];

const DBUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' };

before(async () => {
  session = await startTraySession();
  env = { ...process.env, ...session.env };
  const bus = await connectSessionBus(env);
  assert.ok(bus, 'the test connects to its bus');
  host = bus;
  host.onSignal((signal) => signals.push(signal));
  await host.call({ ...DBUS, member: 'AddMatch', signature: 's', body: ["type='signal'"] });
  // xapp-sn-watcher serves StatusNotifierItems only while a status applet runs.
  await host.call({ ...DBUS, member: 'RequestName', signature: 'su', body: ['org.x.StatusIconMonitor.tock_test', 4] });
  // Clicks count only from a tray host.
  await host.call({ ...DBUS, member: 'RequestName', signature: 'su', body: ['org.kde.StatusNotifierHost-tock_test', 4] });
});

after(() => {
  watcher?.kill('SIGKILL');
  host?.close();
  session?.stop();
});

async function nameOwner(name: string): Promise<string | null> {
  try {
    return ((await host.call({ ...DBUS, member: 'GetNameOwner', signature: 's', body: [name] })) as string[])[0] ?? null;
  } catch {
    return null;
  }
}

/** Resolves with the first signal (from now on) that `match` accepts. */
function nextSignal(match: (signal: BusMessage) => boolean, from = signals.length): Promise<BusMessage> {
  return new Promise((resolve) => {
    const look = (): void => {
      const found = signals.slice(from).find(match);
      if (found) resolve(found);
      else setTimeout(look, 10);
    };
    look();
  });
}

const ownerChanged = (name: string, appeared: boolean) => (signal: BusMessage) =>
  signal.member === 'NameOwnerChanged' && signal.body?.[0] === name && (signal.body?.[2] !== '') === appeared;

async function startWatcher(): Promise<void> {
  const from = signals.length;
  watcher = spawn(XAPP_SN_WATCHER, [], { env, stdio: 'ignore' });
  await nextSignal(ownerChanged('org.kde.StatusNotifierWatcher', true), from);
}

async function stopWatcher(): Promise<void> {
  if (!watcher) return;
  const from = signals.length;
  watcher.kill('SIGKILL');
  watcher = null;
  await nextSignal(ownerChanged('org.kde.StatusNotifierWatcher', false), from);
}

/** `busctl --user --json=short …` on the test's bus. */
async function busctl(...args: string[]): Promise<{ type: string; data: unknown }> {
  const { stdout } = await run('busctl', ['--user', '--json=short', ...args], { env });
  return JSON.parse(stdout) as { type: string; data: unknown };
}

const property = (name: string, object: string, iface: string, prop: string) => busctl('get-property', name, object, iface, prop);

async function registeredItems(): Promise<string[]> {
  return (await property('org.kde.StatusNotifierWatcher', '/StatusNotifierWatcher', 'org.kde.StatusNotifierWatcher', 'RegisteredStatusNotifierItems')).data as string[];
}

/** Waits until what `read` answers is `ok`. */
const untilRead = <T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> =>
  until(what, async () => {
    const value = await read();
    return ok(value) ? value : undefined;
  });

interface Rig {
  desktop: Desktop;
  tracker: Tracker;
  tray: StatusNotifierTray;
  now: { ms: number };
  actions: TrayAction[];
  opened: Array<string | undefined>;
  quits: number;
}

const manualTimers: TrayTimers = { setTimeout: () => 0, clearTimeout: () => {} };

/** An app's desktop part with the real tray on the test's bus, its clock and timers in the test's hands. */
async function rig(t: TestContext): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'tock-tray-'));
  const store = openStore(join(dir, 'tock.db'));
  const now = { ms: T0 };
  const clock = (): number => now.ms;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const r = { tracker, now, actions: [] as TrayAction[], opened: [] as Array<string | undefined>, quits: 0 } as Rig;
  let made: StatusNotifierTray | undefined;
  const real = statusNotifierTray({ env, iconThemePath: '/opt/tock-icons', onError: (m) => assert.fail(m) });
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
  assert.ok(made, 'the tray is made at start (the setting is on by default)');
  r.tray = made;
  await made.ready;
  return r;
}

async function layout(name: string): Promise<{ revision: number; root: MenuItem }> {
  const answer = (await busctl('call', '--', name, '/MenuBar', 'com.canonical.dbusmenu', 'GetLayout', 'iias', '0', '-1', '0')) as unknown as { data: [number, RawItem] };
  const [revision, raw] = answer.data;
  return { revision, root: menuItem(raw) };
}

type RawItem = [number, Record<string, { type: string; data: unknown }>, Array<{ type: string; data: RawItem }>];
interface MenuItem {
  id: number;
  props: Record<string, unknown>;
  children: MenuItem[];
}
function menuItem([id, props, children]: RawItem): MenuItem {
  return { id, props: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.data])), children: children.map((c) => menuItem(c.data)) };
}
const labels = (item: MenuItem): string[] => item.children.map((c) => (c.props.type === 'separator' ? '—' : `${c.props.label}${c.props.enabled === false ? ' (disabled)' : ''}`));
const find = (item: MenuItem, label: string): MenuItem => {
  const found = item.children.find((c) => c.props.label === label) ?? item.children.flatMap((c) => c.children).find((c) => c.props.label === label);
  assert.ok(found, `the menu has "${label}"`);
  return found;
};

/** A host's click on a menu item. */
async function click(name: string, id: number): Promise<void> {
  await host.call({ destination: name, path: '/MenuBar', interface: 'com.canonical.dbusmenu', member: 'Event', signature: 'isvu', body: [id, 'clicked', ['s', ''], 0] });
  // The action runs right after the reply (setImmediate).
  await new Promise((resolve) => setImmediate(resolve));
}

test('registers with the real watcher and serves every property on the unique and the well-known name', { timeout: 30_000 }, async (t) => {
  await startWatcher();
  const r = await rig(t);
  assert.equal(r.tray.state(), 'shown');
  assert.equal(r.desktop.view().tray, 'shown');
  assert.match(r.tray.serviceName, /^org\.kde\.StatusNotifierItem-\d+-\d+$/);
  assert.ok((await registeredItems()).some((item) => item.startsWith(r.tray.serviceName)), 'the watcher lists the item');

  for (const name of [r.tray.uniqueName, r.tray.serviceName]) {
    const get = (prop: string) => property(name, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', prop);
    assert.deepEqual(await get('Id'), { type: 's', data: 'tock' });
    assert.deepEqual(await get('Category'), { type: 's', data: 'ApplicationStatus' });
    assert.deepEqual(await get('Title'), { type: 's', data: 'Tock' });
    assert.deepEqual(await get('Status'), { type: 's', data: 'Passive' });
    assert.deepEqual(await get('IconName'), { type: 's', data: 'tock-idle' });
    assert.deepEqual(await get('ItemIsMenu'), { type: 'b', data: false });
    assert.deepEqual(await get('Menu'), { type: 'o', data: '/MenuBar' });
    assert.deepEqual(await get('IconThemePath'), { type: 's', data: '/opt/tock-icons' });
    const pixmaps = (await get('IconPixmap')) as { type: string; data: [number, number, number[]][] };
    assert.equal(pixmaps.type, 'a(iiay)');
    assert.deepEqual(
      pixmaps.data.map(([w, h, bytes]) => [w, h, bytes.length]),
      [16, 22, 32].map((s) => [s, s, s * s * 4]),
    );
    assert.deepEqual(Buffer.from(pixmaps.data[0]![2]), Buffer.from(iconArgb('tock-idle', 16)), 'ARGB32 in network byte order');
    const tooltip = (await get('ToolTip')) as { type: string; data: [string, unknown[], string, string] };
    assert.equal(tooltip.type, '(sa(iiay)ss)');
    assert.equal(tooltip.data[0], 'tock-idle');
    assert.equal(tooltip.data[2], 'Tock');
    assert.equal(tooltip.data[3], 'Not tracking · today 0:00');
    const all = await busctl('call', name, '/StatusNotifierItem', 'org.freedesktop.DBus.Properties', 'GetAll', 's', 'org.kde.StatusNotifierItem');
    const names = Object.keys((all.data as [Record<string, unknown>])[0]);
    for (const p of ['Id', 'Category', 'Title', 'Status', 'IconName', 'IconPixmap', 'ToolTip', 'ItemIsMenu', 'Menu']) assert.ok(names.includes(p), `GetAll has ${p}`);
    assert.deepEqual(await property(name, '/MenuBar', 'com.canonical.dbusmenu', 'Version'), { type: 'u', data: 3 });
  }
  // Nobody on the bus can change the item.
  await assert.rejects(
    run('busctl', ['--user', 'set-property', r.tray.serviceName, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'Title', 's', 'pwned'], { env }),
    /read-only|PropertyReadOnly|writable/i,
  );
  await assert.rejects(property(r.tray.serviceName, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'Nope'));
  await stopWatcher();
});

test('the menu: status line, Stop, break and resume, Continue, Start with recent activities; clicks change what is tracked', { timeout: 30_000 }, async (t) => {
  const r = await rig(t);
  const name = r.tray.serviceName;
  let menu = await layout(name);
  assert.deepEqual(labels(menu.root), ['Not tracking · today 0:00 (disabled)', '—', '—', 'Log time…', 'Open Tock', '—', 'Quit Tock'], 'never empty, even before anything was tracked');

  const names = ['Writing docs', 'Reviews', 'Email', 'Planning', 'Support', 'Team_sync'];
  const ids = names.map((n) => r.tracker.createActivity(n).activityID);
  for (const id of ids) {
    r.tracker.startActivity({ activityID: id });
    r.now.ms += MIN;
  }
  r.tracker.stopActivity();
  r.desktop.trayFeed.refresh();
  menu = await layout(name);
  assert.deepEqual(labels(menu.root), ['Not tracking · today 0:06 (disabled)', '—', 'Continue Team__sync', 'Start', '—', 'Log time…', 'Open Tock', '—', 'Quit Tock']);
  assert.deepEqual(
    find(menu.root, 'Start').children.map((c) => c.props.label),
    ['Team__sync', 'Support', 'Planning', 'Email', 'Reviews'],
    'the 5 most recent, a name’s underscore doubled (dbusmenu reads one as a mnemonic)',
  );

  await click(name, find(menu.root, 'Reviews').id);
  assert.equal(r.tracker.getStatus().currentActivity?.activityName, 'Reviews', 'Start › Reviews started it');
  r.now.ms += 72 * MIN;
  r.desktop.trayFeed.refresh();
  menu = await layout(name);
  assert.deepEqual(labels(menu.root), ['Reviews · 1:12 · today 1:18 (disabled)', '—', 'Stop', 'Take a break', 'Start', '—', 'Log time…', 'Open Tock', '—', 'Quit Tock']);

  await click(name, find(menu.root, 'Take a break').id);
  assert.equal(r.tracker.getStatus().isOnBreak, true);
  r.now.ms += 10 * MIN;
  menu = await layout(name);
  assert.deepEqual(labels(menu.root).slice(0, 4), ['On a break from Reviews · 1:12 · today 1:18 (disabled)', '—', 'Stop', 'Resume']);
  assert.deepEqual(await property(name, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'IconName'), { type: 's', data: 'tock-break' });

  await click(name, find(menu.root, 'Resume').id);
  assert.equal(r.tracker.getStatus().isOnBreak, false);
  menu = await layout(name);
  await click(name, find(menu.root, 'Stop').id);
  assert.equal(r.tracker.getStatus().isTracking, false, 'Stop stopped tracking');
  menu = await layout(name);
  await click(name, find(menu.root, 'Continue Reviews').id);
  assert.equal(r.tracker.getStatus().currentActivity?.activityName, 'Reviews', 'Continue started the last activity again');
  const reviews = r.tracker.listBlocks(0, r.now.ms + 1).filter((b) => b.kind === 'session' && b.activity.activityName === 'Reviews');
  assert.deepEqual(
    reviews.map((b) => b.endedAt),
    ['2026-11-23T09:02:00.000Z', null],
    'within 60 s of the stop Continue resumed the session Start › Reviews began (the window’s Continue): no third one',
  );

  menu = await layout(name);
  await click(name, find(menu.root, 'Log time…').id);
  r.now.ms += 2_000; // one window per 2 s
  await click(name, find(menu.root, 'Open Tock').id);
  r.now.ms += 2_000;
  await host.call({ destination: name, path: '/StatusNotifierItem', interface: 'org.kde.StatusNotifierItem', member: 'Activate', signature: 'ii', body: [0, 0] });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(r.opened, ['/today', undefined, undefined], 'Log time… opens Today; Open Tock and a click on the item open the window');
  await click(name, find(menu.root, 'Quit Tock').id);
  assert.equal(r.quits, 1);
  // A click on an item that is gone does nothing.
  await assert.rejects(click(name, 9999), /InvalidArgs/);
});

test('NewStatus, NewIcon, NewToolTip and LayoutUpdated follow a start and a stop', { timeout: 30_000 }, async (t) => {
  const r = await rig(t);
  const sender = r.tray.uniqueName;
  const from = signals.length;
  const fromSender = (member: string) => (s: BusMessage) => s.sender === sender && s.member === member;
  const activity = r.tracker.createActivity('Writing docs');
  r.tracker.startActivity({ activityID: activity.activityID });
  r.desktop.trayFeed.refresh(); // what the feed does just after a write
  const status = await nextSignal(fromSender('NewStatus'), from);
  assert.deepEqual(status.body, ['Active']);
  await nextSignal(fromSender('NewIcon'), from);
  await nextSignal(fromSender('NewToolTip'), from);
  const updated = await nextSignal(fromSender('LayoutUpdated'), from);
  assert.equal(updated.path, '/MenuBar');
  assert.equal((await property(sender, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'Status')).data, 'Active');

  // A minute later only the status line changed: a new tooltip and layout, no new status.
  const minute = signals.length;
  r.now.ms += MIN;
  r.desktop.trayFeed.refresh();
  await nextSignal(fromSender('NewToolTip'), minute);
  await nextSignal(fromSender('LayoutUpdated'), minute);
  assert.ok(!signals.slice(minute).some(fromSender('NewStatus')));
  const tip = (await property(sender, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'ToolTip')).data as [string, unknown, string, string];
  assert.equal(tip[3], 'Writing docs · 0:01 · today 0:01');

  const stop = signals.length;
  r.tracker.stopActivity();
  r.desktop.trayFeed.refresh();
  assert.deepEqual((await nextSignal(fromSender('NewStatus'), stop)).body, ['Passive']);
  await nextSignal(fromSender('LayoutUpdated'), stop);
  assert.equal((await property(sender, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'IconName')).data, 'tock-idle');
});

test('registers again when the watcher restarts, waits quietly while there is none, and the setting removes it', { timeout: 40_000 }, async (t) => {
  assert.equal(await nameOwner('org.kde.StatusNotifierWatcher'), null, 'no watcher yet');
  const r = await rig(t);
  assert.equal(r.tray.state(), 'no-host', 'no watcher: nothing fails, the item waits');
  assert.equal(r.desktop.view().tray, 'no-host');
  // The item answers all the same.
  assert.equal((await property(r.tray.serviceName, '/StatusNotifierItem', 'org.kde.StatusNotifierItem', 'Id')).data, 'tock');

  await startWatcher();
  await untilRead('the item registered', registeredItems, (items) => items.some((item) => item.startsWith(r.tray.serviceName)));
  assert.equal(r.tray.state(), 'shown');

  await stopWatcher();
  await untilRead('the item without a host', async () => r.tray.state(), (state) => state === 'no-host');
  await startWatcher();
  await untilRead('the item registered with the new watcher', registeredItems, (items) => items.some((item) => item.startsWith(r.tray.serviceName)));
  assert.equal(r.tray.state(), 'shown', 'registered with the new watcher');

  const gone = signals.length;
  const serviceName = r.tray.serviceName;
  r.desktop.updateSettings({ tray: false });
  await nextSignal(ownerChanged(serviceName, false), gone);
  assert.equal(r.desktop.view().tray, 'off');
  await untilRead('the item unregistered', registeredItems, (items) => !items.some((item) => item.startsWith(serviceName)));
  r.desktop.updateSettings({ tray: true });
  assert.notEqual(r.desktop.trayFeed.tray, null);
  await (r.desktop.trayFeed.tray as StatusNotifierTray).ready;
  assert.equal(r.desktop.view().tray, 'shown', 'on again without a restart');
  await stopWatcher();
});

test('without a session bus there is no tray, and nothing fails', async () => {
  const tray = statusNotifierTray({ env: {} })({ onAction: () => assert.fail(), onStateChange: () => {} }) as StatusNotifierTray;
  await tray.ready;
  assert.equal(tray.state(), 'unavailable');
  tray.show({ status: 'Passive', icon: 'tock-idle', statusLine: 'Not tracking · today 0:00', menu: [] });
  await tray.close();
});
