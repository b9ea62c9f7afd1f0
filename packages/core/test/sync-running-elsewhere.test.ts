/**
 * What runs on other devices (docs/sync.md "Merging: the same store from the same operations"): another device's running session
 * is kept in the merged state only, and `sessionsRunningElsewhere` reads it — with its activity
 * as this store names it, its note and its breaks — until that device stops it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTracker } from '../src/index.ts';
import { SYNC_SETTINGS, applyOperations, deviceClock, drainOutbox, installCapture, parseOpLine, sessionsRunningElsewhere } from '../src/sync/index.ts';
import { fixture, type Fixture } from './support.ts';

const A = 'aaaaaaaa-0000-4000-8000-000000000000';
const B = 'bbbbbbbb-0000-4000-8000-000000000000';

interface Device {
  f: Fixture;
  id: string;
}

function device(t: Parameters<typeof fixture>[0], id: string, prefix: string): Device {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  let n = 0;
  const tracker = createTracker({ store: f.store, clock: f.clock, newId: () => `${prefix}-0000-4000-8000-${String(++n).padStart(12, '0')}`, timeZone: 'UTC' });
  f.store.settings.set(SYNC_SETTINGS.device, { deviceID: id, createdAt: f.clock() });
  installCapture(f.store);
  return { f: { ...f, tracker }, id };
}

/** Delivers everything `from` logged so far to `to`. */
function sync(from: Device, to: Device): void {
  drainOutbox(from.f.store, deviceClock(from.f.store, from.id, from.f.clock));
  const lines = (from.f.store.db.prepare('SELECT line FROM sync_log ORDER BY seq').all() as { line: string }[]).map((r) => r.line);
  applyOperations(to.f.store, deviceClock(to.f.store, to.id, to.f.clock), lines.map((line) => parseOpLine(line, from.id)));
}

test('another device’s running session is read from the merged state, with its note and breaks, until it stops', (t) => {
  const a = device(t, A, 'aaaaaaaa');
  const b = device(t, B, 'bbbbbbbb');
  b.f.tracker.startActivity({ name: 'Mine', createIfMissing: true });
  a.f.tracker.startActivity({ name: 'Review', createIfMissing: true, note: 'pull request 212' });
  a.f.clock.advanceMinutes(10);
  a.f.tracker.startBreak();
  sync(a, b);
  const running = sessionsRunningElsewhere(b.f.store);
  assert.equal(running.length, 1, 'this device’s own running session is not listed');
  const [r] = running;
  assert.equal(r?.deviceID, A);
  assert.equal(r?.activity.activityName, 'Review');
  assert.equal(r?.note, 'pull request 212');
  assert.equal(r?.startedAt, Date.parse('2026-11-22T09:00:00.000Z'));
  assert.deepEqual(r?.breaks, [{ startedAt: Date.parse('2026-11-22T09:10:00.000Z'), endedAt: null }]);
  assert.equal(b.f.tracker.listBlocks(0, Date.parse('2027-01-01T00:00:00.000Z')).filter((x) => x.device !== undefined).length, 0, 'not a block while it runs');

  a.f.clock.advanceMinutes(5);
  a.f.tracker.stopActivity();
  sync(a, b);
  assert.deepEqual(sessionsRunningElsewhere(b.f.store), [], 'once stopped it is an ordinary block');
  assert.deepEqual(sessionsRunningElsewhere(a.f.store), [], 'nothing runs elsewhere for the device that ran it');
});

test('nothing runs elsewhere in a store that never synced', (t) => {
  assert.deepEqual(sessionsRunningElsewhere(fixture(t).store), []);
});
