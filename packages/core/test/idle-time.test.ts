import assert from 'node:assert/strict';
import { test } from 'node:test';
import { discardIdleSpan, lastTrackedActivity, runningSessionSpan, stopAtIdleStart } from '../src/index.ts';
import { fixture, problemOf } from './support.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-11-22T09:00:00.000Z');

test('discarding idle time puts one break over the idle span and leaves it out of the total', (t) => {
  const { tracker, clock, store } = fixture(t);
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  const { sessionID } = runningSessionSpan(store)!;
  clock.advanceMinutes(100);
  const result = discardIdleSpan(store, { sessionID, fromMs: T0 + 20 * MIN, toMs: T0 + 60 * MIN });
  assert.deepEqual(result, { activityName: 'Writing', discardedMs: 40 * MIN });
  assert.equal(tracker.getStatus().todaySeconds, 60 * 60);
  assert.equal(tracker.getStatus().isOnBreak, false);
  const [block] = tracker.listBlocks(T0, T0 + 200 * MIN);
  assert.deepEqual(block!.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })), [{ startedAt: '2026-11-22T09:20:00.000Z', endedAt: '2026-11-22T10:00:00.000Z' }]);
});

test('discarding merges with breaks the span overlaps and never counts break time twice', (t) => {
  const { tracker, clock, store } = fixture(t);
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  clock.advanceMinutes(30);
  tracker.startBreak();
  clock.advanceMinutes(10);
  tracker.resumeBreak(); // break 09:30–09:40
  clock.advanceMinutes(60); // 10:40
  const { sessionID } = runningSessionSpan(store)!;
  const result = discardIdleSpan(store, { sessionID, fromMs: T0 + 20 * MIN, toMs: T0 + 50 * MIN });
  assert.equal(result.discardedMs, 20 * MIN);
  const [block] = tracker.listBlocks(T0, T0 + 200 * MIN);
  assert.deepEqual(block!.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })), [{ startedAt: '2026-11-22T09:20:00.000Z', endedAt: '2026-11-22T09:50:00.000Z' }]);
  assert.equal(tracker.getStatus().todaySeconds, 70 * 60);
});

test('discarding next to an open break keeps the session on its break', (t) => {
  const { tracker, clock, store } = fixture(t);
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  clock.advanceMinutes(50);
  tracker.startBreak(); // open break from 09:50
  clock.advanceMinutes(10);
  const { sessionID } = runningSessionSpan(store)!;
  discardIdleSpan(store, { sessionID, fromMs: T0 + 30 * MIN, toMs: T0 + 55 * MIN });
  const [block] = tracker.listBlocks(T0, T0 + 200 * MIN);
  assert.deepEqual(block!.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })), [{ startedAt: '2026-11-22T09:30:00.000Z', endedAt: null }]);
  assert.equal(tracker.getStatus().isOnBreak, true);
  tracker.resumeBreak();
  assert.equal(tracker.getStatus().todaySeconds, 30 * 60);
});

test('discard and stop ends the session when the idleness began and cuts its breaks there', (t) => {
  const { tracker, clock, store } = fixture(t);
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  clock.advanceMinutes(40);
  tracker.startBreak();
  clock.advanceMinutes(20);
  tracker.resumeBreak(); // break 09:40–10:00
  clock.advanceMinutes(30); // 10:30
  const { sessionID } = runningSessionSpan(store)!;
  const result = stopAtIdleStart(store, { sessionID, fromMs: T0 + 50 * MIN, toMs: T0 + 80 * MIN }, clock());
  assert.deepEqual(result, { activityName: 'Writing', discardedMs: 30 * MIN });
  assert.equal(tracker.getStatus().isTracking, false);
  const [block] = tracker.listBlocks(T0, T0 + 200 * MIN);
  assert.equal(block!.endedAt, '2026-11-22T09:50:00.000Z');
  assert.deepEqual(block!.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })), [{ startedAt: '2026-11-22T09:40:00.000Z', endedAt: '2026-11-22T09:50:00.000Z' }]);
  assert.equal(block!.seconds, 40 * 60);
});

test('an idle span that began before the session started stops it at its start', (t) => {
  const { tracker, clock, store } = fixture(t);
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  clock.advanceMinutes(10);
  const { sessionID } = runningSessionSpan(store)!;
  stopAtIdleStart(store, { sessionID, fromMs: T0 - 5 * MIN, toMs: T0 + 10 * MIN }, clock());
  const [block] = tracker.listBlocks(T0 - MIN, T0 + 200 * MIN);
  assert.equal(block!.startedAt, block!.endedAt);
  assert.equal(block!.seconds, 0);
});

test('answering for a session that was deleted meanwhile changes nothing and says so', (t) => {
  const { tracker, store } = fixture(t);
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  const { sessionID } = runningSessionSpan(store)!;
  tracker.deleteSession(sessionID);
  const problem = problemOf(() => discardIdleSpan(store, { sessionID, fromMs: T0, toMs: T0 + MIN }));
  assert.equal(problem.message, 'the session this idle time belonged to no longer exists; nothing changed');
});

test('a failed discard leaves the session exactly as it was (one transaction)', (t) => {
  const { tracker, clock, store } = fixture(t);
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  clock.advanceMinutes(60);
  const { sessionID } = runningSessionSpan(store)!;
  const before = tracker.listBlocks(T0, T0 + 200 * MIN);
  // The insert fails after the merged breaks were deleted: a trigger refuses it.
  store.db.exec(`CREATE TEMP TRIGGER refuse_breaks BEFORE INSERT ON breaks BEGIN SELECT RAISE(ABORT, 'disk says no'); END`);
  assert.throws(() => discardIdleSpan(store, { sessionID, fromMs: T0 + 10 * MIN, toMs: T0 + 20 * MIN }), /disk says no/);
  store.db.exec('DROP TRIGGER refuse_breaks');
  assert.deepEqual(tracker.listBlocks(T0, T0 + 200 * MIN), before);
});

test('the most recently tracked activity: a running session first, else what ended last', (t) => {
  const { tracker, clock, store } = fixture(t);
  assert.equal(lastTrackedActivity(store), null);
  const writing = tracker.startActivity({ name: 'Writing', createIfMissing: true });
  assert.deepEqual(lastTrackedActivity(store), { activityID: writing.activityID, activityName: 'Writing', endedAtMs: null });
  clock.advanceMinutes(30);
  tracker.stopActivity();
  clock.advanceMinutes(30);
  // An entry that ended before the session did does not win.
  tracker.logEntry({ name: 'Email', durationMinutes: 20, createIfMissing: true, endedAt: new Date(T0 + 10 * MIN).toISOString() });
  assert.deepEqual(lastTrackedActivity(store), { activityID: writing.activityID, activityName: 'Writing', endedAtMs: T0 + 30 * MIN });
  tracker.logEntry({ name: 'Email', durationMinutes: 20 });
  assert.equal(lastTrackedActivity(store)?.activityName, 'Email');
});
