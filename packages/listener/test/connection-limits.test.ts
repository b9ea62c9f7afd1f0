import assert from 'node:assert/strict';
import type { RequestListener, ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { until } from '@tock/test-support';
import {
  CONNECTION_LIMITS,
  createLimitedServer,
  MAX_CONNECTIONS,
  SERVER_TIMEOUTS,
  type ClosedBecause,
  type LimitedServer,
  type LimitedServerOptions,
} from '../src/index.ts';
import { startHarness } from './signed-client.ts';

/** Opens a raw connection and resolves once it is established. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/**
 * What the server sent before it closed the socket. No deadline of its own: a server that
 * never closed it would leave the test waiting, and node:test's timeout fails it — no
 * wall-clock budget a loaded machine could miss.
 */
function whenClosed(socket: Socket): Promise<{ data: string }> {
  let data = '';
  return new Promise((resolve) => {
    socket.on('data', (c) => (data += c.toString()));
    socket.on('error', () => undefined); // a reset is a close too
    socket.on('close', () => resolve({ data }));
  });
}

describe('connection limits', { timeout: 30_000 }, () => {
  it('has a connection bound by default', () => {
    assert.equal(MAX_CONNECTIONS, 1024);
  });

  it('answers 408 and closes a connection that never sends a byte, at the request timeout', async (t) => {
    const h = await startHarness(t, { serverTimeouts: { headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 } });
    const socket = await open(h.port);
    const closed = await whenClosed(socket);
    assert.match(closed.data, /^HTTP\/1\.1 408 /);
  });

  it('answers 408 to headers that trickle in past the headers timeout', async (t) => {
    const h = await startHarness(t, { serverTimeouts: { headersTimeout: 400, requestTimeout: 800, connectionsCheckingInterval: 50 } });
    const socket = await open(h.port);
    socket.write('GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    const closed = await whenClosed(socket).finally(() => clearInterval(timer));
    assert.match(closed.data, /^HTTP\/1\.1 408 /);
    assert.match(closed.data, /"code":"request_timeout"/);
  });

  it('closes connections beyond the bound as they come, and serves again once they go', async (t) => {
    const h = await startHarness(t, { maxConnections: 20 });
    const held = await Promise.all(Array.from({ length: 20 }, () => open(h.port)));
    const extra = await open(h.port);
    const refused = await whenClosed(extra);
    assert.equal(refused.data, '', 'closed without an answer');
    await assert.rejects(h.send({ target: '/status' }), 'a 21st connection is refused');
    for (const socket of held) socket.destroy();
    // The server counts a connection gone when it sees it close, a moment after this side.
    const answer = await until('a request served once the held connections are gone', () => h.send({ target: '/status' }).catch(() => undefined));
    assert.equal(answer.status, 200);
  });
});

/** A server made by createLimitedServer on a free port, closed after the test; `closed` lists why it closed connections. */
async function limitedServer(
  t: TestContext,
  options: Partial<LimitedServerOptions>,
  handler: RequestListener,
): Promise<{ port: number; closed: ClosedBecause[]; server: LimitedServer }> {
  const closed: ClosedBecause[] = [];
  const limited = createLimitedServer({ maxConnections: 64, whenFull: 'refuse', ...options, onClose: (because) => closed.push(because) }, handler);
  await new Promise<void>((resolve) => limited.server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        limited.server.close(() => resolve());
        limited.server.closeAllConnections();
      }),
  );
  return { port: (limited.server.address() as AddressInfo).port, closed, server: limited };
}

const get = (port: number, path = '/'): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;

describe('connections that do not read (docs/protocol.md)', { timeout: 60_000 }, () => {
  it('has the contract’s limits by default', () => {
    assert.deepEqual(
      { ...CONNECTION_LIMITS, headersTimeout: SERVER_TIMEOUTS.headersTimeout },
      { maxWaitingRequests: 8, maxPendingOutputBytes: 1024 * 1024, writeStallMs: 10_000, idleMs: 30_000, checkEveryMs: 1_000, headersTimeout: 10_000 },
    );
  });

  it('lets 8 requests wait on one connection and closes it at the 9th, before the app sees it', async (t) => {
    const waiting: ServerResponse[] = [];
    const h = await limitedServer(t, {}, (_req, res) => void waiting.push(res)); // answers nothing
    const socket = await open(h.port);
    const closed = whenClosed(socket);
    socket.write(get(h.port).repeat(8));
    await until('the app to have the 8 requests', () => waiting.length === 8);
    assert.equal(socket.readyState, 'open', 'eight waiting requests are allowed');
    assert.equal(h.server.connections(), 1);
    socket.write(get(h.port));
    assert.equal((await closed).data, '', 'closed without an answer');
    assert.deepEqual(h.closed, ['pipelined']);
    assert.equal(waiting.length, 8, 'the 9th request never reached the app');
  });

  it('closes at the 9th of 200 requests pipelined in one write, and the app answers 8 of them', async (t) => {
    let answered = 0;
    const h = await limitedServer(t, {}, (_req, res) => {
      answered++;
      res.end('x'.repeat(200_000));
    });
    const socket = await open(h.port);
    socket.pause(); // never reads
    socket.write(get(h.port).repeat(200));
    await until('the connection to be closed', () => h.closed.length === 1);
    assert.deepEqual(h.closed, ['pipelined']);
    assert.equal(answered, 8);
    assert.equal(h.server.connections(), 0);
  });

  it('closes a connection whose pending output is over 1 MiB with nothing read since the last check', async (t) => {
    // The default 1 MiB; checks every 50 ms; a stall limit far away, so only the size can close it.
    const h = await limitedServer(t, { limits: { checkEveryMs: 50, writeStallMs: 600_000 } }, (_req, res) => res.end(Buffer.alloc(16 * 1024 * 1024)));
    const socket = await open(h.port);
    socket.pause(); // never reads
    socket.write(get(h.port));
    await until('the connection to be closed', () => h.closed.length === 1);
    assert.deepEqual(h.closed, ['unread']);
  });

  it('keeps a connection whose client reads a 16 MiB answer as it comes', async (t) => {
    // The default look every second: on a loaded machine a 50 ms look could fall between two
    // reads of a client that does read, which is not what this test is about.
    const h = await limitedServer(t, { limits: { writeStallMs: 600_000 } }, (_req, res) => res.end(Buffer.alloc(16 * 1024 * 1024)));
    const socket = await open(h.port);
    let received = 0;
    const all = new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= 16 * 1024 * 1024) resolve();
      });
      socket.on('close', () => reject(new Error(`closed after ${received} bytes: ${h.closed.join(', ')}`)));
    });
    socket.write(get(h.port));
    await all;
    assert.deepEqual(h.closed, []);
    assert.equal(socket.readyState, 'open');
    socket.destroy();
  });

  it('closes a connection whose output is blocked for the stall limit, though under the size limit', async (t) => {
    const h = await limitedServer(t, { limits: { checkEveryMs: 50, writeStallMs: 300, maxPendingOutputBytes: 1024 * 1024 * 1024 } }, (_req, res) =>
      res.end(Buffer.alloc(16 * 1024 * 1024)),
    );
    const socket = await open(h.port);
    socket.pause();
    socket.write(get(h.port));
    await until('the connection to be closed', () => h.closed.length === 1);
    assert.deepEqual(h.closed, ['blocked']);
  });

  it('answers 408 to headers that trickle in past the headers timeout', async (t) => {
    const h = await limitedServer(t, { serverTimeouts: { headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 } }, (_req, res) => res.end());
    const socket = await open(h.port);
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\n`);
    const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 50);
    const closed = await whenClosed(socket).finally(() => clearInterval(timer));
    assert.match(closed.data, /^HTTP\/1\.1 408 /);
  });

  it('closes a connection idle for the idle limit', async (t) => {
    // An answer whose headers went and then nothing: not being prepared, no byte either way.
    const h = await limitedServer(t, { limits: { checkEveryMs: 50, idleMs: 300 } }, (_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders());
    const socket = await open(h.port);
    const closed = whenClosed(socket);
    socket.write(get(h.port));
    assert.match((await closed).data, /^HTTP\/1\.1 200 /);
    assert.deepEqual(h.closed, ['idle']);
  });

  it('keeps an event stream that sends its keep-alives, far past the idle limit', async (t) => {
    const timers: ReturnType<typeof setInterval>[] = [];
    t.after(() => timers.forEach(clearInterval));
    // The limits' clock moves only with the keep-alives, 100 ms each: on a loaded machine a late
    // keep-alive cannot look like 300 ms of silence, and a server that did not count them as
    // traffic would still close the stream after three.
    let clockMs = 0;
    const h = await limitedServer(t, { monotonic: () => clockMs, limits: { checkEveryMs: 50, idleMs: 300 } }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
      timers.push(
        setInterval(() => {
          clockMs += 100;
          res.write(': ping\n\n');
        }, 100),
      );
    });
    const socket = await open(h.port);
    let pings = 0;
    socket.on('data', (chunk: Buffer) => (pings += chunk.toString().split(': ping').length - 1));
    socket.write(get(h.port));
    // 20 keep-alives 100 ms apart on that clock span more than six idle limits.
    await until('20 keep-alives', () => pings >= 20);
    assert.equal(socket.readyState, 'open');
    assert.deepEqual(h.closed, []);
    socket.destroy();
  });

  it('does not close as idle a connection whose answer is still being prepared', async (t) => {
    let answer: ServerResponse | undefined;
    const h = await limitedServer(t, { limits: { checkEveryMs: 50, idleMs: 100 } }, (_req, res) => void (answer = res));
    const socket = await open(h.port);
    const closed = whenClosed(socket);
    socket.write(get(h.port));
    await until('the request to arrive', () => answer !== undefined);
    // Ten idle limits of silence, counted on a timer beside the server's own checks.
    let ticks = 0;
    const counter = setInterval(() => ticks++, 100);
    await until('ten idle limits to pass', () => ticks >= 10).finally(() => clearInterval(counter));
    assert.deepEqual(h.closed, []);
    answer?.end('done');
    socket.destroy();
    await closed;
  });

  it('when full, a new connection takes the place of one whose answers go unread', async (t) => {
    let answered = 0;
    const h = await limitedServer(t, { maxConnections: 2, whenFull: 'replace', limits: { checkEveryMs: 50, writeStallMs: 600_000, maxPendingOutputBytes: 1024 * 1024 * 1024 } }, (_req, res) => {
      answered++;
      res.end(Buffer.alloc(16 * 1024 * 1024));
    });
    const stalled = await Promise.all([open(h.port), open(h.port)]);
    for (const s of stalled) {
      s.pause();
      s.write(get(h.port));
    }
    await until('the two answers to be written', () => answered === 2);
    const fresh = await open(h.port);
    let received = 0;
    fresh.on('data', (chunk: Buffer) => (received += chunk.length));
    fresh.write(get(h.port));
    await until('the new connection to be answered', () => received >= 16 * 1024 * 1024);
    assert.deepEqual(h.closed, ['replaced']);
    fresh.destroy();
  });
});
