/**
 * A block's whole ledger in one change (core's `setBlockLedger`, what the window's block
 * editor saves): the tag list replaced, the flag set, each only when given, and a refused
 * value writes nothing inside the caller's transaction.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setBlockLedger } from '@tock/core';
import { fixture, problemOf } from './support.ts';

test('a block’s tags are replaced by the list given and its flag set, each only when given', (t) => {
  const { store, tracker } = fixture(t);
  const entry = tracker.logEntry({ name: 'Writing', createIfMissing: true, durationMinutes: 30, tags: ['Docs', 'urgent'] });
  const block = () => tracker.listBlocks(0, Date.parse('2030-01-01'))[0];
  assert.deepEqual(setBlockLedger(store, entry.entryID, { tags: ['client-a', 'URGENT'] }).tags, ['client-a', 'URGENT']);
  assert.deepEqual(block()?.tags, ['client-a', 'URGENT']);
  assert.deepEqual(setBlockLedger(store, entry.entryID, { billable: true }), { id: entry.entryID, kind: 'entry', tags: ['client-a', 'URGENT'] });
  assert.equal(block()?.billable, true);
  // Neither: the block read back, nothing changed.
  assert.deepEqual(setBlockLedger(store, entry.entryID, {}).tags, ['client-a', 'URGENT']);
  assert.deepEqual(setBlockLedger(store, entry.entryID, { tags: [], billable: null }).tags, []);
  assert.equal(block()?.billable, false);
});

test('a refused tag or flag writes nothing in the caller’s transaction', (t) => {
  const { store, tracker } = fixture(t);
  const entry = tracker.logEntry({ name: 'Writing', createIfMissing: true, durationMinutes: 30, tags: ['Docs'] });
  const before = JSON.stringify(tracker.listBlocks(0, Date.parse('2030-01-01')));
  for (const [change, field] of [
    [{ tags: ['bad\u0001tag'], billable: true }, 'tags'],
    [{ tags: ['ok'], billable: 'yes' }, 'billable'],
  ] as const) {
    const problem = problemOf(() => store.transaction(() => setBlockLedger(store, entry.entryID, change)));
    assert.equal(problem.code, 'validation_failed');
    assert.equal(problem.details?.[0]?.field, field);
    assert.equal(JSON.stringify(tracker.listBlocks(0, Date.parse('2030-01-01'))), before);
  }
  assert.equal(problemOf(() => setBlockLedger(store, 'nope', { tags: ['x'] })).details?.[0]?.field, 'id');
});
