/**
 * Figure 21's rows and its baseline: the heartbeats an editor's wakatime-cli sends, and the
 * bare `node:sqlite` loop that inserts them into the store's own `heartbeats` table (the schema
 * and indexes of `openStore`, WAL, `synchronous=FULL`) a bulk per transaction, with nothing
 * else — no HTTP, no checks, no ids made beyond one UUID a row. Used by figures/heartbeats.ts
 * and load/ab-trees.ts.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openStore } from '@tock/core';

/** One heartbeat as wakatime-cli sends it (the fields figure 21 fills). */
export interface HeartbeatRow {
  entity: string;
  time: number;
  project: string;
  language: string;
  is_write: boolean;
}

/**
 * `count` heartbeats 10 ms apart, from an hour ago (earlier when they would not all be 10
 * minutes old by then: more than 300 000 of them, which the door would refuse as sent from the
 * future); `seed` shifts them by whole milliseconds so two calls with different seeds never
 * send the same heartbeat (the same time, entity and is_write).
 */
export function heartbeatRows(count: number, seed: number): HeartbeatRow[] {
  const start = Date.now() / 1000 - Math.max(3600, count * 0.01 + 600) - seed * 0.001;
  return Array.from({ length: count }, (_, i) => ({
    entity: `/home/ana/src/tock/packages/file-${i % 997}.ts`,
    time: start + i * 0.01,
    project: 'tock',
    language: 'TypeScript',
    is_write: i % 5 === 0,
  }));
}

/** The bare loop's insert (and the floor server's): id, time_ms, entity, is_write, project, language, received_at. */
export const HEARTBEAT_INSERT = `INSERT INTO heartbeats (id, time_ms, entity, type, is_write, category, project, branch, language, lines, lineno, cursorpos, editor, machine, received_at)
  VALUES (?, ?, ?, 'file', ?, NULL, ?, NULL, ?, NULL, NULL, NULL, 'vscode', NULL, ?) ON CONFLICT (time_ms, entity, is_write) DO NOTHING`;

/** What the bare loop measured: heartbeats per wall second, and its own CPU µs per heartbeat. */
export interface LoopResult {
  perSecond: number;
  cpuUsPerHeartbeat: number;
}

/** The bare baseline: the same rows into the same table, BEGIN IMMEDIATE … `bulk` INSERTs … COMMIT. */
export function sqliteHeartbeatLoop(rows: readonly HeartbeatRow[], bulk: number): LoopResult {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-hb-'));
  try {
    openStore(join(dir, 'tock.db')).close(); // the schema, indexes included
    const db = new DatabaseSync(join(dir, 'tock.db'));
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL');
    const insert = db.prepare(HEARTBEAT_INSERT);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < rows.length; i += bulk) {
      db.exec('BEGIN IMMEDIATE');
      for (const r of rows.slice(i, i + bulk)) insert.run(crypto.randomUUID(), Math.round(r.time * 1000), r.entity, r.is_write ? 1 : 0, r.project, r.language, Date.now());
      db.exec('COMMIT');
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    db.close();
    return { perSecond: rows.length / seconds, cpuUsPerHeartbeat: (cpu.user + cpu.system) / rows.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
