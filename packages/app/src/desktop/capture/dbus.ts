/**
 * The few session-bus operations the GNOME and KDE focus sources need, typed, over
 * `@homebridge/dbus-native` (pure JavaScript), loaded on first use: call a
 * method, hear a signal, own a name and serve an interface. Unlike the idle sources' one-shot
 * `gdbus` reads, these sources keep a connection open to hear events as they come.
 */

/** One method of an interface this side serves: D-Bus signatures in and out, and the work. */
export interface ServedMethod {
  in: string;
  out: string;
  run: (...args: unknown[]) => unknown;
}

/** A connection to the session bus. */
export interface SessionBus {
  call(destination: string, path: string, iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]>;
  /** Calls `handler` with the body of each matching signal (the match rule is added on the bus). */
  onSignal(path: string, iface: string, member: string, handler: (body: unknown[]) => void): Promise<void>;
  /** Owns `name` (flag 4: do not queue); false when another connection owns it. */
  requestName(name: string): Promise<boolean>;
  serve(path: string, iface: string, methods: Record<string, ServedMethod>): void;
  /** Sends a signal from this connection (the tests' stand-ins for GNOME Shell use it). */
  emitSignal(path: string, iface: string, member: string, signature: string, body: unknown[]): void;
  /** Calls `handler` once if the connection ends. */
  onClose(handler: (reason: string) => void): void;
  close(): void;
}

interface NativeBus {
  connection: { on(event: string, f: (arg?: unknown) => void): void; once(event: string, f: (arg?: unknown) => void): void; end(): void; stream: { destroy(): void } };
  signals: { on(key: string, f: (body: unknown[]) => void): void };
  mangle(path: string, iface: string, member: string): string;
  invoke(msg: Record<string, unknown>, cb: (error: { name?: string; message?: string } | null, ...body: unknown[]) => void): void;
  addMatch(rule: string, cb: (error: unknown) => void): void;
  requestName(name: string, flags: number, cb: (error: unknown, code?: number) => void): void;
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
  return {
    call: (destination, path, iface, member, signature, body) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${destination} did not answer ${member}`)), timeoutMs);
        bus.invoke({ destination, path, interface: iface, member, ...(signature ? { signature, body } : {}) }, (error, ...out) => {
          clearTimeout(timer);
          if (error) reject(new Error(`${error.name ?? 'error'}: ${error.message ?? ''}`));
          else resolve(out);
        });
      }),
    onSignal: (path, iface, member, handler) =>
      new Promise((resolve, reject) => {
        bus.signals.on(bus.mangle(path, iface, member), handler);
        bus.addMatch(`type='signal',path='${path}',interface='${iface}',member='${member}'`, (error) => (error ? reject(new Error(String(error))) : resolve()));
      }),
    requestName: (name) =>
      new Promise((resolve, reject) => {
        bus.requestName(name, 4, (error, code) => (error ? reject(new Error(String((error as { message?: string }).message ?? error))) : resolve(code === 1 || code === 4)));
      }),
    serve(path, iface, methods) {
      const obj: Record<string, unknown> = {};
      const described: Record<string, [string, string, string[], string[]]> = {};
      for (const [name, m] of Object.entries(methods)) {
        obj[name] = m.run;
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
