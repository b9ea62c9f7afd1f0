/**
 * Connections that do not read (docs/protocol.md "Connections and their limits"): the one
 * `node:http` server that the listener and the window's server both run on. Node's own limits
 * cover a request on its way in (its headers within 10 s, the whole of it within 30 s, 5 s
 * between requests); they stop counting once a request is complete, so a client that sends
 * requests and never reads the answers held its connection, and the answers in memory, for
 * good. This module adds the limits on the way out, checked once a second:
 *
 * - at most 8 requests wait on one connection (received, answer not yet sent): one more
 *   closes it, before the app answers any of them;
 * - its pending output (answers written, not yet taken by the peer) over 1 MiB with nothing
 *   taken since the last check closes it, and so does any pending output of which nothing was
 *   taken for 10 s;
 * - 30 s without a byte in or out closes it, unless an answer is still being prepared (an
 *   event stream that sends its keep-alives is never idle);
 * - at most `maxConnections` are open: when full, a new one is closed at once (`refuse`: the
 *   listener), or takes the place of the oldest one that is not busy with a complete request,
 *   then of the one whose output has been blocked longest (`replace`: the window's server).
 *
 * A connection closed here is destroyed: the requests it still had are never answered, and
 * their answers' memory goes with it.
 */
import type { IncomingMessage, RequestListener, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { nodeHttp } from './node-http.ts';

/** Node's limits on a request on its way in, ms (see README: loopback clients send a request in one go). */
export const SERVER_TIMEOUTS = {
  /** Whole header block must arrive within this. */
  headersTimeout: 10_000,
  /** Whole request (headers and ≤ 64 KiB body) must arrive within this. */
  requestTimeout: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeout: 5_000,
  /**
   * How often the two limits above are enforced. A connection that never sends a byte is
   * closed (408) by `requestTimeout` too: Node counts from the moment it was accepted.
   */
  connectionsCheckingInterval: 1_000,
} as const;

/** The timeouts above, each of which a test may shorten (ListenerOptions.serverTimeouts). */
export type ServerTimeouts = { -readonly [K in keyof typeof SERVER_TIMEOUTS]: number };

/** The limits on a connection's way out (SPEC-level contract: docs/protocol.md "Connections and their limits"). */
export const CONNECTION_LIMITS = {
  /** Most requests that may wait on one connection for their answers; one more closes it. */
  maxWaitingRequests: 8,
  /** Pending output over this, with nothing taken by the peer since the last check, closes the connection. */
  maxPendingOutputBytes: 1024 * 1024,
  /** Pending output of which nothing was taken for this long closes the connection. */
  writeStallMs: 10_000,
  /** No byte in or out for this long, and no answer being prepared, closes the connection. */
  idleMs: 30_000,
  /** How often every open connection is checked. */
  checkEveryMs: 1_000,
} as const;

/** The limits above, each of which a test may shorten (ListenerOptions.connectionLimits). */
export type ConnectionLimits = { -readonly [K in keyof typeof CONNECTION_LIMITS]: number };

/** Why a connection was closed here. */
export type ClosedBecause = 'full' | 'replaced' | 'pipelined' | 'unread' | 'blocked' | 'idle';

/** How a server's connections are limited. */
export interface LimitedServerOptions {
  /** Most connections open at once. */
  maxConnections: number;
  /** What a connection past `maxConnections` meets (see the module's comment). */
  whenFull: 'refuse' | 'replace';
  /** Node's limits on the way in (default {@link SERVER_TIMEOUTS}). */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** The limits on the way out (default {@link CONNECTION_LIMITS}). */
  limits?: Partial<ConnectionLimits>;
  /** Other `node:http` server options (header size, Host header). */
  http?: ServerOptions;
  /** Milliseconds of a clock that never steps (default `performance.now`). */
  monotonic?: () => number;
  /** Told of every connection closed here, with the reason (for tests and figures). */
  onClose?: (because: ClosedBecause) => void;
}

/** A server made by {@link createLimitedServer}. */
export interface LimitedServer {
  readonly server: Server;
  /** Connections open now. */
  connections(): number;
}

/** What is known of one open connection. */
interface Held {
  readonly socket: Socket;
  /** Answers to requests received and not yet sent, in order (each answer's `req` is its request). */
  readonly waiting: Set<ServerResponse>;
  /** Bytes read plus written at the last check, and when that last changed. */
  traffic: number;
  activeAt: number;
  /** Bytes of output taken by the peer at the last check, and when pending output last moved (or was none). */
  taken: number;
  movedAt: number;
}

const HELD = Symbol('the connection of an answer');

/** An answer of a limited connection: it knows its connection, for {@link answerClosed}. */
type HeldAnswer = ServerResponse & { [HELD]?: Held };

/** A waiting answer was sent, or its connection went: it waits no more. */
function answerClosed(this: ServerResponse): void {
  (this as HeldAnswer)[HELD]?.waiting.delete(this);
}

/**
 * A `node:http` server whose connections are limited as the module's comment says; `handler`
 * is called for every request on a connection still open.
 */
export function createLimitedServer(options: LimitedServerOptions, handler: RequestListener): LimitedServer {
  const limits: ConnectionLimits = { ...CONNECTION_LIMITS, ...options.limits };
  const now = options.monotonic ?? (() => performance.now());
  // Insertion order is accept order: the first one found is the oldest.
  const open = new Map<Socket, Held>();
  const server = nodeHttp.createServer({ ...options.http, ...SERVER_TIMEOUTS, ...options.serverTimeouts });
  // Refused before Node reads a byte of them (it counts its connections as this map does).
  if (options.whenFull === 'refuse') server.maxConnections = options.maxConnections;
  server.on('drop', () => options.onClose?.('full'));

  function close(held: Held, because: ClosedBecause): void {
    open.delete(held.socket);
    // Node goes on parsing the rest of the chunk it read (up to 64 KiB of pipelined requests)
    // and makes a request, an answer and, on close, an abort error for each: 100 such
    // connections held 30–70 MiB of garbage at once. Its parser's request callback (Node's own
    // http server sets it on every connection's parser) is made a no-op for a closed one
    // (docs/decisions.md "Connections that do not read"); where it is missing, only memory is lost.
    const parser = (held.socket as unknown as { parser?: { onIncoming?: unknown } | null }).parser;
    if (parser && typeof parser.onIncoming === 'function') parser.onIncoming = () => 0;
    // Answers left unread are dropped with a reset, not kept in the kernel behind a FIN.
    if (because === 'pipelined' || because === 'unread' || because === 'blocked') held.socket.resetAndDestroy();
    else held.socket.destroy();
    options.onClose?.(because);
  }

  server.on('connection', (socket: Socket) => {
    if (open.size >= options.maxConnections) {
      const place = options.whenFull === 'replace' ? replaceable() : undefined;
      if (place === undefined) {
        socket.destroy();
        options.onClose?.('full');
        return;
      }
      close(place, 'replaced');
    }
    const at = now();
    open.set(socket, { socket, waiting: new Set(), traffic: 0, activeAt: at, taken: 0, movedAt: at });
    socket.once('close', () => open.delete(socket));
    watchConnections();
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const held = open.get(req.socket);
    // Node parses every request of a chunk it read, also after the connection was closed.
    if (held === undefined || req.socket.destroyed) return;
    held.waiting.add(res);
    // One listener, not `once` on 'finish' and 'close': a ServerResponse emits 'close' after
    // it finished too (on the next tick) and when its connection went first; two once-wrappers
    // per request were ~2 % of a signed GET /status (bench/README.md, figure 1b). The listener
    // is one shared function, the connection kept on the answer: no closure per request.
    (res as HeldAnswer)[HELD] = held;
    res.on('close', answerClosed);
    if (held.waiting.size > limits.maxWaitingRequests) return close(held, 'pipelined');
    handler(req, res);
  });

  /** When full: the oldest connection not busy with a complete request, else the one with output pending whose output last moved longest ago. */
  function replaceable(): Held | undefined {
    let blocked: Held | undefined;
    for (const held of open.values()) {
      if (!busy(held)) return held;
      if (pendingOutput(held) > 0 && (blocked === undefined || held.movedAt < blocked.movedAt)) blocked = held;
    }
    return blocked;
  }

  function check(): void {
    const at = now();
    for (const held of [...open.values()]) {
      const { socket } = held;
      const traffic = socket.bytesRead + socket.bytesWritten;
      if (traffic !== held.traffic) {
        held.traffic = traffic;
        held.activeAt = at;
      }
      const pending = pendingOutput(held);
      const sent = taken(held);
      const moved = pending === 0 || sent !== held.taken;
      held.taken = sent;
      if (moved) held.movedAt = at;
      else if (pending > limits.maxPendingOutputBytes) close(held, 'unread');
      else if (at - held.movedAt >= limits.writeStallMs) close(held, 'blocked');
      if (open.has(socket) && at - held.activeAt >= limits.idleMs && !preparing(held)) close(held, 'idle');
    }
    if (open.size === 0) stopWatching();
  }

  // The check runs only while a connection is open: a server nobody talks to is not woken once
  // a second (issue 42 target 1: no timer wakes the idle app more than once a minute).
  let timer: ReturnType<typeof setInterval> | undefined;
  function watchConnections(): void {
    timer ??= setInterval(check, limits.checkEveryMs).unref();
  }
  function stopWatching(): void {
    clearInterval(timer);
    timer = undefined;
  }
  server.on('close', stopWatching);

  return { server, connections: () => open.size };
}

/** A request on it is complete and its answer not yet sent (an event stream, an answer being written). */
function busy(held: Held): boolean {
  for (const { req } of held.waiting) if (req.complete) return true;
  return false;
}

/** An answer is being worked on: nothing of it written yet. */
function preparing(held: Held): boolean {
  for (const res of held.waiting) if (!res.headersSent) return true;
  return false;
}

/**
 * Bytes written and not yet taken by the peer: what the socket holds, and the answers queued
 * behind the one it is sending (Node keeps a pipelined request's answer until its turn).
 */
function pendingOutput(held: Held): number {
  let bytes = held.socket.writableLength;
  for (const res of held.waiting) if (res.socket === null) bytes += res.writableLength;
  return bytes;
}

/** Bytes the peer's side took so far (handed to the kernel). */
function taken(held: Held): number {
  return held.socket.bytesWritten - held.socket.writableLength;
}
