/**
 * Money you can trust (docs/data.md "Invoices", "The ledger"): every invoice line multiplies
 * out as printed (quantity in hours with two decimals × rate = amount, to the cent), net + tax
 * = gross to the cent, currencies are never added together — as properties over many cases —
 * and the taxes, due date, reverse charge, overlap warning, minimum billed time, a client's
 * invoice details and a report row billed in two currencies.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  addClient,
  billedSeconds,
  buildReport,
  draftInvoice,
  editClient,
  exportChunks,
  getLedgerSetting,
  invoiceTotal,
  issueInvoice,
  lineAmountMinor,
  listClients,
  overlapWarning,
  quantityHundredths,
  quantityText,
  setActivityLedger,
  setLedgerSetting,
  tagBlock,
  taxMinor,
  voidInvoice,
  type InvoiceRequest,
} from '../src/index.ts';
import { fixture, problemOf, sequentialIds, type Fixture } from './support.ts';

/** A decimal text as an exact fraction `[numerator, 10^decimals]`. */
function exact(text: string): [bigint, bigint] {
  const [whole, decimals = ''] = text.split('.');
  return [BigInt(`${whole}${decimals}`), 10n ** BigInt(decimals.length)];
}

/** `a × b` of two decimal texts, rounded half-up to `digits` decimals, as minor units. */
function productMinor(a: string, b: string, digits: number): bigint {
  const [an, ad] = exact(a);
  const [bn, bd] = exact(b);
  const scale = 10n ** BigInt(digits);
  const den = ad * bd;
  return (an * bn * scale * 2n + den) / (den * 2n);
}

const rateArb = fc.tuple(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 9999 })).map(([w, d]) => `${w}.${String(d).padStart(4, '0').replace(/0{1,2}$/, '')}`);
const currencyArb = fc.constantFrom('EUR', 'USD', 'JPY', 'KWD', 'CHF');
const digitsOf: Record<string, number> = { EUR: 2, USD: 2, JPY: 0, KWD: 3, CHF: 2 };

test('every line multiplies out as printed: quantity (2 decimals) × rate = amount, half-up to the minor unit (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 400 * 3600 }), rateArb, currencyArb, (seconds, rate, currency) => {
      const hundredths = quantityHundredths(seconds);
      const printed = quantityText(hundredths);
      assert.match(printed, /^\d+\.\d{2}$/);
      // The quantity is the billed hours rounded half-up to two decimals.
      assert.ok(Math.abs(Number(printed) - seconds / 3600) <= 0.005 + 1e-9, `${seconds} s → ${printed} h`);
      assert.equal(lineAmountMinor(hundredths, rate, currency), productMinor(printed, rate, digitsOf[currency] as number));
    }),
    { numRuns: 2000, seed: 20261129 },
  );
});

test('net + tax = gross to the cent, the tax half-up on the net (property)', () => {
  const taxArb = fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 99 })).map(([w, d]) => (w === 100 ? 100 : Number(`${w}.${String(d).padStart(2, '0')}`)));
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 40 }), taxArb, (cents, rate) => {
      const amounts = cents.map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);
      const total = invoiceTotal('EUR', 0, amounts, rate);
      const net = cents.reduce((s, c) => s + BigInt(c), 0n);
      const [tax] = total.taxes ?? [];
      assert.equal(exact(total.amount)[0], net);
      assert.equal(exact(tax?.base ?? '')[0], net);
      assert.equal(exact(tax?.amount ?? '')[0], taxMinor(net, rate));
      assert.equal(exact(total.gross ?? '')[0], net + taxMinor(net, rate));
    }),
    { numRuns: 2000, seed: 20261129 },
  );
});

function ids(): () => string {
  const next = sequentialIds();
  return () => `c0000000-0000-4000-8000-${next().slice(-12)}`;
}

function issue(f: Fixture, input: InvoiceRequest) {
  const now = f.clock();
  return f.store.transaction(() => issueInvoice(f.store, draftInvoice(f.store, input, now, 'UTC'), input, now, 'UTC', () => crypto.randomUUID()));
}

test('an invoice never adds currencies together: a total per currency, each the sum of its own lines (property)', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  const newId = ids();
  addClient(f.store, { name: 'Multi', rate: '90', currency: 'EUR' }, 0, newId);
  setLedgerSetting(f.store.settings, 'business', { name: 'Ana', address: '', taxID: '', paymentTerms: '', taxRate: 19 });
  f.tracker.logEntry({ name: 'A', createIfMissing: true, durationMinutes: 1, endedAt: '2026-11-01T09:00:00Z' });
  setActivityLedger(f.store, 'A', { client: 'Multi', billable: true });
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 600 }), rateArb), { minLength: 1, maxLength: 8 }), (blocks) => {
      // Lines in EUR only (one client, one currency): their totals add up, the tax is on them.
      const amounts = blocks.map(([minutes, rate]) => {
        const q = quantityHundredths(minutes * 60);
        const minor = lineAmountMinor(q, rate, 'EUR');
        return `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
      });
      const eur = invoiceTotal('EUR', 0, amounts, 19);
      const jpy = invoiceTotal('JPY', 0, ['1200'], 19);
      assert.equal(eur.currency, 'EUR');
      assert.equal(jpy.amount, '1200');
      assert.equal(jpy.gross, '1428');
      assert.equal(exact(eur.amount)[0], amounts.reduce((s, a) => s + exact(a)[0], 0n));
    }),
    { numRuns: 300, seed: 20261129 },
  );
  // A report of two clients in two currencies: one amount each, never a sum.
  addClient(f.store, { name: 'Yankee', rate: '120', currency: 'USD' }, 0, newId);
  f.tracker.logEntry({ name: 'B', createIfMissing: true, durationMinutes: 120, endedAt: '2026-11-01T12:00:00Z' });
  setActivityLedger(f.store, 'B', { client: 'Yankee', billable: true });
  const report = buildReport(f.store, { from: '2026-11-01', to: '2026-11-01', by: 'day' }, f.clock(), 'UTC');
  assert.deepEqual(report.amounts, [
    { currency: 'EUR', amount: '1.50' },
    { currency: 'USD', amount: '240.00' },
  ]);
});

test('a report row billed in EUR and USD carries amounts per currency, amount and currency null; by activity, client and tag too', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  const newId = ids();
  addClient(f.store, { name: 'Euro', rate: '95', currency: 'EUR' }, 0, newId);
  addClient(f.store, { name: 'Dollar', rate: '120', currency: 'USD' }, 0, newId);
  const a = f.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 120, endedAt: '2026-11-02T11:00:00Z' });
  const b = f.tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 120, endedAt: '2026-11-02T15:00:00Z' });
  setActivityLedger(f.store, 'Design', { client: 'Euro', billable: true });
  setActivityLedger(f.store, 'Build', { client: 'Dollar', billable: true });
  tagBlock(f.store, a.entryID, ['web']);
  tagBlock(f.store, b.entryID, ['web']);
  const day = buildReport(f.store, { from: '2026-11-02', to: '2026-11-02', by: 'day' }, f.clock(), 'UTC');
  assert.deepEqual(day.rows, [
    {
      date: '2026-11-02',
      seconds: 14_400,
      billedSeconds: 14_400,
      amount: null,
      currency: null,
      amounts: [
        { currency: 'EUR', amount: '190.00' },
        { currency: 'USD', amount: '240.00' },
      ],
    },
  ]);
  assert.deepEqual(day.amounts, [
    { currency: 'EUR', amount: '190.00' },
    { currency: 'USD', amount: '240.00' },
  ]);
  const byActivity = buildReport(f.store, { from: '2026-11-02', to: '2026-11-02', by: 'activity' }, f.clock(), 'UTC');
  for (const row of byActivity.rows) assert.deepEqual(row.amounts, [{ currency: row.currency as string, amount: row.amount as string }]);
  const byTag = buildReport(f.store, { from: '2026-11-02', to: '2026-11-02', by: 'tag' }, f.clock(), 'UTC');
  assert.deepEqual(
    byTag.rows.map((r) => [r.amount, r.currency, r.amounts]),
    [
      [
        null,
        null,
        [
          { currency: 'EUR', amount: '190.00' },
          { currency: 'USD', amount: '240.00' },
        ],
      ],
    ],
  );
  const byClient = buildReport(f.store, { from: '2026-11-02', to: '2026-11-02', by: 'client' }, f.clock(), 'UTC');
  assert.deepEqual(
    byClient.rows.map((r) => r.amounts),
    [[{ currency: 'USD', amount: '240.00' }], [{ currency: 'EUR', amount: '190.00' }]],
  );
});

test('a row’s amounts and the totals are sorted by currency, whichever was billed first', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  const newId = ids();
  // Billed first and created first: Swiss francs and dollars, then euros.
  addClient(f.store, { name: 'Zürich', rate: '100', currency: 'CHF' }, 0, newId);
  addClient(f.store, { name: 'Dollar', rate: '120', currency: 'USD' }, 0, newId);
  addClient(f.store, { name: 'Euro', rate: '95', currency: 'EUR' }, 0, newId);
  const usd = f.tracker.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-02T09:00:00Z' });
  const chf = f.tracker.logEntry({ name: 'Audit', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-02T10:00:00Z' });
  const eur = f.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-02T11:00:00Z' });
  setActivityLedger(f.store, 'Build', { client: 'Dollar', billable: true });
  setActivityLedger(f.store, 'Audit', { client: 'Zürich', billable: true });
  setActivityLedger(f.store, 'Design', { client: 'Euro', billable: true });
  for (const id of [usd.entryID, chf.entryID, eur.entryID]) tagBlock(f.store, id, ['web']);
  const sorted = [
    { currency: 'CHF', amount: '100.00' },
    { currency: 'EUR', amount: '95.00' },
    { currency: 'USD', amount: '120.00' },
  ];
  for (const by of ['day', 'tag', 'activity', 'client'] as const) {
    const report = buildReport(f.store, { from: '2026-11-02', to: '2026-11-02', by }, f.clock(), 'UTC');
    assert.deepEqual(report.amounts, sorted, by);
    if (by === 'day' || by === 'tag') assert.deepEqual(report.rows[0]?.amounts, sorted, by);
  }
});

test('taxes: the business rate, a client rate of its own, or the reverse charge; a due date from paymentDays; decimal quantities', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  const newId = ids();
  addClient(f.store, { name: 'Berlin', rate: '85', currency: 'EUR' }, 0, newId);
  addClient(f.store, { name: 'Paris', rate: '85', currency: 'EUR', taxID: 'FR40303265045', reverseCharge: true, language: 'fr' }, 0, newId);
  addClient(f.store, { name: 'Zurich', rate: '85', currency: 'CHF' }, 0, newId);
  editClient(f.store, 'Zurich', { taxRate: '8.1' });
  setLedgerSetting(f.store.settings, 'business', { name: 'Ana', address: 'Rua 1', taxID: 'DE123456789', paymentTerms: '', taxRate: 19, paymentDays: 14 });
  for (const [name, client] of [
    ['Web', 'Berlin'],
    ['Site', 'Paris'],
    ['App', 'Zurich'],
  ] as const) {
    f.tracker.logEntry({ name, createIfMissing: true, durationMinutes: 93, endedAt: '2026-11-03T11:00:00Z' });
    setActivityLedger(f.store, name, { client, billable: true });
  }
  const range = { from: '2026-11-01', to: '2026-11-30' };
  const berlin = draftInvoice(f.store, { client: 'Berlin', ...range }, f.clock(), 'UTC').document;
  // 93 minutes are 1.55 h; 1.55 × 85.00 = 131.75.
  assert.deepEqual(
    berlin.lines.map((l) => [l.quantity, l.rate, l.amount]),
    [['1.55', '85.00', '131.75']],
  );
  assert.deepEqual(berlin.totals, [{ currency: 'EUR', billedSeconds: 5580, amount: '131.75', taxes: [{ rate: 19, base: '131.75', amount: '25.03' }], gross: '156.78' }]);
  assert.equal(berlin.due, '2026-12-14');
  assert.equal(berlin.reverseCharge, false);
  const paris = draftInvoice(f.store, { client: 'Paris', ...range }, f.clock(), 'UTC').document;
  assert.equal(paris.reverseCharge, true);
  assert.equal(paris.client.taxID, 'FR40303265045');
  assert.equal(paris.language, 'fr');
  assert.deepEqual(paris.totals[0]?.taxes, []);
  assert.equal(paris.totals[0]?.gross, '131.75');
  const zurich = draftInvoice(f.store, { client: 'Zurich', ...range }, f.clock(), 'UTC').document;
  assert.deepEqual(zurich.totals[0]?.taxes, [{ rate: 8.1, base: '131.75', amount: '10.67' }]);
  assert.equal(zurich.totals[0]?.gross, '142.42');
  // A tax rate of its own and a reverse charge exclude each other; setting one clears the other.
  assert.equal(editClient(f.store, 'Zurich', { reverseCharge: true }).taxRate, null);
  assert.deepEqual(
    listClients(f.store).map((c) => [c.name, c.taxRate, c.reverseCharge, c.language, c.taxID]),
    [
      ['Berlin', null, false, null, null],
      ['Paris', null, true, 'fr', 'FR40303265045'],
      ['Zurich', null, true, null, null],
    ],
  );
  const taxedAgain = editClient(f.store, 'Zurich', { taxRate: '7.7' });
  assert.deepEqual([taxedAgain.taxRate, taxedAgain.reverseCharge], [7.7, false], 'and the other way');
  assert.deepEqual(draftInvoice(f.store, { client: 'Zurich', ...range }, f.clock(), 'UTC').document.totals[0]?.taxes, [{ rate: 7.7, base: '131.75', amount: '10.14' }]);
});

test('a client language is a BCP 47 tag of en, de, fr, es or ja; a tax rate a percentage; a bad value changes nothing', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  addClient(f.store, { name: 'Lyon', rate: '85', currency: 'EUR' }, 0, ids());
  assert.equal(editClient(f.store, 'Lyon', { language: 'fr-ch' }).language, 'fr-CH');
  assert.equal(editClient(f.store, 'Lyon', { language: 'ja' }).language, 'ja');
  for (const bad of ['xx', 'it', 'fr_FR', 'not a tag', 42]) {
    assert.match(problemOf(() => editClient(f.store, 'Lyon', { language: bad })).message, /language: must be a BCP 47 language tag of en, de, fr, es, ja/);
  }
  for (const bad of ['-1', '101', '19.123', 'abc']) {
    assert.match(problemOf(() => editClient(f.store, 'Lyon', { taxRate: bad })).message, /taxRate: must be a percentage from 0 to 100/);
  }
  assert.equal(listClients(f.store)[0]?.language, 'ja');
  assert.match(problemOf(() => setLedgerSetting(f.store.settings, 'business', { taxRate: 'nineteen' })).message, /taxRate/);
  assert.match(problemOf(() => setLedgerSetting(f.store.settings, 'business', { paymentDays: -3 })).message, /paymentDays/);
});

test('an invoice whose period overlaps an earlier one of the client is drafted with a warning and holds only blocks on no invoice', (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  addClient(f.store, { name: 'ACME', rate: '85', currency: 'EUR' }, 0, ids());
  f.tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-10T11:00:00Z' });
  setActivityLedger(f.store, 'Design', { client: 'ACME', billable: true });
  const first = issue(f, { client: 'ACME', from: '2026-11-01', to: '2026-11-15' });
  f.tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: '2026-11-12T11:00:00Z' });
  f.tracker.logEntry({ name: 'Design', durationMinutes: 45, endedAt: '2026-11-20T11:00:00Z' });
  const draft = draftInvoice(f.store, { client: 'ACME', from: '2026-11-10', to: '2026-11-30' }, f.clock(), 'UTC');
  assert.deepEqual(draft.overlaps, [{ number: first.number, from: '2026-11-01', to: '2026-11-15' }]);
  assert.equal(overlapWarning(draft.overlaps), `the period overlaps an earlier invoice of this client: ${first.number} (2026-11-01 to 2026-11-15); only blocks on no invoice are on this one`);
  // Two or more are an English list, its `and` from Intl, not a comma join.
  assert.equal(
    overlapWarning([...draft.overlaps, { number: 'INV-2026-900', from: '2026-11-16', to: '2026-11-20' }]),
    `the period overlaps earlier invoices of this client: ${first.number} (2026-11-01 to 2026-11-15) and INV-2026-900 (2026-11-16 to 2026-11-20); only blocks on no invoice are on this one`,
  );
  assert.deepEqual(
    draft.document.lines.map((l) => [l.date, l.billedSeconds]),
    [
      ['2026-11-12', 1800],
      ['2026-11-20', 2700],
    ],
  );
  const apart = draftInvoice(f.store, { client: 'ACME', from: '2026-11-16', to: '2026-11-30' }, f.clock(), 'UTC');
  assert.deepEqual(apart.overlaps, []);
  assert.equal(overlapWarning(apart.overlaps), undefined);
  // Another client's invoice of the same days is not this client's: no warning for it.
  addClient(f.store, { name: 'Beta', rate: '50', currency: 'EUR' }, 0, () => 'c0000000-0000-4000-8000-0000000000be');
  f.tracker.logEntry({ name: 'Support', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-11T11:00:00Z' });
  setActivityLedger(f.store, 'Support', { client: 'Beta', billable: true });
  issue(f, { client: 'Beta', from: '2026-11-01', to: '2026-11-30' });
  assert.deepEqual(draftInvoice(f.store, { client: 'ACME', from: '2026-11-10', to: '2026-11-30' }, f.clock(), 'UTC').overlaps, [{ number: first.number, from: '2026-11-01', to: '2026-11-15' }]);
  // A void invoice bills nothing: no longer one the period overlaps.
  f.store.transaction(() => voidInvoice(f.store, first.number, '2026-11-30'));
  assert.deepEqual(draftInvoice(f.store, { client: 'ACME', from: '2026-11-10', to: '2026-11-30' }, f.clock(), 'UTC').overlaps, []);
});

test('minimumMinutes bills a billable block at least that long, per block or per day, on invoices and reports alike', (t) => {
  assert.equal(billedSeconds(300, [300], { mode: 'none', minutes: 1, per: 'block', minimumMinutes: 15 }), 900);
  assert.equal(billedSeconds(0, [300, 1200], { mode: 'up', minutes: 6, per: 'block', minimumMinutes: 15 }), 900 + 1440);
  assert.equal(billedSeconds(1500, [300, 1200], { mode: 'up', minutes: 30, per: 'day', minimumMinutes: 15 }), 1800 + 600);
  assert.equal(billedSeconds(0, [0], { mode: 'none', minutes: 1, per: 'block', minimumMinutes: 15 }), 0, 'a block without worked time is billed nothing');
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  addClient(f.store, { name: 'ACME', rate: '60', currency: 'EUR' }, 0, ids());
  f.tracker.logEntry({ name: 'Call', createIfMissing: true, durationMinutes: 5, endedAt: '2026-11-03T09:00:00Z' });
  f.tracker.logEntry({ name: 'Call', durationMinutes: 20, endedAt: '2026-11-03T10:00:00Z' });
  setActivityLedger(f.store, 'Call', { client: 'ACME', billable: true });
  setLedgerSetting(f.store.settings, 'rounding', { mode: 'none', minutes: 1, per: 'block', minimumMinutes: 15 });
  const [line] = draftInvoice(f.store, { client: 'ACME', from: '2026-11-03', to: '2026-11-03' }, f.clock(), 'UTC').document.lines;
  assert.deepEqual([line?.workedSeconds, line?.billedSeconds, line?.quantity, line?.amount], [1500, 2100, '0.58', '34.80']);
  const report = buildReport(f.store, { from: '2026-11-03', to: '2026-11-03', by: 'activity' }, f.clock(), 'UTC');
  assert.equal(report.rows[0]?.billedSeconds, 2100);
  // The export CSV's own billed seconds of each block (its last columns): the 5 minutes billed 15.
  const csv = [...exportChunks(f.store.db, { format: 'csv', timeZone: 'UTC', now: f.clock() })].join('').trimEnd().split('\r\n');
  assert.deepEqual(
    csv.slice(1).map((row) => row.split(',').slice(-4).join(',')),
    ['true,900,15.00,EUR', 'true,1200,20.00,EUR'],
  );
  // 0 to 60 whole minutes; anything else is refused naming the field, and the setting stays.
  const kept = getLedgerSetting(f.store.settings, 'rounding');
  for (const bad of [61, -1, 1.5, '15', null]) {
    assert.match(problemOf(() => setLedgerSetting(f.store.settings, 'rounding', { mode: 'up', minutes: 15, minimumMinutes: bad })).message, /minimumMinutes/, String(bad));
    assert.deepEqual(getLedgerSetting(f.store.settings, 'rounding'), kept, String(bad));
  }
  for (const good of [0, 60]) {
    setLedgerSetting(f.store.settings, 'rounding', { mode: 'up', minutes: 15, per: 'block', minimumMinutes: good });
    assert.equal((getLedgerSetting(f.store.settings, 'rounding') as { minimumMinutes?: number }).minimumMinutes, good);
  }
});
