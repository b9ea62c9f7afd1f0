/**
 * The session D-Bus, through @homebridge/dbus-native (docs/decisions.md "The tray speaks D-Bus
 * itself"): a connection, calls with a deadline, signals out and in, and method calls to the
 * object paths this app serves handed to one handler — every one, Properties and Introspect
 * included, so that nothing the library answers on its own (its Properties.Set writes any
 * field of the object it is given) is reachable from the bus.
 */
import { createConnection as netConnection, type Socket } from 'node:net';

/** A D-Bus message as the library gives and takes it. */
export interface BusMessage {
  type?: number;
  serial?: number;
  path?: string;
  interface?: string;
  member?: string;
  destination?: string;
  sender?: string;
  signature?: string;
  body?: unknown[];
  errorName?: string;
}

interface LibraryConnection {
  on(event: 'message', listener: (message: BusMessage) => void): void;
  on(event: 'error' | 'end', listener: (error?: Error) => void): void;
  listeners(event: 'message'): Array<(message: BusMessage) => void>;
  removeListener(event: 'message', listener: (message: BusMessage) => void): void;
  end(): void;
}

interface LibraryBus {
  name?: string;
  connection: LibraryConnection;
  invoke(message: BusMessage, callback: (error: { name?: string; message?: string } | null, ...body: unknown[]) => void): void;
  sendSignal(path: string, iface: string, member: string, signature: string, body: unknown[]): void;
  sendReply(message: BusMessage, signature: string, body: unknown[]): void;
  sendError(message: BusMessage, errorName: string, text: string): void;
}

interface Library {
  createClient(options: { stream: Socket }): LibraryBus;
  messageType: { methodCall: number; methodReturn: number; error: number; signal: number };
}

/**
 * The D-Bus library, loaded on the first connection: with its XML modules it is about sixty
 * files that an app without a tray never runs (bench/README.md "A lighter idle app").
 */
async function loadDbusLibrary(): Promise<Library> {
  const dbusModule = await import('@homebridge/dbus-native');
  return ((dbusModule as unknown as { default?: Library }).default ?? dbusModule) as unknown as Library;
}

/** A D-Bus call that failed: `name` is the D-Bus error name. */
export class BusCallError extends Error {
  override name = 'BusCallError' as const;
  readonly errorName: string;

  constructor(errorName: string, message: string) {
    super(`${errorName}: ${message}`);
    this.errorName = errorName;
  }
}

/** How long a call may take before it counts as failed (a hung peer never holds the tray). */
const CALL_DEADLINE_MS = 5_000;

/** A connection to the session bus. */
export interface SessionBus {
  /** This connection's unique name (`:1.42`). */
  readonly uniqueName: string;
  /** Calls a method; resolves with the reply's body. */
  call(message: { destination: string; path: string; interface: string; member: string; signature?: string; body?: unknown[] }): Promise<unknown[]>;
  /** Sends a signal from one of this app's objects. */
  signal(path: string, iface: string, member: string, signature: string, body: unknown[]): void;
  /** Answers a method call. */
  reply(call: BusMessage, signature: string, body: unknown[]): void;
  /** Answers a method call with an error. */
  fail(call: BusMessage, errorName: string, text: string): void;
  /** Handles every method call to `path` (this app's object) from now on. */
  serve(path: string, handler: (call: BusMessage) => void): void;
  /** Calls `listener` with every signal this connection receives (see AddMatch). */
  onSignal(listener: (signal: BusMessage) => void): void;
  /** Calls `listener` once when the connection is gone (closed or broken). */
  onClose(listener: () => void): void;
  close(): void;
}

/**
 * The socket addresses in a D-Bus address string (`unix:path=…`, `unix:abstract=…`; others
 * are skipped), in order.
 */
export function socketPaths(address: string): string[] {
  const paths: string[] = [];
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    if (colon < 0 || entry.slice(0, colon) !== 'unix') continue;
    const params = new Map(
      entry
        .slice(colon + 1)
        .split(',')
        .map((pair) => {
          const eq = pair.indexOf('=');
          return [pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1))] as [string, string];
        }),
    );
    const path = params.get('path');
    const abstract = params.get('abstract');
    if (path) paths.push(path);
    else if (abstract) paths.push(`\0${abstract}`);
  }
  return paths;
}

function openSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnection(path);
    socket.once('connect', () => {
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * Connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS`; null when there is none
 * (no desktop session) or it cannot be reached.
 */
export async function connectSessionBus(env: NodeJS.ProcessEnv): Promise<SessionBus | null> {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) return null;
  let socket: Socket | undefined;
  for (const path of socketPaths(address)) {
    try {
      socket = await openSocket(path);
      break;
    } catch {
      // the next address, if any
    }
  }
  if (!socket) return null;
  const dbus = await loadDbusLibrary();
  const bus = dbus.createClient({ stream: socket });
  const connection = bus.connection;
  const closeListeners: Array<() => void> = [];
  let closed = false;
  const gone = (): void => {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners) listener();
  };
  connection.on('error', gone);
  connection.on('end', gone);
  socket.on('close', gone);

  // Take over the library's dispatch: method calls to our paths come to us, replies and
  // signals still go through it (replies to its callbacks), and signals to us as well.
  const served = new Map<string, (call: BusMessage) => void>();
  const signalListeners: Array<(signal: BusMessage) => void> = [];
  const libraryDispatch = connection.listeners('message');
  for (const listener of libraryDispatch) connection.removeListener('message', listener);
  connection.on('message', (message) => {
    if (message.type === dbus.messageType.methodCall && message.path !== undefined && served.has(message.path)) {
      try {
        served.get(message.path)?.(message);
      } catch (error) {
        try {
          bus.sendError(message, 'org.freedesktop.DBus.Error.Failed', error instanceof Error ? error.message : String(error));
        } catch {
          // a reply that cannot be written: the connection is going
        }
      }
      return;
    }
    if (message.type === dbus.messageType.signal) {
      for (const listener of signalListeners) listener(message);
    }
    for (const listener of libraryDispatch) listener(message);
  });

  const call: SessionBus['call'] = (message) =>
    new Promise((resolve, reject) => {
      if (closed) {
        reject(new BusCallError('org.freedesktop.DBus.Error.Disconnected', 'the session bus connection is closed'));
        return;
      }
      const timer = setTimeout(() => reject(new BusCallError('org.freedesktop.DBus.Error.Timeout', `${message.member} did not answer`)), CALL_DEADLINE_MS);
      timer.unref();
      bus.invoke({ ...message }, (error, ...body) => {
        clearTimeout(timer);
        if (error) reject(new BusCallError(error.name ?? 'org.freedesktop.DBus.Error.Failed', error.message ?? ''));
        else resolve(body);
      });
    });

  const failed = new Promise<never>((_, reject) => closeListeners.push(() => reject(new Error('the session bus closed the connection'))));
  failed.catch(() => {});
  try {
    // Hello's answer (the unique name) comes before this one's.
    await Promise.race([call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'GetId' }), failed]);
  } catch {
    connection.end();
    return null;
  }
  const uniqueName = bus.name;
  if (!uniqueName) {
    connection.end();
    return null;
  }
  const safely = (send: () => void): void => {
    if (closed) return;
    try {
      send();
    } catch {
      // a message that cannot be written: the connection is going, and onClose says so
    }
  };
  return {
    uniqueName,
    call,
    signal: (path, iface, member, signature, body) => safely(() => bus.sendSignal(path, iface, member, signature, body)),
    reply: (message, signature, body) => safely(() => bus.sendReply(message, signature, body)),
    fail: (message, errorName, text) => safely(() => bus.sendError(message, errorName, text)),
    serve: (path, handler) => {
      served.set(path, handler);
    },
    onSignal: (listener) => {
      signalListeners.push(listener);
    },
    onClose: (listener) => {
      if (closed) listener();
      else closeListeners.push(listener);
    },
    close: () => {
      if (closed) return;
      connection.end();
      socket.destroy();
      gone();
    },
  };
}
