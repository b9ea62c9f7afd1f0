/**
 * Money that cannot drift in reports (docs/data.md "Invoices"): a block on an invoice that
 * stands is reported at the billed time and amount its invoice says, whatever rate, rounding or
 * minimum changed since, so a report over a client's invoiced period adds to exactly what its
 * invoices add to, per currency, to the cent — as a property, and as the issue's story. A void
 * invoice gives its blocks back to today's rates.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ClientReportRow } from '@tock/protocol';
import {
  addClient,
  buildReport,
  draftInvoice,
  editClient,
  exportChunks,
  issueInvoice,
  setActivityLedger,
  setLedgerSetting,
  sumAmounts,
  voidInvoice,
  type InvoiceDocument,
  type InvoiceRequest,
} from '../src/index.ts';
import { largestRemainder } from '../src/invoice-shares.ts';
import { fixture, sequentialIds, type Fixture } from './support.ts';

function ids(): () => string {
  const next = sequentialIds();
  return () => `c0000000-0000-4000-8000-${next().slice(-12)}`;
}

function issue(f: Fixture, input: InvoiceRequest): InvoiceDocument {
  const now = f.clock();
  return f.store.transaction(() => issueInvoice(f.store, draftInvoice(f.store, input, now, 'UTC'), input, now, 'UTC', () => crypto.randomUUID()));
}

/** The invoices' net amounts added per currency, sorted by currency. */
function invoicesNet(documents: readonly InvoiceDocument[]): { currency: string; amount: string }[] {
  const per = new Map<string, string[]>();
  for (const d of documents) for (const t of d.totals) per.set(t.currency, [...(per.get(t.currency) ?? []), t.amount]);
  return [...per].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, list]) => ({ currency, amount: sumAmounts(list, currency) }));
}

test("the issue's story: after a rate change the report of the invoiced period still equals the invoice", (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  const newId = ids();
  addClient(f.store, { name: 'Acme', rate: '95', currency: 'EUR' }, 0, newId);
  setLedgerSetting(f.store.settings, 'rounding', { mode: 'up', minutes: 15, per: 'block' });
  // 09:00–10:30 and three more blocks: 5 h at 95.00 = 475.00 (today's rates would say 498.75).
  f.tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 90, endedAt: '2026-11-02T10:30:00Z' });
  f.tracker.logEntry({ name: 'Build', durationMinutes: 75, endedAt: '2026-11-03T10:15:00Z' });
  f.tracker.logEntry({ name: 'Build', durationMinutes: 75, endedAt: '2026-11-04T10:15:00Z' });
  f.tracker.logEntry({ name: 'Build', durationMinutes: 60, endedAt: '2026-11-05T10:00:00Z' });
  setActivityLedger(f.store, 'Build', { client: 'Acme', billable: true });
  const invoice = issue(f, { client: 'Acme', from: '2026-11-01', to: '2026-11-30' });
  assert.deepEqual(invoicesNet([invoice]), [{ currency: 'EUR', amount: '475.00' }]);
  // Today's rates and rounding change; the invoiced blocks do not.
  editClient(f.store, 'Acme', { rate: '105' });
  setActivityLedger(f.store, 'Build', { rate: '99.75' });
  setLedgerSetting(f.store.settings, 'rounding', { mode: 'up', minutes: 30, per: 'day', minimumMinutes: 60 });
  for (const by of ['activity', 'day', 'client', 'tag'] as const) {
    const report = buildReport(f.store, { from: '2026-11-01', to: '2026-11-30', by }, f.clock(), 'UTC');
    assert.deepEqual(report.amounts, [{ currency: 'EUR', amount: '475.00' }], by);
    assert.equal(
      report.rows.reduce((s, r) => s + r.billedSeconds, 0),
      invoice.billedSeconds,
      by,
    );
  }
  const days = buildReport(f.store, { from: '2026-11-02', to: '2026-11-02', by: 'day' }, f.clock(), 'UTC');
  // 1.50 h × 95.00, as the invoice's line says (today's rate would make it 149.63).
  assert.deepEqual(days.amounts, [{ currency: 'EUR', amount: '142.50' }]);
  // Time after the invoice is billed at today's rate, beside it.
  f.tracker.logEntry({ name: 'Build', durationMinutes: 60, endedAt: '2026-11-06T10:00:00Z' });
  const after = buildReport(f.store, { from: '2026-11-01', to: '2026-11-30', by: 'activity' }, f.clock(), 'UTC');
  assert.deepEqual(after.amounts, [{ currency: 'EUR', amount: '574.75' }]);
  // Voided, its blocks are worth what today's rates make them.
  f.store.transaction(() => voidInvoice(f.store, invoice.number, '2026-11-30'));
  const voided = buildReport(f.store, { from: '2026-11-02', to: '2026-11-02', by: 'day' }, f.clock(), 'UTC');
  assert.deepEqual(voided.amounts, [{ currency: 'EUR', amount: '149.63' }]);
});

test('an invoiced block stays billable and worth its invoice in the block list and the export CSV when its activity is made not billable or its rate changes; voided, it follows them again', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  addClient(f.store, { name: 'Acme', rate: '80', currency: 'EUR' }, 0, ids());
  // 50 minutes on one line: 0.83 h × 80.00 = 66.40 (the exact time would say 66.67).
  f.tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-02T10:00:00Z' });
  f.tracker.logEntry({ name: 'Build', durationMinutes: 20, endedAt: '2026-11-02T11:00:00Z' });
  setActivityLedger(f.store, 'Build', { client: 'Acme', billable: true });
  const invoice = issue(f, { client: 'Acme', from: '2026-11-01', to: '2026-11-30' });
  assert.deepEqual(invoicesNet([invoice]), [{ currency: 'EUR', amount: '66.40' }]);
  // The activity's default and the rates change after issuing; the blocks' own flags were never set.
  setActivityLedger(f.store, 'Build', { billable: false, rate: '200' });
  editClient(f.store, 'Acme', { rate: '100' });
  const ledgerColumns = (): string[] =>
    [...exportChunks(f.store.db, { format: 'csv', timeZone: 'UTC', now: f.clock() })]
      .join('')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((row) => row.split(',').slice(-4).join(','));
  assert.deepEqual(
    f.tracker.listBlocks(0, f.clock()).map((b) => [b.billable, b.invoice]),
    [
      [true, invoice.number],
      [true, invoice.number],
    ],
  );
  // Its line's 3 000 billed seconds and 66.40 shared out over the blocks by worked time.
  assert.deepEqual(ledgerColumns(), ['true,1800,39.84,EUR', 'true,1200,26.56,EUR']);
  f.store.transaction(() => voidInvoice(f.store, invoice.number, '2026-11-30'));
  assert.deepEqual(
    f.tracker.listBlocks(0, f.clock()).map((b) => [b.billable, b.invoice]),
    [
      [false, undefined],
      [false, undefined],
    ],
  );
  assert.deepEqual(ledgerColumns(), ['false,0,,', 'false,0,,']);
});

test("an invoiced block stays its invoice's client's in reports by client and for one client, when its activity moves to another client", (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  const newId = ids();
  addClient(f.store, { name: 'Acme', rate: '80', currency: 'EUR' }, 0, newId);
  addClient(f.store, { name: 'Beta', rate: '120', currency: 'USD' }, 0, newId);
  f.tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-02T10:00:00Z' });
  setActivityLedger(f.store, 'Build', { client: 'Acme', billable: true });
  const invoice = issue(f, { client: 'Acme', from: '2026-11-01', to: '2026-11-30' });
  assert.deepEqual(invoicesNet([invoice]), [{ currency: 'EUR', amount: '80.00' }]);
  // The activity now works for Beta: new time is Beta's, the invoiced hour stays Acme's.
  setActivityLedger(f.store, 'Build', { client: 'Beta' });
  f.tracker.logEntry({ name: 'Build', durationMinutes: 30, endedAt: '2026-11-03T10:00:00Z' });
  const range = { from: '2026-11-01', to: '2026-11-30' };
  const byClient = buildReport(f.store, { ...range, by: 'client' }, f.clock(), 'UTC');
  const row = (name: string) => byClient.rows.find((r): r is ClientReportRow => 'clientName' in r && r.clientName === name);
  assert.deepEqual(
    { seconds: row('Acme')?.seconds, billed: row('Acme')?.billedSeconds, amount: row('Acme')?.amount, currency: row('Acme')?.currency },
    { seconds: 3600, billed: 3600, amount: '80.00', currency: 'EUR' },
  );
  assert.deepEqual({ seconds: row('Beta')?.seconds, amount: row('Beta')?.amount, currency: row('Beta')?.currency }, { seconds: 1800, amount: '60.00', currency: 'USD' });
  assert.deepEqual(byClient.amounts, [
    { currency: 'EUR', amount: '80.00' },
    { currency: 'USD', amount: '60.00' },
  ]);
  const acmeID = row('Acme')?.clientID ?? '';
  const forAcme = buildReport(f.store, { ...range, by: 'activity', client: acmeID }, f.clock(), 'UTC');
  assert.equal(forAcme.totalSeconds, 3600);
  assert.deepEqual(forAcme.amounts, [{ currency: 'EUR', amount: '80.00' }]);
  // The export CSV's client column says the same: the ledger columns are client, tags, billable, billed, amount, currency.
  const rows = [...exportChunks(f.store.db, { format: 'csv', timeZone: 'UTC', now: f.clock() })].join('').trimEnd().split('\r\n').slice(1);
  assert.deepEqual(
    rows.map((row) => row.split(',').slice(-6).join(',')),
    ['Acme,,true,3600,80.00,EUR', 'Beta,,true,1800,60.00,USD'],
  );
});

test('an invoiced block counts once, on the day it starts, as its invoice puts it; a range without its start leaves its money out', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  addClient(f.store, { name: 'Night', rate: '100', currency: 'EUR' }, 0, ids());
  // 23:00–01:00 across midnight.
  f.tracker.logEntry({ name: 'Ops', createIfMissing: true, durationMinutes: 120, endedAt: '2026-11-03T01:00:00Z' });
  setActivityLedger(f.store, 'Ops', { client: 'Night', billable: true });
  const invoice = issue(f, { client: 'Night', from: '2026-11-01', to: '2026-11-30' });
  assert.deepEqual(invoicesNet([invoice]), [{ currency: 'EUR', amount: '200.00' }]);
  editClient(f.store, 'Night', { rate: '150' });
  const days = buildReport(f.store, { from: '2026-11-02', to: '2026-11-03', by: 'day' }, f.clock(), 'UTC');
  assert.deepEqual(
    days.rows.map((r) => [r.seconds, r.billedSeconds, r.amount]),
    [
      [3600, 7200, '200.00'],
      [3600, 0, null],
    ],
  );
  const second = buildReport(f.store, { from: '2026-11-03', to: '2026-11-03', by: 'activity' }, f.clock(), 'UTC');
  assert.deepEqual(second.amounts, []);
});

test('the largest remainder shares a total out exactly by weights (property)', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.array(fc.bigInt({ min: 0n, max: 100_000n }), { minLength: 1, maxLength: 20 }), (total, weights) => {
      const parts = largestRemainder(total, weights);
      assert.equal(
        parts.reduce((a, b) => a + b, 0n),
        total,
      );
      const sum = weights.reduce((a, b) => a + b, 0n);
      // Each part is within one of its exact proportion.
      if (sum > 0n) {
        for (const [i, p] of parts.entries()) {
          const exact = total * (weights[i] as bigint);
          assert.ok(p * sum >= exact - sum && p * sum <= exact + sum);
        }
      }
    }),
    { numRuns: 1000, seed: 20261129 },
  );
});

const rateArb = fc.tuple(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 99 })).map(([w, d]) => `${w}.${String(d).padStart(2, '0')}`);
const roundingArb = fc.record({
  mode: fc.constantFrom('none', 'up', 'down', 'nearest'),
  minutes: fc.constantFrom(1, 6, 15, 30),
  per: fc.constantFrom('block', 'day'),
  minimumMinutes: fc.constantFrom(0, 15, 60),
});

test("a report's billed total for invoiced blocks equals the invoices' net per currency, whatever changes after issuing (property)", (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ activity: fc.integer({ min: 0, max: 3 }), day: fc.integer({ min: 1, max: 10 }), hour: fc.integer({ min: 0, max: 22 }), minutes: fc.integer({ min: 1, max: 150 }) }), {
        minLength: 1,
        maxLength: 12,
      }),
      fc.tuple(rateArb, rateArb, rateArb, rateArb),
      roundingArb,
      fc.tuple(rateArb, rateArb, rateArb, rateArb),
      roundingArb,
      (blocks, rates, rounding, laterRates, laterRounding) => {
        const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
        const newId = ids();
        addClient(f.store, { name: 'Euro', rate: rates[0], currency: 'EUR' }, 0, newId);
        addClient(f.store, { name: 'Dollar', rate: rates[1], currency: 'USD' }, 0, newId);
        addClient(f.store, { name: 'Yen', rate: rates[2], currency: 'JPY' }, 0, newId);
        setLedgerSetting(f.store.settings, 'rounding', rounding);
        const names = ['A', 'B', 'C', 'D'];
        const clientOf = ['Euro', 'Dollar', 'Yen', 'Euro'];
        for (const name of names) f.tracker.logEntry({ name, createIfMissing: true, durationMinutes: 1, endedAt: '2026-10-01T09:00:00Z' });
        for (const [i, name] of names.entries()) setActivityLedger(f.store, name, { client: clientOf[i], billable: true, ...(i === 3 ? { rate: rates[3] } : {}) });
        for (const b of blocks) {
          const end = Date.UTC(2026, 10, b.day, b.hour, 0) + b.minutes * 60_000;
          f.tracker.logEntry({ name: names[b.activity] as string, durationMinutes: b.minutes, endedAt: new Date(end).toISOString() });
        }
        const invoices: InvoiceDocument[] = [];
        for (const client of ['Euro', 'Dollar', 'Yen']) {
          if (!blocks.some((b) => clientOf[b.activity] === client)) continue;
          invoices.push(issue(f, { client, from: '2026-11-01', to: '2026-11-15' }));
        }
        // After issuing: every rate and the rounding change.
        editClient(f.store, 'Euro', { rate: laterRates[0] });
        editClient(f.store, 'Dollar', { rate: laterRates[1] });
        editClient(f.store, 'Yen', { rate: laterRates[2] });
        setActivityLedger(f.store, 'D', { rate: laterRates[3] });
        setActivityLedger(f.store, 'A', { rate: laterRates[3] });
        setLedgerSetting(f.store.settings, 'rounding', laterRounding);
        const billed = invoices.reduce((s, d) => s + d.billedSeconds, 0);
        for (const by of ['activity', 'day', 'client'] as const) {
          const report = buildReport(f.store, { from: '2026-11-01', to: '2026-11-15', by }, f.clock(), 'UTC');
          assert.deepEqual(report.amounts, invoicesNet(invoices), by);
          assert.equal(
            report.rows.reduce((s, r) => s + r.billedSeconds, 0),
            billed,
            by,
          );
        }
      },
    ),
    { numRuns: 60, seed: 20261129 },
  );
});
