/** Idempotency-Key handling of docs/protocol.md "Request signing". */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Problem } from '@tock/protocol';
import { memoryIdempotencyStore, type StoredResponse } from '../src/index.ts';
import { ACTIVITY, expectedResponseSignature, startHarness, stubHandlers, type Harness } from './signed-client.ts';

const ENTRY = '{"name":"Writing","durationMinutes":30}';

function logEntry(h: Harness, key: string | string[] | null, body = ENTRY, target = '/entries') {
  return h.send({ method: 'POST', target, body, headers: key === null ? {} : { 'idempotency-key': key } });
}

describe('Idempotency-Key', () => {
  it('replays the first 2xx answer for the same request without calling the handler again', async (t) => {
    const h = await startHarness(t);
    const first = await logEntry(h, 'key-1');
    assert.equal(first.status, 201);
    h.clock.now += 60_000;
    const again = await logEntry(h, 'key-1');
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(h.calls.logEntry?.length, 1);
    // signed afresh over the new nonce
    assert.notEqual(again.nonce, first.nonce);
    assert.equal(again.headers['x-tock-response-signature'], expectedResponseSignature(again.nonce as string, 201, again.text));
  });

  it('answers 409 idempotency_conflict for the same key with another body, path or method', async (t) => {
    const h = await startHarness(t);
    assert.equal((await logEntry(h, 'key-2')).status, 201);
    const otherBody = await logEntry(h, 'key-2', '{"name":"Writing","durationMinutes":31}');
    assert.equal(otherBody.status, 409);
    assert.equal(otherBody.json.code, 'idempotency_conflict');
    const sameJsonOtherBytes = await logEntry(h, 'key-2', '{"durationMinutes":30,"name":"Writing"}');
    assert.equal(sameJsonOtherBytes.json.code, 'idempotency_conflict');
    const otherPath = await logEntry(h, 'key-2', '{"branch":"main"}', '/branch-changed');
    assert.equal(otherPath.json.code, 'idempotency_conflict');
    assert.equal(h.calls.logEntry?.length, 1);
    assert.equal(h.calls.branchChanged, undefined);
  });

  it('refuses a malformed key with 400 validation_failed', async (t) => {
    const h = await startHarness(t);
    for (const key of ['', 'a'.repeat(65), 'has space', 'key!', 'a=b', ['a', 'b']]) {
      const answer = await logEntry(h, key);
      assert.equal(answer.status, 400, String(key));
      assert.equal(answer.json.code, 'validation_failed');
      assert.equal(answer.json.details[0].field, 'Idempotency-Key');
    }
    assert.equal((await logEntry(h, 'a'.repeat(64))).status, 201);
    assert.equal((await logEntry(h, 'A-z_0')).status, 201);
  });

  it('remembers only 2xx answers', async (t) => {
    let failures = 1;
    const h = await startHarness(t, {
      handlers: {
        logEntry: (input) => {
          if (failures-- > 0) throw new Problem('activity_not_found', 'no such activity');
          return {
            entryID: '7d1f0c2e-1111-4a53-9d2b-3f1e8c0a9b12',
            activity: { activityID: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12', activityName: 'Writing' },
            created: true,
            startedAt: 'a',
            endedAt: 'b',
            durationMinutes: input.durationMinutes,
            note: null,
          };
        },
      },
    });
    assert.equal((await logEntry(h, 'key-3')).status, 404);
    assert.equal((await logEntry(h, 'key-3')).status, 201);
  });

  it('runs the check after validation', async (t) => {
    const h = await startHarness(t);
    assert.equal((await logEntry(h, 'key-4')).status, 201);
    const invalid = await logEntry(h, 'key-4', '{"name":"Writing"}');
    assert.equal(invalid.json.code, 'validation_failed');
  });

  it('forgets keys after 24 h', async (t) => {
    const h = await startHarness(t);
    assert.equal((await logEntry(h, 'key-5')).status, 201);
    h.clock.now += 24 * 3600 * 1000;
    assert.equal((await logEntry(h, 'key-5', '{"name":"Other","durationMinutes":5}')).status, 201);
    assert.equal(h.calls.logEntry?.length, 2);
  });

  it('lets a concurrent duplicate wait for the first and then replays it', async (t) => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const h = await startHarness(t, {
      handlers: {
        branchChanged: async () => {
          calls++;
          await gate;
          return { promptID: '5c3e9a7b-2222-4a53-9d2b-3f1e8c0a9b12', branch: 'main', repo: null, previousBranch: null };
        },
      },
    });
    const body = '{"branch":"main"}';
    const a = logEntry(h, 'key-6', body, '/branch-changed');
    const b = logEntry(h, 'key-6', body, '/branch-changed');
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const [first, second] = await Promise.all([a, b]);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(second.text, first.text);
    assert.equal(calls, 1);
  });

  it('uses the injected store, which survives a new listener', async (t) => {
    const store = memoryIdempotencyStore();
    const first = await startHarness(t, { idempotency: store });
    assert.equal((await logEntry(first, 'key-7')).status, 201);
    const second = await startHarness(t, { idempotency: store });
    const replay = await logEntry(second, 'key-7');
    assert.equal(replay.status, 201);
    assert.equal(second.calls.logEntry, undefined);
  });

  it('still answers the work done when the store fails to save', async (t) => {
    const errors: unknown[] = [];
    const h = await startHarness(t, {
      onError: (e) => errors.push(e),
      idempotency: {
        find: () => undefined,
        save: () => {
          throw new Error('disk full');
        },
      },
    });
    assert.equal((await logEntry(h, 'key-8')).status, 201);
    assert.equal(errors.length, 1);
  });

  it('still answers the work done by a synchronous use case when the store fails to save (no transaction to undo it)', async (t) => {
    const errors: unknown[] = [];
    const h = await startHarness(t, {
      onError: (e) => errors.push(e),
      idempotency: {
        find: () => undefined,
        save: () => {
          throw new Error('disk full');
        },
      },
      handlers: {
        ...stubHandlers({}),
        logEntry: (input) => ({
          entryID: '7d1f0c2e-3333-4a53-9d2b-3f1e8c0a9b12',
          activity: ACTIVITY,
          created: false,
          startedAt: '2026-11-19T07:30:00.000Z',
          endedAt: '2026-11-19T08:00:00.000Z',
          durationMinutes: input.durationMinutes,
          note: null,
        }),
      },
    });
    assert.equal((await logEntry(h, 'key-9')).status, 201);
    assert.equal(errors.length, 1);
  });
});

describe('memoryIdempotencyStore', () => {
  const record = (createdAtMs: number): StoredResponse => ({
    method: 'POST',
    path: '/entries',
    bodySha256: 'x',
    status: 201,
    body: '{}',
    createdAtMs,
  });

  it('drops records older than 24 h and keeps at most maxEntries', () => {
    const store = memoryIdempotencyStore({ maxEntries: 2 });
    store.save('a', record(0));
    store.save('b', record(1));
    store.save('c', record(2));
    assert.equal(store.find('a'), undefined);
    assert.ok(store.find('b') && store.find('c'));
    store.save('d', record(24 * 3600 * 1000 + 2));
    assert.equal(store.find('b'), undefined);
    assert.equal(store.find('c'), undefined);
    assert.ok(store.find('d'));
  });
});
