/**
 * The event streams on their own, over real HTTP on 127.0.0.1: ids and resumption, signatures
 * per stream, keep-alive on fake timers, the byte cap for a client that stops reading, and
 * ending every stream at once. The listener's own checks in front of them are tested in
 * events.test.ts.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { RawEvent } from '@tock/protocol';
import { EventStreams, type StreamEnding, type StreamTimers } from '../src/event-streams.ts';
import { HmacKey } from '../src/signature.ts';
import { TOKEN, expectedResponseSignature } from './signed-client.ts';
import { StreamReader, expectedEventSig } from './stream-reader.ts';

/** Timers that only fire when the test says so. */
class FakeTimers implements StreamTimers {
  callbacks = new Map<number, () => void>();
  #next = 1;
  setInterval(callback: () => void): unknown {
    const id = this.#next++;
    this.callbacks.set(id, callback);
    return id;
  }
  clearInterval(handle: unknown): void {
    this.callbacks.delete(handle as number);
  }
  fire(): void {
    for (const callback of [...this.callbacks.values()]) callback();
  }
}

interface Harness {
  streams: EventStreams;
  timers: FakeTimers;
  clock: { now: number };
  endings: StreamEnding[];
  allowed: { value: boolean };
  server: Server;
  port: number;
}

const key = new HmacKey(TOKEN);
let nonceCount = 0;

async function harness(options: { keptEvents?: number; maxBufferedBytes?: number } = {}): Promise<Harness> {
  const timers = new FakeTimers();
  const clock = { now: 1_795_000_000_000 };
  const allowed = { value: true };
  const streams = new EventStreams({
    clock: () => clock.now,
    timers,
    runId: 'testRun_0001',
    ...options,
    stillAllowed: () => allowed.value,
  });
  const endings: StreamEnding[] = [];
  streams.onEnd((why) => endings.push(why));
  let statusCount = 0;
  const server = createServer((req, res) => {
    const lastEventId = req.headers['last-event-id'];
    streams.start(res, {
      key,
      nonce: String(req.headers['x-nonce']),
      lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
      status: () => ({ isTracking: false, opening: ++statusCount }),
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { streams, timers, clock, endings, allowed, server, port: (server.address() as AddressInfo).port };
}

/** Opens a stream on the test server, whose nonce travels in `x-nonce` (the harness signs nothing). */
async function openStream(port: number, lastEventId?: string): Promise<StreamReader & { nonce: string }> {
  const nonce = `test-nonce-${String(nonceCount++).padStart(8, '0')}`;
  const headers: Record<string, string> = { 'x-nonce': nonce };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  return Object.assign(await StreamReader.open(port, headers), { nonce });
}

const sigOf = (nonce: string, event: RawEvent): string => expectedEventSig(nonce, event);

describe('event streams', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => {
    h.streams.endAll();
    h.server.close();
  });

  it('opens with a 200, the stream headers and a signed status with an id of this run', async () => {
    const reader = await openStream(h.port);
    await reader.until(() => reader.events.length === 1);
    assert.equal(reader.res.statusCode, 200);
    assert.equal(reader.res.headers['content-type'], 'text/event-stream');
    assert.equal(reader.res.headers['cache-control'], 'no-store');
    assert.equal(reader.res.headers['x-tock-api-version'], '1');
    assert.equal(reader.res.headers['x-tock-response-signature'], expectedResponseSignature(reader.nonce, 200, ''));
    const [first] = reader.events as [RawEvent];
    assert.equal(first.event, 'status');
    assert.match(first.id ?? '', /^testRun_0001\.[0-9]+$/);
    assert.equal(first.sig, sigOf(reader.nonce, first));
    // Exactly the four fields, in order, then a blank line.
    assert.match(reader.text, /^id: [^\n]+\nevent: status\ndata: \{[^\n]*\}\nsig: v1=[0-9a-f]{64}\n\n$/);
    reader.close();
  });

  it('sends each published event to every stream, signed with that stream’s nonce, ids going up by one', async () => {
    const a = await openStream(h.port);
    const b = await openStream(h.port);
    await a.until(() => a.events.length === 1);
    await b.until(() => b.events.length === 1);
    const id1 = h.streams.publish('branch-prompt', { promptID: 'p', branch: 'main', repo: null, previousBranch: null });
    const id2 = h.streams.publish('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 600 });
    for (const r of [a, b]) {
      await r.until(() => r.events.length === 3);
      assert.deepEqual(
        r.events.slice(1).map((e) => [e.id, e.event]),
        [
          [id1, 'branch-prompt'],
          [id2, 'idle'],
        ],
      );
      for (const e of r.events) assert.equal(e.sig, sigOf(r.nonce, e));
    }
    assert.equal(Number(id2.split('.')[1]), Number(id1.split('.')[1]) + 1);
    assert.notEqual(a.events[1]?.sig, b.events[1]?.sig, 'the same event is signed differently per stream');
    a.close();
    b.close();
  });

  it('resumes after Last-Event-ID with exactly the later events, ids unchanged, and no fresh status', async () => {
    const first = await openStream(h.port);
    await first.until(() => first.events.length === 1);
    const ids = [h.streams.publish('idle', { since: 'a', seconds: 1 }), h.streams.publish('idle', { since: 'b', seconds: 2 })];
    await first.until(() => first.events.length === 3);
    first.close();
    const missed = [h.streams.publish('idle', { since: 'c', seconds: 3 }), h.streams.publish('idle', { since: 'd', seconds: 4 })];
    const resumed = await openStream(h.port, ids[1]);
    await resumed.until(() => resumed.events.length === 2);
    assert.deepEqual(
      resumed.events.map((e) => e.id),
      missed,
    );
    for (const e of resumed.events) assert.equal(e.sig, sigOf(resumed.nonce, e));
    // Resuming after the newest event sends nothing until the next one.
    const upToDate = await openStream(h.port, missed[1]);
    const next = h.streams.publish('idle', { since: 'e', seconds: 5 });
    await upToDate.until(() => upToDate.events.length === 1);
    assert.equal(upToDate.events[0]?.id, next);
    resumed.close();
    upToDate.close();
  });

  it('starts with a fresh status for an unknown id, an id of another run, a future id, or a malformed one', async () => {
    for (const id of ['nope', 'otherRun_0001.1', 'testRun_0001.999999', 'testRun_0001.-1', '']) {
      const r = await openStream(h.port, id);
      await r.until(() => r.events.length === 1);
      assert.equal(r.events[0]?.event, 'status', id);
      r.close();
    }
  });

  it('sends `: ping` to a stream that was quiet for the keep-alive time, and nothing to one that was not', async () => {
    const r = await openStream(h.port);
    await r.until(() => r.events.length === 1);
    h.clock.now += 9_000;
    h.timers.fire();
    h.streams.publish('idle', { since: 'x', seconds: 1 }); // a write resets the quiet time
    await r.until(() => r.events.length === 2);
    h.clock.now += 9_000;
    h.timers.fire();
    h.clock.now += 1_000;
    h.timers.fire();
    await r.until(() => r.text.endsWith(': ping\n\n'));
    assert.equal(r.text.split(': ping\n\n').length - 1, 1);
    assert.equal(r.events.length, 2, 'comments carry no event');
    r.close();
  });

  it('ends every stream at once, and ends streams whose token or license no longer allows them', async () => {
    const readers = await Promise.all([openStream(h.port), openStream(h.port)]);
    await Promise.all(readers.map((r) => r.until(() => r.events.length === 1)));
    h.endings.length = 0;
    h.streams.endAll();
    await Promise.all(readers.map((r) => r.untilEnded()));
    assert.deepEqual(h.endings, ['closed', 'closed']);
    assert.equal(h.streams.open, 0);
    assert.equal(h.timers.callbacks.size, 0, 'no timer runs without streams');

    const revoked = await openStream(h.port);
    await revoked.until(() => revoked.events.length === 1);
    h.allowed.value = false;
    h.timers.fire();
    await revoked.untilEnded();
    assert.deepEqual(h.endings.slice(2), ['revoked']);

    h.allowed.value = true;
    const beforePublish = await openStream(h.port);
    await beforePublish.until(() => beforePublish.events.length === 1);
    h.allowed.value = false;
    h.streams.publish('idle', { since: 'y', seconds: 2 });
    await beforePublish.untilEnded();
    assert.equal(beforePublish.events.length, 1, 'no event is sent on a stream whose token was rotated');
    h.allowed.value = true;
  });

  it('counts open streams and forgets one whose client went away', async () => {
    const r = await openStream(h.port);
    await r.until(() => r.events.length === 1);
    assert.equal(h.streams.open, 1);
    assert.equal(h.streams.hasRoom, true);
    r.close();
    while ((h.streams.open as number) !== 0) await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('event streams: limits', () => {
  it('keeps the last events for resumption and refuses to resume from before them', async () => {
    const h = await harness({ keptEvents: 256 });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(h.streams.publish('idle', { since: 's', seconds: i }));
    assert.equal(h.streams.canResume(ids[299 - 256]), true);
    assert.equal(h.streams.canResume(ids[299 - 257]), false);
    const r = await openStream(h.port, ids[299 - 256]);
    await r.until(() => r.events.length === 256);
    assert.deepEqual(
      r.events.map((e) => e.id),
      ids.slice(-256),
    );
    r.close();
    h.server.close();
  });

  it('cuts off a client that stops reading once its waiting bytes pass the cap', async () => {
    const h = await harness({ maxBufferedBytes: 64 * 1024 });
    const r = await openStream(h.port);
    await r.until(() => r.events.length === 1);
    r.res.pause(); // stops reading: the socket buffers fill up, then the server's
    const big = { since: 'x'.repeat(4000), seconds: 1 };
    for (let i = 0; i < 2000 && h.streams.open > 0; i++) {
      h.streams.publish('idle', big);
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(h.streams.open, 0);
    assert.deepEqual(h.endings, ['slow']);
    r.close();
    h.server.close();
  });
});

describe('event streams: a client that goes away', () => {
  /** Opens `GET /events` on a raw socket and resolves once the opening status arrived. */
  async function rawStream(port: number): Promise<Socket> {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Nonce: raw-${nonceCount++}\r\n\r\n`);
    let text = '';
    await new Promise<void>((resolve) => {
      socket.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('event: status')) resolve();
      });
    });
    return socket;
  }

  /** Waits, turn by turn of the event loop, until the stream is gone; never runs the 1 s check (fake timers). */
  async function untilFreed(h: Harness): Promise<void> {
    while (h.streams.open !== 0) await new Promise((resolve) => setImmediate(resolve));
  }

  for (const [how, leave] of [
    ['resets the connection (RST)', (s: Socket) => s.resetAndDestroy()],
    ['closes its socket (FIN), as a killed process does', (s: Socket) => s.destroy()],
    ['half-closes and stops reading', (s: Socket) => {
      s.pause();
      s.end();
    }],
  ] as const) {
    it(`frees the place of a client that ${how} at once, without waiting for the check`, async () => {
      const h = await harness();
      try {
        const socket = await rawStream(h.port);
        assert.equal(h.streams.open, 1);
        leave(socket);
        await untilFreed(h);
        assert.deepEqual(h.endings, ['client']);
        assert.equal(h.streams.hasRoom, true);
      } finally {
        h.streams.endAll();
        h.server.close();
      }
    });
  }
});
