/**
 * The baseline of the durable-write figure: a plain node:sqlite loop, one INSERT per
 * transaction, with the store's durability settings (WAL, synchronous=FULL) and its schema
 * (the entries table and its indexes, from @tock/core's migrations), in a fresh database in
 * the same temporary directory the app's home lives in. What the disk allows one writer.
 *
 *   node bench/load/sqlite-commit-loop.ts '{"warmupMs", "durationMs"}'
 *
 * Prints `{"rps", "commits", "seconds"}`.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS } from '@tock/core';

const config = JSON.parse(process.argv[2] ?? '{}') as { warmupMs: number; durationMs: number };
const dir = mkdtempSync(join(tmpdir(), 'tock-bench-sqlite-'));
const db = new DatabaseSync(join(dir, 'plain.db'));
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = FULL');
for (const migration of MIGRATIONS) db.exec(migration.sql);
const activity = randomUUID();
db.prepare(
  `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at) VALUES (?, 'a', 'a', 'a', 'a', 0, 0)`,
).run(activity);
const insert = db.prepare('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at) VALUES (?, ?, ?, ?, NULL, ?)');

function commitOne(): void {
  const now = Date.now();
  db.exec('BEGIN IMMEDIATE');
  insert.run(randomUUID(), activity, now - 60_000, now, now);
  db.exec('COMMIT');
}

const warmEnd = performance.now() + config.warmupMs;
while (performance.now() < warmEnd) commitOne();
const started = performance.now();
const end = started + config.durationMs;
let commits = 0;
while (performance.now() < end) {
  commitOne();
  commits++;
}
const seconds = (performance.now() - started) / 1000;
db.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ rps: commits / seconds, commits, seconds })}\n`);
