/**
 * The session bus as the desktop's bus clients use it — capture's GNOME and KDE sources, the
 * lock watch and Mutter's idle watches — typed, over the one D-Bus stack of this package
 * (connection.ts, wire.ts; docs/decisions.md "The tray speaks D-Bus itself"): call a method,
 * hear a signal (its match rule added on the bus), follow who owns a name, own a name and serve
 * an interface. The tray uses the connection beneath it directly.
 *
 * Any client of the session bus can call Tock's methods and send signals, so every signal and
 * call is handed over with its sender's unique name, and {@link SessionBus.watchNameOwner}
 * says which unique name owns a desktop's well-known name at that moment: a focus report
 * counts only from the owner of `org.gnome.Shell` or `org.kde.KWin` (docs/desktop.md "Who may
 * report the focus"). A message over 1 MiB is dropped unread and the connection goes on
 * (wire.ts): any bus client can send one to Tock's names, and it must not take capture down.
 */
import { BusCallError, type BusConnection, type BusMessage, openBusConnection } from './connection.ts';
import { ACCESS_DENIED } from './object.ts';
import { typesOf } from './values.ts';

/**
 * One method of an interface this side serves: D-Bus signatures in and out, and the work,
 * which gets the call's arguments and its sender's unique name (the bus daemon writes the
 * sender; a client cannot choose it). It may return a promise. Returning (or throwing) a
 * {@link DBusRefusal}, or any Error with a `dbusName`, answers with that error; otherwise the
 * value is the reply's one value, or its values when `out` has several and it is an array of
 * as many (none when `out` is empty).
 */
export interface ServedMethod {
  in: string;
  out: string;
  run: (args: unknown[], sender: string) => unknown;
}

/** The D-Bus error of a refused caller (object.ts's, the one every exported object uses). */
export { ACCESS_DENIED } from './object.ts';

/** The error a served method returns to refuse a caller ({@link ACCESS_DENIED}). */
export class DBusRefusal extends Error {
  override name = 'DBusRefusal' as const;
  readonly dbusName = ACCESS_DENIED;
}

/** A method call that the other side answered with an error: `dbusName` is the D-Bus error's name. */
export class DBusCallError extends Error {
  override name = 'DBusCallError' as const;
  readonly dbusName: string;
  constructor(dbusName: string, message: string) {
    super(`${dbusName}: ${message}`);
    this.dbusName = dbusName;
  }
}

/**
 * Who owns a well-known name on the bus now (its unique name, `:1.42`), or null: read once
 * from the bus daemon (`GetNameOwner`) and kept current by its `NameOwnerChanged` signal, so
 * a message's sender can be compared with the owner at the moment the message arrives.
 */
export interface NameOwner {
  readonly name: string;
  current(): string | null;
}

/** A connection to the session bus. */
export interface SessionBus {
  /** This connection's unique name (`:1.42`). */
  readonly uniqueName: string;
  call(destination: string, path: string, iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]>;
  /**
   * Calls `handler` with the body and the sender's unique name of each matching signal (the
   * match rule is added on the bus). A signal is a broadcast anyone may send: check `sender`.
   */
  onSignal(path: string, iface: string, member: string, handler: (body: unknown[], sender: string) => void): Promise<void>;
  /** Follows who owns `name` (see {@link NameOwner}); `onChange` hears every change after the first reading. */
  watchNameOwner(name: string, onChange?: (owner: string | null) => void): Promise<NameOwner>;
  /**
   * Owns `name`; false when another connection owns it. With `waitMs`, waits that long in the
   * bus daemon's queue for the owner to let go (a restarting process), and leaves the queue if
   * it does not; without, does not queue.
   */
  requestName(name: string, waitMs?: number): Promise<boolean>;
  /** Lets go of a name this connection owns (the tests' stand-ins hand a desktop's name over with it). */
  releaseName(name: string): Promise<void>;
  /** Serves `methods` of `iface` at `path`; a call to another member or interface there is refused. */
  serve(path: string, iface: string, methods: Record<string, ServedMethod>): void;
  /** Sends a signal from this connection (the tests' forged broadcasts use it). */
  emitSignal(path: string, iface: string, member: string, signature: string, body: unknown[]): void;
  /** Calls `handler` once if the connection ends. */
  onClose(handler: (reason: string) => void): void;
  close(): void;
}

/** The bus daemon's own name: only the daemon sends from it. */
const DAEMON = 'org.freedesktop.DBus';
const DAEMON_PATH = '/org/freedesktop/DBus';
/** RequestName's flag: do not wait in the queue. */
const DO_NOT_QUEUE = 4;

/** A served object's introspection: its interfaces and their methods. */
function introspection(interfaces: Map<string, Record<string, ServedMethod>>): string {
  const args = (signature: string, direction: string): string =>
    [...signature.matchAll(/a*(?:\([^)]*\)|\{[^}]*\}|.)/g)].map((m) => `<arg type="${m[0]}" direction="${direction}"/>`).join('');
  const ifaces = [...interfaces].map(
    ([name, methods]) => `<interface name="${name}">${Object.entries(methods).map(([member, m]) => `<method name="${member}">${args(m.in, 'in')}${args(m.out, 'out')}</method>`).join('')}</interface>`,
  );
  return `<node><interface name="org.freedesktop.DBus.Introspectable"><method name="Introspect"><arg type="s" direction="out"/></method></interface>${ifaces.join('')}</node>`;
}

/**
 * Connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS` in `env`; rejects when there
 * is none or it does not answer within `timeoutMs`. A message over 1 MiB that comes in is
 * dropped unread, and `onDropped` hears of it (capture counts it as an ignored report).
 */
export async function connectSessionBus(env: NodeJS.ProcessEnv, timeoutMs = 3000, onDropped: () => void = () => {}): Promise<SessionBus> {
  if (!env.DBUS_SESSION_BUS_ADDRESS) throw new Error('no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)');
  let timer: NodeJS.Timeout | undefined;
  const connection = await Promise.race([
    openBusConnection(env, () => onDropped()),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (connection === null) throw new Error('the session D-Bus did not answer');
  return sessionBusOver(connection, timeoutMs);
}

/** The typed operations over an open connection. */
function sessionBusOver(conn: BusConnection, timeoutMs: number): SessionBus {
  // One listener reads every signal with its sender, the one field a check can trust.
  const signalHandlers = new Map<string, ((body: unknown[], sender: string) => void)[]>();
  const key = (path: string, iface: string, member: string): string => `${path}\n${iface}\n${member}`;
  conn.onSignal((msg) => {
    for (const h of signalHandlers.get(key(msg.path ?? '', msg.interface ?? '', msg.member ?? '')) ?? []) h(msg.body ?? [], msg.sender ?? '');
  });
  const listen = (path: string, iface: string, member: string, handler: (body: unknown[], sender: string) => void): (() => void) => {
    const k = key(path, iface, member);
    signalHandlers.set(k, [...(signalHandlers.get(k) ?? []), handler]);
    return () => signalHandlers.set(k, (signalHandlers.get(k) ?? []).filter((h) => h !== handler));
  };
  const call = async (destination: string, path: string, iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        conn.call({ destination, path, interface: iface, member, ...(signature ? { signature, body: body ?? [] } : {}) }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${destination} did not answer ${member}`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      throw error instanceof BusCallError ? new DBusCallError(error.errorName, error.message.slice(error.errorName.length + 2)) : error;
    } finally {
      clearTimeout(timer);
    }
  };
  const daemon = (member: string, signature?: string, body?: unknown[]): Promise<unknown[]> => call(DAEMON, DAEMON_PATH, DAEMON, member, signature, body);
  const addMatch = async (rule: string): Promise<void> => {
    await daemon('AddMatch', 's', [rule]);
  };
  // The interfaces served at each path; one handler per path on the connection.
  const served = new Map<string, Map<string, Record<string, ServedMethod>>>();
  // Each call to a served path: the method's work, then its answer (or error).
  const answer = (path: string, msg: BusMessage): void => {
    const interfaces = served.get(path) ?? new Map<string, Record<string, ServedMethod>>();
    if (msg.interface === 'org.freedesktop.DBus.Introspectable' && msg.member === 'Introspect') {
      conn.reply(msg, 's', [introspection(interfaces)]);
      return;
    }
    if (msg.interface === 'org.freedesktop.DBus.Peer' && msg.member === 'Ping') {
      conn.reply(msg, '', []);
      return;
    }
    // Without an interface, the member is looked for in each (as the D-Bus spec allows).
    const methods = msg.interface === undefined ? [...interfaces.values()].find((m) => Object.hasOwn(m, msg.member ?? '')) : interfaces.get(msg.interface);
    const method = methods && Object.hasOwn(methods, msg.member ?? '') ? methods[msg.member as string] : undefined;
    if (!method) {
      conn.fail(msg, 'org.freedesktop.DBus.Error.UnknownMethod', `no method ${String(msg.member)} of ${String(msg.interface)} at ${path}`);
      return;
    }
    if ((msg.signature ?? '') !== method.in) {
      conn.fail(msg, 'org.freedesktop.DBus.Error.InvalidArgs', `${msg.member} takes (${method.in}), not (${msg.signature ?? ''})`);
      return;
    }
    const failed = (error: unknown): void => {
      const named = error as { dbusName?: unknown; message?: unknown };
      conn.fail(msg, typeof named?.dbusName === 'string' ? named.dbusName : 'org.freedesktop.DBus.Error.Failed', typeof named?.message === 'string' ? named.message : String(error));
    };
    const done = (result: unknown): void => {
      // An Error (a DBusRefusal, or one carrying `dbusName`) is the answer's error.
      if (result instanceof Error) failed(result);
      else if (result === undefined || result === null || method.out === '') conn.reply(msg, '', []);
      else {
        // Several values out: an array of as many is the body; one value: itself.
        const count = typesOf(method.out).length;
        conn.reply(msg, method.out, count > 1 && Array.isArray(result) && result.length === count ? (result as unknown[]) : [result]);
      }
    };
    let result: unknown;
    try {
      result = method.run(msg.body ?? [], msg.sender ?? '');
    } catch (error) {
      failed(error);
      return;
    }
    if (result instanceof Promise) result.then(done, failed);
    else done(result);
  };
  return {
    get uniqueName() {
      return conn.uniqueName;
    },
    call,
    onSignal: async (path, iface, member, handler) => {
      listen(path, iface, member, handler);
      await addMatch(`type='signal',path='${path}',interface='${iface}',member='${member}'`);
    },
    async watchNameOwner(name, onChange) {
      let owner: string | null = null;
      let read = false;
      // Heard before the reading: the reading is newer (the daemon answers in order). Heard
      // after it: newer than the reading. Both set `owner` as the message arrives, never
      // after an await, so a change in the same chunk as the reply cannot be overwritten.
      listen(DAEMON_PATH, DAEMON, 'NameOwnerChanged', (body, sender) => {
        if (sender !== DAEMON || body[0] !== name) return;
        owner = typeof body[2] === 'string' && body[2] !== '' ? body[2] : null;
        if (read) onChange?.(owner);
      });
      await addMatch(`type='signal',sender='${DAEMON}',path='${DAEMON_PATH}',interface='${DAEMON}',member='NameOwnerChanged',arg0='${name}'`);
      try {
        const [unique] = await daemon('GetNameOwner', 's', [name]);
        owner = typeof unique === 'string' && unique !== '' ? unique : null;
      } catch (error) {
        if (!(error instanceof DBusCallError && error.dbusName === 'org.freedesktop.DBus.Error.NameHasNoOwner')) throw error;
        owner = null;
      }
      read = true;
      return { name, current: () => owner };
    },
    async requestName(name, waitMs) {
      // NameAcquired comes to this connection alone, from the daemon, once the name is ours.
      let acquired: () => void = () => {};
      const heard = new Promise<true>((resolve) => {
        acquired = () => resolve(true);
      });
      const unlisten = listen(DAEMON_PATH, DAEMON, 'NameAcquired', (body, sender) => {
        if (sender === DAEMON && body[0] === name) acquired();
      });
      try {
        const [code] = await daemon('RequestName', 'su', [name, waitMs === undefined ? DO_NOT_QUEUE : 0]);
        // 1: the owner now; 4: already was; 2: in the queue; 3: taken, not queued.
        if (code === 1 || code === 4) return true;
        if (code !== 2 || waitMs === undefined) return false;
        let timer: NodeJS.Timeout | undefined;
        const won = await Promise.race([heard, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)))]);
        clearTimeout(timer);
        if (!won) await daemon('ReleaseName', 's', [name]).catch(() => {});
        return won;
      } finally {
        unlisten();
      }
    },
    async releaseName(name) {
      await daemon('ReleaseName', 's', [name]);
    },
    serve(path, iface, methods) {
      let interfaces = served.get(path);
      if (!interfaces) {
        interfaces = new Map();
        served.set(path, interfaces);
        conn.serve(path, (msg) => answer(path, msg));
      }
      interfaces.set(iface, methods);
    },
    emitSignal(path, iface, member, signature, body) {
      conn.signal(path, iface, member, signature, body);
    },
    onClose(handler) {
      conn.onClose((why) => handler(why ?? 'the session D-Bus connection closed'));
    },
    close() {
      conn.close();
    },
  };
}
