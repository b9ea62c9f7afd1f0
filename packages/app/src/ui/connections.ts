/**
 * The window server's bound on open connections (docs/ui.md "Security decisions"): at most {@link MAX_WINDOW_CONNECTIONS}.
 * When it is full, a new connection takes the place of the oldest one that has not sent a
 * complete request (a silent socket, a header or body still dripping, a keep-alive connection
 * between requests); when every one is busy with a complete request (event streams, answers
 * being written), the new one is closed at once. Another local user's idle sockets can so
 * never keep the window's own requests out, nor use up the app's file descriptors.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** Most connections the window's server holds at once. */
export const MAX_WINDOW_CONNECTIONS = 64;

/** Applies the bound to `server`; returns how many connections are open (for tests). */
export function limitConnections(server: Server, max: number = MAX_WINDOW_CONNECTIONS): () => number {
  // Insertion order is accept order: the first idle one found is the oldest idle one.
  const open = new Map<Socket, { request: IncomingMessage | null }>();
  const busy = (entry: { request: IncomingMessage | null }): boolean => entry.request?.complete === true;

  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      let evicted = false;
      for (const [held, entry] of open) {
        if (busy(entry)) continue;
        open.delete(held);
        held.destroy();
        evicted = true;
        break;
      }
      if (!evicted) {
        socket.destroy();
        return;
      }
    }
    open.set(socket, { request: null });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res) => {
    const entry = open.get(req.socket);
    if (!entry) return;
    entry.request = req;
    const done = (): void => {
      if (entry.request === req) entry.request = null;
    };
    res.once('finish', done);
    res.once('close', done);
  });
  return () => open.size;
}
