/**
 * `GET /events` and `GET /report` through the whole listener, over real HTTP: the checks in
 * front of the stream (unsigned, forged, replayed, locked), the 16-stream limit, the request
 * list, every ending, resumption, and spec/signing.json's event vectors byte for byte.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import type { StreamTimers } from '../src/event-streams.ts';
import {
  START_MS,
  TOKEN,
  authHeaders,
  expectedResponseSignature,
  freshNonce,
  startHarness,
  type Harness,
} from './signed-client.ts';
import { StreamReader, expectedEventSig } from './stream-reader.ts';

interface EventVector {
  name: string;
  requestNonce: string;
  id: string;
  type: 'status' | 'branch-prompt' | 'idle';
  data: string;
  wire: string;
}
const vectors: { token: string; events: EventVector[] } = JSON.parse(
  readFileSync(new URL('../../../spec/signing.json', import.meta.url), 'utf8'),
);

/** Timers that fire only when told. */
class FakeTimers implements StreamTimers {
  readonly callbacks = new Map<number, () => void>();
  #next = 1;
  setInterval(callback: () => void): unknown {
    this.callbacks.set(this.#next, callback);
    return this.#next++;
  }
  clearInterval(handle: unknown): void {
    this.callbacks.delete(handle as number);
  }
  fire(): void {
    for (const callback of [...this.callbacks.values()]) callback();
  }
}

async function harness(t: TestContext, runId = 'listenerRun1'): Promise<Harness & { timers: FakeTimers }> {
  const timers = new FakeTimers();
  const h = await startHarness(t, { events: { runId, timers } });
  return Object.assign(h, { timers });
}

/** Opens a signed stream (or one signed however `options` say) and returns its reader and nonce. */
async function open(
  h: Harness,
  options: { nonce?: string; token?: string; lastEventId?: string; sign?: boolean; timestamp?: number } = {},
): Promise<StreamReader & { nonce: string }> {
  const nonce = options.nonce ?? freshNonce();
  const headers: Record<string, string> = { host: `127.0.0.1:${h.port}` };
  if (options.sign !== false) {
    Object.assign(
      headers,
      authHeaders({
        method: 'GET',
        target: '/events',
        body: '',
        timestamp: String(options.timestamp ?? Math.floor(h.clock.now / 1000)),
        nonce,
        token: options.token ?? TOKEN,
      }),
    );
  }
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const reader = await StreamReader.open(h.port, headers);
  return Object.assign(reader, { nonce });
}

async function opened(h: Harness, options?: Parameters<typeof open>[1]): Promise<StreamReader & { nonce: string }> {
  const reader = await open(h, options);
  assert.equal(reader.res.statusCode, 200);
  await reader.until(() => reader.events.length >= 1 || reader.ended);
  return reader;
}

async function bodyOf(reader: StreamReader): Promise<{ status: number; json: { code?: string; error?: string } }> {
  await reader.untilEnded();
  return { status: reader.res.statusCode ?? 0, json: JSON.parse(reader.text) };
}

describe('GET /events through the listener', () => {
  it('answers a signed request 200 with the stream headers, the response signature over the empty body, and the status first', async (t) => {
    const h = await harness(t);
    const r = await opened(h);
    assert.equal(r.res.headers['content-type'], 'text/event-stream');
    assert.equal(r.res.headers['cache-control'], 'no-store');
    assert.equal(r.res.headers['x-tock-api-version'], '1');
    assert.equal(r.res.headers['x-tock-response-signature'], expectedResponseSignature(r.nonce, 200, ''));
    assert.equal(r.res.headers['access-control-allow-origin'], undefined);
    const [first] = r.events;
    assert.equal(first?.event, 'status');
    assert.match(first?.id ?? '', /^listenerRun1\.\d+$/);
    assert.deepEqual(JSON.parse(first?.data ?? ''), {
      isTracking: true,
      isOnBreak: false,
      currentActivity: { activityID: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12', activityName: 'Writing' },
      todaySeconds: 60,
      since: '2026-11-19T08:00:00.000Z',
    });
    assert.equal(first?.sig, expectedEventSig(r.nonce, first!));
    r.close();
  });

  it('lists a stream once, when it opens, with status 200', async (t) => {
    const h = await harness(t);
    const r = await opened(h);
    h.listener.publish('idle', { since: '2026-11-19T08:00:00.000Z', seconds: 600 });
    await r.until(() => r.events.length === 2);
    h.timers.fire();
    assert.deepEqual(
      h.listener.requests().map((q) => [q.method, q.path, q.status]),
      [['GET', '/events', 200]],
    );
    r.close();
  });

  it('refuses an unsigned, a forged, a replayed and a stale GET /events like any request, and opens no stream', async (t) => {
    const h = await harness(t);
    const unsigned = await open(h, { sign: false });
    assert.deepEqual([unsigned.res.statusCode, (await bodyOf(unsigned)).json.code], [401, 'missing_auth']);
    const forged = await open(h, { token: `${TOKEN}x` });
    assert.deepEqual([forged.res.statusCode, (await bodyOf(forged)).json.code], [401, 'bad_signature']);
    const stale = await open(h, { timestamp: Math.floor(START_MS / 1000) - 120 });
    assert.deepEqual([stale.res.statusCode, (await bodyOf(stale)).json.code], [401, 'clock_drift']);
    const first = await opened(h, { nonce: 'replayed-nonce-0000001' });
    const replayed = await open(h, { nonce: 'replayed-nonce-0000001' });
    assert.deepEqual([replayed.res.statusCode, (await bodyOf(replayed)).json.code], [409, 'nonce_reused']);
    assert.equal(replayed.res.headers['x-tock-response-signature'], expectedResponseSignature('replayed-nonce-0000001', 409, replayed.text));
    assert.equal(h.listener.openStreams, 1);
    first.close();
  });

  it('answers 423 while the license is locked', async (t) => {
    const h = await harness(t);
    h.license.state = 'locked';
    const r = await open(h);
    assert.equal(r.res.statusCode, 423);
    await r.untilEnded();
    assert.equal(r.text, '{"error":"license locked"}');
  });

  it('keeps at most 16 streams: the 17th is a signed 429 too_many_streams that never locks anyone out', async (t) => {
    const h = await harness(t);
    const streams: Awaited<ReturnType<typeof opened>>[] = [];
    for (let i = 0; i < 16; i++) streams.push(await opened(h));
    for (let i = 0; i < 12; i++) {
      const extra = await open(h);
      const answer = await bodyOf(extra);
      assert.equal(answer.status, 429);
      assert.equal(answer.json.code, 'too_many_streams');
      assert.equal(extra.res.headers['x-tock-response-signature'], expectedResponseSignature(extra.nonce, 429, extra.text));
    }
    assert.equal((await h.send({ target: '/status' })).status, 200, 'twelve 429s did not start a lockout');
    streams.pop()?.close();
    while (h.listener.openStreams !== 15) await new Promise((resolve) => setImmediate(resolve));
    const again = await opened(h);
    assert.equal(h.listener.openStreams, 16);
    again.close();
    for (const s of streams) s.close();
  });

  it('resumes after Last-Event-ID with the events that followed, signed for the new stream', async (t) => {
    const h = await harness(t);
    const first = await opened(h);
    const seen = h.listener.publish('idle', { since: '2026-11-19T08:00:00.000Z', seconds: 600 });
    await first.until(() => first.events.length === 2);
    first.close();
    const missed = h.listener.publish('branch-prompt', { promptID: 'p-1', branch: 'main', repo: null, previousBranch: 'dev' });
    const resumed = await opened(h, { lastEventId: seen });
    assert.deepEqual(
      resumed.events.map((e) => [e.id, e.event]),
      [[missed, 'branch-prompt']],
    );
    assert.equal(resumed.events[0]?.sig, expectedEventSig(resumed.nonce, resumed.events[0]!));
    const fresh = await opened(h, { lastEventId: 'anotherRun1.3' });
    assert.equal(fresh.events[0]?.event, 'status');
    resumed.close();
    fresh.close();
  });

  it('signs the event vectors of spec/signing.json byte for byte', async (t) => {
    const [status, prompt, idle] = vectors.events as [EventVector, EventVector, EventVector];
    const runId = status.id.split('.')[0] as string;
    const h = await harness(t, runId);
    assert.equal(vectors.token, TOKEN);
    const a = await opened(h, { nonce: status.requestNonce }); // seq 0: its opening status
    const b = await opened(h, { nonce: idle.requestNonce }); // seq 1
    const firstSeq = Number(status.id.split('.')[1]);
    for (let seq = 2; seq < firstSeq; seq++) h.listener.publish('idle', { since: '2026-11-19T08:00:00.000Z', seconds: seq });
    h.listener.publish('status', JSON.parse(status.data));
    h.listener.publish('branch-prompt', JSON.parse(prompt.data));
    h.listener.publish('idle', JSON.parse(idle.data));
    await a.until(() => a.text.includes(`id: ${idle.id}\n`));
    await b.until(() => b.text.includes(`id: ${idle.id}\n`));
    assert.ok(a.text.includes(status.wire), 'status vector');
    assert.ok(a.text.includes(prompt.wire), 'branch-prompt vector');
    assert.ok(b.text.includes(idle.wire), 'idle vector');
    a.close();
    b.close();
  });
});

describe('GET /events: the application’s hook', () => {
  it('calls beforeStreamOpens before reading the opening status, and opens the stream even when it throws', async (t) => {
    const order: string[] = [];
    let fail = false;
    const h = await startHarness(t, {
      beforeStreamOpens: () => {
        order.push('hook');
        if (fail) throw new Error('hook failed');
      },
      handlers: {
        getStatus: () => (order.push('status'), { isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: 0, since: null }),
      },
      onError: () => order.push('error'),
    });
    const first = await opened(h);
    fail = true;
    const second = await opened(h);
    assert.deepEqual(order, ['hook', 'status', 'hook', 'error', 'status']);
    first.close();
    second.close();
  });
});

describe('GET /events endings', () => {
  it('ends every stream at once when the listener closes (turned off, moved, app stopping)', async (t) => {
    const h = await harness(t);
    const streams = [await opened(h), await opened(h)];
    await h.listener.close();
    await Promise.all(streams.map((s) => s.untilEnded()));
    assert.equal(h.listener.openStreams, 0);
    assert.equal(h.listener.port, null);
  });

  it('ends every stream at once on endStreams() (token rotated), and a reconnect with the old token gets 401', async (t) => {
    const h = await harness(t);
    const streams = [await opened(h), await opened(h)];
    h.token.value = 'rotated-token-rotated-token-rotated-token-0';
    h.listener.endStreams();
    await Promise.all(streams.map((s) => s.untilEnded()));
    const again = await open(h);
    assert.equal(again.res.statusCode, 401);
  });

  it('never lets a stream outlive its token: the next check ends it, and no event goes out on it', async (t) => {
    const h = await harness(t);
    const byTick = await opened(h);
    h.token.value = 'rotated-token-rotated-token-rotated-token-0';
    h.timers.fire();
    await byTick.untilEnded();
    assert.equal(byTick.events.length, 1);

    const byEvent = await opened(h, { token: h.token.value });
    h.token.value = 'rotated-again-rotated-again-rotated-again-0';
    h.listener.publish('idle', { since: '2026-11-19T08:00:00.000Z', seconds: 1 });
    await byEvent.untilEnded();
    assert.equal(byEvent.events.length, 1, 'the event published after the rotation was not sent');
  });

  it('ends streams once the license locks (a key expiring needs no request)', async (t) => {
    const h = await harness(t);
    const r = await opened(h);
    h.license.state = 'locked';
    h.timers.fire();
    await r.untilEnded();
    assert.equal(h.listener.openStreams, 0);
    assert.equal((await open(h)).res.statusCode, 423);
  });
});

describe('GET /report through the listener', () => {
  it('hands the validated query to the use case and answers its report', async (t) => {
    const h = await harness(t);
    const answer = await h.send({ target: '/report?from=2026-11-01&to=2026-11-30&by=day&extra=1' });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.result.from, '2026-11-01');
    assert.deepEqual(h.calls.getReport, [{ from: '2026-11-01', to: '2026-11-30', by: 'day' }]);
    const defaults = await h.send({ target: '/report' });
    assert.equal(defaults.status, 200);
    // Days left out stay out (the use case knows today); by takes its default.
    assert.deepEqual(h.calls.getReport?.[1], { by: 'activity' });
  });

  it('refuses a malformed day or grouping as 400 with details, signed, before the use case', async (t) => {
    const h = await harness(t);
    const answer = await h.send({ target: '/report?from=bad&to=2026-02-30&by=week' });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.code, 'validation_failed');
    assert.deepEqual(answer.json.details, [
      { field: 'from', message: 'must be a date YYYY-MM-DD such as 2026-11-22' },
      { field: 'to', message: 'must be a date YYYY-MM-DD such as 2026-11-22' },
      { field: 'by', message: 'must be one of activity, day, client, tag' },
    ]);
    assert.equal(answer.headers['x-tock-response-signature'], expectedResponseSignature(answer.nonce!, 400, answer.text));
    assert.equal(h.calls.getReport, undefined);
  });

  it('answers the use case’s validation_failed (a range it refuses) as 400 with details, signed', async (t) => {
    const h = await harness(t);
    const answer = await h.send({ target: '/report?from=2026-11-30&to=2026-11-01' });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.code, 'validation_failed');
    assert.equal(answer.headers['x-tock-response-signature'], expectedResponseSignature(answer.nonce!, 400, answer.text));
  });

  it('is 405 for POST and 503 not_wired without a use case', async (t) => {
    const h = await harness(t);
    assert.equal((await h.send({ method: 'POST', target: '/report' })).status, 405);
    const bare = await startHarness(t, { handlers: {} });
    const answer = await bare.send({ target: '/report' });
    assert.deepEqual([answer.status, answer.json.code], [503, 'not_wired']);
    const stream = await open(bare);
    assert.equal(stream.res.statusCode, 503, 'a stream needs getStatus for its first event');
  });
});
