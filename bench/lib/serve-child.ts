/**
 * The child side of the stand-in servers that bench/lib/children.ts starts (bench/servers:
 * the bare, SSE and floor servers): listen on 127.0.0.1 at a free port, print the one ready
 * line, answer `{type: 'cpu'}` over IPC with the CPU time so far (µs), and stop on SIGTERM,
 * SIGINT, `{type: 'stop'}` or when the parent goes. One copy, so each server holds only what
 * it measures.
 */

import type { Server } from 'node:http';

/** What a stand-in adds to its ready line, and what it closes before exiting. */
export interface ServeOptions {
  /** More fields of the ready line besides `port` and `pid` (the floor server's token). */
  ready?: Record<string, unknown>;
  /** Runs first when stopping (the SSE server ends its open streams). */
  beforeStop?: () => void;
}

/** Serves `server` as a benchmark child until it is told to stop; the handlers are in place before the ready line. */
export function serveBenchChild(server: Server, options: ServeOptions = {}): void {
  const stop = (): void => {
    options.beforeStop?.();
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'stop') stop();
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ type: 'cpu', us: user + system });
    }
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    process.stdout.write(`${JSON.stringify({ port, pid: process.pid, ...options.ready })}\n`);
  });
}
