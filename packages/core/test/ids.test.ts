/**
 * Row IDs (docs/decisions.md "Row IDs"): an entry's ID is a version 7 UUID stamped with the
 * entry's start, so entries logged one after the other land side by side in the ID's index and
 * the ID tells nothing its row does not; every other row keeps a random (version 4) ID.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify, validate, version } from 'uuid';
import { createTracker, openStore } from '../src/index.ts';
import { newRowId, timeOrderedId } from '../src/ids.ts';

/** The instant a version 7 UUID is stamped with: its first 48 bits, ms since the epoch. */
function stampOf(id: string): number {
  return Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
}

test('a time-ordered ID is a version 7 UUID stamped with the instant given, the rest random', () => {
  const at = Date.parse('2026-11-22T08:15:00.000Z');
  const a = timeOrderedId(at);
  const b = timeOrderedId(at);
  assert.ok(validate(a), a);
  assert.equal(version(a), 7);
  assert.equal(stampOf(a), at);
  assert.notEqual(a, b, 'two IDs for one instant differ');
  assert.ok(timeOrderedId(at - 1) < a && a < timeOrderedId(at + 1), 'IDs sort by their instant');
  assert.equal(stampOf(timeOrderedId(-5)), 0, 'an instant before 1970 is clamped');
  assert.equal(version(newRowId()), 4, 'without an instant: random');
});

test("a time-ordered ID's text is the RFC's spelling of its bytes, and stays what it was as more are made", () => {
  const first = timeOrderedId(Date.parse('2026-11-22T08:15:00.000Z'));
  const copy = `${first}`;
  for (let i = 0; i < 2000; i++) {
    const id = timeOrderedId(i * 987_654_321);
    assert.equal(stringify(parse(id)), id);
  }
  assert.equal(first, copy);
  assert.equal(stringify(parse(first)), first);
});

test('an entry logged without injected IDs is stamped with its own start, not with when it was logged', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-ids-'));
  const store = openStore(join(dir, 'tock.db'));
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const now = Date.parse('2026-11-22T18:00:00.000Z');
  const tracker = createTracker({ store, clock: () => now, timeZone: 'UTC' });
  // Logged in the evening for the morning: the ID shows the morning, as the entry does.
  const morning = tracker.logEntry({ name: 'Writing', durationMinutes: 45, endedAt: '2026-11-22T09:00:00.000Z', createIfMissing: true });
  assert.equal(version(morning.entryID), 7);
  assert.equal(stampOf(morning.entryID), Date.parse(morning.startedAt));
  const noon = tracker.logEntry({ name: 'Writing', durationMinutes: 30, endedAt: '2026-11-22T12:00:00.000Z' });
  assert.ok(morning.entryID < noon.entryID, 'entries sort by their start');
  // Every other row: random. The activity logEntry created, and a session.
  assert.equal(version(morning.activity.activityID), 4);
  tracker.startActivity({ name: 'Writing' });
  const session = store.statement('SELECT id FROM sessions WHERE ended_at IS NULL').get() as { id: string };
  assert.equal(version(session.id), 4);
});
