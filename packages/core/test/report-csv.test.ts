/**
 * The report CSV's `hours` column and the `--matrix` timesheet (report-csv.ts): decimal hours
 * of the minutes shown, rounded half up, each row of hours rounded by largest remainder so
 * that the rows add up to the total's hours (docs/product.md "Durations shown to people",
 * issue 37: 16 h 40 min is 16.67, never 16.66).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { addClient, setActivityLedger } from '../src/ledger.ts';
import { buildReport, type ReportActivityRow } from '../src/report.ts';
import { reportCsv, reportMatrixCsv } from '../src/report-csv.ts';
import { fixture } from './support.ts';

test('the hours column, the last: three 20-minute rows are 0.34 + 0.33 + 0.33 = 1.00, and 16 h 40 min is 16.67', (t) => {
  const f = fixture(t, { timeZone: 'UTC', now: '2026-11-21T23:00:00.000Z' });
  for (const [name, end] of [
    ['A', '2026-11-21T00:20:00.000Z'],
    ['B', '2026-11-21T00:40:00.000Z'],
    ['C', '2026-11-21T01:00:00.000Z'],
  ] as const) {
    f.tracker.logEntry({ name, createIfMissing: true, durationMinutes: 20, endedAt: end });
  }
  const thirds = parse(reportCsv(buildReport(f.store, { from: '2026-11-21', to: '2026-11-21' }, f.clock(), 'UTC'), 'activity'), { columns: true }) as Record<string, string>[];
  assert.deepEqual(Object.keys(thirds[0] as object), ['activity', 'seconds', 'billed_seconds', 'amount', 'currency', 'amounts', 'hours']);
  assert.deepEqual(
    thirds.map((r) => [r.activity, r.hours]),
    [
      ['A', '0.34'],
      ['B', '0.33'],
      ['C', '0.33'],
    ],
  );
  f.tracker.logEntry({ name: 'Long', createIfMissing: true, durationMinutes: 1000, endedAt: '2026-11-21T23:00:00.000Z' });
  const day = parse(reportCsv(buildReport(f.store, { from: '2026-11-21', to: '2026-11-21', by: 'day' }, f.clock(), 'UTC'), 'day'), { columns: true }) as Record<string, string>[];
  assert.deepEqual(
    day.map((r) => r.hours),
    ['17.67'],
  );
  const long = parse(reportCsv(buildReport(f.store, { from: '2026-11-21', to: '2026-11-21' }, f.clock(), 'UTC'), 'activity'), { columns: true }) as Record<string, string>[];
  assert.deepEqual(
    long.map((r) => r.hours),
    ['16.67', '0.34', '0.33', '0.33'],
  );
});

test('the --matrix timesheet: each row’s days add up to its total, in the window’s digits', (t) => {
  const f = fixture(t, { timeZone: 'UTC', now: '2026-11-23T12:00:00.000Z' });
  for (const day of ['2026-11-20', '2026-11-21', '2026-11-22']) {
    f.tracker.logEntry({ name: 'Thirds', createIfMissing: true, durationMinutes: 20, endedAt: `${day}T10:00:00.000Z` });
  }
  const report = buildReport(f.store, { from: '2026-11-20', to: '2026-11-22' }, f.clock(), 'UTC');
  const row = report.rows[0] as ReportActivityRow;
  const cells = ['2026-11-20', '2026-11-21', '2026-11-22'].map((day) => ({ day, activityID: row.activityID, activityName: row.activityName, seconds: 1200 }));
  const days = cells.map((c) => ({ date: c.day, seconds: c.seconds }));
  const lines = reportMatrixCsv(report, cells, days).split('\r\n');
  assert.equal(lines[0], 'activity,2026-11-20,2026-11-21,2026-11-22,total');
  // Rounded alone each day is 0.33 and the three 0.99 under a total of 1.
  assert.equal(lines[1], 'Thirds,0.34,0.33,0.33,1');
  assert.equal(lines[2], 'Total,0.34,0.33,0.33,1');
});

test('the --matrix timesheet: its total column is the hours of `tock report --csv`, and the activities add up to the Total record', (t) => {
  // Three sessions of 20 min 40 s: 62 min in all. Alone each row is 0.33 and the three 0.99
  // under a total of 1.03; the report shows 21 + 21 + 20 min, so 0.35 + 0.35 + 0.33.
  const f = fixture(t, { timeZone: 'UTC', now: '2026-11-23T08:00:00.000Z' });
  for (const name of ['A', 'B', 'C']) {
    f.tracker.startActivity({ name, createIfMissing: true });
    f.clock.advance(20 * 60_000 + 40_000);
  }
  f.tracker.stopActivity();
  const query = { from: '2026-11-23', to: '2026-11-23' };
  const report = buildReport(f.store, query, f.clock(), 'UTC');
  const hours = (parse(reportCsv(report, 'activity'), { columns: true }) as Record<string, string>[]).map((r) => [r.activity, r.hours]);
  assert.deepEqual(hours, [
    ['A', '0.35'],
    ['B', '0.35'],
    ['C', '0.33'],
  ]);
  const days = [{ date: '2026-11-23', seconds: report.totalSeconds }];
  const cells = (report.rows as ReportActivityRow[]).map((r) => ({ day: '2026-11-23', activityID: r.activityID, activityName: r.activityName, seconds: r.seconds }));
  assert.deepEqual(reportMatrixCsv(report, cells, days).split('\r\n'), ['activity,2026-11-23,total', 'A,0.35,0.35', 'B,0.35,0.35', 'C,0.33,0.33', 'Total,1.03,1.03', '']);

  // Over two days: each row's days add up to its total, the totals to the Total record's.
  f.clock.advance(24 * 3_600_000);
  f.tracker.startActivity({ name: 'A' });
  f.clock.advance(10 * 60_000 + 50_000);
  f.tracker.stopActivity();
  const week = buildReport(f.store, { from: '2026-11-23', to: '2026-11-24' }, f.clock(), 'UTC');
  const byDay = buildReport(f.store, { from: '2026-11-23', to: '2026-11-24', by: 'day' }, f.clock(), 'UTC');
  const perDay = byDay.rows.map((r) => ({ date: (r as { date: string }).date, seconds: r.seconds }));
  const own = new Map([
    ['A', [1240, 650]],
    ['B', [1240, 0]],
    ['C', [1240, 0]],
  ]);
  const twoDays = (week.rows as ReportActivityRow[]).flatMap((r) =>
    (own.get(r.activityName) ?? []).flatMap((seconds, i) => (seconds === 0 ? [] : [{ day: `2026-11-2${3 + i}`, activityID: r.activityID, activityName: r.activityName, seconds }])),
  );
  const lines = reportMatrixCsv(week, twoDays, perDay).split('\r\n').slice(1, -1);
  const hundredths = (cell: string | undefined): number => Math.round(Number(cell || 0) * 100);
  const sheet = lines.map((line) => line.split(','));
  const weekHours = (parse(reportCsv(week, 'activity'), { columns: true }) as Record<string, string>[]).map((r) => [r.activity, r.hours]);
  assert.deepEqual(
    sheet.slice(0, -1).map((r) => [r[0], hundredths(r[3])]),
    weekHours.map(([name, h]) => [name, hundredths(h)]),
    'the total column is `tock report --csv`’s hours',
  );
  for (const row of sheet) assert.equal(hundredths(row[1]) + hundredths(row[2]), hundredths(row[3]), `${row[0]}: its days add up to its total`);
  const totals = sheet.map((r) => hundredths(r[3]));
  assert.equal(totals.slice(0, -1).reduce((a, h) => a + h, 0), totals.at(-1), 'the activities add up to the Total record');
  const dayHours = (parse(reportCsv(byDay, 'day'), { columns: true }) as Record<string, string>[]).map((r) => hundredths(r.hours));
  assert.deepEqual([hundredths(sheet.at(-1)?.[1]), hundredths(sheet.at(-1)?.[2])], dayHours, 'the Total record’s days are the hours of `tock report --by day --csv`');
});

test('the amounts column: a day billed in EUR and USD reads 190.00 EUR + 240.00 USD, amount and currency empty; one currency its amount', (t) => {
  const f = fixture(t, { timeZone: 'UTC', now: '2026-11-30T12:00:00.000Z' });
  const newId = (() => {
    let n = 0;
    return () => `c0000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  })();
  addClient(f.store, { name: 'Euro', rate: '95', currency: 'EUR' }, 0, newId);
  addClient(f.store, { name: 'Dollar', rate: '120', currency: 'USD' }, 0, newId);
  f.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 120, endedAt: '2026-11-02T11:00:00Z' });
  f.tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 120, endedAt: '2026-11-02T15:00:00Z' });
  f.tracker.logEntry({ name: 'Chat', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-02T16:00:00Z' });
  setActivityLedger(f.store, 'Design', { client: 'Euro', billable: true });
  setActivityLedger(f.store, 'Build', { client: 'Dollar', billable: true });
  const query = { from: '2026-11-02', to: '2026-11-02' };
  const day = parse(reportCsv(buildReport(f.store, { ...query, by: 'day' }, f.clock(), 'UTC'), 'day'), { columns: true }) as Record<string, string>[];
  assert.deepEqual(day, [{ date: '2026-11-02', seconds: '16200', billed_seconds: '14400', amount: '', currency: '', hours: '4.50', amounts: '190.00 EUR + 240.00 USD' }]);
  const activity = parse(reportCsv(buildReport(f.store, query, f.clock(), 'UTC'), 'activity'), { columns: true }) as Record<string, string>[];
  assert.deepEqual(
    activity.map((r) => [r.activity, r.amount, r.currency, r.amounts]),
    [
      ['Build', '240.00', 'USD', '240.00 USD'],
      ['Design', '190.00', 'EUR', '190.00 EUR'],
      ['Chat', '', '', ''],
    ],
  );
});
