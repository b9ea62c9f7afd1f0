/**
 * The few session-bus operations the GNOME and KDE focus sources need, typed, over
 * `@homebridge/dbus-native` (pure JavaScript), loaded on first use: call a
 * method, hear a signal, own a name and serve an interface. Unlike the idle sources' one-shot
 * `gdbus` reads, these sources keep a connection open to hear events as they come.
 *
 * Any client of the session bus can call Tock's methods and send signals, so every signal and
 * call is handed over with its sender's unique name, and {@link SessionBus.watchNameOwner}
 * says which unique name owns a desktop's well-known name at that moment: a focus report
 * counts only from the owner of `org.gnome.Shell` or `org.kde.KWin` (docs/desktop.md "Who may
 * report the focus").
 */

/**
 * One method of an interface this side serves: D-Bus signatures in and out, and the work,
 * which gets the call's arguments and its sender's unique name (the bus daemon writes the
 * sender; a client cannot choose it). Returning a {@link DBusRefusal} answers with an error.
 */
export interface ServedMethod {
  in: string;
  out: string;
  run: (args: unknown[], sender: string) => unknown;
}

/** The D-Bus error of a refused caller. */
export const ACCESS_DENIED = 'org.freedesktop.DBus.Error.AccessDenied';

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
   * it does not; without, does not queue (flag 4).
   */
  requestName(name: string, waitMs?: number): Promise<boolean>;
  /** Lets go of a name this connection owns (the tests' stand-ins hand a desktop's name over with it). */
  releaseName(name: string): Promise<void>;
  serve(path: string, iface: string, methods: Record<string, ServedMethod>): void;
  /** Sends a signal from this connection (the tests' forged broadcasts use it). */
  emitSignal(path: string, iface: string, member: string, signature: string, body: unknown[]): void;
  /** Calls `handler` once if the connection ends. */
  onClose(handler: (reason: string) => void): void;
  close(): void;
}

/**
 * What capture gives the bus sources beside sources.ts's context (capture.ts puts them in the
 * context it hands `focusSourcesFor`, which passes it on): the *titles* setting, read at each
 * report, a way to hear it change (GNOME tells its extension), and the count of refused
 * reports that `tock capture status` shows.
 */
export interface BusReportHooks {
  /** Whether titles are recorded now (absent: off, so no title is asked for). */
  titles?: () => boolean;
  /** Calls `listener` after each change of capture's settings; returns what stops it. */
  onSettingsChanged?: (listener: () => void) => () => void;
  /** A focus report came from a sender that does not own the desktop's name, and was ignored. */
  ignored?: () => void;
}

/** A message as dbus-native hands it over (the fields these sources read). */
interface NativeMessage {
  type: number;
  sender?: string;
  path?: string;
  interface?: string;
  member?: string;
  body?: unknown[];
}

/** dbus-native's message type of a signal. */
const SIGNAL = 4;
/** The bus daemon's own name: only the daemon sends from it. */
const DAEMON = 'org.freedesktop.DBus';

interface NativeBus {
  connection: { on(event: string, f: (arg?: unknown) => void): void; once(event: string, f: (arg?: unknown) => void): void; end(): void; stream: { destroy(): void } };
  invoke(msg: Record<string, unknown>, cb: (error: { name?: string; message?: string } | null, ...body: unknown[]) => void): void;
  addMatch(rule: string, cb: (error: unknown) => void): void;
  requestName(name: string, flags: number, cb: (error: unknown, code?: number) => void): void;
  releaseName(name: string, cb: (error: unknown) => void): void;
  sendSignal(path: string, iface: string, member: string, signature: string, body: unknown[]): void;
  exportInterface(obj: Record<string, unknown>, path: string, iface: { name: string; methods: Record<string, [string, string, string[], string[]]>; signals: Record<string, unknown>; properties: Record<string, unknown> }): void;
}

/** Connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS` in `env`; rejects when there is none or it does not answer. */
export async function connectSessionBus(env: NodeJS.ProcessEnv, timeoutMs = 3000): Promise<SessionBus> {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) throw new Error('no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)');
  if (/(^|;)unix:abstract=/.test(address) && !/(^|;)unix:path=/.test(address)) throw new Error('the session D-Bus is on an abstract socket, which Node cannot open');
  // Loaded on first use, and by import() so that the installed bundle carries it (a chunk of
  // its own): a createRequire() call is left to run time, where the package has no node_modules.
  const loaded = (await import('@homebridge/dbus-native')) as { default?: unknown };
  const dbus = (loaded.default ?? loaded) as { sessionBus(opts: { busAddress: string }): NativeBus };
  const bus = dbus.sessionBus({ busAddress: address.split(';').filter((a) => a.startsWith('unix:path=')).join(';') });
  const closeHandlers: ((reason: string) => void)[] = [];
  let closed = false;
  const ended = (reason: string): void => {
    if (closed) return;
    closed = true;
    for (const h of closeHandlers) h(reason);
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the session D-Bus did not answer')), timeoutMs);
    bus.connection.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    bus.connection.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof Error ? error : new Error(String(error)));
      ended(`the session D-Bus connection failed (${error instanceof Error ? error.message : String(error)})`);
    });
    bus.connection.on('end', () => ended('the session D-Bus connection closed'));
  });
  // One listener reads every signal with its sender (dbus-native's own signal events drop
  // the sender, which is the one field a check can trust).
  const signalHandlers = new Map<string, ((body: unknown[], sender: string) => void)[]>();
  const key = (path: string, iface: string, member: string): string => `${path}\n${iface}\n${member}`;
  bus.connection.on('message', (arg) => {
    const msg = arg as NativeMessage;
    if (msg.type !== SIGNAL) return;
    for (const h of signalHandlers.get(key(msg.path ?? '', msg.interface ?? '', msg.member ?? '')) ?? []) h(msg.body ?? [], msg.sender ?? '');
  });
  const addMatch = (rule: string): Promise<void> =>
    new Promise((resolve, reject) => bus.addMatch(rule, (error) => (error ? reject(new Error(String((error as { message?: string }).message ?? error))) : resolve())));
  const listen = (path: string, iface: string, member: string, handler: (body: unknown[], sender: string) => void): void => {
    const k = key(path, iface, member);
    signalHandlers.set(k, [...(signalHandlers.get(k) ?? []), handler]);
  };
  return {
    call: (destination, path, iface, member, signature, body) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${destination} did not answer ${member}`)), timeoutMs);
        bus.invoke({ destination, path, interface: iface, member, ...(signature ? { signature, body } : {}) }, (error, ...out) => {
          clearTimeout(timer);
          if (error) reject(new DBusCallError(error.name ?? 'org.freedesktop.DBus.Error.Failed', error.message ?? ''));
          else resolve(out);
        });
      }),
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
      listen('/org/freedesktop/DBus', DAEMON, 'NameOwnerChanged', (body, sender) => {
        if (sender !== DAEMON || body[0] !== name) return;
        owner = typeof body[2] === 'string' && body[2] !== '' ? body[2] : null;
        if (read) onChange?.(owner);
      });
      await addMatch(`type='signal',sender='${DAEMON}',path='/org/freedesktop/DBus',interface='${DAEMON}',member='NameOwnerChanged',arg0='${name}'`);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the bus did not say who owns ${name}`)), timeoutMs);
        bus.invoke({ destination: DAEMON, path: '/org/freedesktop/DBus', interface: DAEMON, member: 'GetNameOwner', signature: 's', body: [name] }, (error, unique) => {
          clearTimeout(timer);
          if (error && error.name !== 'org.freedesktop.DBus.Error.NameHasNoOwner') return reject(new DBusCallError(error.name ?? 'org.freedesktop.DBus.Error.Failed', error.message ?? ''));
          owner = !error && typeof unique === 'string' && unique !== '' ? unique : null;
          read = true;
          resolve();
        });
      });
      return { name, current: () => owner };
    },
    async requestName(name, waitMs) {
      // NameAcquired comes to this connection alone, from the daemon, once the name is ours.
      let acquired: (() => void) | null = null;
      const onAcquired = (arg?: unknown): void => {
        const msg = arg as NativeMessage;
        if (msg.type === SIGNAL && msg.sender === DAEMON && msg.member === 'NameAcquired' && msg.body?.[0] === name) acquired?.();
      };
      const heard = new Promise<void>((resolve) => {
        acquired = resolve;
      });
      bus.connection.on('message', onAcquired);
      try {
        const code = await new Promise<number | undefined>((resolve, reject) => {
          bus.requestName(name, waitMs === undefined ? 4 : 0, (error, result) => (error ? reject(new Error(String((error as { message?: string }).message ?? error))) : resolve(result)));
        });
        // 1: the owner now; 4: already was; 2: in the queue; 3: taken, not queued.
        if (code === 1 || code === 4) return true;
        if (code !== 2 || waitMs === undefined) return false;
        let timer: NodeJS.Timeout | undefined;
        const won = await Promise.race([heard.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)))]);
        clearTimeout(timer);
        if (!won) await new Promise<void>((resolve) => bus.releaseName(name, () => resolve()));
        return won;
      } finally {
        (bus.connection as unknown as { removeListener(e: string, f: (arg?: unknown) => void): void }).removeListener('message', onAcquired);
      }
    },
    releaseName: (name) =>
      new Promise((resolve, reject) => {
        bus.releaseName(name, (error) => (error ? reject(new Error(String((error as { message?: string }).message ?? error))) : resolve()));
      }),
    serve(path, iface, methods) {
      const obj: Record<string, unknown> = {};
      const described: Record<string, [string, string, string[], string[]]> = {};
      for (const [name, m] of Object.entries(methods)) {
        // dbus-native passes the message itself after the arguments: its sender is the caller.
        obj[name] = (...args: unknown[]) => {
          const msg = args.pop() as NativeMessage;
          return m.run(args, msg.sender ?? '');
        };
        described[name] = [m.in, m.out, [], []];
      }
      bus.exportInterface(obj, path, { name: iface, methods: described, signals: {}, properties: {} });
    },
    emitSignal(path, iface, member, signature, body) {
      bus.sendSignal(path, iface, member, signature, body);
    },
    onClose(handler) {
      closeHandlers.push(handler);
    },
    close() {
      closed = true;
      try {
        bus.connection.end();
      } catch {
        bus.connection.stream.destroy();
      }
    },
  };
}
