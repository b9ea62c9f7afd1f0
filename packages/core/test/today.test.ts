import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTracker, localDayKey, localDaySpan } from '../src/index.ts';
import { dayIntervals, secondsInDay } from '../src/totals.ts';
import { fixture } from './support.ts';

const HOUR = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString();

test('finds local day boundaries on the 23- and 25-hour days in Europe/Berlin', () => {
  const spring = localDaySpan('2026-03-29', 'Europe/Berlin');
  assert.equal(iso(spring.start), '2026-03-28T23:00:00.000Z');
  assert.equal(iso(spring.end), '2026-03-29T22:00:00.000Z');
  assert.equal(spring.end - spring.start, 23 * HOUR);
  const autumn = localDaySpan('2026-10-25', 'Europe/Berlin');
  assert.equal(iso(autumn.start), '2026-10-24T22:00:00.000Z');
  assert.equal(iso(autumn.end), '2026-10-25T23:00:00.000Z');
  assert.equal(autumn.end - autumn.start, 25 * HOUR);
});

test('finds local day boundaries on DST days in America/New_York', () => {
  const spring = localDaySpan('2026-03-08', 'America/New_York');
  assert.equal(iso(spring.start), '2026-03-08T05:00:00.000Z');
  assert.equal(spring.end - spring.start, 23 * HOUR);
  const autumn = localDaySpan('2026-11-01', 'America/New_York');
  assert.equal(iso(autumn.start), '2026-11-01T04:00:00.000Z');
  assert.equal(autumn.end - autumn.start, 25 * HOUR);
});

test('starts a day whose midnight is skipped at the first instant that exists', () => {
  // Chile moves its clocks from 00:00 to 01:00 on 2026-09-06.
  const day = localDaySpan('2026-09-06', 'America/Santiago');
  assert.equal(iso(day.start), '2026-09-06T04:00:00.000Z');
  assert.equal(localDayKey(day.start, 'America/Santiago'), '2026-09-06');
  assert.equal(localDayKey(day.start - 1, 'America/Santiago'), '2026-09-05');
  // Samoa skipped 2011-12-30 altogether.
  const skipped = localDaySpan('2011-12-30', 'Pacific/Apia');
  assert.equal(skipped.end - skipped.start, 0);
});

test('counts the whole 23-hour spring-forward day in Europe/Berlin', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-03-28T20:00:00.000Z', timeZone: 'Europe/Berlin' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.set('2026-03-29T21:59:59.000Z'); // 23:59:59 local, CEST
  assert.equal(tracker.getStatus().todaySeconds, 23 * 3600 - 1);
  clock.set('2026-03-29T22:00:00.000Z'); // midnight: a new day
  assert.equal(tracker.getStatus().todaySeconds, 0);
});

test('counts the whole 25-hour fall-back day in Europe/Berlin', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-10-24T20:00:00.000Z', timeZone: 'Europe/Berlin' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.set('2026-10-25T22:59:59.000Z'); // 23:59:59 local, CET
  assert.equal(tracker.getStatus().todaySeconds, 25 * 3600 - 1);
  assert.deepEqual(
    tracker.dailyTotals('2026-10-24', '2026-10-25').map((d) => [d.day, d.seconds]),
    [
      ['2026-10-24', 2 * 3600],
      ['2026-10-25', 25 * 3600 - 1],
    ],
  );
});

test('counts only the part after local midnight of a session that crossed it', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-21T22:00:00.000Z', timeZone: 'Europe/Berlin' }); // 23:00 local
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.set('2026-11-22T00:30:00.000Z'); // 01:30 local
  assert.equal(tracker.getStatus().todaySeconds, 90 * 60);
  assert.equal(tracker.stopActivity()?.seconds, 150 * 60);
});

test('counts only today\'s part of an entry that crossed midnight', (t) => {
  const { tracker } = fixture(t, { now: '2026-11-22T10:00:00.000Z', timeZone: 'America/New_York' }); // 05:00 local
  // 04:00–06:00Z is 23:00–01:00 local: one hour yesterday, one today.
  tracker.logEntry({ name: 'A', durationMinutes: 120, endedAt: '2026-11-22T06:00:00Z', createIfMissing: true });
  assert.equal(tracker.getStatus().todaySeconds, 3600);
  assert.deepEqual(
    tracker.dailyTotals('2026-11-21', '2026-11-22').map((d) => [d.day, d.seconds]),
    [
      ['2026-11-21', 3600],
      ['2026-11-22', 3600],
    ],
  );
});

test('leaves out the part of a break inside today', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T21:00:00.000Z', timeZone: 'UTC' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.set('2026-11-22T23:30:00.000Z');
  tracker.startBreak();
  clock.set('2026-11-23T00:30:00.000Z');
  tracker.resumeBreak();
  clock.set('2026-11-23T01:00:00.000Z');
  assert.equal(tracker.getStatus().todaySeconds, 30 * 60);
  assert.deepEqual(
    tracker.dailyTotals('2026-11-22', '2026-11-23').map((d) => [d.day, d.seconds]),
    [
      ['2026-11-22', 150 * 60],
      ['2026-11-23', 30 * 60],
    ],
  );
});

test('counts a second covered by several blocks once', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.set('2026-11-22T10:00:00.000Z');
  tracker.stopActivity();
  tracker.logEntry({ name: 'B', durationMinutes: 30, createIfMissing: true });
  tracker.logEntry({ name: 'B', durationMinutes: 15 });
  tracker.logEntry({ name: 'B', durationMinutes: 30, endedAt: '2026-11-22T09:00:00.000Z' }); // 08:30–09:00, beside A
  assert.equal(tracker.getStatus().todaySeconds, 3600 + 30 * 60);
});

test('counts the running session once where it overlaps a logged entry, and a break the entry covers', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'Writing docs', createIfMissing: true });
  clock.set('2026-11-22T09:30:00.000Z');
  tracker.startBreak(); // 09:30–09:40 is a break of the session…
  clock.set('2026-11-22T09:40:00.000Z');
  tracker.resumeBreak();
  clock.set('2026-11-22T10:00:00.000Z');
  // …and `tock log 59 "Writing docs"` while it runs covers 09:01–10:00, the break included.
  tracker.logEntry({ name: 'Writing docs', durationMinutes: 59 });
  assert.equal(tracker.getStatus().todaySeconds, 3600);
  clock.set('2026-11-22T10:30:00.000Z');
  assert.equal(tracker.getStatus().todaySeconds, 90 * 60, 'the running session counts on from the end of the entry');
});

test('a session edited over an entry counts the shared time once', (t) => {
  // Issue 31: a session's start moved to 10:30 over a 09:30–11:00 entry; at 12:06 the day
  // showed 3 h 05 min when 2 h 36 min had passed since 09:30.
  const { tracker, clock } = fixture(t, { now: '2026-11-22T11:00:00.000Z' });
  tracker.logEntry({ name: 'Writing docs', durationMinutes: 90, createIfMissing: true }); // 09:30–11:00
  tracker.startActivity({ name: 'Review', createIfMissing: true });
  clock.set('2026-11-22T12:06:00.000Z');
  const session = tracker.listBlocks(Date.parse('2026-11-22T00:00:00Z'), clock()).find((b) => b.kind === 'session');
  assert.ok(session);
  tracker.updateSession(session.id, { startedAt: '2026-11-22T10:30:00.000Z' });
  assert.equal(tracker.getStatus().todaySeconds, 2 * 3600 + 36 * 60);
});

test('adds up the blocks that ended once, so a poll counts only what is still open', (t) => {
  const { tracker, store, clock } = fixture(t, { now: '2026-11-22T12:00:00.000Z' });
  for (let i = 0; i < 300; i++) tracker.logEntry({ name: 'A', durationMinutes: 1, endedAt: iso(Date.parse('2026-11-22T06:00:00Z') + i * 60_000), createIfMissing: true });
  tracker.startActivity({ name: 'B', createIfMissing: true });
  clock.set('2026-11-22T12:10:00.000Z');
  tracker.startBreak();
  clock.set('2026-11-22T12:15:00.000Z');
  const today = dayIntervals(store, clock(), 'UTC');
  assert.equal(today.ended.length, 300 * 60);
  assert.equal(today.open.length, 1); // the running session (with its open break), nothing else
  assert.equal(secondsInDay(today, clock()), 300 * 60 + 10 * 60);
  assert.equal(tracker.getStatus().todaySeconds, 300 * 60 + 10 * 60);
  tracker.resumeBreak();
  clock.set('2026-11-22T12:20:00.000Z');
  assert.equal(tracker.getStatus().todaySeconds, 300 * 60 + 15 * 60);
});

test('leaves out blocks of other days and counts an entry ending slightly in the future only up to now', (t) => {
  const { tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.logEntry({ name: 'A', durationMinutes: 60, endedAt: '2026-11-21T12:00:00Z', createIfMissing: true });
  tracker.logEntry({ name: 'A', durationMinutes: 60, endedAt: '2026-11-20T23:59:00Z' });
  assert.equal(tracker.getStatus().todaySeconds, 0);
  tracker.logEntry({ name: 'A', durationMinutes: 2, endedAt: '2026-11-22T09:01:00Z' });
  assert.equal(tracker.getStatus().todaySeconds, 60, 'the minute after now has not passed yet');
  clock.set('2026-11-22T09:01:00.000Z');
  assert.equal(tracker.getStatus().todaySeconds, 120);
});

test('uses the process time zone (TZ) when none is injected', (t) => {
  const previous = process.env.TZ;
  t.after(() => {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  });
  const { store, clock } = fixture(t, { now: '2026-11-21T23:30:00.000Z' });
  const tracker = createTracker({ store, clock });
  tracker.logEntry({ name: 'A', durationMinutes: 60, createIfMissing: true }); // 22:30–23:30Z
  process.env.TZ = 'UTC';
  assert.equal(tracker.getStatus().todaySeconds, 3600);
  process.env.TZ = 'Europe/Berlin'; // 23:30–00:30 local: half of it is today
  assert.equal(tracker.getStatus().todaySeconds, 1800);
});

test('lists daily totals per activity, by day then name, leaving out empty days', (t) => {
  const { tracker } = fixture(t, { now: '2026-11-22T12:00:00.000Z' });
  tracker.logEntry({ name: 'Beta', durationMinutes: 30, endedAt: '2026-11-20T10:00:00Z', createIfMissing: true });
  tracker.logEntry({ name: 'Alpha', durationMinutes: 60, endedAt: '2026-11-20T12:00:00Z', createIfMissing: true });
  tracker.logEntry({ name: 'Alpha', durationMinutes: 15, endedAt: '2026-11-22T11:00:00Z' });
  const totals = tracker.dailyTotals('2026-11-16', '2026-11-22');
  assert.deepEqual(
    totals.map((d) => [d.day, d.activityName, d.seconds]),
    [
      ['2026-11-20', 'Alpha', 3600],
      ['2026-11-20', 'Beta', 1800],
      ['2026-11-22', 'Alpha', 900],
    ],
  );
  assert.deepEqual(tracker.dailyTotals('2026-11-23', '2026-11-22'), []);
  assert.throws(() => tracker.dailyTotals('2026-13-01', '2026-13-02'), { code: 'validation_failed' } as object);
});

test('counts the 25-hour fall-back day and the 23-hour spring-forward day in America/New_York', (t) => {
  const fall = fixture(t, { now: '2026-11-01T03:00:00.000Z', timeZone: 'America/New_York' }); // 23:00 EDT, Oct 31
  fall.tracker.startActivity({ name: 'A', createIfMissing: true });
  fall.clock.set('2026-11-02T04:59:59.000Z'); // 23:59:59 EST, Nov 1
  assert.equal(fall.tracker.getStatus().todaySeconds, 25 * 3600 - 1);
  const spring = fixture(t, { now: '2026-03-08T04:00:00.000Z', timeZone: 'America/New_York' }); // 23:00 EST, Mar 7
  spring.tracker.startActivity({ name: 'A', createIfMissing: true });
  spring.clock.set('2026-03-09T03:59:59.000Z'); // 23:59:59 EDT, Mar 8
  assert.equal(spring.tracker.getStatus().todaySeconds, 23 * 3600 - 1);
});

test('the status reads the store only after a change, and shows every change at once', async (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z', timeZone: 'UTC' });
  let reads = 0;
  const counted = new Proxy(f.store, {
    get(target, key) {
      if (key === 'statement') {
        return (sql: string) => {
          if (/^\s*SELECT/i.test(sql)) reads++;
          return target.statement(sql);
        };
      }
      return Reflect.get(target, key, target);
    },
  });
  const tracker = createTracker({ store: counted, clock: f.clock, timeZone: 'UTC' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  assert.equal(tracker.getStatus().todaySeconds, 0);
  f.clock.advanceMinutes(10);
  const before = reads;
  assert.equal(tracker.getStatus().todaySeconds, 600, 'the clock moves the total without a read');
  assert.equal(reads, before);

  tracker.logEntry({ name: 'A', durationMinutes: 5, endedAt: '2026-11-22T09:00:00.000Z' });
  assert.equal(tracker.getStatus().todaySeconds, 900, 'a logged entry counts at once');
  tracker.startBreak();
  assert.equal(tracker.getStatus().isOnBreak, true);
  assert.throws(() => f.store.transaction(() => {
    tracker.resumeBreak();
    throw new Error('undone');
  }));
  assert.equal(tracker.getStatus().isOnBreak, true, 'a rolled-back change is not shown');

  // A write waiting for its group commit: the status commits it, then shows it.
  const pending = f.store.durably(() => tracker.resumeBreak());
  assert.equal(tracker.getStatus().isOnBreak, false);
  await pending;

  f.store.db.exec('PRAGMA wal_checkpoint'); // not a change of data: nothing to read again
  const polls = reads;
  for (let i = 0; i < 5; i++) tracker.getStatus();
  assert.equal(reads, polls);
  f.clock.set('2026-11-23T00:00:30.000Z');
  assert.equal(tracker.getStatus().todaySeconds, 30, 'a new day is read afresh');
});
