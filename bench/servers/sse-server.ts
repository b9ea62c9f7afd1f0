/**
 * The event-latency baseline: a bare node:http server that pushes one JSON line to every open
 * server-sent-events stream each time it is told to, and checks nothing — no signatures, no
 * store, no status to compute. It is what any SSE push on this Node could do at best.
 *
 *   node bench/servers/sse-server.ts
 *
 * `GET /events` opens a stream (an event at once, like Tock's first status); `POST /push`
 * is answered 200 and then sends the same status-shaped JSON to every stream, in the order
 * Tock does (the answer first, then the events). Prints one JSON line, `{"port": N, "pid": N}`,
 * answers `{type: 'cpu'}` over IPC with its CPU time so far (µs), and runs until SIGTERM,
 * `{type: 'stop'}` or its parent goes.
 */

import { createServer, type ServerResponse } from 'node:http';
import { STATUS_RESULT, serveBenchChild } from '../lib/serve-child.ts';

const data = JSON.stringify(STATUS_RESULT);
const answer = JSON.stringify({ ok: true, result: { activityID: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12', activityName: 'Bench project 3', created: false, startedAt: '2026-11-22T08:00:00.000Z' } });
const streams = new Set<ServerResponse>();
let seq = 0;

const server = createServer((req, res) => {
  req.resume();
  if (req.method === 'GET' && req.url === '/events') {
    res.socket?.setNoDelay(true);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-tock-api-version': '1' });
    res.write(`id: bare.${seq++}\nevent: status\ndata: ${data}\n\n`);
    streams.add(res);
    res.on('close', () => streams.delete(res));
    return;
  }
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
    const event = `id: bare.${seq++}\nevent: status\ndata: ${data}\n\n`;
    for (const stream of streams) stream.write(event);
  });
});
serveBenchChild(server, {
  beforeStop: () => {
    for (const stream of streams) stream.end();
  },
});
