/**
 * Attack campaign, family 6 (docs/security.md): slow and malformed traffic on raw sockets.
 * Slow-loris headers and bodies and silent connections against a listener with shortened
 * timeouts (the real ones are 10 s and 30 s; ListenerOptions.serverTimeouts), while a
 * TockClient keeps being served; then, against the real app, a connection flood past the
 * bound, header floods, request smuggling shapes, invalid UTF-8, deep nesting, huge numbers,
 * NaN/Infinity and duplicate keys. Nothing gets a 5xx, the app keeps answering.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { TockClient } from '@tock/client';
import { createTracker, openStore } from '@tock/core';
import { createListener, MAX_CONNECTIONS } from '@tock/listener';
import { until } from '@tock/test-support';
import { authHeaders, freshNonce } from '@tock/listener/testing';
import { assertNoTokenLeak, startTarget, type Target } from './attack-support/target.ts';

const TOKEN = 'c2xvdy1sb3Jpcy10ZXN0LXRva2VuLTAxMjM0NTY3ODk';

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Resolves when the server closes the socket: after how long, and what it answered. */
function whenClosed(socket: Socket): Promise<{ ms: number; data: string }> {
  const start = Date.now();
  let data = '';
  return new Promise((resolve) => {
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ ms: Date.now() - start, data }));
  });
}

/** Sends raw bytes, returns everything the server answered until it closed. */
async function raw(port: number, bytes: string | Buffer, waitMs = 5000): Promise<string> {
  const socket = await open(port);
  const closed = whenClosed(socket);
  socket.write(bytes);
  const timer = setTimeout(() => socket.destroy(), waitMs);
  const { data } = await closed;
  clearTimeout(timer);
  return data;
}

/** A signed raw request with a body given as bytes (for bodies no JSON.stringify makes). */
function signedRaw(t: Target, method: string, target: string, body: Buffer, extra = ''): Buffer {
  const headers = authHeaders({ method, target, body, timestamp: String(Math.floor(Date.now() / 1000)), nonce: freshNonce(), token: t.token });
  const head =
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
    Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('') +
    extra +
    'Connection: close\r\n\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

function statusOf(answer: string): number {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(answer);
  return match ? Number(match[1]) : 0;
}

function codeOf(answer: string): string | undefined {
  return /"code":"([a-z_]+)"/.exec(answer)?.[1];
}

describe('attack: slow traffic (shortened timeouts)', () => {
  // No wall-clock budget: the server's own timeouts close what it must (408, or the keep-alive
  // ending after its answer); a server that never did would leave this test waiting, and
  // node:test's timeout fails it. Answers to the signed client while the slow connections are
  // held are counted in order of events, not timed.
  it('drops slow-loris headers, bodies and silent connections by its timeouts while serving a signed client', { timeout: 60_000 }, async (t) => {
    const timeouts = { headersTimeout: 1000, requestTimeout: 2000, keepAliveTimeout: 500, connectionsCheckingInterval: 100 };
    const store = openStore(':memory:');
    const tracker = createTracker({ store });
    const listener = createListener({
      token: () => TOKEN,
      license: () => 'trial',
      appVersion: '0.0.0',
      replayGuard: { startedAtMs: Date.now() - 3_600_000 },
      serverTimeouts: timeouts,
      handlers: { getStatus: () => tracker.getStatus(), logEntry: (input) => tracker.logEntry(input) },
    });
    await listener.listen(0);
    t.after(async () => {
      await listener.close();
      store.close();
    });
    const port = listener.port as number;
    const PER_KIND = 40;

    const slowHeaders = await Promise.all(Array.from({ length: PER_KIND }, () => open(port)));
    const slowBodies = await Promise.all(Array.from({ length: PER_KIND }, () => open(port)));
    const silent = await Promise.all(Array.from({ length: PER_KIND }, () => open(port)));
    const keepAlive = await Promise.all(Array.from({ length: PER_KIND }, () => open(port)));
    const closed = [...slowHeaders, ...slowBodies, ...silent, ...keepAlive].map(whenClosed);
    let openSlow = closed.length;
    for (const c of closed) void c.then(() => openSlow--);
    // One signed request each, kept alive, then nothing.
    for (const s of keepAlive) {
      const headers = authHeaders({ method: 'GET', target: '/status', body: '', timestamp: String(Math.floor(Date.now() / 1000)), nonce: freshNonce(), token: TOKEN });
      s.write(`GET /status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
    }
    for (const s of slowHeaders) s.write(`GET /status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    for (const s of slowBodies) s.write(`POST /entries HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{`);
    const drip = setInterval(() => {
      for (const s of slowHeaders) if (!s.destroyed) s.write('X-Drip: 1\r\n');
      for (const s of slowBodies) if (!s.destroyed) s.write(' ');
    }, 200);

    // Meanwhile a normal client is served: until the server has closed every slow connection,
    // counting the answers that came while all of them were still held.
    const client = new TockClient({ token: TOKEN, port, timeoutMs: 10_000 });
    const latencies: number[] = [];
    let answeredWhileAllHeld = 0;
    while (openSlow > 0) {
      const t0 = Date.now();
      assert.equal(typeof (await client.getStatus()).todaySeconds, 'number');
      latencies.push(Date.now() - t0);
      if (openSlow === closed.length) answeredWhileAllHeld++;
      await new Promise((r) => setTimeout(r, 50)); // pacing the normal client, not a wait for anything
    }
    const results = await Promise.all(closed);
    clearInterval(drip);

    const headerResults = results.slice(0, PER_KIND);
    const bodyResults = results.slice(PER_KIND, 2 * PER_KIND);
    const silentResults = results.slice(2 * PER_KIND, 3 * PER_KIND);
    const keepAliveResults = results.slice(3 * PER_KIND);
    // Slow headers, though they keep dripping, end at the headers timeout: 408.
    for (const r of headerResults) assert.equal(statusOf(r.data), 408, r.data);
    // A slow body ends at the request timeout: 408, or closed before an answer could be written.
    for (const r of bodyResults) assert.ok(r.data === '' || statusOf(r.data) === 408, r.data);
    for (const r of silentResults) assert.equal(statusOf(r.data), 408, r.data);
    // An idle keep-alive connection is closed after its one answer.
    for (const r of keepAliveResults) assert.equal(statusOf(r.data), 200, r.data);
    // A server that slow connections could stall would answer only once they were dropped.
    assert.ok(answeredWhileAllHeld > 0, 'the signed client got no answer while the slow connections were held');
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] as number;
    console.log(
      `# slow: ${4 * PER_KIND} slow connections (headers, bodies, silent, idle keep-alive) closed in ≤ ${Math.max(...results.map((r) => r.ms))} ms; ` +
        `signed client: ${latencies.length} requests (${answeredWhileAllHeld} while all were held), p99 ${p99} ms`,
    );
  });
});

describe('attack: malformed traffic and floods (real app)', () => {
  let target: Target | undefined;
  after(async () => {
    await target?.dispose();
  });

  it('answers every malformed request with a 4xx, bounds connections, and keeps serving', async () => {
    target = await startTarget();
    const t = target;
    const port = t.port;
    const figures: Record<string, string> = {};
    const expect4xx = (name: string, answer: string, status: number, code?: string): void => {
      t.keep(answer);
      assert.equal(statusOf(answer), status, `${name}: ${answer.slice(0, 300)}`);
      if (code) assert.equal(codeOf(answer), code, `${name}: ${answer.slice(0, 300)}`);
      figures[name] = `${status}${code ? ' ' + code : ''}`;
    };

    // Header floods: one huge header, and thousands of small ones (Node's 16 KiB limit counts bytes).
    expect4xx('header of 20 KiB', await raw(port, `GET /status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431);
    expect4xx('3000 headers', await raw(port, `GET /status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${'X-A: b\r\n'.repeat(3000)}\r\n`), 431);
    // Request smuggling shapes and bad framing: Node's parser refuses them.
    expect4xx('Content-Length and Transfer-Encoding', await raw(port, `POST /entries HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`), 400);
    expect4xx('two Content-Lengths', await raw(port, `POST /entries HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`), 400);
    expect4xx('negative Content-Length', await raw(port, `POST /entries HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: -1\r\n\r\n`), 400);
    expect4xx('huge Content-Length', await raw(port, `POST /entries HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 99999999999999999999\r\n\r\n`), 400);
    expect4xx('Content-Length over 64 KiB', await raw(port, `POST /entries HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 70000\r\n\r\n`), 413, 'payload_too_large');
    expect4xx('not HTTP', await raw(port, '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 TLS hello\r\n\r\n'), 400);
    expect4xx('invalid UTF-8 in the target', await raw(port, Buffer.concat([Buffer.from('GET /st'), Buffer.from([0xff, 0xfe]), Buffer.from(`atus HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)])), 400);
    expect4xx('no Host', await raw(port, 'GET /status HTTP/1.1\r\nConnection: close\r\n\r\n'), 403, 'forbidden_host');

    // Bodies that are signed correctly but are not what they should be.
    const body = (text: string | Buffer): Buffer => (typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
    const post = async (name: string, target: string, b: Buffer, status: number, code?: string): Promise<string> => {
      const answer = await raw(port, signedRaw(t, 'POST', target, b));
      expect4xx(name, answer, status, code);
      return answer;
    };
    await post('invalid UTF-8 body', '/activities/start', Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), 400, 'invalid_json');
    await post('overlong UTF-8 body', '/activities/start', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), 400, 'invalid_json');
    await post('100k [ (over 64 KiB)', '/entries', body('['.repeat(100_000)), 413, 'payload_too_large');
    await post('65k unclosed [', '/entries', body('['.repeat(65_000)), 400, 'invalid_json');
    await post('32k nested arrays', '/entries', body('['.repeat(32_000) + ']'.repeat(32_000)), 400, 'validation_failed');
    await post('deeply nested field', '/entries', body(`{"name":${'['.repeat(20_000)}${']'.repeat(20_000)},"durationMinutes":1}`), 400, 'validation_failed');
    await post('deeply nested objects', '/activities/stop', body('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)), 200);
    await post('1e400 minutes', '/entries', body('{"name":"Big","durationMinutes":1e400,"createIfMissing":true}'), 400, 'validation_failed');
    await post('-1e400 minutes', '/entries', body('{"name":"Big","durationMinutes":-1e400,"createIfMissing":true}'), 400, 'validation_failed');
    await post('"NaN" minutes', '/entries', body('{"name":"Big","durationMinutes":"NaN","createIfMissing":true}'), 400, 'validation_failed');
    await post('"Infinity" minutes', '/entries', body('{"name":"Big","durationMinutes":"Infinity","createIfMissing":true}'), 400, 'validation_failed');
    await post('bare NaN', '/entries', body('{"name":"Big","durationMinutes":NaN}'), 400, 'invalid_json');
    await post('bare Infinity', '/entries', body('{"name":"Big","durationMinutes":Infinity}'), 400, 'invalid_json');
    await post('1e-400 minutes', '/entries', body('{"name":"Big","durationMinutes":1e-400,"createIfMissing":true}'), 400, 'validation_failed');
    await post('__proto__ key', '/activities/start', body('{"__proto__":{"name":"x"},"name":"Proto","createIfMissing":true}'), 400, 'validation_failed');
    // A UTF-8 byte order mark is skipped (RFC 8259 allows a parser to ignore it).
    await post('BOM before JSON', '/activities/stop', body('\ufeff{}'), 200);

    // Duplicate keys: the last one wins (JSON.parse), and the signature covers the bytes as sent.
    const dup = body('{"name":"First","name":"Second","createIfMissing":true}');
    const started = await post('duplicate "name" keys', '/activities/start', dup, 200);
    assert.match(started, /"activityName":"Second"/, 'the last duplicate key wins');
    const tampered = signedRaw(t, 'POST', '/activities/start', dup);
    const flipped = Buffer.from(tampered.toString('latin1').replace('"First","name":"Second"', '"Second","name":"First"'), 'latin1');
    expect4xx('duplicate keys reordered after signing', await raw(port, flipped), 401, 'bad_signature');
    await t.client().stopActivity();

    // Connection flood past the bound: the rest are closed at once; the app recovers when they go.
    const flood: Socket[] = [];
    const refusedClosures: Promise<{ ms: number; data: string }>[] = [];
    for (let i = 0; i < MAX_CONNECTIONS + 100; i++) {
      const s = await open(port);
      flood.push(s);
      if (i >= MAX_CONNECTIONS) refusedClosures.push(whenClosed(s));
    }
    try {
      const refused = await Promise.all(refusedClosures);
      // Closed at once, not by a timeout: the connections within the bound, opened earlier and
      // as idle, are still open (a timeout would have closed them first). A few of the bound
      // may be taken by this test's earlier connections still closing.
      assert.ok(refused.every((r) => r.data === ''), 'connections past the bound are closed without an answer');
      const held = flood.filter((s) => s.readyState === 'open').length;
      figures[`${MAX_CONNECTIONS + 100} idle connections`] = `${held} held, ${refused.length} closed at once`;
      assert.ok(held >= MAX_CONNECTIONS - 16 && held <= MAX_CONNECTIONS, `${held} connections held, the bound is ${MAX_CONNECTIONS}`);
    } finally {
      for (const s of flood) s.destroy();
    }

    // Still alive and well, and nothing locked anyone out: served again once the app has seen
    // the flood's connections close (a moment after this side closed them).
    const client = t.client();
    await until('a healthcheck once the flood is gone', () => client.healthcheck().catch(() => undefined), { watch: t.process().child });
    assert.equal((await client.healthcheck()).status, 'ok');
    assert.equal((await client.getStatus()).isTracking, false);
    assert.equal(t.process().child.exitCode, null);
    assert.doesNotMatch(t.output(), /internal error|TypeError|RangeError/i, 'the app logged no failure');
    await assertNoTokenLeak(t);
    console.log(`# malformed: ${JSON.stringify(figures)}`);
  });
});
