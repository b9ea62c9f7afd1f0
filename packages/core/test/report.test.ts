/**
 * Reports: seconds per activity and per day over a range of local days, counted as today's
 * total is (docs/product.md "The application"), checked on DST days, across midnight, with
 * breaks and a running session, against a plain model, and for the query plan.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { addDays, buildReport as buildLedgerReport, localDaySpan, reportPeriod, type Report, type ReportActivityRow, type ReportDayRow } from '../src/index.ts';
import { REPORT_SQL } from '../src/report.ts';
import { fixture, problemOf } from './support.ts';

/**
 * The report's time, without what the ledger adds (billed time, amounts, targets: see
 * report-ledger.test.ts), so these tests read as the worked-time contract they check.
 */
function buildReport(...args: Parameters<typeof buildLedgerReport>): Omit<Report, 'amounts' | 'targetSeconds' | 'balanceSeconds'> {
  const { amounts: _a, targetSeconds: _t, balanceSeconds: _b, ...report } = buildLedgerReport(...args);
  return { ...report, rows: report.rows.map(({ billedSeconds: _s, amount: _m, currency: _c, amounts: _a, ...row }) => row) as Report['rows'] };
}

test('sums seconds per activity, most first, ties by name, breaks left out, overlaps once in the total', (t) => {
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
  // beta 11:15–12:00 and Alpha 11:45–12:30 share 15 minutes: each row has them, the total once.
  assert.equal(report.totalSeconds, 3600 + 2700 + 2700 - 900);
  assert.equal(report.overlapSeconds, 900);
  assert.equal(report.totalSeconds, tracker.getStatus().todaySeconds);
  const byDay = buildReport(store, { by: 'day' }, clock(), 'UTC');
  assert.deepEqual(byDay.rows, [{ date: '2026-11-20', seconds: report.totalSeconds }]);
  assert.equal(byDay.overlapSeconds, 900, 'by day, the same overlap as by activity');
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

test('counts a second covered by several blocks once, in the total, a day and an activity', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T10:00:00.000Z', timeZone: 'UTC' });
  tracker.logEntry({ name: 'A', durationMinutes: 60, endedAt: '2026-11-20T10:00:00Z', createIfMissing: true });
  tracker.logEntry({ name: 'A', durationMinutes: 60, endedAt: '2026-11-20T09:30:00Z' });
  const report = buildReport(store, { by: 'day' }, clock(), 'UTC');
  assert.equal(report.totalSeconds, 90 * 60);
  assert.deepEqual(report.rows, [{ date: '2026-11-20', seconds: 90 * 60 }]);
  const byActivity = buildReport(store, {}, clock(), 'UTC');
  assert.deepEqual(byActivity.rows.map((r) => r.seconds), [90 * 60], 'an activity overlapping itself counts once');
  assert.equal(byActivity.overlapSeconds, 0);
});

test('a day never counts more than the time that has passed in it: 24 h logged at 12:13 is 12 h 13 min', (t) => {
  // The bug of issue 31: two hours twenty of blocks, then `tock log 24h` at 12:13 showed 14 h 33 min.
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T09:00:00.000Z', timeZone: 'UTC' });
  tracker.startActivity({ name: 'Writing docs', createIfMissing: true });
  clock.set('2026-11-20T10:00:00.000Z');
  tracker.stopActivity();
  clock.set('2026-11-20T12:13:00.000Z');
  tracker.logEntry({ name: 'Review', durationMinutes: 80, endedAt: '2026-11-20T11:50:00Z', createIfMissing: true });
  tracker.logEntry({ name: 'Everything', durationMinutes: 24 * 60, createIfMissing: true });
  const elapsed = 12 * 3600 + 13 * 60;
  assert.equal(tracker.getStatus().todaySeconds, elapsed);
  const byDay = buildReport(store, { by: 'day' }, clock(), 'UTC');
  assert.deepEqual(byDay.rows, [{ date: '2026-11-20', seconds: elapsed }]);
  const byActivity = buildReport(store, {}, clock(), 'UTC');
  assert.equal(byActivity.totalSeconds, elapsed);
  assert.deepEqual(
    byActivity.rows.map((r) => [(r as ReportActivityRow).activityName, r.seconds]),
    [
      ['Everything', elapsed],
      ['Review', 80 * 60],
      ['Writing docs', 3600],
    ],
  );
  assert.equal(byActivity.overlapSeconds, 3600 + 80 * 60);
  // An entry that ends a little after now (allowed: 60 s) counts up to now, not beyond.
  tracker.logEntry({ name: 'Later', durationMinutes: 1, endedAt: '2026-11-20T12:14:00Z', createIfMissing: true });
  assert.equal(buildReport(store, { by: 'day' }, clock(), 'UTC').totalSeconds, elapsed);
  assert.equal(tracker.getStatus().todaySeconds, elapsed);
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
    overlapSeconds: 0,
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
  const { store } = fixture(t);
  const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${REPORT_SQL.blocks}`).all(0, 1, 2) as { detail: string }[])
    .map((r) => r.detail)
    .join('\n');
  assert.doesNotMatch(plan, /SCAN (sessions|entries|breaks|b|s)\b/, plan);
  assert.match(plan, /sessions_by_ended_at/, plan);
  assert.match(plan, /entries_by_ended_at/, plan);
  assert.match(plan, /breaks_by_session/, plan);
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

/**
 * The covered length of `spans` inside `[from, to)`, worked out the plain way: cut the line at
 * every boundary and keep each piece whose middle some span holds.
 */
function coveredModel(spans: { start: number; end: number }[], from: number, to: number): number {
  const cuts = [...new Set([from, to, ...spans.flatMap((s) => [s.start, s.end])])].filter((c) => c >= from && c <= to).sort((x, y) => x - y);
  let covered = 0;
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [a, b] = [cuts[i] as number, cuts[i + 1] as number];
    const middle = (a + b) / 2;
    if (spans.some((s) => s.start <= middle && middle < s.end)) covered += b - a;
  }
  return covered;
}

test('by day and by activity agree with a plain model of any history: covered time, once, never past now', (t) => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          activity: fc.integer({ min: 0, max: 3 }),
          endOffsetSec: fc.integer({ min: 0, max: 12 * 24 * 3600 }),
          minutes: fc.integer({ min: 1, max: 1440 }),
        }),
        { maxLength: 25 },
      ),
      fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'),
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 3 * 24 * 3600 }),
      (blocks, zone, a, b, nowOffsetSec) => {
        const base = Date.parse('2026-10-24T00:00:00Z');
        const now = base + 9 * 24 * 3600_000 + nowOffsetSec * 1000;
        const { store, tracker, clock } = fixture(t, { now: new Date(now).toISOString(), timeZone: zone });
        const logged: { activity: number; start: number; end: number }[] = [];
        for (const block of blocks) {
          const end = Math.min(base + block.endOffsetSec * 1000, now + 60_000);
          tracker.logEntry({
            name: `A${block.activity}`,
            durationMinutes: block.minutes,
            endedAt: new Date(end).toISOString(),
            createIfMissing: true,
          });
          logged.push({ activity: block.activity, start: end - block.minutes * 60_000, end });
        }
        const from = addDays('2026-10-24', Math.min(a, b));
        const to = addDays('2026-10-24', Math.max(a, b));
        const byDay = buildReport(store, { from, to, by: 'day' }, clock(), zone);
        const model = tracker.dailyTotals(from, to);
        const seconds = (ms: number): number => ms / 1000; // whole seconds: every time here is one
        let total = 0;
        for (const row of byDay.rows as ReportDayRow[]) {
          const day = localDaySpan(row.date, zone);
          const expected = seconds(coveredModel(logged, day.start, Math.min(day.end, now)));
          assert.equal(row.seconds, expected, `${row.date} in ${zone}`);
          assert.ok(row.seconds <= Math.max(0, seconds(Math.min(day.end, now) - day.start)), 'never more than has passed');
          const perActivity = model.filter((m) => m.day === row.date).reduce((s, m) => s + m.seconds, 0);
          assert.ok(row.seconds <= perActivity);
          total += expected;
        }
        assert.equal(byDay.totalSeconds, total);
        const byActivity = buildReport(store, { from, to }, clock(), zone);
        assert.equal(byActivity.totalSeconds, byDay.totalSeconds);
        const start = localDaySpan(from, zone).start;
        const end = Math.min(localDaySpan(to, zone).end, now);
        for (const row of byActivity.rows as ReportActivityRow[]) {
          const own = logged.filter((l) => `A${l.activity}` === row.activityName);
          assert.equal(row.seconds, seconds(coveredModel(own, start, end)), row.activityName);
          assert.equal(row.seconds, model.filter((m) => m.activityID === row.activityID).reduce((s, m) => s + m.seconds, 0));
        }
        const sum = byActivity.rows.reduce((s, r) => s + r.seconds, 0);
        assert.equal(byActivity.overlapSeconds, sum - byActivity.totalSeconds);
        assert.equal(byDay.overlapSeconds, byActivity.overlapSeconds);
        const shown = byActivity.rows.map((r) => r.seconds);
        assert.deepEqual(shown, [...shown].sort((x, y) => y - x));
      },
    ),
    { numRuns: 60, seed: 20261129 },
  );
});
