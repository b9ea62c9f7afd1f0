import assert from 'node:assert/strict';
import { test } from 'node:test';
import { followClockStep } from '../src/clock-steps.ts';
import { openStore } from '../src/store.ts';
import { createTracker } from '../src/tracker.ts';

const HOUR = 3_600_000;

test('a step of the wall clock moves the running session and its breaks by the step, and nothing else', (t) => {
  const store = openStore(':memory:');
  t.after(() => store.close());
  let now = Date.UTC(2026, 5, 1, 8, 0);
  const tracker = createTracker({ store, clock: () => now, timeZone: 'UTC' });
  tracker.startActivity({ name: 'Before', createIfMissing: true });
  now += HOUR;
  tracker.stopActivity();
  now += HOUR; // an hour apart, so the step back does not move the running session onto 'Before'
  tracker.startActivity({ name: 'Running', createIfMissing: true });
  now += 10 * 60_000;
  tracker.startBreak();
  now += 5 * 60_000;
  tracker.resumeBreak();
  now += 15 * 60_000;
  const rows = (): unknown[] => store.db.prepare('SELECT started_at AS s, ended_at AS e FROM sessions UNION ALL SELECT started_at, ended_at FROM breaks ORDER BY 1').all().map((r) => ({ ...r }));
  const before = rows();
  const worked = tracker.getStatus().todaySeconds;

  // The clock is set back an hour: what the running session counted must not change.
  now -= HOUR;
  assert.equal(followClockStep(store, -HOUR), true);
  assert.equal(tracker.getStatus().todaySeconds, worked, 'today holds the same worked time: the ended hour and the running 25 minutes');
  const since = Date.parse(tracker.getStatus().since as string);
  assert.equal(now - since, 30 * 60_000, 'running for 30 minutes, as before the step');
  const after = rows() as { s: number; e: number | null }[];
  const moved = (before as { s: number; e: number | null }[]).map((r) => (r.s >= Date.UTC(2026, 5, 1, 9, 0) ? { s: r.s - HOUR, e: r.e === null ? null : r.e - HOUR } : r));
  assert.deepEqual(after.sort((a, b) => a.s - b.s), moved.sort((a, b) => a.s - b.s));

  tracker.stopActivity();
  assert.equal(followClockStep(store, HOUR), false, 'nothing runs: nothing moves');
  assert.equal(followClockStep(store, 0), false);
});

test('a step the app did not see (it was stopped): the session seems to start in the future, counts nothing, and ends at its start', (t) => {
  const store = openStore(':memory:');
  t.after(() => store.close());
  let now = Date.UTC(2026, 5, 1, 12, 0);
  const tracker = createTracker({ store, clock: () => now, timeZone: 'UTC' });
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  now -= HOUR;
  const status = tracker.getStatus();
  assert.equal(status.isTracking, true);
  assert.equal(status.todaySeconds, 0);
  const stopped = tracker.stopActivity();
  assert.equal(stopped?.seconds, 0);
  assert.equal(stopped?.endedAt, stopped?.startedAt);
});
