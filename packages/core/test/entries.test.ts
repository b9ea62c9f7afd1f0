import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, problemOf } from './support.ts';

test('logs an entry that ends now by default, block [now − duration, now]', (t) => {
  const { tracker } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const entry = tracker.logEntry({ name: 'Writing', durationMinutes: 45, note: 'draft', createIfMissing: true });
  assert.deepEqual(entry, {
    entryID: entry.entryID,
    activity: { activityID: entry.activity.activityID, activityName: 'Writing' },
    created: true,
    startedAt: '2026-11-22T08:15:00.000Z',
    endedAt: '2026-11-22T09:00:00.000Z',
    durationMinutes: 45,
    note: 'draft',
  });
});

test('says created only when this call created the activity', (t) => {
  const { tracker } = fixture(t);
  assert.equal(tracker.logEntry({ name: 'A', durationMinutes: 1, createIfMissing: true }).created, true);
  assert.equal(tracker.logEntry({ name: 'a', durationMinutes: 1, createIfMissing: true }).created, false);
  const a = tracker.listActivities()[0];
  assert.equal(tracker.logEntry({ activityID: a?.activityID ?? '', durationMinutes: 1 }).created, false);
  assert.equal(problemOf(() => tracker.logEntry({ name: 'B', durationMinutes: 1 })).code, 'activity_not_found');
});

test('accepts durations in (0, 1440] and refuses 0, 1440.01, NaN, Infinity and strings', (t) => {
  const { tracker } = fixture(t);
  for (const ok of [1440, 0.5, 1e-3]) {
    assert.equal(tracker.logEntry({ name: 'A', durationMinutes: ok, createIfMissing: true }).durationMinutes, ok);
  }
  for (const bad of [0, -1, 1440.01, Number.NaN, Number.POSITIVE_INFINITY, '10', undefined, null]) {
    const problem = problemOf(() =>
      tracker.logEntry({ name: 'A', durationMinutes: bad as number, createIfMissing: true }),
    );
    assert.equal(problem.code, 'validation_failed', String(bad));
    assert.equal(problem.details?.[0]?.field, 'durationMinutes');
  }
});

test('stores fractional minutes as milliseconds', (t) => {
  const { tracker } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const entry = tracker.logEntry({ name: 'A', durationMinutes: 1.5, createIfMissing: true });
  assert.equal(entry.startedAt, '2026-11-22T08:58:30.000Z');
  assert.equal(entry.durationMinutes, 1.5);
  assert.equal(tracker.getStatus().todaySeconds, 90);
});

test('accepts a note of 2000 code points and refuses 2001', (t) => {
  const { tracker } = fixture(t);
  const note = '😀'.repeat(2000);
  assert.equal(tracker.logEntry({ name: 'A', durationMinutes: 1, note, createIfMissing: true }).note, note);
  const problem = problemOf(() => tracker.logEntry({ name: 'A', durationMinutes: 1, note: note + 'x' }));
  assert.deepEqual(problem.details, [{ field: 'note', message: 'must be a string of at most 2000 characters', rule: 'textAtMost', values: { max: 2000, clean: 'no' } }]);
  assert.equal(tracker.logEntry({ name: 'A', durationMinutes: 1, note: null } as never).note, null);
});

test('accepts endedAt up to 60 s in the future and refuses 61 s', (t) => {
  const { tracker } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const ok = tracker.logEntry({ name: 'A', durationMinutes: 10, endedAt: '2026-11-22T09:01:00Z', createIfMissing: true });
  assert.equal(ok.endedAt, '2026-11-22T09:01:00.000Z');
  assert.equal(ok.startedAt, '2026-11-22T08:51:00.000Z');
  const problem = problemOf(() => tracker.logEntry({ name: 'A', durationMinutes: 10, endedAt: '2026-11-22T09:01:01Z' }));
  assert.equal(problem.code, 'validation_failed');
  assert.deepEqual(problem.details, [{ field: 'endedAt', message: 'must not be more than 60 seconds in the future', rule: 'notFuture', values: { seconds: 60 } }]);
});

test('places the block from endedAt given with an offset or microseconds', (t) => {
  const { tracker } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  const withOffset = tracker.logEntry({ name: 'A', durationMinutes: 60, endedAt: '2026-11-22T08:00:00+01:00', createIfMissing: true });
  assert.equal(withOffset.endedAt, '2026-11-22T07:00:00.000Z');
  assert.equal(withOffset.startedAt, '2026-11-22T06:00:00.000Z');
  const python = tracker.logEntry({ name: 'A', durationMinutes: 1, endedAt: '2026-11-21T10:00:00.123456+00:00' });
  assert.equal(python.endedAt, '2026-11-21T10:00:00.123Z');
});

test('refuses an endedAt that is not an ISO instant with a zone', (t) => {
  const { tracker } = fixture(t);
  for (const endedAt of ['yesterday', '2026-11-22', '2026-11-22T09:00:00', '2026-02-30T09:00:00Z', 1700000000000]) {
    const problem = problemOf(() =>
      tracker.logEntry({ name: 'A', durationMinutes: 1, endedAt: endedAt as string, createIfMissing: true }),
    );
    assert.equal(problem.code, 'validation_failed', String(endedAt));
    assert.equal(problem.details?.[0]?.field, 'endedAt');
  }
});

test('requires exactly one of activityID and name, reporting every bad field', (t) => {
  const { tracker } = fixture(t);
  const none = problemOf(() => tracker.logEntry({ durationMinutes: 1 }));
  assert.equal(none.code, 'validation_failed');
  const both = problemOf(() =>
    tracker.logEntry({ name: 'A', activityID: '00000000-0000-4000-8000-000000000001', durationMinutes: 0 }),
  );
  assert.deepEqual(
    both.details?.map((d) => d.field).sort(),
    ['activityID', 'durationMinutes'],
  );
});

test('refuses an unknown activityID with activity_not_found', (t) => {
  const { tracker } = fixture(t);
  const problem = problemOf(() => tracker.logEntry({ activityID: '00000000-0000-4000-8000-0000000000ff', durationMinutes: 5 }));
  assert.equal(problem.code, 'activity_not_found');
});

test('a failed entry creates no activity', (t) => {
  const { tracker } = fixture(t);
  assert.throws(() => tracker.logEntry({ name: 'New', durationMinutes: 1441, createIfMissing: true }));
  assert.equal(tracker.listActivities().length, 0);
});
