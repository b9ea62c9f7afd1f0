/**
 * The bar "bad input loses nothing" (docs/security.md "The bar every change meets") where the
 * parse cannot catch it: an import every row of which is valid, but whose write the store
 * refuses part way through its rows (the disk fills), changes nothing — no table of the store
 * differs from before, the store's data already there included — and the same file imports
 * whole once there is room. The refusals the parse catches (a bad last row, a truncated file)
 * are import.test.ts and the import campaign.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importFile, type Store } from '../src/index.ts';
import { fixture } from './support.ts';

/** Every row of every table of the store, in a stable order: what "nothing changed" compares. */
function contents(store: Store): Record<string, string[]> {
  const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  // Some tables are WITHOUT ROWID: the rows are put in order by their JSON text.
  const rows = (name: string): string[] => store.db.prepare(`SELECT * FROM "${name}"`).all().map((row) => JSON.stringify(row)).sort();
  return Object.fromEntries(tables.map(({ name }) => [name, rows(name)]));
}

/** A Timewarrior export of `count` one-hour intervals, a day apart, each with a long annotation. */
function timewarrior(count: number, tag: string): string {
  const stamp = (ms: number): string => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day0 = Date.UTC(2026, 0, 1, 9);
  return JSON.stringify(
    Array.from({ length: count }, (_, i) => ({ id: i + 1, start: stamp(day0 + i * 86_400_000), end: stamp(day0 + i * 86_400_000 + 3_600_000), tags: [tag, `t${i % 7}`], annotation: `row ${i} ${'x'.repeat(400)}` })),
  );
}

test('an import the store refuses part way through its rows (the disk fills) changes no table, and the same file imports whole once there is room', async (t) => {
  const { store, dir, clock } = fixture(t);
  // Data already there, which the failed import must leave exactly as it was.
  writeFileSync(join(dir, 'before.json'), timewarrior(20, 'Before'));
  await importFile(store, { path: join(dir, 'before.json'), timeZone: 'UTC', now: clock() });
  const before = contents(store);
  assert.equal((before['entries'] ?? []).length + (before['sessions'] ?? []).length, 20, 'the data already there');

  // Room for part of the next file only: its first rows fit, the rest do not.
  const path = join(dir, 'big.json');
  writeFileSync(path, timewarrior(1500, 'Big'));
  const pages = (store.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
  store.db.exec(`PRAGMA max_page_count = ${pages + 40}`);
  await assert.rejects(importFile(store, { path, timeZone: 'UTC', now: clock() }), /full|SQLITE_FULL/i);
  assert.deepEqual(contents(store), before, 'no row of any table was added, changed or removed');
  assert.equal((store.db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');

  store.db.exec('PRAGMA max_page_count = 1073741823');
  const result = await importFile(store, { path, timeZone: 'UTC', now: clock() });
  const stored = contents(store);
  assert.equal((stored['entries'] ?? []).length + (stored['sessions'] ?? []).length, 1520, `the whole file once there is room: ${JSON.stringify(result)}`);
});
