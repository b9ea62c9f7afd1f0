import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { until } from '@tock/test-support';
import { memoryIdempotencyStore } from '../src/index.ts';
import { Problem, type Entry, type EntryRequest } from '@tock/protocol';
import { ACTIVITY, startHarness, stubHandlers } from './signed-client.ts';

const ENTRY = JSON.stringify({ name: 'Review', durationMinutes: 30 });

/** A synchronous use case, as the app's tracker is. */
function logEntryNow(input: EntryRequest): Entry {
  return {
    entryID: '7d1f0c2e-2222-4a53-9d2b-3f1e8c0a9b12',
    activity: ACTIVITY,
    created: false,
    startedAt: '2026-11-19T07:30:00.000Z',
    endedAt: '2026-11-19T08:00:00.000Z',
    durationMinutes: input.durationMinutes,
    note: null,
  };
}

describe('Idempotency-Key with an atomic store (ListenerOptions.atomically)', () => {
  it('runs the use case and saves its key inside one transaction', async (t) => {
    const events: string[] = [];
    let depth = 0;
    const store = memoryIdempotencyStore();
    const stubs = stubHandlers({});
    const h = await startHarness(t, {
      atomically: (work) => {
        events.push('begin');
        depth++;
        try {
          return work();
        } finally {
          depth--;
          events.push('commit');
        }
      },
      idempotency: {
        find: (key) => store.find(key),
        save: (key, record) => {
          events.push(`save inside=${depth > 0}`);
          store.save(key, record);
        },
      },
      handlers: {
        ...stubs,
        logEntry: (input) => {
          events.push(`logEntry inside=${depth > 0}`);
          return logEntryNow(input);
        },
      },
    });
    const answer = await h.send({ method: 'POST', target: '/entries', body: ENTRY, headers: { 'idempotency-key': 'k1' } });
    assert.equal(answer.status, 201);
    assert.deepEqual(events, ['begin', 'logEntry inside=true', 'save inside=true', 'commit']);
  });

  it('answers 500 when the key cannot be saved, so the work (rolled back by the store) can be retried', async (t) => {
    let rolledBack = 0;
    const h = await startHarness(t, {
      atomically: (work) => {
        try {
          return work();
        } catch (error) {
          rolledBack++;
          throw error;
        }
      },
      idempotency: {
        find: () => undefined,
        save: () => {
          throw new Error('disk I/O error');
        },
      },
      handlers: { ...stubHandlers({}), logEntry: logEntryNow },
      onError: () => {},
    });
    const answer = await h.send({ method: 'POST', target: '/entries', body: ENTRY, headers: { 'idempotency-key': 'k2' } });
    assert.equal(answer.status, 500);
    assert.equal(answer.json.code, 'internal_error');
    assert.equal(rolledBack, 1);
  });

  it('with a group commit, answers a write only once its transaction settled, and a failed commit as the use case’s own failure', async (t) => {
    const store = memoryIdempotencyStore();
    const commits: { resolve: () => void; reject: (error: unknown) => void }[] = [];
    const h = await startHarness(t, {
      // A store that commits later, as Store.durably does (the test decides when).
      atomically: <T>(work: () => T): Promise<T> => {
        const result = work();
        return new Promise<T>((resolve, reject) => commits.push({ resolve: () => resolve(result), reject }));
      },
      idempotency: store,
      handlers: { ...stubHandlers({}), logEntry: logEntryNow },
    });
    let answered = false;
    const first = h.send({ method: 'POST', target: '/entries', body: ENTRY, headers: { 'idempotency-key': 'g1' } }).then((a) => {
      answered = true;
      return a;
    });
    await until('the first transaction', () => commits.length > 0);
    // A request answered before its commit would arrive before a later one on another
    // connection, which the listener reads only after it has written that answer.
    assert.equal((await h.send({ target: '/status' })).status, 200);
    assert.equal(answered, false, 'not answered before the commit');
    commits.shift()?.resolve();
    assert.equal((await first).status, 201);

    // The same key again: looked up inside the transaction, answered after it, byte for byte.
    const again = h.send({ method: 'POST', target: '/entries', body: ENTRY, headers: { 'idempotency-key': 'g1' } });
    await until('the second transaction', () => commits.length > 0);
    commits.shift()?.resolve();
    assert.equal((await again).text, (await first).text);

    // Without a key, and a commit that fails on a full disk: the problem is the answer.
    const failing = h.send({ method: 'POST', target: '/entries', body: ENTRY });
    await until('the failing transaction', () => commits.length > 0);
    commits.shift()?.reject(new Problem('storage_full', 'the disk is full'));
    const refused = await failing;
    assert.equal(refused.status, 503);
    assert.equal(refused.json.code, 'storage_full');
  });
});
