/**
 * The ledger's things (docs/data.md "The ledger"): clients, an activity's rate, billable
 * default and budget, a block's tags and billable flag, the settings; money that is never a
 * binary float. Bad input is refused with a clear reason and changes nothing.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  activityLedger,
  addClient,
  cleanRate,
  editClient,
  exactAmount,
  getLedgerSetting,
  listClients,
  readRounding,
  removeClient,
  roundAmount,
  roundBilled,
  setActivityLedger,
  setBlockBillable,
  setLedgerSetting,
  tagBlock,
  untagBlock,
  type Rounding,
} from '../src/index.ts';
import { fixture, problemOf, sequentialIds } from './support.ts';

/** Cents of `seconds` at `rate` per hour, half-up, worked out in decimal text arithmetic (an independent model). */
function centsModel(seconds: number, rate: string): bigint {
  const [whole, frac = ''] = rate.split('.');
  const rateTenThousandths = BigInt(`${whole}${frac.padEnd(4, '0')}`);
  // cents = seconds × rate / 3600 × 100 = seconds × rate10k / 360000
  const numerator = BigInt(seconds) * rateTenThousandths;
  const denominator = 360_000n;
  const q = numerator / denominator;
  return numerator % denominator >= denominator - numerator % denominator && numerator % denominator * 2n >= denominator ? q + 1n : q;
}

test('amounts equal billed hours × rate to the cent, half-up, for random rates and durations', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10 * 366 * 86_400 }), fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 4 }), (seconds, rateInt, decimals) => {
      const text = (rateInt / 10 ** decimals).toFixed(decimals);
      const rate = cleanRate(text);
      const amount = roundAmount(exactAmount(seconds, rate), 'EUR');
      assert.match(amount, /^\d+\.\d{2}$/);
      assert.equal(BigInt(amount.replace('.', '')), centsModel(seconds, rate), `${seconds} s at ${rate}`);
    }),
    { numRuns: 500, seed: 20261129 },
  );
});

test('an amount keeps the currency\'s minor unit: none for JPY, three for KWD', () => {
  assert.equal(roundAmount(exactAmount(5400, cleanRate('1000')), 'JPY'), '1500');
  assert.equal(roundAmount(exactAmount(1, cleanRate('1')), 'KWD'), '0.000');
  assert.equal(roundAmount(exactAmount(1800, cleanRate('0.001')), 'KWD'), '0.001'); // 0.0005 half-up
  assert.equal(roundAmount(exactAmount(18, cleanRate('1')), 'EUR'), '0.01'); // 0.005 half-up
  assert.equal(roundAmount(exactAmount(17, cleanRate('1')), 'EUR'), '0.00');
});

test('rounding never changes worked time and bills whole steps up, down or to the nearest', () => {
  const modes: Rounding['mode'][] = ['none', 'up', 'down', 'nearest'];
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 86_400 }), fc.constantFrom(...modes), fc.constantFrom(1, 5, 6, 10, 15, 30, 60), (seconds, mode, minutes) => {
      const worked = seconds;
      const billed = roundBilled(worked, { mode, minutes, per: 'block' });
      assert.equal(worked, seconds);
      const step = minutes * 60;
      if (mode === 'none') assert.equal(billed, seconds);
      else {
        assert.equal(billed % step, 0);
        assert.ok(Math.abs(billed - seconds) < step || (mode === 'nearest' && Math.abs(billed - seconds) <= step / 2));
        if (mode === 'up') assert.ok(billed >= seconds);
        if (mode === 'down') assert.ok(billed <= seconds);
      }
    }),
    { seed: 20261129 },
  );
  assert.equal(roundBilled(7 * 60 + 30, { mode: 'nearest', minutes: 15, per: 'block' }), 15 * 60);
  assert.equal(roundBilled(7 * 60 + 29, { mode: 'nearest', minutes: 15, per: 'block' }), 0);
  assert.equal(roundBilled(0, { mode: 'up', minutes: 15, per: 'block' }), 0);
});

test('clients are added, listed, edited and removed; their activities keep their time', (t) => {
  const { store, tracker } = fixture(t);
  const ids = sequentialIds();
  const acme = addClient(store, { name: ' ACME GmbH ', rate: '85', currency: 'eur', address: 'Hauptstraße 1\n10115 Berlin' }, 0, () => `c${ids()}`.slice(1));
  assert.deepEqual({ ...acme, id: undefined }, { id: undefined, name: 'ACME GmbH', rate: '85.00', currency: 'EUR', address: 'Hauptstraße 1\n10115 Berlin', taxID: null, taxRate: null, reverseCharge: false, language: null });
  assert.equal(problemOf(() => addClient(store, { name: 'acme gmbh' }, 0, ids)).code, 'validation_failed');
  tracker.createActivity('Writing');
  const set = setActivityLedger(store, 'writing', { client: 'ACME gmbh', rate: '90.5', billable: true, budgetHours: 40 });
  assert.deepEqual({ ...set, activityID: undefined }, {
    activityID: undefined,
    activityName: 'Writing',
    clientID: acme.id,
    clientName: 'ACME GmbH',
    rate: '90.50',
    billable: true,
    budgetHours: 40,
  });
  assert.equal(editClient(store, acme.id, { rate: null, name: 'ACME AG' }).rate, null);
  removeClient(store, 'acme ag');
  assert.deepEqual(listClients(store), []);
  assert.equal(activityLedger(store, 'Writing').clientID, null);
});

test('bad input is refused with a reason naming the field, and nothing changes', (t) => {
  const { store, tracker } = fixture(t);
  const ids = sequentialIds();
  tracker.createActivity('Writing');
  addClient(store, { name: 'ACME', rate: '85.00', currency: 'EUR' }, 0, ids);
  const before = JSON.stringify([listClients(store), activityLedger(store, 'Writing')]);
  const cases: [string, () => unknown, string][] = [
    ['rate abc', () => addClient(store, { name: 'New', rate: 'abc' }, 0, ids), 'rate'],
    ['currency EURO', () => addClient(store, { name: 'New', currency: 'EURO' }, 0, ids), 'currency'],
    ['currency XYZ', () => editClient(store, 'ACME', { currency: 'XYZ' }), 'currency'],
    ['a name with a control character', () => addClient(store, { name: 'A\u0007B' }, 0, ids), 'name'],
    ['budget -1', () => setActivityLedger(store, 'Writing', { budgetHours: -1, rate: '10' }), 'budgetHours'],
    ['rate abc on an activity', () => setActivityLedger(store, 'Writing', { rate: 'abc', billable: true }), 'rate'],
    ['an unknown client', () => setActivityLedger(store, 'Writing', { client: 'Nobody', billable: true }), 'client'],
  ];
  for (const [what, run, field] of cases) {
    const problem = problemOf(run);
    assert.equal(problem.code, 'validation_failed', what);
    assert.equal(problem.details?.[0]?.field, field, what);
    assert.equal(JSON.stringify([listClients(store), activityLedger(store, 'Writing')]), before, what);
  }
});

test('tags are names: added once case-insensitively, taken off, and a control character is refused', (t) => {
  const { store, tracker } = fixture(t);
  const entry = tracker.logEntry({ name: 'Writing', createIfMissing: true, durationMinutes: 30, tags: ['Docs', 'docs', ' urgent '] });
  assert.deepEqual(tracker.listBlocks(0, Date.parse('2030-01-01'))[0]?.tags, ['Docs', 'urgent']);
  assert.deepEqual(tagBlock(store, entry.entryID, ['client-a', 'URGENT']).tags, ['Docs', 'urgent', 'client-a']);
  assert.deepEqual(untagBlock(store, entry.entryID, ['docs']).tags, ['urgent', 'client-a']);
  const problem = problemOf(() => tagBlock(store, entry.entryID, ['bad\u0001tag']));
  assert.equal(problem.code, 'validation_failed');
  assert.match(problem.message, /control characters/);
  assert.deepEqual(tracker.listBlocks(0, Date.parse('2030-01-01'))[0]?.tags, ['urgent', 'client-a']);
  assert.equal(problemOf(() => tracker.logEntry({ name: 'Writing', durationMinutes: 5, tags: ['\u202e'] })).code, 'validation_failed');
});

test("a block is billable by its own flag, else by its activity's default", (t) => {
  const { store, tracker } = fixture(t);
  const entry = tracker.logEntry({ name: 'Writing', createIfMissing: true, durationMinutes: 30 });
  const billable = (): boolean | undefined => tracker.listBlocks(0, Date.parse('2030-01-01'))[0]?.billable;
  assert.equal(billable(), false);
  setActivityLedger(store, 'Writing', { billable: true });
  assert.equal(billable(), true);
  setBlockBillable(store, entry.entryID, false);
  assert.equal(billable(), false);
  setBlockBillable(store, entry.entryID, null);
  assert.equal(billable(), true);
  tracker.logEntry({ name: 'Writing', durationMinutes: 5, billable: false, endedAt: '2026-11-22T08:00:00Z' });
  assert.equal(tracker.listBlocks(0, Date.parse('2030-01-01'))[0]?.billable, false);
});

test('settings rounding, targets and business are checked whole; an invalid value changes nothing', (t) => {
  const { store } = fixture(t);
  const settings = store.settings;
  assert.deepEqual(setLedgerSetting(settings, 'rounding', '{"mode":"up","minutes":15,"per":"day"}'), { mode: 'up', minutes: 15, per: 'day' });
  for (const bad of ['{"mode":"up","minutes":7}', '{"mode":"sideways"}', 'not json', '[]', '{"mode":"up","per":"week"}']) {
    assert.equal(problemOf(() => setLedgerSetting(settings, 'rounding', bad)).code, 'validation_failed', bad);
  }
  assert.deepEqual(readRounding(settings), { mode: 'up', minutes: 15, per: 'day' });
  setLedgerSetting(settings, 'targets', { mon: 8, fri: 6.5 });
  assert.equal(problemOf(() => setLedgerSetting(settings, 'targets', { mon: 25 })).code, 'validation_failed');
  assert.equal(problemOf(() => setLedgerSetting(settings, 'targets', { monday: 8 })).code, 'validation_failed');
  assert.deepEqual(getLedgerSetting(settings, 'targets'), { mon: 8, fri: 6.5 });
  setLedgerSetting(settings, 'business', { name: 'Ana Lima', address: 'Rua 1\nLisboa', taxID: 'PT123', paymentTerms: '14 days' });
  assert.equal(problemOf(() => setLedgerSetting(settings, 'business', { name: 'A\u0000' })).code, 'validation_failed');
  assert.equal(problemOf(() => setLedgerSetting(settings, 'colour', '"red"')).code, 'validation_failed');
  assert.equal((getLedgerSetting(settings, 'business') as { name: string }).name, 'Ana Lima');
});
