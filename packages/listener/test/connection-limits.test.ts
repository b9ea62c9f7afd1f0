import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { until } from '@tock/test-support';
import { MAX_CONNECTIONS } from '../src/index.ts';
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
