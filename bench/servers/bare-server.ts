/**
 * The throughput and latency baseline: a bare node:http server that answers every request
 * with a constant JSON body shaped like a `GET /status` answer, with the same headers Tock
 * sends, and checks nothing. It is what any HTTP API on this Node could do at best.
 *
 *   node bench/servers/bare-server.ts
 *
 * Prints one JSON line, `{"port": N, "pid": N}`, answers `{type: 'cpu'}` over IPC with its CPU
 * time so far (µs), and runs until SIGTERM, `{type: 'stop'}` or its parent goes.
 */

import { createServer } from 'node:http';

const body = JSON.stringify({
  ok: true,
  result: {
    isTracking: true,
    isOnBreak: false,
    currentActivity: { activityID: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12', activityName: 'Bench project 3' },
    todaySeconds: 12345,
    since: '2026-11-22T08:00:00.000Z',
  },
});
const headers = {
  'content-type': 'application/json; charset=utf-8',
  'content-length': Buffer.byteLength(body),
  'x-tock-api-version': '1',
  'cache-control': 'no-store',
};

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port, pid: process.pid })}\n`);
});
const stop = (): void => {
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
