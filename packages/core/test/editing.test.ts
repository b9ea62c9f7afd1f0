import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, problemOf } from './support.ts';

test('lists sessions with their breaks and entries overlapping a range, by start', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const a = tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(10);
  tracker.startBreak();
  clock.advanceMinutes(5);
  tracker.resumeBreak();
  clock.advanceMinutes(15);
  tracker.stopActivity();
  const entry = tracker.logEntry({ name: 'B', durationMinutes: 90, note: 'n', createIfMissing: true });
  const blocks = tracker.listBlocks(Date.parse('2026-11-22T00:00:00Z'), Date.parse('2026-11-23T00:00:00Z'));
  assert.deepEqual(blocks, [
    {
      id: entry.entryID,
      kind: 'entry',
      activity: entry.activity,
      startedAt: '2026-11-22T08:00:00.000Z',
      endedAt: '2026-11-22T09:30:00.000Z',
      seconds: 5400,
      note: 'n',
      durationMinutes: 90,
      breaks: [],
      tags: [],
      billable: false,
    },
    {
      id: blocks[1]?.id,
      kind: 'session',
      activity: { activityID: a.activityID, activityName: 'A' },
      startedAt: '2026-11-22T09:00:00.000Z',
      endedAt: '2026-11-22T09:30:00.000Z',
      seconds: 1500,
      note: null,
      durationMinutes: null,
      breaks: [{ id: blocks[1]?.breaks[0]?.id ?? '', startedAt: '2026-11-22T09:10:00.000Z', endedAt: '2026-11-22T09:15:00.000Z' }],
      tags: [],
      billable: false,
    },
  ]);
  assert.deepEqual(tracker.listBlocks(Date.parse('2026-11-22T09:30:00Z'), Date.parse('2026-11-23T00:00:00Z')), []);
  assert.equal(tracker.listBlocks(Date.parse('2026-11-22T09:29:00Z'), Date.parse('2026-11-22T09:29:30Z')).length, 2);
});

test('lists the running session with endedAt null and its seconds so far', (t) => {
  const { tracker, clock } = fixture(t);
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(3);
  const [block] = tracker.listBlocks(clock() - 1, clock());
  assert.equal(block?.endedAt, null);
  assert.equal(block?.seconds, 180);
});

test('moves a session over its breaks, keeping them', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(10);
  tracker.startBreak();
  clock.advanceMinutes(10);
  tracker.resumeBreak();
  clock.advanceMinutes(10);
  tracker.stopActivity();
  const id = tracker.listBlocks(0, clock())[0]?.id ?? '';
  const moved = tracker.updateSession(id, { startedAt: '2026-11-22T09:05:00Z', endedAt: '2026-11-22T09:25:00Z' });
  assert.equal(moved.startedAt, '2026-11-22T09:05:00.000Z');
  assert.equal(moved.endedAt, '2026-11-22T09:25:00.000Z');
  assert.deepEqual(moved.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })), [{ startedAt: '2026-11-22T09:10:00.000Z', endedAt: '2026-11-22T09:20:00.000Z' }]);
  assert.equal(moved.seconds, 10 * 60);
  assert.equal(tracker.getStatus().todaySeconds, 10 * 60);
});

test('changes the activity of a session and refuses bad edits', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(30);
  tracker.stopActivity();
  const b = tracker.createActivity('B');
  const id = tracker.listBlocks(0, clock())[0]?.id ?? '';
  assert.deepEqual(tracker.updateSession(id, { activityID: b.activityID }).activity, b);
  assert.equal(
    problemOf(() => tracker.updateSession(id, { activityID: '00000000-0000-4000-8000-0000000000ff' })).code,
    'activity_not_found',
  );
  const backwards = problemOf(() => tracker.updateSession(id, { endedAt: '2026-11-22T08:00:00Z' }));
  assert.deepEqual(backwards.details, [{ field: 'endedAt', message: 'must not be before startedAt', rule: 'notBeforeField', values: { other: 'startedAt' } }]);
  const future = problemOf(() => tracker.updateSession(id, { endedAt: '2026-11-22T09:32:00Z' }));
  assert.equal(future.details?.[0]?.field, 'endedAt');
  assert.equal(problemOf(() => tracker.updateSession(id, { startedAt: 'soon' })).details?.[0]?.field, 'startedAt');
  assert.equal(problemOf(() => tracker.updateSession('nope', {})).code, 'validation_failed');
});

test('stops the running session when its end is set, ending its break', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(20);
  tracker.startBreak();
  clock.advanceMinutes(20);
  const id = tracker.listBlocks(0, clock())[0]?.id ?? '';
  const ended = tracker.updateSession(id, { endedAt: '2026-11-22T09:30:00Z' });
  assert.equal(ended.seconds, 20 * 60);
  assert.deepEqual(ended.breaks, [{ id: ended.breaks[0]?.id ?? '', startedAt: '2026-11-22T09:20:00.000Z', endedAt: '2026-11-22T09:30:00.000Z' }]);
  assert.deepEqual(tracker.getStatus().isTracking, false);
  assert.equal(tracker.getStatus().isOnBreak, false);
});

test('ending the running session before its open break began removes that break', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(40);
  tracker.startBreak();
  clock.advanceMinutes(10);
  const id = tracker.listBlocks(0, clock())[0]?.id ?? '';
  const ended = tracker.updateSession(id, { endedAt: '2026-11-22T09:30:00Z' });
  assert.equal(ended.seconds, 30 * 60);
  assert.deepEqual(ended.breaks, []);
  assert.equal(tracker.getStatus().isOnBreak, false);
  assert.deepEqual(tracker.listBlocks(0, clock())[0]?.breaks, []);
});

test('deletes a session with its breaks', (t) => {
  const { tracker, clock, store } = fixture(t);
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(5);
  tracker.startBreak();
  const id = tracker.listBlocks(0, clock() + 1)[0]?.id ?? '';
  assert.equal(tracker.deleteSession(id), true);
  assert.equal(tracker.deleteSession(id), false);
  assert.equal(tracker.getStatus().isTracking, false);
  assert.deepEqual({ ...store.db.prepare('SELECT count(*) AS n FROM breaks').get() }, { n: 0 });
  tracker.startActivity({ name: 'A' });
  assert.equal(tracker.getStatus().isTracking, true);
});

test('edits an entry: duration, end, note and activity, with the logEntry rules', (t) => {
  const { tracker } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const entry = tracker.logEntry({ name: 'A', durationMinutes: 30, note: 'first', createIfMissing: true });
  const b = tracker.createActivity('B');
  const edited = tracker.updateEntry(entry.entryID, {
    durationMinutes: 60,
    endedAt: '2026-11-22T08:00:00Z',
    note: null,
    activityID: b.activityID,
  });
  assert.deepEqual(edited, {
    id: entry.entryID,
    kind: 'entry',
    activity: b,
    startedAt: '2026-11-22T07:00:00.000Z',
    endedAt: '2026-11-22T08:00:00.000Z',
    seconds: 3600,
    note: null,
    durationMinutes: 60,
    breaks: [],
    tags: [],
    billable: false,
  });
  assert.equal(tracker.updateEntry(entry.entryID, { note: 'again' }).startedAt, '2026-11-22T07:00:00.000Z');
  for (const patch of [{ durationMinutes: 0 }, { durationMinutes: 1440.01 }, { note: 'x'.repeat(2001) }, { endedAt: '2026-11-22T09:01:01Z' }]) {
    assert.equal(problemOf(() => tracker.updateEntry(entry.entryID, patch)).code, 'validation_failed', JSON.stringify(patch));
  }
  assert.equal(problemOf(() => tracker.updateEntry('nope', {})).code, 'validation_failed');
  assert.equal(tracker.deleteEntry(entry.entryID), true);
  assert.equal(tracker.deleteEntry(entry.entryID), false);
  assert.equal(tracker.getStatus().todaySeconds, 0);
});

test('lists activities by name with creation and last use', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.createActivity('beta');
  clock.advanceMinutes(1);
  tracker.createActivity('Alpha');
  clock.advanceMinutes(1);
  tracker.startActivity({ name: 'beta' });
  assert.deepEqual(tracker.listActivities().map((a) => [a.activityName, a.createdAt, a.lastUsedAt]), [
    ['Alpha', '2026-11-22T09:01:00.000Z', '2026-11-22T09:01:00.000Z'],
    ['beta', '2026-11-22T09:00:00.000Z', '2026-11-22T09:02:00.000Z'],
  ]);
});
