import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { until } from '@tock/test-support';
import { type FakeTock, startFakeTock } from '../runtime-tests/fake-tock.ts';
import { TockClient, withDeps } from '../src/client.ts';
import {
  AuthError,
  HttpError,
  NetworkError,
  NotFoundError,
  ReplayError,
  TockError,
  UnavailableError,
  ValidationError,
} from '../src/errors.ts';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstu';

// The happy paths against the real app and listener: packages/app/test/client-happy-paths.test.ts.
// This fake stays for what the wire shows (request bodies, nonces, keys) and for misbehaviour.
describe('TockClient against a signed fake listener', () => {
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

  it('startActivity sends the session note by name and by ID, and sends none when not given', async () => {
    await tock.startActivity('Writing docs', { createIfMissing: true, note: 'chapter 3' });
    const started = await tock.startActivity('Review', { createIfMissing: true });
    await tock.startActivity({ activityID: started.activityID }, { note: 'PR 12' });
    assert.deepEqual(
      fake.requests.filter((r) => r.target === '/activities/start').map((r) => JSON.parse(r.body)),
      [
        { name: 'Writing docs', createIfMissing: true, note: 'chapter 3' },
        { name: 'Review', createIfMissing: true },
        { activityID: started.activityID, note: 'PR 12' },
      ],
    );
  });

  it('signs every request with a fresh nonce and the current time', async () => {
    await tock.healthcheck();
    await tock.healthcheck();
    await tock.getStatus();
    const nonces = fake.requests.map((r) => r.nonce);
    assert.equal(new Set(nonces).size, 3);
    for (const r of fake.requests) assert.ok(Math.abs(Number(r.timestamp) - Date.now() / 1000) < 5);
  });

  it('signs with the injected clock and random source, without patching globals', async () => {
    const fixed = withDeps(new TockClient({ token: TOKEN, port: fake.port }), {
      now: () => Date.now() - 30_000,
      random: (n) => new Uint8Array(n).fill(7),
    });
    await fixed.healthcheck();
    const [request] = fake.requests;
    assert.equal(request?.nonce, 'BwcHBwcHBwcHBwcHBwcHBw');
    assert.ok(Math.abs(Number(request?.timestamp) - (Date.now() - 30_000) / 1000) < 5);
    assert.equal(request?.signatureValid, true);
  });

  it('refuses an unsigned 200 with AuthError bad_response_signature', async () => {
    fake.next({ sign: 'none' });
    const error = await rejection(tock.getStatus());
    assert.ok(error instanceof AuthError);
    assert.equal(error.status, 200);
    assert.equal(error.code, 'bad_response_signature');
    assert.equal(error.message, 'the response was not signed by Tock');
  });

  it('refuses a response signed with another key (a squatter guessing)', async () => {
    fake.next({ sign: 'wrong-key' });
    const error = await rejection(tock.logEntry({ name: 'x', durationMinutes: 1, createIfMissing: true }));
    assert.ok(error instanceof AuthError);
    assert.equal(error.status, 201);
    assert.equal(error.code, 'bad_response_signature');
    assert.equal(fake.requests.length, 1, 'a response arrived: no retry');
  });

  it('refuses an unsigned 404, 423 or 503 (only 400, 401, 403, 408, 413, 429, 431, 500 may be unsigned)', async () => {
    for (const status of [404, 503, 423]) {
      fake.next({ status, sign: 'none' });
      const error = await rejection(tock.getStatus());
      assert.ok(error instanceof AuthError, `status ${status}`);
      assert.equal(error.status, status);
      assert.equal(error.code, 'bad_response_signature');
    }
  });

  it('maps an unsigned 408 (a slow upload) and 500 (a failure before verification) by status', async () => {
    for (const [status, code] of [
      [408, 'request_timeout'],
      [500, 'internal_error'],
    ] as const) {
      fake.next({ status, code, message: 'refused before verification', sign: 'none' });
      const error = await rejection(tock.getStatus());
      assert.ok(error instanceof HttpError, `status ${status}`);
      assert.deepEqual([error.status, error.code], [status, code]);
    }
  });

  it('maps 503 to UnavailableError', async () => {
    fake.next({ status: 503, code: 'not_wired', message: 'search is not wired' });
    const error = await rejection(tock.searchActivities('x'));
    assert.ok(error instanceof UnavailableError);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'not_wired');
    assert.equal(error.message, 'search is not wired');
  });

  it('maps 423 to HttpError license_locked', async () => {
    fake.next({ status: 423 });
    const error = await rejection(tock.getCurrent());
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 423);
    assert.equal(error.code, 'license_locked');
    assert.equal(error.message, 'license locked');
  });

  it('maps an unsigned 429 to HttpError with retryAfter', async () => {
    fake.next({ status: 429, code: 'locked_out', message: 'too many failed attempts', sign: 'none', headers: { 'retry-after': '42' } });
    const error = await rejection(tock.getStatus());
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'locked_out');
    assert.equal(error.retryAfter, 42);
  });

  it('maps 500 to HttpError without retrying', async () => {
    fake.next({ status: 500, code: 'internal_error', message: 'internal error' });
    const error = await rejection(tock.logEntry({ name: 'x', durationMinutes: 1 }));
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 500);
    assert.equal(error.code, 'internal_error');
    assert.equal(error.retryAfter, undefined);
    assert.equal(fake.requests.length, 1);
  });

  it('maps a 400 to ValidationError with the details', async () => {
    const error = await rejection(tock.logEntry({ name: 'x', durationMinutes: 0 }));
    assert.ok(error instanceof ValidationError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'validation_failed');
    assert.deepEqual(error.details, [{ field: 'durationMinutes', message: 'must be a number greater than 0 and at most 1440' }]);
  });

  it('accepts an unsigned 400 and maps it by status', async () => {
    fake.next({ status: 400, code: 'validation_failed', sign: 'none', details: [{ field: 'q', message: 'bad' }] });
    const error = await rejection(tock.searchActivities('x'));
    assert.ok(error instanceof ValidationError);
    assert.deepEqual(error.details, [{ field: 'q', message: 'bad' }]);
  });

  it('maps 404 to NotFoundError', async () => {
    const error = await rejection(tock.startActivity('Nope'));
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.code, 'activity_not_found');
  });

  it('maps a replayed request (nonce reused) to ReplayError', async () => {
    const replaying = new TockClient({ token: TOKEN, port: fake.port, fetch: replayingFetch() });
    const error = await rejection(replaying.healthcheck());
    assert.ok(error instanceof ReplayError);
    assert.equal(error.status, 409);
    assert.equal(error.code, 'nonce_reused');
  });

  it('maps a 401 for a wrong token to AuthError', async () => {
    const wrong = new TockClient({ token: 'not-the-token', port: fake.port });
    const error = await rejection(wrong.healthcheck());
    assert.ok(error instanceof AuthError);
    assert.equal(error.status, 401);
    assert.equal(error.code, 'bad_signature');
  });

  it('raises NetworkError when the connection is refused', async () => {
    const closed = new TockClient({ token: TOKEN, port: await fake.closedPort() });
    const error = await rejection(closed.healthcheck());
    assert.ok(error instanceof NetworkError);
    assert.equal(error.status, undefined);
    assert.equal(error.code, 'network_error');
    assert.match(error.message, /connection refused/);
    assert.ok(error.cause !== undefined);
  });

  // The fake never answers, so only the client's own 200 ms timeout can end the call (code
  // 'timeout'); without it, node:test's timeout would fail the test. No elapsed-time budget.
  it('raises NetworkError timeout when the server never answers', { timeout: 60_000 }, async () => {
    fake.next({ action: 'hang' });
    const quick = new TockClient({ token: TOKEN, port: fake.port, timeoutMs: 200 });
    const error = await rejection(quick.getStatus());
    assert.ok(error instanceof NetworkError);
    assert.equal(error.code, 'timeout');
  });

  /** Waits until the fake server has received `n` requests: aborts then land mid-request on a loaded machine too. */
  const received = (n: number): Promise<boolean> => until(`the fake server to receive ${n} requests`, () => fake.requests.length >= n);

  it("rejects with the caller's abort reason and sends nothing when already aborted", async () => {
    fake.next({ action: 'hang' });
    const controller = new AbortController();
    const pending = tock.getStatus({ signal: controller.signal });
    await received(1);
    controller.abort(new Error('user gave up'));
    const error = await rejection(pending);
    assert.equal((error as Error).message, 'user gave up');
    const already = await rejection(tock.healthcheck({ signal: AbortSignal.abort() }));
    assert.equal((already as Error).name, 'AbortError');
    assert.equal(fake.requests.length, 1);
  });

  it('does not retry logEntry after an abort', async () => {
    fake.next({ action: 'hang' });
    // A retry is sent before the call settles (no delay between attempts), so counting the
    // fetches once it has settled shows one that must not come, without waiting for it.
    let fetches = 0;
    const counted = new TockClient({
      token: TOKEN,
      port: fake.port,
      fetch: (input, init) => {
        fetches++;
        return globalThis.fetch(input, init);
      },
    });
    const controller = new AbortController();
    const pending = rejection(counted.logEntry({ name: 'x', durationMinutes: 1, createIfMissing: true }, { signal: controller.signal }));
    await received(1);
    controller.abort();
    await pending;
    assert.equal(fetches, 1);
    assert.equal(fake.requests.length, 1);
  });

  it('retries logEntry once after a dropped connection, with the same idempotency key', async () => {
    fake.next({ action: 'drop-attempt' });
    const entry = await tock.logEntry({ name: 'Review', durationMinutes: 30, createIfMissing: true });
    assert.equal(entry.durationMinutes, 30);
    const [first, second] = fake.requests;
    assert.equal(fake.requests.length, 2);
    assert.match(first?.idempotencyKey ?? '', /^[A-Za-z0-9_-]{22}$/);
    assert.equal(second?.idempotencyKey, first?.idempotencyKey);
    assert.notEqual(second?.nonce, first?.nonce);
    assert.equal(second?.body, first?.body);
  });

  it("keeps the caller's idempotency key, and a repeat gets the first entry back", async () => {
    const input = { name: 'Review', durationMinutes: 30, createIfMissing: true, idempotencyKey: 'my-key-1' } as const;
    const first = await tock.logEntry(input);
    const second = await tock.logEntry(input);
    assert.equal(second.entryID, first.entryID);
    assert.deepEqual(fake.requests.map((r) => r.idempotencyKey), ['my-key-1', 'my-key-1']);
  });

  it('retries logEntry at most once, after a timeout too', async () => {
    fake.next({ action: 'hang' }, { action: 'hang' });
    const quick = new TockClient({ token: TOKEN, port: fake.port, timeoutMs: 150 });
    const error = await rejection(quick.logEntry({ name: 'x', durationMinutes: 1 }));
    assert.ok(error instanceof NetworkError);
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.requests[0]?.idempotencyKey, fake.requests[1]?.idempotencyKey);
  });

  it('never retries the other operations', async () => {
    fake.next({ action: 'drop' });
    assert.ok((await rejection(tock.startActivity('x', { createIfMissing: true }))) instanceof NetworkError);
    assert.equal(fake.requests.length, 1);
  });

  it('does not follow a redirect', async () => {
    fake.next({ action: 'redirect' });
    const error = await rejection(tock.getStatus());
    assert.ok(error instanceof AuthError);
    assert.equal(error.status, 302);
    assert.equal(error.code, 'bad_response_signature');
    assert.deepEqual(fake.requests.map((r) => r.target), ['/status']);
  });

  it('never puts the token or a signature in an error message', async () => {
    const errors: unknown[] = [];
    fake.next({ sign: 'wrong-key' }, { sign: 'none' }, { status: 500 }, { action: 'drop' });
    for (let i = 0; i < 4; i++) errors.push(await rejection(tock.getStatus()));
    errors.push(await rejection(new TockClient({ token: 'wrong-' + TOKEN, port: fake.port }).getStatus()));
    assert.equal(errors.length, 5);
    for (const error of errors) {
      assert.ok(error instanceof TockError);
      const text = `${String(error)} ${JSON.stringify(error)} ${error.stack} ${String(error.cause)}`;
      assert.ok(!text.includes(TOKEN), text);
      assert.ok(!/v1=[0-9a-f]{64}/.test(text), text);
    }
  });
});

describe('error classes', () => {
  it('name themselves and share the TockError base', () => {
    for (const E of [ValidationError, AuthError, NotFoundError, ReplayError, UnavailableError, HttpError, NetworkError]) {
      const error = new E('m', { code: 'c', status: 1 });
      assert.ok(error instanceof TockError);
      assert.ok(error instanceof Error);
      assert.equal(error.name, E.name);
    }
    assert.equal(new TockError('m', { code: 'c' }).name, 'TockError');
  });
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

/** A fetch that sends the request twice and returns the second answer: a replay. */
function replayingFetch(): typeof fetch {
  return async (input, init) => {
    const first = await fetch(input, init);
    await first.arrayBuffer();
    return fetch(input, init);
  };
}
