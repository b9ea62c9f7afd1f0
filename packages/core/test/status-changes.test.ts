import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { Status } from '@tock/protocol';
import { StatusChanges } from '../src/index.ts';
import { fixture, type Fixture } from './support.ts';

/** A fixture with StatusChanges over its tracker, collecting what subscribers hear. */
function watched(t: TestContext, options: { now?: string; timeZone?: string } = {}): Fixture & { heard: Status[]; changes: StatusChanges } {
  const f = fixture(t, options);
  const changes = new StatusChanges({
    generation: () => f.store.generation,
    status: () => f.tracker.getStatus(),
    clock: f.clock,
    timeZone: () => options.timeZone ?? 'UTC',
  });
  const heard: Status[] = [];
  changes.subscribe((status) => heard.push(status));
  changes.check(); // the baseline
  return { ...f, heard, changes };
}

describe('status changes', () => {
  it('tells subscribers when tracking starts, switches, breaks, resumes and stops', (t) => {
    const w = watched(t);
    w.tracker.startActivity({ name: 'Docs', createIfMissing: true });
    w.changes.check();
    w.clock.advanceMinutes(5);
    w.tracker.startActivity({ name: 'Review', createIfMissing: true });
    w.changes.check();
    w.tracker.startBreak();
    w.changes.check();
    w.tracker.resumeBreak();
    w.changes.check();
    w.tracker.stopActivity();
    w.changes.check();
    assert.deepEqual(
      w.heard.map((s) => [s.isTracking, s.isOnBreak, s.currentActivity?.activityName ?? null]),
      [
        [true, false, 'Docs'],
        [true, false, 'Review'],
        [true, true, 'Review'],
        [true, false, 'Review'],
        [false, false, null],
      ],
    );
  });

  it('never tells anything because time alone passed, running, on a break or not, even after writes that change nothing', (t) => {
    const w = watched(t);
    w.tracker.startActivity({ name: 'Docs', createIfMissing: true });
    w.changes.check();
    for (let i = 0; i < 500; i++) {
      w.clock.advance(777);
      // Every other check follows a write that leaves the status alone: the total is compared
      // with what time alone explains, through the rounding to whole seconds.
      if (i % 2 === 0) w.store.settings.set('tick', i);
      if (i === 250) w.tracker.startBreak();
      if (i === 300) w.tracker.resumeBreak();
      w.changes.check();
    }
    assert.equal(w.heard.length, 3);
  });

  it('tells about a write that changes today’s total: an entry logged, edited, deleted; a session edited', (t) => {
    const w = watched(t);
    w.tracker.startActivity({ name: 'Docs', createIfMissing: true });
    w.changes.check();
    w.clock.advanceMinutes(30);
    // Before the session started: an entry over it would not change today's total (counted once).
    const entry = w.tracker.logEntry({ name: 'Docs', durationMinutes: 15, endedAt: new Date(w.clock() - 30 * 60_000).toISOString() });
    assert.equal(w.changes.check()?.todaySeconds, 45 * 60);
    w.tracker.updateEntry(entry.entryID, { durationMinutes: 20 });
    assert.equal(w.changes.check()?.todaySeconds, 50 * 60);
    w.tracker.deleteEntry(entry.entryID);
    assert.equal(w.changes.check()?.todaySeconds, 30 * 60);
    w.tracker.stopActivity();
    w.changes.check();
    const [session] = w.tracker.listBlocks(0, w.clock()).filter((b) => b.kind === 'session');
    assert.ok(session);
    w.tracker.updateSession(session.id, { startedAt: w.clock() - 10 * 60_000 });
    assert.equal(w.changes.check()?.todaySeconds, 10 * 60);
    assert.equal(w.heard.length, 6);
  });

  it('stays quiet after a write that changes nothing in the status (an entry of another day, a setting)', (t) => {
    const w = watched(t);
    w.tracker.logEntry({ name: 'Docs', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-20T10:00:00.000Z' });
    w.store.settings.set('x', 1);
    assert.equal(w.changes.check(), null);
    assert.equal(w.heard.length, 0);
  });

  it('tells about a rename of the current activity', (t) => {
    const w = watched(t);
    const started = w.tracker.startActivity({ name: 'Docs', createIfMissing: true });
    w.changes.check();
    w.tracker.renameActivity(started.activityID, 'Documentation');
    assert.equal(w.changes.check()?.currentActivity?.activityName, 'Documentation');
  });

  it('tells once when the local day changes, in the zone of the app, without a write', (t) => {
    const w = watched(t, { now: '2026-11-22T22:30:00.000Z', timeZone: 'Europe/Berlin' }); // 23:30 in Berlin
    w.tracker.startActivity({ name: 'Late', createIfMissing: true });
    w.changes.check();
    w.clock.advanceMinutes(29);
    assert.equal(w.changes.check(), null);
    w.clock.advanceMinutes(2); // 00:01 in Berlin: today's total starts again from midnight
    const status = w.changes.check();
    assert.equal(status?.todaySeconds, 60);
    w.clock.advanceMinutes(1);
    assert.equal(w.changes.check(), null);
    assert.equal(w.heard.length, 2);
  });
});
