import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { MAX_CONNECTIONS } from '../src/index.ts';
import { startHarness } from './signed-client.ts';

/** Opens a raw connection and resolves once it is established. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Milliseconds until the server closes the socket (and what it sent before). */
function closedAfter(socket: Socket, limitMs: number): Promise<{ ms: number; data: string }> {
  const start = Date.now();
  let data = '';
  return new Promise((resolve, reject) => {
    socket.on('data', (c) => (data += c.toString()));
    socket.on('error', () => undefined); // a reset is a close too
    socket.on('close', () => resolve({ ms: Date.now() - start, data }));
    setTimeout(() => reject(new Error(`still open after ${limitMs} ms`)), limitMs).unref();
  });
}

describe('connection limits', () => {
  it('has a connection bound by default', () => {
    assert.equal(MAX_CONNECTIONS, 1024);
  });

  it('answers 408 and closes a connection that never sends a byte, at the request timeout', async (t) => {
    const h = await startHarness(t, { serverTimeouts: { headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 } });
    const socket = await open(h.port);
    const closed = await closedAfter(socket, 3000);
    assert.ok(closed.ms <= 400 + 1000, `held ${closed.ms} ms`);
    assert.match(closed.data, /^HTTP\/1\.1 408 /);
  });

  it('answers 408 to headers that trickle in past the headers timeout', async (t) => {
    const h = await startHarness(t, { serverTimeouts: { headersTimeout: 400, requestTimeout: 800, connectionsCheckingInterval: 50 } });
    const socket = await open(h.port);
    socket.write('GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    const closed = await closedAfter(socket, 3000).finally(() => clearInterval(timer));
    assert.match(closed.data, /^HTTP\/1\.1 408 /);
    assert.match(closed.data, /"code":"request_timeout"/);
  });

  it('closes connections beyond the bound as they come, and serves again once they go', async (t) => {
    const h = await startHarness(t, { maxConnections: 20 });
    const held = await Promise.all(Array.from({ length: 20 }, () => open(h.port)));
    const extra = await open(h.port);
    const refused = await closedAfter(extra, 2000);
    assert.equal(refused.data, '', 'closed without an answer');
    await assert.rejects(h.send({ target: '/status' }), 'a 21st connection is refused');
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await h.send({ target: '/status' })).status, 200);
  });
});
