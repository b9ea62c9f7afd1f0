/**
 * The window server's connections (docs/ui.md "Security decisions"): at most
 * {@link MAX_WINDOW_CONNECTIONS}. When it is full, a new connection takes the place of the
 * oldest one that is not busy with a complete request (a silent socket, a header or body still
 * dripping, a keep-alive connection between requests), else of the one whose answers have gone
 * unread longest; only when every one is busy and reading (event streams, answers being
 * taken) is the new one closed at once. Each connection has the limits of connections that do
 * not read, the listener's too (`@tock/listener` `createLimitedServer`, docs/protocol.md
 * "Connections and their limits"): at most 8 requests waiting, pending output over 1 MiB unread
 * or blocked for 10 s, 30 s idle. Another local user's sockets can so never keep the window's
 * own requests out, nor hold the app's memory or file descriptors.
 */
import type { RequestListener } from 'node:http';
import { createLimitedServer, type ConnectionLimits, type LimitedServer, type ServerTimeouts } from '@tock/listener';

/** Most connections the window's server holds at once. */
export const MAX_WINDOW_CONNECTIONS = 64;

/** Limits a test may set lower. */
export interface WindowConnectionOptions {
  /** Most connections held at once (default {@link MAX_WINDOW_CONNECTIONS}). */
  maxConnections?: number;
  /** Node's limits on a request on its way in (default: the listener's SERVER_TIMEOUTS). */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** The limits on the way out (default: the listener's CONNECTION_LIMITS). */
  connectionLimits?: Partial<ConnectionLimits>;
}

/** The window's `node:http` server with the bound above; `handler` answers every request let through. */
export function createWindowHttpServer(options: WindowConnectionOptions, handler: RequestListener): LimitedServer {
  return createLimitedServer(
    {
      maxConnections: options.maxConnections ?? MAX_WINDOW_CONNECTIONS,
      whenFull: 'replace',
      serverTimeouts: options.serverTimeouts,
      limits: options.connectionLimits,
    },
    handler,
  );
}
