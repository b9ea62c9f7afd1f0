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
import { STATUS_BODY, serveBenchChild } from '../lib/serve-child.ts';

const body = STATUS_BODY;
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
