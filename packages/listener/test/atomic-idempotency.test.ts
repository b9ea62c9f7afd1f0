import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryIdempotencyStore } from '../src/index.ts';
import type { Entry, EntryRequest } from '@tock/protocol';
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
});
