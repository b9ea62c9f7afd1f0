/**
 * What reports say of billing (docs/protocol.md "GET /report", docs/data.md "The ledger"):
 * rows by client and by tag, the billable filter, billed time rounded per block or per
 * activity and day, amounts in each currency (never added together), targets and balance.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  addClient,
  buildReport,
  exactAmount,
  roundAmount,
  setActivityLedger,
  setLedgerSetting,
  sumAmounts,
  type ReportActivityRow,
} from '../src/index.ts';
import { fixture, sequentialIds } from './support.ts';

type Row = Record<string, unknown>;

test('by client: each client its own covered time, billed time and amount; time without a client under null', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T18:00:00.000Z' });
  const ids = sequentialIds();
  addClient(store, { name: 'ACME', rate: '80', currency: 'EUR' }, 0, () => `aaaaaaaa-0000-4000-8000-${ids().slice(-12)}`);
  addClient(store, { name: 'Globex', rate: '100', currency: 'USD' }, 0, () => `bbbbbbbb-0000-4000-8000-${ids().slice(-12)}`);
  tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-20T10:00:00Z' });
  tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 90, endedAt: '2026-11-20T10:30:00Z' }); // 09:00–10:30, 1 h shared with Design
  tracker.logEntry({ name: 'Support', createIfMissing: true, durationMinutes: 45, endedAt: '2026-11-20T12:00:00Z' });
  tracker.logEntry({ name: 'Admin', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-20T13:00:00Z' });
  setActivityLedger(store, 'Design', { client: 'ACME', billable: true });
  setActivityLedger(store, 'Build', { client: 'ACME', billable: true, rate: '90' });
  setActivityLedger(store, 'Support', { client: 'Globex', billable: true });
  const report = buildReport(store, { by: 'client' }, clock(), 'UTC');
  assert.deepEqual(
    (report.rows as Row[]).map((r) => [r.clientName, r.seconds, r.billedSeconds, r.amount, r.currency]),
    [
      // Design 1 h at 80 + Build 1.5 h at 90: the client's own time 1.5 h (the shared hour once).
      ['ACME', 5400, 9000, '215.00', 'EUR'],
      ['Globex', 2700, 2700, '75.00', 'USD'],
      [null, 1800, 0, null, null],
    ],
  );
  assert.deepEqual(report.amounts, [
    { currency: 'EUR', amount: '215.00' },
    { currency: 'USD', amount: '75.00' },
  ]);
  assert.equal(report.totalSeconds, 5400 + 2700 + 1800);
  assert.equal(report.overlapSeconds, 3600);
  assert.equal(report.targetSeconds, null);
  assert.equal(report.balanceSeconds, null);
});

test('by tag: a block with two tags counts in both rows; untagged time under null; billable=true|false filters', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T18:00:00.000Z' });
  addClient(store, { name: 'ACME', rate: '60', currency: 'EUR' }, 0, sequentialIds());
  tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-20T10:00:00Z', tags: ['ui', 'Urgent'], billable: true });
  tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: '2026-11-20T11:00:00Z', tags: ['UI'] });
  tracker.logEntry({ name: 'Design', durationMinutes: 15, endedAt: '2026-11-20T12:00:00Z' });
  setActivityLedger(store, 'Design', { client: 'ACME' });
  const rows = buildReport(store, { by: 'tag' }, clock(), 'UTC').rows as Row[];
  assert.deepEqual(
    rows.map((r) => [r.tag, r.seconds, r.billedSeconds, r.amount]),
    [
      ['ui', 5400, 3600, '60.00'],
      ['Urgent', 3600, 3600, '60.00'],
      [null, 900, 0, null],
    ],
  );
  const billable = buildReport(store, { billable: 'true' }, clock(), 'UTC');
  assert.equal(billable.totalSeconds, 3600);
  const other = buildReport(store, { billable: false }, clock(), 'UTC');
  assert.equal(other.totalSeconds, 2700);
  assert.equal((other.rows[0] as ReportActivityRow).billedSeconds, 0);
});

test('rounding bills per block or per activity and day, and never changes worked time', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-20T18:00:00.000Z' });
  addClient(store, { name: 'ACME', rate: '100', currency: 'EUR' }, 0, sequentialIds());
  for (const end of ['09:10', '10:10', '11:10']) tracker.logEntry({ name: 'Calls', createIfMissing: true, durationMinutes: 7, endedAt: `2026-11-20T${end}:00Z` });
  setActivityLedger(store, 'Calls', { client: 'ACME', billable: true });
  const row = (): Row => buildReport(store, {}, clock(), 'UTC').rows[0] as Row;
  assert.deepEqual([row().seconds, row().billedSeconds, row().amount], [1260, 1260, '35.00']);
  setLedgerSetting(store.settings, 'rounding', { mode: 'up', minutes: 15, per: 'block' });
  assert.deepEqual([row().seconds, row().billedSeconds, row().amount], [1260, 2700, '75.00']);
  setLedgerSetting(store.settings, 'rounding', { mode: 'up', minutes: 15, per: 'day' });
  assert.deepEqual([row().seconds, row().billedSeconds, row().amount], [1260, 1800, '50.00']);
  setLedgerSetting(store.settings, 'rounding', { mode: 'nearest', minutes: 6, per: 'block' });
  assert.deepEqual([row().seconds, row().billedSeconds, row().amount], [1260, 1080, '30.00']);
});

test('targets: the targets of the range up to today, and the balance', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-18T18:00:00.000Z' }); // a Wednesday
  tracker.logEntry({ name: 'Work', createIfMissing: true, durationMinutes: 600, endedAt: '2026-11-17T18:00:00Z' });
  setLedgerSetting(store.settings, 'targets', { mon: 8, tue: 8, wed: 8, thu: 8, fri: 6 });
  const week = buildReport(store, { from: '2026-11-16', to: '2026-11-22' }, clock(), 'UTC');
  assert.equal(week.targetSeconds, 3 * 8 * 3600);
  assert.equal(week.balanceSeconds, 600 * 60 - 3 * 8 * 3600);
});

test('by day: the rows each rounded to the cent, and amounts their sum (3 days × 1 min at 85.50: 3 × 1.43, not 4.28)', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-30T23:00:00.000Z' });
  addClient(store, { name: 'ACME', rate: '85.50', currency: 'EUR' }, 0, sequentialIds());
  for (const day of ['02', '03', '04']) tracker.logEntry({ name: 'Calls', createIfMissing: true, durationMinutes: 1, endedAt: `2026-11-${day}T10:00:00Z` });
  setActivityLedger(store, 'Calls', { client: 'ACME', billable: true });
  const range = { from: '2026-11-02', to: '2026-11-04' };
  const byDay = buildReport(store, { ...range, by: 'day' }, clock(), 'UTC');
  assert.deepEqual((byDay.rows as Row[]).map((r) => r.amount), ['1.43', '1.43', '1.43']);
  assert.deepEqual(byDay.amounts, [{ currency: 'EUR', amount: '4.29' }]);
  // By activity the one row is 3 min at 85.50, rounded once.
  assert.deepEqual(buildReport(store, range, clock(), 'UTC').amounts, [{ currency: 'EUR', amount: '4.28' }]);
});

test('a day billed in two currencies adds each currency’s part, rounded, to the totals', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-30T23:00:00.000Z' });
  const ids = sequentialIds();
  addClient(store, { name: 'EUR client', rate: '85.50', currency: 'EUR' }, 0, ids);
  addClient(store, { name: 'JPY client', rate: '9000', currency: 'JPY' }, 0, ids);
  for (const day of ['02', '03']) {
    tracker.logEntry({ name: 'Euro', createIfMissing: true, durationMinutes: 1, endedAt: `2026-11-${day}T10:00:00Z` });
    tracker.logEntry({ name: 'Yen', createIfMissing: true, durationMinutes: 1, endedAt: `2026-11-${day}T11:00:00Z` });
  }
  setActivityLedger(store, 'Euro', { client: 'EUR client', billable: true });
  setActivityLedger(store, 'Yen', { client: 'JPY client', billable: true });
  const byDay = buildReport(store, { from: '2026-11-02', to: '2026-11-03', by: 'day' }, clock(), 'UTC');
  assert.deepEqual((byDay.rows as Row[]).map((r) => [r.amount, r.currency]), [[null, null], [null, null]]);
  assert.deepEqual(byDay.amounts, [
    { currency: 'EUR', amount: '2.86' },
    { currency: 'JPY', amount: '300' },
  ]);
});

test('amounts are billed hours × rate to the cent, and the rows of every grouping add up to the totals per currency', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-30T23:00:00.000Z' });
  const ids = sequentialIds();
  const clients = [
    addClient(store, { name: 'EUR client', rate: '85.50', currency: 'EUR' }, 0, ids),
    addClient(store, { name: 'JPY client', rate: '9000', currency: 'JPY' }, 0, ids),
  ];
  // Each client's blocks carry its own tags, so a tag row is in one currency; the day rows mix them.
  const tagPools = [
    ['e1', 'e2'],
    ['j1', 'j2'],
    ['n1', 'n2'],
  ];
  const rateOf = (activityID: string): string =>
    (store.statement('SELECT coalesce(a.rate, c.rate) AS rate FROM activities a LEFT JOIN clients c ON c.id = a.client_id WHERE a.id = ?').get(activityID) as { rate: string }).rate;
  /** Per currency, the activity rows' billed time at their rates, rounded once: a row's parts. */
  const partsOf = (rows: ReportActivityRow[]): Map<string, bigint> => {
    const parts = new Map<string, bigint>();
    for (const r of rows) if (r.currency !== null) parts.set(r.currency, (parts.get(r.currency) ?? 0n) + exactAmount(r.billedSeconds, rateOf(r.activityID)));
    return parts;
  };
  const roundings = [undefined, { mode: 'up', minutes: 15, per: 'block' }, { mode: 'nearest', minutes: 6, per: 'day' }] as const;
  let n = 0;
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          minutes: fc.integer({ min: 1, max: 600 }),
          day: fc.integer({ min: 1, max: 28 }),
          client: fc.integer({ min: 0, max: 2 }),
          rate: fc.option(fc.integer({ min: 1, max: 50_000 })),
          tags: fc.integer({ min: 0, max: 5 }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      fc.integer({ min: 0, max: roundings.length - 1 }),
      (blocks, roundingIndex) => {
        n++;
        const rounding = roundings[roundingIndex];
        setLedgerSetting(store.settings, 'rounding', rounding ?? null);
        for (const [i, b] of blocks.entries()) {
          const name = `A${n}-${i}`;
          const pool = tagPools[b.client] as string[];
          const tags = b.tags === 5 ? pool : [pool[b.tags % 2] as string];
          tracker.logEntry({ name, createIfMissing: true, durationMinutes: b.minutes, endedAt: `2026-11-${String(b.day).padStart(2, '0')}T20:00:00Z`, tags });
          const client = clients[b.client];
          setActivityLedger(store, name, { billable: true, ...(client ? { client: client.id } : {}), ...(b.rate === null ? {} : { rate: (b.rate / 100).toFixed(2) }) });
        }
        const range = { from: '2026-11-01', to: '2026-11-30' };
        const report = buildReport(store, range, clock(), 'UTC');
        for (const r of report.rows as ReportActivityRow[]) {
          if (r.amount === null || r.currency === null) continue;
          assert.equal(r.amount, roundAmount(exactAmount(r.billedSeconds, rateOf(r.activityID)), r.currency));
        }
        const shared = blocks.some((b) => b.tags === 5);
        for (const by of ['activity', 'day', 'client', 'tag'] as const) {
          const grouping = buildReport(store, { ...range, by }, clock(), 'UTC');
          if (by === 'tag' && shared) {
            // A block under two tags would be billed twice by the rows: the totals stay the activity rows'.
            assert.deepEqual(grouping.amounts, report.amounts, by);
            continue;
          }
          const perCurrency = new Map<string, string[]>();
          const add = (currency: string, amount: string): void => {
            perCurrency.set(currency, [...(perCurrency.get(currency) ?? []), amount]);
          };
          for (const r of grouping.rows as Row[]) {
            if (r.currency !== null) add(r.currency as string, r.amount as string);
            else if (by === 'day' && (r.billedSeconds as number) > 0) {
              // A day in several currencies: each currency's part of the day, rounded on its own.
              const day = buildReport(store, { from: r.date, to: r.date }, clock(), 'UTC');
              for (const [currency, exact] of partsOf(day.rows as ReportActivityRow[])) add(currency, roundAmount(exact, currency));
            }
          }
          assert.deepEqual(
            [...perCurrency].map(([currency, list]) => ({ currency, amount: sumAmounts(list, currency) })).sort((a, b) => (a.currency < b.currency ? -1 : 1)),
            grouping.amounts,
            by,
          );
        }
        store.db.exec('DELETE FROM entries');
      },
    ),
    { numRuns: 40, seed: 20261129 },
  );
});
