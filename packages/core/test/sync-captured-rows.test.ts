/**
 * The drain reads an inserted row's columns (capture.ts `capturedRows`) instead of the JSON the
 * capture triggers build for updates and deletes: each column must give the value that JSON
 * gives, in the same order, or the same write would log different lines by the path it took.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installCapture } from '../src/sync/index.ts';
import { capturedRowJson, capturedRows } from '../src/sync/capture.ts';
import type { EntityKind } from '../src/sync/ops.ts';
import { fixture } from './support.ts';

const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const TRICKY_TEXT = 'Rue "du" Nord\n\t\\ é 😀 \u2028 \u0001';

test('an inserted row read by its columns gives the fields, values and order of the triggers\' JSON, for every kind', (t) => {
  const { store } = fixture(t);
  const db = store.db;
  const run = (text: string, ...values: (string | number | null)[]): void => {
    db.prepare(text).run(...values);
  };
  const ids: Record<EntityKind, string[]> = { client: [], activity: [], session: [], break: [], entry: [], invoice: [], book: [] };
  let n = 0;
  const client = (rate: string | null, taxRate: number | null, reverseCharge: number, language: string | null): void => {
    const c = id(++n);
    ids.client.push(c);
    run('INSERT INTO clients (id, name, name_key, rate, currency, address, created_at, tax_id, tax_rate, reverse_charge, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      c, `Client ${n}`, `client ${n}`, rate, rate === null ? null : 'EUR', TRICKY_TEXT, 1_764_000_000_000 + n, rate === null ? null : 'DE123', taxRate, reverseCharge, language);
  };
  client('12.50', 0.1 + 0.2, 1, 'de-DE');
  client(null, null, 0, null);
  client('0', 19, 0, 'en');
  const activity = (billable: number, budget: number | null, color: number, archived: number, clientID: string | null): void => {
    const a = id(++n);
    ids.activity.push(a);
    run('INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at, client_id, rate, billable, budget_hours, color, archived) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      a, `Ä ${n}`, `ä ${n}`, `a ${n}`, `\u0001a ${n}`, 1_764_000_000_000 + n, 1_764_000_000_000 + n, clientID, budget === null ? null : '80', billable, budget, color, archived);
  };
  activity(1, 2.5, 3, 1, ids.client[0] as string);
  activity(0, 1 / 3, 0, 0, null);
  activity(0, null, 7, 0, null);
  const session = (endedAt: number | null, note: string | null, tags: string | null, billable: number | null, device: string): void => {
    const s = id(++n);
    ids.session.push(s);
    run('INSERT INTO sessions (id, activity_id, started_at, ended_at, device_id, note, tags, billable, invoice_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      s, ids.activity[0] as string, 1_764_000_000_000, endedAt, device, note, tags, billable, null);
  };
  session(1_764_000_600_000, TRICKY_TEXT, '["deep work", "b"]', 1, '');
  session(1_764_000_600_000, null, null, 0, id(99));
  session(null, '', '[]', null, '');
  for (const [endedAt, k] of [[1_764_000_060_000, 0], [null, 1]] as const) {
    const b = id(++n);
    ids.break.push(b);
    run('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)', b, ids.session[k] as string, 1_764_000_000_000, endedAt);
  }
  const entry = (note: string | null, tags: string | null, billable: number | null, invoice: string | null): void => {
    const e = id(++n);
    ids.entry.push(e);
    run('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, device_id, tags, billable, invoice_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      e, ids.activity[1] as string, 1_764_000_000_000, 1_764_000_060_000, note, 1_764_000_070_000, '', tags, billable, invoice);
  };
  entry(TRICKY_TEXT, '["x"]', 1, id(500));
  entry(null, null, null, null);
  entry('n', null, 0, null);
  const invoice = id(500);
  ids.invoice.push(invoice);
  run('INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    invoice, 'INV-2026-001', 2026, 1, ids.client[0] as string, '2026-11-01', '2026-11-30', 1_764_000_000_000, JSON.stringify({ lines: [{ text: TRICKY_TEXT }], totals: [] }));
  // Enabling sync puts every row in the outbox as history, read as inserts are.
  installCapture(store);
  const seqOf = new Map((db.prepare('SELECT seq, id FROM sync_outbox').all() as { seq: number; id: string }[]).map((r) => [r.id, r.seq]));
  for (const kind of ['client', 'activity', 'session', 'break', 'entry', 'invoice'] as const) {
    const rows = capturedRows(db, kind, 0, Number.MAX_SAFE_INTEGER);
    assert.equal(rows.size, ids[kind].length, kind);
    for (const thing of ids[kind]) {
      const read = rows.get(seqOf.get(thing) as number);
      const json = capturedRowJson(db, kind, thing);
      assert.ok(json !== undefined);
      assert.deepEqual(read, json, `${kind} ${thing}`);
      // The same keys in the same order: a line names its fields in this order.
      assert.equal(JSON.stringify(read), JSON.stringify(json), `${kind} ${thing}`);
    }
  }
  // A row gone since its insert was recorded is not read (the drain logs its delete, if any).
  run('DELETE FROM breaks WHERE id = ?', ids.break[0] as string);
  assert.equal(capturedRows(db, 'break', 0, Number.MAX_SAFE_INTEGER).has(seqOf.get(ids.break[0] as string) as number), false);
  // Only the seqs asked for.
  const first = seqOf.get(ids.entry[0] as string) as number;
  assert.deepEqual([...capturedRows(db, 'entry', first, first).keys()], [first]);
});
