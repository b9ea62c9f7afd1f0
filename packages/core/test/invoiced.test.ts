/**
 * Invoiced is final (docs/data.md "Invoices"): the store's guard refuses every change to a
 * block on an invoice — edit, move, delete, tags, billable, its breaks, a merge of its activity
 * — with the one `invoiced` problem naming the invoice, and nothing changes; a rate changed later
 * changes nothing invoiced (the document keeps it); a void keeps the number, marks the invoice
 * void and frees its blocks to be edited and invoiced again.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addClient,
  draftInvoice,
  editClient,
  invoiceByNumber,
  invoiceOfBlock,
  issueInvoice,
  listInvoices,
  setActivityLedger,
  setBlockBillable,
  tagBlock,
  voidInvoice,
  type InvoiceRequest,
} from '../src/index.ts';
import { fixture, problemOf, type Fixture } from './support.ts';

const LINE = 'this block is on invoice INV-2026-001; void the invoice to change it';

function issue(f: Fixture, input: InvoiceRequest) {
  const now = f.clock();
  return f.store.transaction(() => issueInvoice(f.store, draftInvoice(f.store, input, now, 'UTC'), input, now, 'UTC', () => crypto.randomUUID()));
}

function invoiced(f: Fixture) {
  const { tracker, store } = f;
  addClient(store, { name: 'ACME', rate: '80', currency: 'EUR' }, 0, () => 'c0000000-0000-4000-8000-000000000001');
  const entry = tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: '2026-11-03T10:30:00Z', note: 'wireframes' });
  tracker.startActivity({ name: 'Design' });
  f.clock.advance(60 * 60_000);
  tracker.startBreak();
  f.clock.advance(10 * 60_000);
  tracker.resumeBreak();
  f.clock.advance(20 * 60_000);
  tracker.stopActivity();
  setActivityLedger(store, 'Design', { client: 'ACME', billable: true });
  const session = tracker.listBlocks(0, f.clock()).find((b) => b.kind === 'session');
  assert.ok(session);
  const doc = issue(f, { client: 'ACME', from: '2026-11-01', to: '2026-11-30' });
  assert.equal(doc.number, 'INV-2026-001');
  return { entryID: entry.entryID, session };
}

test('every change to an invoiced block is refused with the one line naming the invoice, and nothing changes', (t) => {
  const f = fixture(t, { now: '2026-11-20T09:00:00.000Z' });
  const { entryID, session } = invoiced(f);
  const { tracker, store } = f;
  const before = JSON.stringify(tracker.listBlocks(0, f.clock()));
  const breakID = session.breaks[0]?.id as string;
  const attempts: [string, () => unknown][] = [
    ['edit an entry', () => tracker.updateEntry(entryID, { durationMinutes: 105 })],
    ['move an entry', () => tracker.updateEntry(entryID, { endedAt: '2026-11-04T10:30:00Z' })],
    ['note an entry', () => tracker.updateEntry(entryID, { note: 'changed' })],
    ['delete an entry', () => tracker.deleteEntry(entryID)],
    ['edit a session', () => tracker.updateSession(session.id, { note: 'changed' })],
    ['delete a session', () => tracker.deleteSession(session.id)],
    ['add a break', () => tracker.addBreak(session.id, { startedAt: session.startedAt, endedAt: new Date(Date.parse(session.startedAt) + 60_000).toISOString() })],
    ['edit a break', () => tracker.updateBreak(breakID, { endedAt: new Date(Date.parse(session.startedAt) + 75 * 60_000).toISOString() })],
    ['delete a break', () => tracker.deleteBreak(breakID)],
    ['tag', () => store.transaction(() => tagBlock(store, entryID, ['late']))],
    ['not billable', () => store.transaction(() => setBlockBillable(store, session.id, false))],
  ];
  for (const [what, attempt] of attempts) {
    let problem: ReturnType<typeof problemOf>;
    try {
      problem = problemOf(attempt);
    } catch {
      assert.fail(`${what}: not refused`);
    }
    assert.equal(problem.code, 'invoiced', `${what}: ${problem.message}`);
    assert.equal(problem.message, LINE, what);
  }
  assert.equal(JSON.stringify(tracker.listBlocks(0, f.clock())), before, 'nothing changed');
  assert.equal(invoiceOfBlock(store, entryID), 'INV-2026-001');
  // Blocks carry the invoice's number for the window's mark.
  assert.deepEqual(
    tracker.listBlocks(0, f.clock()).map((b) => b.invoice),
    ['INV-2026-001', 'INV-2026-001'],
  );
});

test('a rate changed after the invoice changes nothing on it: a reissue renders the amounts it was issued with', (t) => {
  const f = fixture(t, { now: '2026-11-20T09:00:00.000Z' });
  invoiced(f);
  const issued = invoiceByNumber(f.store, 'INV-2026-001');
  f.store.transaction(() => editClient(f.store, 'ACME', { rate: '120' }));
  f.store.transaction(() => setActivityLedger(f.store, 'Design', { rate: '200' }));
  assert.deepEqual(invoiceByNumber(f.store, 'INV-2026-001'), issued);
  assert.equal(issued.lines[0]?.rate, '80.00');
});

test('a void keeps the number, marks the invoice void, and frees its blocks to be edited and invoiced again', (t) => {
  const f = fixture(t, { now: '2026-11-20T09:00:00.000Z' });
  const { entryID } = invoiced(f);
  const { tracker, store } = f;
  const voided = store.transaction(() => voidInvoice(store, 'inv-2026-001', '2026-11-20'));
  assert.equal(voided.voided, '2026-11-20');
  assert.equal(invoiceByNumber(store, 'INV-2026-001').voided, '2026-11-20');
  assert.deepEqual(
    listInvoices(store).map((i) => [i.number, i.state]),
    [['INV-2026-001', 'void']],
  );
  assert.equal(problemOf(() => store.transaction(() => voidInvoice(store, 'INV-2026-001', '2026-11-20'))).details?.[0]?.message, 'INV-2026-001 was voided on 2026-11-20 already');
  assert.equal(invoiceOfBlock(store, entryID), undefined);
  tracker.updateEntry(entryID, { durationMinutes: 105 });
  // A void invoice bills nothing: a new one over its period is no overlap.
  assert.deepEqual(draftInvoice(store, { client: 'ACME', from: '2026-11-01', to: '2026-11-30' }, f.clock(), 'UTC').overlaps, []);
  const again = issue(f, { client: 'ACME', from: '2026-11-01', to: '2026-11-30' });
  assert.equal(again.number, 'INV-2026-002', 'the void number stays taken');
  assert.equal(again.billedSeconds, 105 * 60 + 80 * 60);
  assert.deepEqual(
    listInvoices(store).map((i) => [i.number, i.state]),
    [
      ['INV-2026-002', 'issued'],
      ['INV-2026-001', 'void'],
    ],
  );
  assert.equal(problemOf(() => tracker.deleteEntry(entryID)).message, 'this block is on invoice INV-2026-002; void the invoice to change it');
});

test('a block that is not invoiced is written as before; a running session and new blocks are never in the way', (t) => {
  const f = fixture(t, { now: '2026-11-20T09:00:00.000Z' });
  invoiced(f);
  const { tracker } = f;
  const entry = tracker.logEntry({ name: 'Design', durationMinutes: 30 });
  tracker.updateEntry(entry.entryID, { note: 'fine' });
  assert.equal(tracker.deleteEntry(entry.entryID), true);
});
