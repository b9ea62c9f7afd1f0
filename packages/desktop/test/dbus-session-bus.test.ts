/**
 * The desktop's session bus (src/dbus/session-bus.ts over connection.ts and wire.ts, the one
 * D-Bus stack that capture, the lock watch and the tray use) against an independent client on
 * a private dbus-daemon: @homebridge/dbus-native, kept as a dev dependency for this. What one
 * side serves the other calls, with the types capture sends and reads; signals go both ways
 * with their sender; name owners are followed, a name is waited for in the daemon's queue; a
 * refused caller hears AccessDenied; a message over 1 MiB ends the connection.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { startDBusSession, until, type DBusSession } from '@tock/test-support';
import { ACCESS_DENIED, connectSessionBus, DBusCallError, DBusRefusal, type SessionBus } from '../src/dbus/session-bus.ts';

interface NativeMessage {
  type: number;
  sender?: string;
  path?: string;
  interface?: string;
  member?: string;
  body?: unknown[];
}

/** The part of dbus-native's bus these tests use. */
interface NativeBus {
  name?: string;
  connection: { on(event: 'message', f: (msg: NativeMessage) => void): void; once(event: 'connect', f: () => void): void; end(): void };
  invoke(msg: Record<string, unknown>, cb: (error: { name?: string; message?: unknown } | null, ...body: unknown[]) => void): void;
  addMatch(rule: string, cb: (error: unknown) => void): void;
  requestName(name: string, flags: number, cb: (error: unknown, code?: number) => void): void;
  releaseName(name: string, cb: (error: unknown) => void): void;
  sendSignal(path: string, iface: string, member: string, signature: string, body: unknown[]): void;
  exportInterface(obj: Record<string, unknown>, path: string, iface: { name: string; methods: Record<string, [string, string, string[], string[]]>; signals: Record<string, unknown>; properties: Record<string, unknown> }): void;
}

const dbusNative = createRequire(import.meta.url)('@homebridge/dbus-native') as { sessionBus(opts: { busAddress: string }): NativeBus };

let session: DBusSession;
let env: NodeJS.ProcessEnv;
const opened: (() => void)[] = [];

before(async () => {
  session = await startDBusSession();
  env = { DBUS_SESSION_BUS_ADDRESS: session.address };
});
after(() => {
  for (const close of opened) close();
  session?.stop();
});

async function ours(): Promise<SessionBus> {
  const bus = await connectSessionBus(env);
  opened.push(() => bus.close());
  return bus;
}

/** A dbus-native connection with its unique name (after Hello). */
async function theirs(): Promise<NativeBus & { name: string }> {
  const bus = dbusNative.sessionBus({ busAddress: session.address });
  opened.push(() => bus.connection.end());
  await new Promise<void>((resolve) => bus.connection.once('connect', resolve));
  await until('dbus-native to have its unique name', () => (typeof bus.name === 'string' && bus.name !== '' ? true : undefined));
  return bus as NativeBus & { name: string };
}

function invoke(bus: NativeBus, msg: Record<string, unknown>): Promise<unknown[]> {
  return new Promise((resolve, reject) =>
    bus.invoke(msg, (error, ...body) => (error ? reject(Object.assign(new Error(String(error.message)), { dbusName: error.name })) : resolve(body))),
  );
}

test('what this side serves, dbus-native calls: one value, several, none; a refusal is AccessDenied with the caller told apart; other signatures are InvalidArgs', async () => {
  const bus = await ours();
  const native = await theirs();
  const callers: string[] = [];
  bus.serve('/app/tock/Test', 'app.tock.Test', {
    Echo: { in: 's', out: 's', run: ([text], sender) => (callers.push(sender), `echo ${String(text)}`) },
    Pair: { in: 'bu', out: 'ss', run: ([flag, n]) => [String(flag), String(n)] },
    Later: { in: '', out: 'u', run: () => Promise.resolve(7) },
    Quiet: { in: 'as', out: '', run: () => undefined },
    Refuse: { in: '', out: '', run: () => new DBusRefusal('not you') },
  });
  assert.equal(await bus.requestName('app.tock.Test'), true);
  const call = (member: string, signature?: string, body?: unknown[]) =>
    invoke(native, { destination: 'app.tock.Test', path: '/app/tock/Test', interface: 'app.tock.Test', member, ...(signature ? { signature, body } : {}) });
  assert.deepEqual(await call('Echo', 's', ['hi']), ['echo hi']);
  assert.deepEqual(callers, [native.name], 'the caller is its unique name, as the daemon wrote it');
  assert.deepEqual(await call('Pair', 'bu', [true, 42]), ['true', '42']);
  assert.deepEqual(await call('Later'), [7]);
  assert.deepEqual(await call('Quiet', 'as', [['a', 'b']]), []);
  await assert.rejects(call('Refuse'), (error: Error & { dbusName?: string }) => error.dbusName === ACCESS_DENIED && /not you/.test(error.message));
  await assert.rejects(call('Echo', 'u', [1]), (error: Error & { dbusName?: string }) => error.dbusName === 'org.freedesktop.DBus.Error.InvalidArgs');
  await assert.rejects(call('Nothing'), (error: Error & { dbusName?: string }) => error.dbusName === 'org.freedesktop.DBus.Error.UnknownMethod');
  const [xml] = await invoke(native, { destination: 'app.tock.Test', path: '/app/tock/Test', interface: 'org.freedesktop.DBus.Introspectable', member: 'Introspect' });
  assert.match(String(xml), /<interface name="app\.tock\.Test"><method name="Echo"><arg type="s" direction="in"\/><arg type="s" direction="out"\/><\/method>/);
});

test('what dbus-native serves, this side calls with the types capture sends and reads; its errors come back by name', async () => {
  const bus = await ours();
  const native = await theirs();
  native.exportInterface(
    {
      Mirror: (s: string, u: number, b: boolean, t: number, list: string[]) => [s, u, b, t, list],
      Fail: () => Object.assign(new Error('no such window'), { dbusName: 'org.example.Error.NoWindow' }),
    },
    '/org/example/Native',
    { name: 'org.example.Native', methods: { Mirror: ['subtas', 'subtas', [], []], Fail: ['', '', [], []] }, signals: {}, properties: {} },
  );
  await new Promise<void>((resolve, reject) => native.requestName('org.example.Native', 4, (error) => (error ? reject(error) : resolve())));
  const back = await bus.call('org.example.Native', '/org/example/Native', 'org.example.Native', 'Mirror', 'subtas', ['app.tock.Alpha', 4_000_000_000, true, 3_600_000, ['x', 'y']]);
  assert.deepEqual(back, ['app.tock.Alpha', 4_000_000_000, true, 3_600_000, ['x', 'y']]);
  await assert.rejects(bus.call('org.example.Native', '/org/example/Native', 'org.example.Native', 'Fail'), (error) => error instanceof DBusCallError && error.dbusName === 'org.example.Error.NoWindow');
  const [names] = await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'ListNames');
  assert.ok(Array.isArray(names) && names.includes('org.example.Native'));
  // A variant comes as [signature, value] (GNOME Shell's ShellVersion is read so).
  const [features] = await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.Properties', 'Get', 'ss', ['org.freedesktop.DBus', 'Interfaces']);
  assert.ok(Array.isArray(features) && features[0] === 'as' && Array.isArray(features[1]), JSON.stringify(features));
});

test('signals both ways with their sender; a match rule brings another connection’s broadcast', async () => {
  const bus = await ours();
  const native = await theirs();
  const heard: [unknown[], string][] = [];
  let wake: (() => void) | undefined;
  await bus.onSignal('/org/gnome/ScreenSaver', 'org.gnome.ScreenSaver', 'ActiveChanged', (body, sender) => {
    heard.push([body, sender]);
    wake?.();
  });
  native.sendSignal('/org/gnome/ScreenSaver', 'org.gnome.ScreenSaver', 'ActiveChanged', 'b', [true]);
  await until('the signal', () => (heard.length === 1 ? true : undefined), {
    wake: (w) => {
      wake = w;
      return () => {
        wake = undefined;
      };
    },
  });
  assert.deepEqual(heard, [[[true], native.name]]);

  const theirsHeard: NativeMessage[] = [];
  native.connection.on('message', (msg) => {
    if (msg.type === 4 && msg.member === 'WatchFired') theirsHeard.push(msg);
  });
  await new Promise<void>((resolve, reject) => native.addMatch("type='signal',interface='org.gnome.Mutter.IdleMonitor',member='WatchFired'", (error) => (error ? reject(error) : resolve())));
  bus.emitSignal('/org/gnome/Mutter/IdleMonitor/Core', 'org.gnome.Mutter.IdleMonitor', 'WatchFired', 'u', [3]);
  await until('dbus-native to hear it', () => (theirsHeard.length === 1 ? true : undefined));
  assert.deepEqual([theirsHeard[0]?.body, theirsHeard[0]?.sender], [[3], bus.uniqueName]);
});

test('a name’s owner is followed as it moves; a name taken is waited for in the queue, and given up after the wait', async () => {
  const bus = await ours();
  const native = await theirs();
  const changes: (string | null)[] = [];
  const watch = await bus.watchNameOwner('org.gnome.Shell', (owner) => changes.push(owner));
  assert.equal(watch.current(), null);
  const take = (name: string): Promise<number | undefined> => new Promise((resolve, reject) => native.requestName(name, 4, (error, code) => (error ? reject(error) : resolve(code))));
  const release = (name: string): Promise<void> => new Promise((resolve, reject) => native.releaseName(name, (error) => (error ? reject(error) : resolve())));
  assert.equal(await take('org.gnome.Shell'), 1);
  await until('the new owner', () => (watch.current() === native.name ? true : undefined));
  await release('org.gnome.Shell');
  await until('no owner', () => (watch.current() === null ? true : undefined));
  assert.deepEqual(changes, [native.name, null]);

  // Taken: without a wait, refused at once.
  assert.equal(await take('app.tock.Capture'), 1);
  assert.equal(await bus.requestName('app.tock.Capture'), false);
  // With a wait: queued, and the owner's release hands it over.
  const waiting = bus.requestName('app.tock.Capture', 30_000);
  const queued = async (): Promise<number> => {
    const [owners] = await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'ListQueuedOwners', 's', ['app.tock.Capture']);
    return (owners as string[]).length;
  };
  await until('this side in the queue', async () => ((await queued()) === 2 ? true : undefined));
  await release('app.tock.Capture');
  assert.equal(await waiting, true);
  // Not let go within the wait: out of the queue again.
  assert.equal(await take('org.example.Held'), 1);
  assert.equal(await bus.requestName('org.example.Held', 50), false);
  const [held] = await bus.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'ListQueuedOwners', 's', ['org.example.Held']);
  assert.deepEqual(held, [native.name]);
});

test('a message over 1 MiB is dropped unread and told; the connection goes on', async () => {
  let dropped = 0;
  const bus = await connectSessionBus(env, 3000, () => dropped++);
  opened.push(() => bus.close());
  const native = await theirs();
  let closed: string | undefined;
  bus.onClose((why) => {
    closed = why;
  });
  bus.serve('/app/tock/Test', 'app.tock.Test', { Echo: { in: 's', out: 's', run: ([s]) => s } });
  const echo = { destination: bus.uniqueName, path: '/app/tock/Test', interface: 'app.tock.Test', member: 'Echo', signature: 's' };
  native.invoke({ ...echo, body: ['x'.repeat(2 * 1024 * 1024)] }, () => {});
  await until('the message to be dropped', () => (dropped === 1 ? true : undefined));
  // The next call on the same connection is answered: nothing of the big one was kept.
  assert.deepEqual(await invoke(native, { ...echo, body: ['after'] }), ['after']);
  assert.equal(closed, undefined, 'the connection stays open');
});
