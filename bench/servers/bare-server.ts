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
import { serveBenchChild } from '../lib/serve-child.ts';

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
serveBenchChild(server);
