/**
 * One timer across devices (docs/sync.md "One timer"), with two real apps and one folder on an
 * injected clock: a later start on the other device ends this device's running session at that
 * start when it arrives, the stop travels back, and both exports end equal whatever order the
 * two devices read the folder in; an earlier start changes nothing; with the setting off each
 * device keeps its own timer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDirs } from '@tock/test-support';
import { startApp, type RunningApp } from '../src/app.ts';
import { exported, NOON } from './support/sync-apps.ts';

const tempDir = tempDirs();

const MIN = 60_000;

/** Two apps on one clock, syncing through one folder. */
async function pair(clock: { now: number }): Promise<[RunningApp, RunningApp]> {
  const start = () =>
    startApp({ home: tempDir('tock-one-timer-home-'), clock: () => clock.now, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' } });
  const a = await start();
  const b = await start();
  const folder = tempDir('tock-one-timer-folder-');
  a.services.sync.enable(folder, 'laptop');
  b.services.sync.enable(folder, 'desktop', a.services.sync.folderKey());
  return [a, b];
}

function sessions(app: RunningApp, clock: { now: number }): [string, string, string | null][] {
  return app.services.tracker
    .listBlocks(0, clock.now + 1)
    .filter((b) => b.kind === 'session')
    .map((b) => [b.activity.activityName, b.startedAt, b.endedAt]);
}

const iso = (ms: number): string => new Date(ms).toISOString();

describe('one timer across devices', { timeout: 60_000 }, () => {
  for (const order of ['the later device reads first', 'the earlier device reads first'] as const) {
    it(`a later start on the other device ends the running session at that start (${order})`, async () => {
      const clock = { now: NOON };
      const [a, b] = await pair(clock);
      try {
        assert.equal(a.services.sync.status().oneTimer, true, 'on by default');
        a.services.tracker.startActivity({ name: 'Write', createIfMissing: true, note: 'chapter 3' });
        assert.equal(a.services.tracker.startBreak().isOnBreak, true);
        clock.now += 20 * MIN;
        b.services.tracker.startActivity({ name: 'Review', createIfMissing: true });
        const bStart = clock.now;
        clock.now += 5 * MIN; // the start arrives on A five minutes later: A's end is B's start, not A's clock
        await a.services.sync.syncNow(); // A writes its start and break
        if (order === 'the later device reads first') await b.services.sync.syncNow();
        await b.services.sync.syncNow();
        await a.services.sync.syncNow(); // A reads B's start: its timer stops at bStart
        assert.equal(a.services.tracker.getStatus().isTracking, false);
        assert.deepEqual(sessions(a, clock), [['Write', iso(NOON), iso(bStart)]]);
        // The break that was on ends there too, so no time of it counts.
        const write = a.services.tracker.listBlocks(0, clock.now + 1)[0];
        assert.deepEqual(write?.breaks.map(({ startedAt, endedAt }) => ({ startedAt, endedAt })), [{ startedAt: iso(NOON), endedAt: iso(bStart) }]);
        assert.equal(write?.note, 'chapter 3');
        // B keeps running; the stop travels to B, and both stores end the same.
        await a.services.sync.syncNow();
        await b.services.sync.syncNow();
        assert.equal(b.services.tracker.getStatus().isTracking, true);
        assert.deepEqual(sessions(b, clock), [
          ['Write', iso(NOON), iso(bStart)],
          ['Review', iso(bStart), null],
        ]);
        // Applying again changes nothing (idempotent): no second stop, no other end.
        await a.services.sync.syncNow();
        await b.services.sync.syncNow();
        b.services.tracker.stopActivity();
        await b.services.sync.syncNow();
        await a.services.sync.syncNow();
        assert.deepEqual(exported(a), exported(b));
        assert.deepEqual(
          sessions(a, clock).map(([name, start, end]) => [name, start, end]),
          [
            ['Write', iso(NOON), iso(bStart)],
            ['Review', iso(bStart), iso(clock.now)],
          ],
        );
      } finally {
        await a.stop();
        await b.stop();
      }
    });
  }

  it('an earlier start arriving changes nothing here (the other device stops its own)', async () => {
    const clock = { now: NOON };
    const [a, b] = await pair(clock);
    try {
      // B started first but A reads it after starting: A's start is the later one and wins.
      b.services.tracker.startActivity({ name: 'Review', createIfMissing: true });
      const bStart = clock.now;
      clock.now += 10 * MIN;
      a.services.tracker.startActivity({ name: 'Write', createIfMissing: true });
      const aStart = clock.now;
      await b.services.sync.syncNow();
      await a.services.sync.syncNow();
      assert.equal(a.services.tracker.getStatus().isTracking, true, "B's earlier start leaves A's timer running");
      await b.services.sync.syncNow();
      assert.equal(b.services.tracker.getStatus().isTracking, false, "A's later start stops B's timer");
      await a.services.sync.syncNow();
      assert.deepEqual(sessions(a, clock), [
        ['Review', iso(bStart), iso(aStart)],
        ['Write', iso(aStart), null],
      ]);
      a.services.tracker.stopActivity();
      await a.services.sync.syncNow();
      await b.services.sync.syncNow();
      assert.deepEqual(exported(a), exported(b));
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('off: each device keeps its own running timer', async () => {
    const clock = { now: NOON };
    const [a, b] = await pair(clock);
    try {
      assert.equal(a.services.sync.setOneTimer(false).oneTimer, false);
      a.services.tracker.startActivity({ name: 'Write', createIfMissing: true });
      clock.now += 10 * MIN;
      b.services.tracker.startActivity({ name: 'Review', createIfMissing: true });
      await a.services.sync.syncNow();
      await b.services.sync.syncNow();
      await a.services.sync.syncNow();
      assert.equal(a.services.tracker.getStatus().isTracking, true);
      assert.equal(b.services.tracker.getStatus().isTracking, true);
      assert.throws(() => a.services.sync.setOneTimer('yes'), /say on or off/);
      assert.throws(
        () => a.services.sync.setOneTimer('yes'),
        (error: unknown) => JSON.stringify((error as { because?: unknown }).because) === JSON.stringify({ code: 'sync_one_timer', values: { command: 'tock sync one-timer on|off' } }),
      );
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
