/**
 * Reports: seconds per activity and per day over a range of local days, counted as today's
 * total is (docs/product.md "The application"), checked on DST days, across midnight, with
 * breaks and a running session, against a plain model, and for the query plan.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { addDays, buildReport, reportPeriod, type ReportActivityRow, type ReportDayRow } from '../src/index.ts';
import { REPORT_SQL } from '../src/report.ts';
import { fixture, problemOf } from './support.ts';

test('sums seconds per activity, most first, ties by name, breaks left out', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T08:00:00.000Z', timeZone: 'UTC' });
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  clock.advanceMinutes(30);
  tracker.startBreak();
  clock.advanceMinutes(15); // the break does not count
  tracker.resumeBreak();
  clock.advanceMinutes(30);
  tracker.stopActivity(); // Writing: 60 min
  clock.set('2026-11-20T13:00:00.000Z');
  tracker.logEntry({ name: 'beta', durationMinutes: 45, endedAt: '2026-11-20T12:00:00Z', createIfMissing: true });
  tracker.logEntry({ name: 'Alpha', durationMinutes: 45, endedAt: '2026-11-20T12:30:00Z', createIfMissing: true });
  clock.set('2026-11-20T18:00:00.000Z');
  const report = buildReport(store, {}, clock(), 'UTC');
  assert.equal(report.from, '2026-11-20');
  assert.equal(report.to, '2026-11-20');
  assert.equal(report.timeZone, 'UTC');
  assert.deepEqual(
    (report.rows as ReportActivityRow[]).map((r) => [r.activityName, r.seconds]),
    [
      ['Writing', 3600],
      ['Alpha', 2700],
      ['beta', 2700],
    ],
  );
  assert.equal(report.totalSeconds, 3600 + 2700 + 2700);
  assert.equal(report.totalSeconds, tracker.getStatus().todaySeconds);
});

test('counts a running session and its open break up to now', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T08:00:00.000Z', timeZone: 'UTC' });
  tracker.startActivity({ name: 'A', createIfMissing: true });
  clock.advanceMinutes(50);
  tracker.startBreak();
  clock.advanceMinutes(20);
  const report = buildReport(store, { by: 'day' }, clock(), 'UTC');
  assert.deepEqual(report.rows, [{ date: '2026-11-20', seconds: 50 * 60 }]);
  assert.equal(report.totalSeconds, 50 * 60);
  const byActivity = buildReport(store, {}, clock(), 'UTC');
  assert.deepEqual(
    byActivity.rows.map((r) => (r as ReportActivityRow).seconds),
    [50 * 60],
  );
});

test('lists every day of the range, zeros included, and splits blocks across midnight', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-22T12:00:00.000Z', timeZone: 'Europe/Berlin' });
  // 22:00–02:00 local on the night of the 18th to the 19th (UTC+1): two hours each side.
  tracker.logEntry({ name: 'Night', durationMinutes: 240, endedAt: '2026-11-19T01:00:00Z', createIfMissing: true });
  tracker.logEntry({ name: 'Day', durationMinutes: 90, endedAt: '2026-11-21T10:00:00Z', createIfMissing: true });
  const report = buildReport(store, { from: '2026-11-17', to: '2026-11-22', by: 'day' }, clock(), 'Europe/Berlin');
  assert.deepEqual(report.rows as ReportDayRow[], [
    { date: '2026-11-17', seconds: 0 },
    { date: '2026-11-18', seconds: 2 * 3600 },
    { date: '2026-11-19', seconds: 2 * 3600 },
    { date: '2026-11-20', seconds: 0 },
    { date: '2026-11-21', seconds: 90 * 60 },
    { date: '2026-11-22', seconds: 0 },
  ]);
  assert.equal(report.totalSeconds, 4 * 3600 + 90 * 60);
  // Only the part inside the range counts: the 19th alone sees half of the night.
  const one = buildReport(store, { from: '2026-11-19', to: '2026-11-19' }, clock(), 'Europe/Berlin');
  assert.deepEqual(one.rows, [{ activityID: one.rows[0] && (one.rows[0] as ReportActivityRow).activityID, activityName: 'Night', seconds: 7200 }]);
});

test('counts the 23-hour and 25-hour DST days in full', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-03-28T23:00:00.000Z', timeZone: 'Europe/Berlin' }); // 00:00 local, 29 March
  tracker.startActivity({ name: 'Spring', createIfMissing: true });
  clock.set('2026-03-29T22:00:00.000Z'); // midnight after the 23-hour day
  tracker.stopActivity();
  clock.set('2026-10-24T22:00:00.000Z'); // 00:00 local, 25 October
  tracker.startActivity({ name: 'Autumn', createIfMissing: true });
  clock.set('2026-10-25T23:00:00.000Z'); // midnight after the 25-hour day
  tracker.stopActivity();
  const spring = buildReport(store, { from: '2026-03-28', to: '2026-03-30', by: 'day' }, clock(), 'Europe/Berlin');
  assert.deepEqual(spring.rows.map((r) => r.seconds), [0, 23 * 3600, 0]);
  const autumn = buildReport(store, { from: '2026-10-24', to: '2026-10-26', by: 'day' }, clock(), 'Europe/Berlin');
  assert.deepEqual(autumn.rows.map((r) => r.seconds), [0, 25 * 3600, 0]);
  const year = buildReport(store, { from: '2026-01-01', to: '2026-12-31' }, clock(), 'Europe/Berlin');
  assert.deepEqual(
    year.rows.map((r) => [(r as ReportActivityRow).activityName, r.seconds]),
    [
      ['Autumn', 25 * 3600],
      ['Spring', 23 * 3600],
    ],
  );
});

test('counts overlapping blocks each on their own', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T10:00:00.000Z', timeZone: 'UTC' });
  tracker.logEntry({ name: 'A', durationMinutes: 60, endedAt: '2026-11-20T10:00:00Z', createIfMissing: true });
  tracker.logEntry({ name: 'A', durationMinutes: 60, endedAt: '2026-11-20T09:30:00Z' });
  const report = buildReport(store, { by: 'day' }, clock(), 'UTC');
  assert.equal(report.totalSeconds, 2 * 3600);
});

test('leaves out activities without time in the range', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T10:00:00.000Z', timeZone: 'UTC' });
  tracker.createActivity('Idle');
  tracker.logEntry({ name: 'Old', durationMinutes: 60, endedAt: '2026-11-10T10:00:00Z', createIfMissing: true });
  assert.deepEqual(buildReport(store, {}, clock(), 'UTC'), {
    from: '2026-11-20',
    to: '2026-11-20',
    timeZone: 'UTC',
    totalSeconds: 0,
    rows: [],
  });
});

test('refuses a malformed or impossible date, to before from, over 366 days and an unknown grouping', (t) => {
  const { store, clock } = fixture(t);
  const refuse = (query: object, field: string, pattern: RegExp): void => {
    const problem = problemOf(() => buildReport(store, query, clock(), 'UTC'));
    assert.equal(problem.code, 'validation_failed');
    assert.equal(problem.details?.[0]?.field, field);
    assert.match(problem.message, pattern);
  };
  refuse({ from: '2026-1-5' }, 'from', /YYYY-MM-DD/);
  refuse({ from: '2026-02-30' }, 'from', /YYYY-MM-DD/); // a day the calendar does not have
  refuse({ to: 20261122 }, 'to', /YYYY-MM-DD/);
  refuse({ from: '2026-11-22', to: '2026-11-21' }, 'to', /before/);
  refuse({ from: '2025-01-01', to: '2026-01-02' }, 'to', /367 days.*at most 366/);
  refuse({ by: 'week' }, 'by', /activity.*day/);
  // 366 days (a leap year) is fine.
  assert.equal(buildReport(store, { from: '2024-01-01', to: '2024-12-31', by: 'day' }, clock(), 'UTC').rows.length, 366);
  // null is absent: today.
  assert.equal(buildReport(store, { from: null, to: null, by: null }, clock(), 'UTC').from, '2026-11-22');
});

test('reads only the blocks of the range, through the ended_at indexes, and breaks through their sessions', (t) => {
  const { store, clock } = fixture(t);
  buildReport(store, { by: 'day' }, clock(), 'UTC'); // creates the temporary table of days
  for (const [sql, params] of [
    [REPORT_SQL.byActivity, [0, 1, 2, 3]],
    [REPORT_SQL.byDay, [0, 1, 2, 3, 4]],
  ] as const) {
    const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
      .map((r) => r.detail)
      .join('\n');
    assert.doesNotMatch(plan, /SCAN (sessions|entries|breaks|b|s)\b/, plan);
    assert.match(plan, /sessions_by_ended_at/, plan);
    assert.match(plan, /entries_by_ended_at/, plan);
    assert.match(plan, /breaks_by_session/, plan);
    assert.doesNotMatch(plan, /SCAN d\b/, plan);
  }
});

test('names the days of today, yesterday, weeks from Monday and months', () => {
  const zone = 'Europe/Berlin';
  const sunday = Date.parse('2026-11-22T22:30:00Z'); // 23:30 on Sunday 22 November, local
  assert.deepEqual(reportPeriod('today', sunday, zone), { from: '2026-11-22', to: '2026-11-22' });
  assert.deepEqual(reportPeriod('yesterday', sunday, zone), { from: '2026-11-21', to: '2026-11-21' });
  assert.deepEqual(reportPeriod('week', sunday, zone), { from: '2026-11-16', to: '2026-11-22' });
  assert.deepEqual(reportPeriod('last-week', sunday, zone), { from: '2026-11-09', to: '2026-11-15' });
  assert.deepEqual(reportPeriod('month', sunday, zone), { from: '2026-11-01', to: '2026-11-30' });
  assert.deepEqual(reportPeriod('last-month', sunday, zone), { from: '2026-10-01', to: '2026-10-31' });
  const monday = Date.parse('2026-11-22T23:30:00Z'); // 00:30 on Monday 23 November, local
  assert.deepEqual(reportPeriod('week', monday, zone), { from: '2026-11-23', to: '2026-11-29' });
  const january = Date.parse('2027-01-15T12:00:00Z');
  assert.deepEqual(reportPeriod('last-month', january, zone), { from: '2026-12-01', to: '2026-12-31' });
  assert.deepEqual(reportPeriod('month', Date.parse('2028-02-10T12:00:00Z'), zone), { from: '2028-02-01', to: '2028-02-29' });
});

test('by day and by activity agree with a plain model of any history', (t) => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          activity: fc.integer({ min: 0, max: 3 }),
          // Whole seconds, so that a per-day or per-activity cut to whole seconds loses nothing.
          endOffsetSec: fc.integer({ min: 0, max: 10 * 24 * 3600 }),
          minutes: fc.integer({ min: 1, max: 1440 }),
        }),
        { maxLength: 25 },
      ),
      fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'),
      fc.integer({ min: 0, max: 9 }),
      fc.integer({ min: 0, max: 9 }),
      (blocks, zone, a, b) => {
        const { store, tracker, clock } = fixture(t, { now: '2026-11-05T00:00:00.000Z', timeZone: zone });
        const base = Date.parse('2026-10-24T00:00:00Z');
        for (const block of blocks) {
          tracker.logEntry({
            name: `A${block.activity}`,
            durationMinutes: block.minutes,
            endedAt: new Date(base + block.endOffsetSec * 1000).toISOString(),
            createIfMissing: true,
          });
        }
        const from = addDays('2026-10-24', Math.min(a, b));
        const to = addDays('2026-10-24', Math.max(a, b));
        const byDay = buildReport(store, { from, to, by: 'day' }, clock(), zone);
        const model = tracker.dailyTotals(from, to);
        for (const row of byDay.rows as ReportDayRow[]) {
          const expected = model.filter((m) => m.day === row.date).reduce((s, m) => s + m.seconds, 0);
          assert.equal(row.seconds, expected, `${row.date} in ${zone}`);
        }
        const byActivity = buildReport(store, { from, to }, clock(), zone);
        assert.equal(byActivity.totalSeconds, byDay.totalSeconds);
        for (const row of byActivity.rows as ReportActivityRow[]) {
          const expected = model.filter((m) => m.activityID === row.activityID).reduce((s, m) => s + m.seconds, 0);
          assert.equal(row.seconds, expected);
        }
        const seconds = byActivity.rows.map((r) => r.seconds);
        assert.deepEqual(seconds, [...seconds].sort((x, y) => y - x));
      },
    ),
    { numRuns: 60 },
  );
});
