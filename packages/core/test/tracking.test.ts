import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, problemOf } from './support.ts';
import { createTracker } from '../src/index.ts';

const MIN = 60_000;

test('reports an idle status before anything is tracked', (t) => {
  const { tracker } = fixture(t);
  assert.equal(tracker.getCurrent(), null);
  assert.deepEqual(tracker.getStatus(), {
    isTracking: false,
    isOnBreak: false,
    currentActivity: null,
    todaySeconds: 0,
    since: null,
  });
  assert.equal(tracker.stopActivity(), null);
});

test('starts an activity, creating it only when asked to', (t) => {
  const { tracker } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const problem = problemOf(() => tracker.startActivity({ name: 'Writing' }));
  assert.equal(problem.code, 'activity_not_found');
  assert.equal(problem.message, 'no activity named "Writing"; pass createIfMissing to create it');
  const started = tracker.startActivity({ name: 'Writing', createIfMissing: true });
  assert.deepEqual(started, {
    activityID: started.activityID,
    activityName: 'Writing',
    created: true,
    startedAt: '2026-11-22T09:00:00.000Z',
  });
  assert.deepEqual(tracker.getCurrent(), { activityID: started.activityID, activityName: 'Writing' });
});

test('requires exactly one of name and activityID', (t) => {
  const { tracker } = fixture(t);
  for (const input of [{}, { name: 'a', activityID: '00000000-0000-4000-8000-000000000001' }, { name: null }]) {
    const problem = problemOf(() => tracker.startActivity(input as never));
    assert.equal(problem.code, 'validation_failed', JSON.stringify(input));
    assert.ok(problem.details && problem.details.length > 0);
  }
  assert.equal(problemOf(() => tracker.startActivity({ name: 42 } as never)).code, 'validation_failed');
  assert.equal(
    problemOf(() => tracker.startActivity({ name: 'x', createIfMissing: 'yes' } as never)).code,
    'validation_failed',
  );
});

test('starts an activity by ID and refuses an unknown ID', (t) => {
  const { tracker } = fixture(t);
  const a = tracker.createActivity('Review');
  const started = tracker.startActivity({ activityID: a.activityID });
  assert.equal(started.activityID, a.activityID);
  assert.equal(started.created, false);
  const upper = tracker.startActivity({ activityID: a.activityID.toUpperCase() });
  assert.equal(upper.activityID, a.activityID);
  const problem = problemOf(() => tracker.startActivity({ activityID: '00000000-0000-4000-8000-0000000000ff' }));
  assert.equal(problem.code, 'activity_not_found');
});

test('switching activities ends the running session first', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const a = tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(25);
  const b = tracker.startActivity({ name: 'B', createIfMissing: true });
  assert.equal(b.startedAt, '2026-11-22T09:25:00.000Z');
  clock.advanceMinutes(5);
  const blocks = tracker.listBlocks(0, clock() + 1);
  assert.deepEqual(
    blocks.map((x) => [x.activity.activityName, x.startedAt, x.endedAt, x.seconds]),
    [
      ['A', '2026-11-22T09:00:00.000Z', '2026-11-22T09:25:00.000Z', 1500],
      ['B', '2026-11-22T09:25:00.000Z', null, 300],
    ],
  );
  assert.notEqual(a.activityID, b.activityID);
  assert.equal(tracker.getStatus().todaySeconds, 1800);
});

test('starting the running activity again returns the session unchanged', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const first = tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(10);
  const again = tracker.startActivity({ name: 'a', createIfMissing: true });
  assert.deepEqual(again, { ...first, created: false });
  assert.equal(tracker.listBlocks(0, clock() + 1).length, 1);
});

test('starting the running activity during a break only ends the break', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const first = tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(10);
  tracker.startBreak();
  clock.advanceMinutes(5);
  const again = tracker.startActivity({ activityID: first.activityID });
  assert.equal(again.startedAt, first.startedAt);
  const status = tracker.getStatus();
  assert.equal(status.isOnBreak, false);
  assert.equal(status.since, first.startedAt);
  clock.advanceMinutes(1);
  assert.equal(tracker.getStatus().todaySeconds, 11 * 60);
});

test('a break pauses the session: tracking and on break, since unchanged, break not counted', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const started = tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(30);
  const onBreak = tracker.startBreak();
  assert.deepEqual(onBreak, {
    isTracking: true,
    isOnBreak: true,
    currentActivity: { activityID: started.activityID, activityName: 'A' },
    todaySeconds: 1800,
    since: '2026-11-22T09:00:00.000Z',
  });
  clock.advanceMinutes(15);
  assert.equal(tracker.getStatus().todaySeconds, 1800);
  assert.deepEqual(tracker.getCurrent(), { activityID: started.activityID, activityName: 'A' });
  const resumed = tracker.resumeBreak();
  assert.equal(resumed.isOnBreak, false);
  assert.equal(resumed.isTracking, true);
  clock.advanceMinutes(10);
  assert.equal(tracker.getStatus().todaySeconds, 2400);
  const stopped = tracker.stopActivity();
  assert.deepEqual(stopped, {
    activityID: started.activityID,
    activityName: 'A',
    startedAt: '2026-11-22T09:00:00.000Z',
    endedAt: '2026-11-22T09:55:00.000Z',
    seconds: 2400,
    kept: true,
  });
});

test('stopping during a break ends the break and leaves it out of the seconds', (t) => {
  const { tracker, clock } = fixture(t);
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(20);
  tracker.startBreak();
  clock.advanceMinutes(7);
  assert.equal(tracker.stopActivity()?.seconds, 1200);
  const status = tracker.getStatus();
  assert.equal(status.isOnBreak, false);
  assert.equal(status.isTracking, false);
  const [block] = tracker.listBlocks(0, clock() + 1);
  assert.equal(block?.breaks.length, 1);
  assert.ok(block?.breaks[0]?.endedAt);
});

test('switching during a break ends the break with the old session', (t) => {
  const { tracker, clock } = fixture(t);
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(20);
  tracker.startBreak();
  clock.advanceMinutes(10);
  tracker.startActivity({ name: 'B', createIfMissing: true });
  assert.equal(tracker.getStatus().isOnBreak, false);
  clock.advanceMinutes(5);
  const blocks = tracker.listBlocks(0, clock() + 1);
  assert.deepEqual(
    blocks.map((b) => b.seconds),
    [1200, 300],
  );
  assert.equal(tracker.getStatus().todaySeconds, 1500);
});

test('break and resume refuse with one clear line when they do not apply', (t) => {
  const { tracker, clock } = fixture(t);
  assert.equal(problemOf(() => tracker.startBreak()).message, 'nothing is being tracked; start an activity first');
  assert.equal(problemOf(() => tracker.resumeBreak()).message, 'nothing is being tracked; start an activity first');
  tracker.startActivity({ name: 'A', createIfMissing: true });
  assert.equal(problemOf(() => tracker.resumeBreak()).message, 'not on a break; nothing to resume');
  tracker.startBreak();
  clock.advance(MIN);
  const again = problemOf(() => tracker.startBreak());
  assert.equal(again.code, 'validation_failed');
  assert.equal(again.message, 'already on a break; end it with Resume (`tock resume`) first');
});

test('counts several breaks in one session', (t) => {
  const { tracker, clock } = fixture(t);
  tracker.startActivity({ name: 'A', createIfMissing: true });
  for (let i = 0; i < 3; i++) {
    clock.advanceMinutes(10);
    tracker.startBreak();
    clock.advanceMinutes(2);
    tracker.resumeBreak();
  }
  clock.advanceMinutes(10);
  assert.equal(tracker.stopActivity()?.seconds, 40 * 60);
});

test('a running session survives closing and reopening the store, keeping its start', (t) => {
  const first = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const started = first.tracker.startActivity({ name: 'A', createIfMissing: true });
  first.clock.advanceMinutes(30);
  const second = first.reopen();
  second.clock.advanceMinutes(30);
  const status = second.tracker.getStatus();
  assert.equal(status.isTracking, true);
  assert.equal(status.since, started.startedAt);
  assert.equal(status.todaySeconds, 3600);
  assert.equal(second.tracker.stopActivity()?.seconds, 3600);
});

test('a break survives a restart', (t) => {
  const first = fixture(t);
  first.tracker.startActivity({ name: 'A', createIfMissing: true });
  first.clock.advanceMinutes(10);
  first.tracker.startBreak();
  const second = first.reopen();
  second.clock.advanceMinutes(10);
  assert.equal(second.tracker.getStatus().isOnBreak, true);
  assert.equal(second.tracker.stopActivity()?.seconds, 600);
});

test('the database refuses a second running session', (t) => {
  const { store, tracker } = fixture(t);
  const a = tracker.startActivity({ name: 'A', createIfMissing: true });
  assert.throws(
    () =>
      store.db
        .prepare("INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES ('x', ?, 0, NULL)")
        .run(a.activityID),
    /UNIQUE/,
  );
});

test('a failed start changes nothing (one transaction)', (t) => {
  const { tracker, clock } = fixture(t);
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(5);
  assert.throws(() => tracker.startActivity({ activityID: '00000000-0000-4000-8000-0000000000ff' }));
  assert.equal(tracker.getCurrent()?.activityName, 'A');
  assert.equal(tracker.listBlocks(0, clock() + 1)[0]?.endedAt, null);
});

test('a clock that went back never makes negative time', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(-5);
  assert.equal(tracker.getStatus().todaySeconds, 0);
  const stopped = tracker.stopActivity();
  assert.equal(stopped?.seconds, 0);
  assert.equal(stopped?.endedAt, stopped?.startedAt);
});

test('counts today by whole seconds of the clock: within one it is kept, a step back or forward of a second counts', (t) => {
  const { tracker, clock } = fixture(t);
  tracker.startActivity({ name: 'Deep work', createIfMissing: true });
  clock.advance(600_000);
  const ten = tracker.getStatus();
  assert.equal(ten.todaySeconds, 600);
  clock.advance(999);
  assert.equal(tracker.getStatus(), ten, 'the last millisecond of that second: the same status');
  clock.advance(-1_000);
  assert.equal(tracker.getStatus().todaySeconds, 599, 'a clock set back into the second before counts that second');
  clock.advance(1_000);
  assert.equal(tracker.getStatus().todaySeconds, 600, 'and forward again, this one');
  clock.advance(1);
  assert.equal(tracker.getStatus().todaySeconds, 601, 'the first millisecond of the next second counts it');
  tracker.stopActivity();
  const stopped = tracker.getStatus();
  assert.equal(stopped.isTracking, false, 'a write within the second is seen at once');
  assert.equal(stopped.todaySeconds, 601);
});

test('hands out the same frozen status while nothing in it changed, and a new one once anything did', (t) => {
  const { tracker, clock } = fixture(t);
  tracker.startActivity({ name: 'Deep work', createIfMissing: true });
  const first = tracker.getStatus();
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.currentActivity), 'frozen, the activity too');
  assert.throws(() => {
    (first as { todaySeconds: number }).todaySeconds = 1;
  }, TypeError);
  clock.advance(999);
  assert.equal(tracker.getStatus(), first, 'the same whole second of today: the same object');
  clock.advance(1);
  const next = tracker.getStatus();
  assert.notEqual(next, first);
  assert.equal(next.todaySeconds, first.todaySeconds + 1);
  assert.equal(next.currentActivity, first.currentActivity, 'the activity is kept while the rows are');
  tracker.renameActivity(next.currentActivity?.activityID as string, 'Deeper work');
  const renamed = tracker.getStatus();
  assert.notEqual(renamed, next, 'a write makes a new status within the same second');
  assert.equal(renamed.currentActivity?.activityName, 'Deeper work');
  tracker.startBreak();
  clock.advance(5000);
  const onBreak = tracker.getStatus();
  assert.equal(onBreak.isOnBreak, true);
  clock.advance(60_000);
  assert.equal(tracker.getStatus(), onBreak, 'a break does not count: the total, and so the object, stay');
});

test("getTracking says what getStatus says of tracking and the break, without today's total", (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const both = () => {
    const status = f.tracker.getStatus();
    assert.deepEqual(f.tracker.getTracking(), { isTracking: status.isTracking, isOnBreak: status.isOnBreak });
    return f.tracker.getTracking();
  };
  assert.deepEqual(both(), { isTracking: false, isOnBreak: false });
  f.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  assert.deepEqual(both(), { isTracking: true, isOnBreak: false });
  f.clock.advanceMinutes(10);
  f.tracker.startBreak();
  assert.deepEqual(both(), { isTracking: true, isOnBreak: true });
  f.tracker.resumeBreak();
  assert.deepEqual(both(), { isTracking: true, isOnBreak: false });
  f.tracker.stopActivity();
  assert.deepEqual(both(), { isTracking: false, isOnBreak: false });
});

test('getTracking answers again from what it read until the store is written, by this tracker or any other', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const other = createTracker({ store: f.store, clock: f.clock, timeZone: 'UTC' });
  const first = f.tracker.getTracking();
  assert.deepEqual(first, { isTracking: false, isOnBreak: false });
  assert.equal(f.tracker.getTracking(), first, 'no write between: the same answer, not read again');
  // Writes through another tracker of the same store (the admin socket's, the window's) count too.
  other.startActivity({ name: 'Writing', createIfMissing: true });
  assert.deepEqual(f.tracker.getTracking(), { isTracking: true, isOnBreak: false });
  other.startBreak();
  assert.deepEqual(f.tracker.getTracking(), { isTracking: true, isOnBreak: true });
  // A write that does not change the state is read again, and answers the same.
  f.tracker.logEntry({ name: 'Reading', durationMinutes: 5, createIfMissing: true });
  assert.deepEqual(f.tracker.getTracking(), { isTracking: true, isOnBreak: true });
  other.stopActivity();
  assert.deepEqual(f.tracker.getTracking(), { isTracking: false, isOnBreak: false });
  // The status's own read serves it too, and a write after it is seen.
  f.tracker.getStatus();
  assert.deepEqual(f.tracker.getTracking(), { isTracking: false, isOnBreak: false });
  other.startActivity({ name: 'Writing' });
  assert.deepEqual(f.tracker.getTracking(), { isTracking: true, isOnBreak: false });
});
