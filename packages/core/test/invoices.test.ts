/**
 * Invoices (docs/data.md "Invoices"): a client's billable blocks by activity and day, amounts
 * per line and totals per currency, numbering per year, blocks marked and never invoiced twice,
 * a kept document for a reissue, and refusals that keep nothing.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addClient, draftInvoice, invoiceByNumber, issueInvoice, listInvoices, setActivityLedger, setLedgerSetting, tagBlock, type InvoiceRequest } from '../src/index.ts';
import { fixture, problemOf, sequentialIds, type Fixture } from './support.ts';

function ledger(f: Fixture): void {
  const ids = sequentialIds();
  addClient(f.store, { name: 'ACME', rate: '85', currency: 'EUR', address: 'Main St 1\n1000 Town' }, 0, () => `c0000000-0000-4000-8000-${ids().slice(-12)}`);
  addClient(f.store, { name: 'Other', rate: '50', currency: 'USD' }, 0, () => `c0000000-0000-4000-8000-${ids().slice(-12)}`);
  setLedgerSetting(f.store.settings, 'business', { name: 'Ana Lima', address: 'Rua 1', taxID: 'PT123', paymentTerms: '30 days net' });
}

function issue(f: Fixture, input: InvoiceRequest) {
  const now = f.clock();
  return f.store.transaction(() => issueInvoice(f.store, draftInvoice(f.store, input, now, 'UTC'), input, now, 'UTC', () => crypto.randomUUID()));
}

test('lists the billable blocks of one client by activity and day, with amounts per line and totals per currency', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  ledger(f);
  const { tracker, store } = f;
  tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: '2026-11-03T11:00:00Z', note: 'wireframes' });
  const second = tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: '2026-11-03T15:00:00Z', note: 'review' });
  tracker.logEntry({ name: 'Design', durationMinutes: 60, endedAt: '2026-11-04T10:00:00Z' });
  tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 45, endedAt: '2026-11-04T12:00:00Z', note: '=HYPERLINK("x")' });
  tracker.logEntry({ name: 'Unbilled', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-05T12:00:00Z' });
  tracker.logEntry({ name: 'Elsewhere', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-05T14:00:00Z' });
  setActivityLedger(store, 'Design', { client: 'ACME', billable: true });
  setActivityLedger(store, 'Build', { client: 'ACME', billable: true, rate: '100' });
  setActivityLedger(store, 'Unbilled', { client: 'ACME', billable: false });
  setActivityLedger(store, 'Elsewhere', { client: 'Other', billable: true });
  tagBlock(store, second.entryID, ['ui']);
  // Outside the range: not on it.
  tracker.logEntry({ name: 'Design', durationMinutes: 60, endedAt: '2026-10-31T12:00:00Z' });

  const { document } = draftInvoice(store, { client: 'acme', from: '2026-11-01', to: '2026-11-30' }, f.clock(), 'UTC');
  assert.equal(document.number, 'INV-2026-001');
  assert.equal(document.issued, '2026-11-30');
  assert.deepEqual(document.seller, { name: 'Ana Lima', address: 'Rua 1', taxID: 'PT123', paymentTerms: '30 days net' });
  assert.equal(document.client.name, 'ACME');
  assert.equal(document.client.address, 'Main St 1\n1000 Town');
  assert.deepEqual(
    document.lines.map((l) => [l.date, l.activity, l.note, l.tags, l.workedSeconds, l.billedSeconds, l.rate, l.amount]),
    [
      ['2026-11-04', 'Build', '=HYPERLINK("x")', [], 2700, 2700, '100.00', '75.00'],
      ['2026-11-03', 'Design', 'wireframes; review', ['ui'], 7200, 7200, '85.00', '170.00'],
      ['2026-11-04', 'Design', '', [], 3600, 3600, '85.00', '85.00'],
    ],
  );
  assert.deepEqual(document.totals, [{ currency: 'EUR', billedSeconds: 13_500, amount: '330.00', taxes: [], gross: '330.00' }]);
  assert.equal(document.workedSeconds, 13_500);
});

test('rounds billed time per block or per activity and day, never the worked time', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  ledger(f);
  f.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 5, endedAt: '2026-11-03T11:00:00Z' });
  f.tracker.logEntry({ name: 'Design', durationMinutes: 5, endedAt: '2026-11-03T12:00:00Z' });
  setActivityLedger(f.store, 'Design', { client: 'ACME', billable: true });
  const input = { client: 'ACME', from: '2026-11-03', to: '2026-11-03' };
  setLedgerSetting(f.store.settings, 'rounding', { mode: 'up', minutes: 15, per: 'block' });
  const [perBlock] = draftInvoice(f.store, input, f.clock(), 'UTC').document.lines;
  assert.deepEqual([perBlock?.workedSeconds, perBlock?.billedSeconds, perBlock?.amount], [600, 1800, '42.50']);
  setLedgerSetting(f.store.settings, 'rounding', { mode: 'up', minutes: 15, per: 'day' });
  const [perDay] = draftInvoice(f.store, input, f.clock(), 'UTC').document.lines;
  assert.deepEqual([perDay?.workedSeconds, perDay?.billedSeconds, perDay?.amount], [600, 900, '21.25']);
});

test('numbers per year, marks the blocks so a second invoice lists only new ones, and keeps the document for a reissue', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  ledger(f);
  f.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-03T11:00:00Z' });
  setActivityLedger(f.store, 'Design', { client: 'ACME', billable: true });
  const range = { client: 'ACME', from: '2026-11-01', to: '2026-11-30' };
  const first = issue(f, range);
  assert.equal(first.number, 'INV-2026-001');
  assert.match(problemOf(() => draftInvoice(f.store, range, f.clock(), 'UTC')).message, /^nothing to invoice for ACME from 2026-11-01 to 2026-11-30/);
  f.tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: '2026-11-20T11:00:00Z' });
  const second = issue(f, range);
  assert.equal(second.number, 'INV-2026-002');
  assert.deepEqual(second.lines.map((l) => [l.date, l.workedSeconds]), [['2026-11-20', 1800]]);
  // A new year starts at 001.
  f.clock.set('2027-01-02T12:00:00.000Z');
  f.tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: '2027-01-02T11:00:00Z' });
  assert.equal(issue(f, { client: 'ACME', from: '2027-01-01', to: '2027-01-31' }).number, 'INV-2027-001');
  assert.deepEqual(listInvoices(f.store).map((i) => [i.number, i.clientName, i.totals]), [
    ['INV-2027-001', 'ACME', [{ currency: 'EUR', billedSeconds: 1800, amount: '42.50', taxes: [], gross: '42.50' }]],
    ['INV-2026-002', 'ACME', [{ currency: 'EUR', billedSeconds: 1800, amount: '42.50', taxes: [], gross: '42.50' }]],
    ['INV-2026-001', 'ACME', [{ currency: 'EUR', billedSeconds: 3600, amount: '85.00', taxes: [], gross: '85.00' }]],
  ]);
  // A reissue is the document as kept, whatever changed since (a new rate, a new address).
  setActivityLedger(f.store, 'Design', { rate: '200' });
  assert.deepEqual(invoiceByNumber(f.store, 'inv-2026-001'), first);
  assert.match(problemOf(() => invoiceByNumber(f.store, 'INV-2026-009')).message, /no invoice INV-2026-009/);
});

test('refuses a bad request and keeps nothing', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  ledger(f);
  const refusals: [InvoiceRequest, RegExp][] = [
    [{ client: 'Nobody', from: '2026-11-01', to: '2026-11-30' }, /no client named "Nobody"/],
    [{ client: 'ACME', from: '2026-11-31', to: '2026-11-30' }, /from/],
    [{ client: 'ACME', to: '2026-11-30' }, /from: must be given/],
    [{ client: 'ACME', from: '2026-11-30', to: '2026-11-01' }, /to: must not be before the start day \(2026-11-30\); give the earlier day as the start/],
  ];
  for (const [input, message] of refusals) assert.match(problemOf(() => draftInvoice(f.store, input, f.clock(), 'UTC')).message, message);
  assert.deepEqual(listInvoices(f.store), []);
});

test('a draft whose blocks changed before it was kept: nothing kept, refused by its rule about the range', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  ledger(f);
  f.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: '2026-11-03T11:00:00Z' });
  setActivityLedger(f.store, 'Design', { client: 'ACME', billable: true });
  const input = { client: 'ACME', from: '2026-11-01', to: '2026-11-30' };
  const draft = draftInvoice(f.store, input, f.clock(), 'UTC');
  f.tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: '2026-11-04T11:00:00Z' });
  const refused = problemOf(() => f.store.transaction(() => issueInvoice(f.store, draft, input, f.clock(), 'UTC', () => crypto.randomUUID())));
  assert.equal(refused.code, 'validation_failed');
  // The English as it always was; the window's invoice form shows it at the range, worded by its rule.
  assert.equal(refused.message, 'the blocks changed while the invoice was made; make it again');
  assert.deepEqual(refused.details, [{ field: 'range', message: refused.message, line: { rule: 'invoiceBlocksChanged' } }]);
  assert.deepEqual(listInvoices(f.store), []);
});
