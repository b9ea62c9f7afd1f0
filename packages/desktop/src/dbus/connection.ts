/**
 * A connection to the session D-Bus, spoken by Tock itself (docs/decisions.md "The tray speaks
 * D-Bus itself"; the one D-Bus stack of the desktop: the tray uses it as it is, capture and the
 * lock watch through session-bus.ts): a unix socket, the EXTERNAL authentication, `Hello`,
 * calls with a deadline, signals out and in, and method calls to the object paths this side
 * serves handed to one handler per path — every one, Properties and Introspect included; a
 * call to any other path is refused (`UnknownObject`). The messages are wire.ts's, read by its
 * bounded, linear {@link MessageReader}: a message over 1 MiB closes the connection as soon as
 * its header is in (the tray then connects again), so no peer can make it hold one. No D-Bus
 * library: the one the tray used before cost ~4 MB of RSS to load and ~4 MB of garbage per host
 * read of the item's pixmaps, most of the tray's memory (bench/README.md "Tray").
 */
import { createConnection as netConnection, type Socket } from 'node:net';
import { encodeMessage, MessageReader, MessageTooLarge, MessageType, NO_REPLY_EXPECTED, type WireMessage } from './wire.ts';

/** A D-Bus message as this side sees it. */
export interface BusMessage {
  type?: number;
  flags?: number;
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

/** A D-Bus call that failed: `name` is the D-Bus error name. */
export class BusCallError extends Error {
  override name = 'BusCallError' as const;
  readonly errorName: string;

  constructor(errorName: string, message: string) {
    super(`${errorName}: ${message}`);
    this.errorName = errorName;
  }
}

/** How long a call may take before it counts as failed (a hung peer never holds the tray or capture). */
const CALL_DEADLINE_MS = 5_000;

/** A connection to the session bus. */
export interface BusConnection {
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
  /**
   * Calls `listener` once when the connection is gone (closed or broken), with why when this
   * side closed it because of what came in (a message over the limit, bytes that are not D-Bus).
   */
  onClose(listener: (why?: string) => void): void;
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

/** The longest line of the authentication the tray waits for (the server's are short). */
const MAX_AUTH_LINE = 16 * 1024;

/** Reads the server's answer lines of the authentication, one at a time. */
function authLines(socket: Socket): { next(): Promise<string>; rest(): Buffer } {
  let pending = Buffer.alloc(0);
  let waiting: ((line: string) => void) | null = null;
  let failed: ((error: Error) => void) | null = null;
  const take = (): void => {
    const end = pending.indexOf('\r\n');
    if (end < 0 || !waiting) return;
    const line = pending.subarray(0, end).toString('ascii');
    pending = pending.subarray(end + 2);
    const resolve = waiting;
    waiting = null;
    resolve(line);
  };
  const onData = (chunk: Buffer): void => {
    pending = Buffer.concat([pending, chunk]);
    if (pending.indexOf('\r\n') < 0 && pending.length > MAX_AUTH_LINE) {
      socket.destroy();
      failed?.(new Error('the session bus sent an authentication line that does not end'));
      return;
    }
    take();
  };
  const onEnd = (): void => failed?.(new Error('the session bus closed the connection during authentication'));
  socket.on('data', onData);
  socket.once('close', onEnd);
  return {
    next: () =>
      new Promise((resolve, reject) => {
        waiting = resolve;
        failed = reject;
        take();
      }),
    rest: () => {
      socket.removeListener('data', onData);
      socket.removeListener('close', onEnd);
      return pending;
    },
  };
}

/**
 * Connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS`; null when there is none
 * (no desktop session) or it cannot be reached. A message over 1 MiB closes the connection,
 * or, given `onSkipped`, is dropped unread and told to it while the connection goes on (wire.ts
 * {@link MessageReader}).
 */
export async function openBusConnection(env: NodeJS.ProcessEnv, onSkipped?: (declaredBytes: number) => void): Promise<BusConnection | null> {
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
  const connected = socket;

  // EXTERNAL: the bus checks the socket's peer credentials against the uid we name (in hex of its decimal digits).
  const lines = authLines(connected);
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : '';
  const deadline = setTimeout(() => connected.destroy(), CALL_DEADLINE_MS);
  deadline.unref();
  let leftover: Buffer;
  try {
    connected.write(`\0AUTH EXTERNAL ${Buffer.from(uid, 'ascii').toString('hex')}\r\n`);
    const answer = await lines.next();
    if (!answer.startsWith('OK ')) throw new Error(`the session bus refused the authentication (${answer.split(' ')[0]})`);
    leftover = lines.rest();
  } catch {
    clearTimeout(deadline);
    connected.destroy();
    return null;
  }
  clearTimeout(deadline);

  const closeListeners: Array<(why?: string) => void> = [];
  const served = new Map<string, (call: BusMessage) => void>();
  const signalListeners: Array<(signal: BusMessage) => void> = [];
  const pending = new Map<number, { resolve: (body: unknown[]) => void; reject: (error: Error) => void }>();
  let closed = false;
  let serial = 0;
  const gone = (why?: string): void => {
    if (closed) return;
    closed = true;
    for (const waiting of pending.values()) waiting.reject(new BusCallError('org.freedesktop.DBus.Error.Disconnected', 'the session bus connection is closed'));
    pending.clear();
    for (const listener of closeListeners) listener(why);
  };
  connected.on('error', () => gone());
  connected.on('close', () => gone());

  const send = (message: Omit<WireMessage, 'serial'>): number => {
    const sent = ++serial;
    if (closed) return sent;
    try {
      connected.write(encodeMessage({ ...message, serial: sent }));
    } catch (error) {
      // A value that cannot be written (a bug on this side) must not take the connection down.
      if (message.type === MessageType.methodCall) throw error;
    }
    return sent;
  };

  const dispatch = (message: WireMessage): void => {
    if (message.type === MessageType.methodReturn || message.type === MessageType.error) {
      const waiting = message.replySerial === undefined ? undefined : pending.get(message.replySerial);
      if (!waiting) return;
      pending.delete(message.replySerial as number);
      if (message.type === MessageType.methodReturn) waiting.resolve(message.body ?? []);
      else waiting.reject(new BusCallError(message.errorName ?? 'org.freedesktop.DBus.Error.Failed', typeof message.body?.[0] === 'string' ? message.body[0] : ''));
      return;
    }
    if (message.type === MessageType.signal) {
      for (const listener of signalListeners) listener(message);
      return;
    }
    if (message.type !== MessageType.methodCall) return;
    const handler = message.path === undefined ? undefined : served.get(message.path);
    try {
      if (handler) handler(message);
      else if (message.interface === 'org.freedesktop.DBus.Peer' && message.member === 'Ping') bus.reply(message, '', []);
      else bus.fail(message, 'org.freedesktop.DBus.Error.UnknownObject', `no object at ${String(message.path)}`);
    } catch (error) {
      bus.fail(message, 'org.freedesktop.DBus.Error.Failed', error instanceof Error ? error.message : String(error));
    }
  };

  const reader = new MessageReader(undefined, onSkipped);
  const onData = (chunk: Buffer): void => {
    let messages: WireMessage[];
    try {
      messages = reader.push(chunk);
    } catch (error) {
      // Too large, or bytes that are not D-Bus: nothing after them can be trusted. Dropping the
      // connection drops what the bus still queues for it too.
      connected.removeListener('data', onData);
      connected.destroy();
      gone(error instanceof MessageTooLarge ? error.message : `bytes that are not D-Bus came in (${error instanceof Error ? error.message : String(error)})`);
      return;
    }
    for (const message of messages) {
      if (closed) return;
      dispatch(message);
    }
  };
  connected.on('data', onData);

  const call: BusConnection['call'] = (message) =>
    new Promise((resolve, reject) => {
      if (closed) {
        reject(new BusCallError('org.freedesktop.DBus.Error.Disconnected', 'the session bus connection is closed'));
        return;
      }
      let sent = 0;
      const timer = setTimeout(() => {
        pending.delete(sent);
        reject(new BusCallError('org.freedesktop.DBus.Error.Timeout', `${message.member} did not answer`));
      }, CALL_DEADLINE_MS);
      timer.unref();
      const settle = {
        resolve: (body: unknown[]) => {
          clearTimeout(timer);
          resolve(body);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      try {
        sent = serial + 1;
        pending.set(sent, settle);
        send({ type: MessageType.methodCall, ...message, ...(message.signature ? { signature: message.signature } : {}) });
      } catch (error) {
        pending.delete(sent);
        settle.reject(error instanceof Error ? error : new Error(String(error)));
      }
    });

  const bus: BusConnection = {
    uniqueName: '',
    call,
    signal: (path, iface, member, signature, body) => {
      send({ type: MessageType.signal, path, interface: iface, member, signature, body });
    },
    reply: (message, signature, body) => {
      if ((message.flags ?? 0) & NO_REPLY_EXPECTED || message.serial === undefined) return;
      send({ type: MessageType.methodReturn, replySerial: message.serial, ...(message.sender ? { destination: message.sender } : {}), signature, body });
    },
    fail: (message, errorName, text) => {
      if ((message.flags ?? 0) & NO_REPLY_EXPECTED || message.serial === undefined) return;
      send({ type: MessageType.error, errorName, replySerial: message.serial, ...(message.sender ? { destination: message.sender } : {}), signature: 's', body: [text] });
    },
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
      connected.end();
      connected.destroy();
      gone();
    },
  };

  connected.write('BEGIN\r\n');
  if (leftover.length > 0) onData(leftover);
  try {
    const [name] = await call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'Hello' });
    if (typeof name !== 'string' || name === '') throw new Error('no unique name');
    (bus as { uniqueName: string }).uniqueName = name;
  } catch {
    bus.close();
    return null;
  }
  return bus;
}
