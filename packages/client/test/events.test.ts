/**
 * `events()` and `getReport()`: against the signed fake listener (its misbehaviours), against
 * the real listener in process (its signatures, not the fake's), and the pure parts against
 * spec/signing.json. Reconnect delays run on an injected sleep: nothing waits for real.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createListener } from '@tock/listener';
import { EventStreamParser, SigningKey, signEvent, type TockEvent } from '@tock/protocol';
import { type FakeTock, startFakeTock } from '../runtime-tests/fake-tock.ts';
import { TockClient, withDeps } from '../src/client.ts';
import { AuthError, HttpError, NetworkError, ValidationError } from '../src/errors.ts';
import { readEvent, reconnectDelayMs } from '../src/events.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstu';

interface EventVector {
  name: string;
  requestNonce: string;
  id: string;
  type: string;
  data: string;
  sig: string;
  wire: string;
}
const vectors: { token: string; events: EventVector[] } = JSON.parse(
  readFileSync(new URL('../../../spec/signing.json', import.meta.url), 'utf8'),
);

/** Takes `count` events from an iterator (fewer if it ends). */
async function take(iterator: AsyncIterator<TockEvent>, count: number): Promise<TockEvent[]> {
  const out: TockEvent[] = [];
  while (out.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

/** An injected sleep that records the delays and resolves at once. */
function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

describe('readEvent and the reconnect delays (pure)', () => {
  const key = new SigningKey(vectors.token);

  it('accepts each event of spec/signing.json and returns its parsed data', () => {
    for (const v of vectors.events) {
      const [raw] = new EventStreamParser().push(v.wire);
      assert.ok(raw);
      assert.deepEqual(readEvent(raw, key, v.requestNonce), { id: v.id, type: v.type, data: JSON.parse(v.data) });
    }
  });

  it('refuses a missing or wrong sig, another stream’s nonce, changed data or a missing id with bad_event_signature', () => {
    const v = vectors.events[0] as EventVector;
    const [raw] = new EventStreamParser().push(v.wire);
    assert.ok(raw);
    const refused = (e: unknown): boolean => e instanceof AuthError && e.code === 'bad_event_signature' && e.status === 200;
    for (const bad of [
      { ...raw, sig: undefined },
      { ...raw, sig: `v1=${'0'.repeat(64)}` },
      { ...raw, data: `${raw.data} ` },
      { ...raw, id: undefined },
    ]) {
      assert.throws(() => readEvent(bad, key, v.requestNonce), refused);
    }
    assert.throws(() => readEvent(raw, key, 'another-stream-nonce-01'), refused);
  });

  it('skips a signed event of a type it does not know (a newer app)', () => {
    const nonce = 'nonce-000000000000';
    const sig = signEvent(key, nonce, 'r.1', 'future', '{}');
    assert.equal(readEvent({ id: 'r.1', event: 'future', data: '{}', sig }, key, nonce), null);
  });

  it('waits 0.5 s, then doubles, to at most 10 s', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 50].map(reconnectDelayMs), [500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });
});

describe('events() against the signed fake listener', () => {
  let fake: FakeTock;
  let tock: TockClient;
  before(async () => {
    fake = await startFakeTock({ token: TOKEN });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.reset();
    tock = new TockClient({ token: TOKEN, port: fake.port, timeoutMs: 2000 });
  });

  it('yields the status first, then the events writes cause, and sends a signed GET /events', async () => {
    const controller = new AbortController();
    const iterator = tock.events({ signal: controller.signal })[Symbol.asyncIterator]();
    const [first] = await take(iterator, 1);
    assert.equal(first?.type, 'status');
    assert.equal(first?.type === 'status' && first.data.isTracking, false);
    await tock.startActivity('Docs', { createIfMissing: true });
    await tock.notifyBranchChange({ branch: 'feature/x' });
    const [started, prompt] = await take(iterator, 2);
    assert.equal(started?.type === 'status' && started.data.currentActivity?.activityName, 'Docs');
    assert.deepEqual(prompt?.type === 'branch-prompt' && { ...prompt.data, promptID: '' }, {
      promptID: '',
      branch: 'feature/x',
      repo: null,
      previousBranch: null,
    });
    controller.abort();
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
    const opened = fake.requests.find((r) => r.target === '/events');
    assert.equal(opened?.signatureValid, true);
    while (fake.openStreams > 0) await new Promise((resolve) => setImmediate(resolve));
  });

  it('frees the connection when the consumer leaves the loop', async () => {
    for await (const event of tock.events()) {
      assert.equal(event.type, 'status');
      break;
    }
    while (fake.openStreams > 0) await new Promise((resolve) => setImmediate(resolve));
  });

  it('ends with AuthError bad_event_signature on a missing or a wrong sig', async () => {
    for (const sig of ['none', 'wrong'] as const) {
      fake.reset();
      const iterator = tock.events()[Symbol.asyncIterator]();
      await take(iterator, 1);
      fake.publish('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 600 }, sig);
      await assert.rejects(iterator.next(), (e: unknown) => e instanceof AuthError && e.code === 'bad_event_signature');
      assert.deepEqual(await iterator.next(), { done: true, value: undefined });
    }
  });

  it('refuses a stream whose 200 is unsigned or signed with another key: bad_response_signature', async () => {
    for (const sign of ['none', 'wrong-key'] as const) {
      fake.next({ sign });
      await assert.rejects(take(tock.events()[Symbol.asyncIterator](), 1), (e: unknown) => e instanceof AuthError && e.code === 'bad_response_signature');
    }
  });

  it('ends with the usual error on 401, 423 and 429, without reconnecting', async () => {
    const { delays, sleep } = recordingSleep();
    const client = withDeps(new TockClient({ token: TOKEN, port: fake.port }), { sleep });
    fake.next({ status: 401, code: 'bad_signature', sign: 'none' });
    await assert.rejects(take(client.events()[Symbol.asyncIterator](), 1), (e: unknown) => e instanceof AuthError && e.status === 401);
    fake.next({ status: 423 });
    await assert.rejects(take(client.events()[Symbol.asyncIterator](), 1), (e: unknown) => e instanceof HttpError && e.code === 'license_locked');
    fake.next({ status: 429, code: 'too_many_streams', sign: 'none' });
    await assert.rejects(take(client.events()[Symbol.asyncIterator](), 1), (e: unknown) => e instanceof HttpError && e.code === 'too_many_streams');
    assert.deepEqual(delays, []);
  });

  it('reconnects after a dropped stream with Last-Event-ID and gets what it missed, after 0.5 s', async () => {
    const { delays, sleep } = recordingSleep();
    const client = withDeps(new TockClient({ token: TOKEN, port: fake.port }), { sleep });
    const controller = new AbortController();
    const iterator = client.events({ signal: controller.signal })[Symbol.asyncIterator]();
    const [first] = await take(iterator, 1);
    const seen = fake.publish('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 600 });
    assert.equal((await take(iterator, 1))[0]?.id, seen);
    fake.endStreams();
    const missed = fake.publish('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 660 });
    const [again] = await take(iterator, 1);
    assert.equal(again?.id, missed);
    fake.endStreams(); // a stream that opened resets the backoff: the next drop waits 0.5 s again
    const after = fake.publish('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 720 });
    assert.equal((await take(iterator, 1))[0]?.id, after);
    assert.deepEqual(delays, [500, 500]);
    const reopened = fake.requests.filter((r) => r.target === '/events');
    assert.equal(reopened.length, 3);
    assert.notEqual(reopened[0]?.nonce, reopened[1]?.nonce, 'a new signed request');
    assert.ok(first);
    controller.abort();
  });

  it('backs off 0.5, 1, 2, 4, 8, 10, 10 s while the app stays away', async () => {
    const { delays, sleep } = recordingSleep();
    const closed = await fake.closedPort();
    const controller = new AbortController();
    const client = withDeps(new TockClient({ token: TOKEN, port: closed }), {
      sleep: async (ms) => {
        await sleep(ms);
        if (delays.length === 7) controller.abort();
      },
    });
    assert.deepEqual(await take(client.events({ signal: controller.signal })[Symbol.asyncIterator](), 1), []);
    assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('without reconnect: a refused connection is a NetworkError, a stream that ends ends the loop', async () => {
    const closed = await fake.closedPort();
    const offline = new TockClient({ token: TOKEN, port: closed });
    await assert.rejects(take(offline.events({ reconnect: false })[Symbol.asyncIterator](), 1), NetworkError);
    const iterator = tock.events({ reconnect: false })[Symbol.asyncIterator]();
    await take(iterator, 1);
    fake.endStreams();
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
  });

  it('drops a stream that stays silent (not even a keep-alive) and reopens it', async () => {
    const { delays, sleep } = recordingSleep();
    // The fake sends no keep-alive: with a short silence limit the stream counts as dead.
    const client = withDeps(new TockClient({ token: TOKEN, port: fake.port }), { sleep, streamSilentMs: 250 });
    const controller = new AbortController();
    const iterator = client.events({ signal: controller.signal })[Symbol.asyncIterator]();
    const [first] = await take(iterator, 1);
    const [again] = await take(iterator, 1);
    assert.deepEqual([first?.type, again?.type], ['status', 'status']);
    assert.equal(delays[0], 500, 'reopened after the first delay');
    controller.abort();
  });

  it('without reconnect, a silent stream ends the iteration with NetworkError timeout', async () => {
    const client = withDeps(new TockClient({ token: TOKEN, port: fake.port }), { streamSilentMs: 250 });
    const iterator = client.events({ reconnect: false })[Symbol.asyncIterator]();
    await take(iterator, 1);
    await assert.rejects(iterator.next(), (e: unknown) => e instanceof NetworkError && e.code === 'timeout');
  });

  it('sends Last-Event-ID when given one, and resumes from it', async () => {
    const id = fake.publish('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 1 });
    const later = fake.publish('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 2 });
    const controller = new AbortController();
    const [event] = await take(tock.events({ lastEventId: id, signal: controller.signal })[Symbol.asyncIterator](), 1);
    assert.equal(event?.id, later);
    controller.abort();
  });
});

describe('getReport()', () => {
  let fake: FakeTock;
  before(async () => {
    fake = await startFakeTock({ token: TOKEN });
  });
  after(() => fake.close());

  it('sends only the parameters given, signed as sent, and returns the report', async () => {
    fake.reset();
    const tock = new TockClient({ token: TOKEN, port: fake.port });
    const today = await tock.getReport();
    assert.equal(today.timeZone, 'UTC');
    const range = await tock.getReport({ from: '2026-11-01', to: '2026-11-30', by: 'day' });
    assert.equal(range.from, '2026-11-01');
    assert.deepEqual(
      fake.requests.map((r) => [r.target, r.signatureValid]),
      [
        ['/report', true],
        ['/report?from=2026-11-01&to=2026-11-30&by=day', true],
      ],
    );
    await assert.rejects(tock.getReport({ from: '2026-11-02', to: '2026-11-01' }), ValidationError);
  });
});

describe('events() against the real listener', () => {
  it('checks the signatures the listener itself makes, event after event', async (t) => {
    const listener = createListener({
      token: () => TOKEN,
      license: () => 'trial',
      appVersion: '1.0.0',
      handlers: { getStatus: () => ({ isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: 0, since: null }) },
    });
    await listener.listen(0);
    t.after(() => listener.close());
    const tock = new TockClient({ token: TOKEN, port: listener.port as number });
    const controller = new AbortController();
    const iterator = tock.events({ signal: controller.signal })[Symbol.asyncIterator]();
    const [status] = await take(iterator, 1);
    assert.equal(status?.type, 'status');
    const id = listener.publish('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 600 });
    const [idle] = await take(iterator, 1);
    assert.deepEqual(idle, { id, type: 'idle', data: { since: '2026-11-22T10:05:00.000Z', seconds: 600 } });
    const budget = { activityID: '3f0e8e6c-8d3c-4c61-9a55-1f2b3c4d5e6f', activityName: 'Design', usedSeconds: 28_800, budgetSeconds: 36_000, percent: 80 as const };
    const budgetID = listener.publish('budget', budget);
    const [announced] = await take(iterator, 1);
    assert.deepEqual(announced, { id: budgetID, type: 'budget', data: budget });
    if (announced?.type === 'budget') assert.equal(announced.data.percent, 80); // typed by its type
    controller.abort();
    while (listener.openStreams > 0) await new Promise((resolve) => setImmediate(resolve));
  });
});
