/**
 * The child side of the stand-in servers that bench/lib/children.ts starts (bench/servers:
 * the bare, SSE and floor servers): listen on 127.0.0.1 at a free port, print the one ready
 * line, answer `{type: 'cpu'}` over IPC with the CPU time so far (µs), and stop on SIGTERM,
 * SIGINT, `{type: 'stop'}` or when the parent goes. One copy, so each server holds only what
 * it measures.
 */

import type { Server } from 'node:http';

/**
 * The status every stand-in reports: a session running since 08:00 on the bench's fixed day,
 * shaped as Tock's `GET /status` result, so the bytes sent match what Tock sends.
 */
export const STATUS_RESULT = {
  isTracking: true,
  isOnBreak: false,
  currentActivity: { activityID: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12', activityName: 'Bench project 3' },
  todaySeconds: 12345,
  since: '2026-11-22T08:00:00.000Z',
} as const;

/** A `GET /status` answer's body: `{ok: true, result}` around {@link STATUS_RESULT}. */
export const STATUS_BODY = JSON.stringify({ ok: true, result: STATUS_RESULT });

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
