/**
 * The baseline of figure 5c (issue 42, target 3's rate): bare node:sqlite loops "writing the
 * same rows at the same concurrency" as figure 5's `POST /entries` — each transaction the
 * entry's row, its idempotency record and the activity's recency (the three writes of a
 * request with an `Idempotency-Key`), `BEGIN IMMEDIATE` … `COMMIT`, WAL and
 * `synchronous=FULL`, the store's schema, in a fresh database in the temporary directory —
 * run by as many writers at once as figure 5 keeps requests in flight: each a worker thread
 * with its own connection, waiting for the write lock through SQLite's busy handler
 * (`busy_timeout`), as any program with several writers and no group commit of its own does.
 *
 *   node bench/load/sqlite-request-loop.ts '{"warmupMs", "durationMs", "writers"}'
 *
 * Prints `{"rps", "commits", "seconds", "writers"}`: committed transactions per second, all
 * writers together, counted over the same window after the warm-up.
 */

import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { MIGRATIONS } from '@tock/core';
import { ENTRY_WRITES } from './entry-writes.ts';

interface Config {
  warmupMs: number;
  durationMs: number;
  writers: number;
}

/** What each writer is given: the file and the activity. */
interface WriterData {
  path: string;
  activity: string;
}

/** What each writer is told once all are ready: when to start and stop counting (`performance.timeOrigin` ms). */
interface Window {
  countFrom: number;
  countUntil: number;
}

/** A request's answer as the listener keeps it for a repeat (the size of a real one). */
const ANSWER = JSON.stringify({ ok: true, result: { id: randomUUID(), activityID: randomUUID(), startedAt: '2026-11-29T11:59:00.000Z', endedAt: '2026-11-29T12:00:00.000Z', note: 'bench' } });

function writer({ path, activity }: WriterData, { countFrom, countUntil }: Window): number {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 10000');
  db.exec('PRAGMA synchronous = FULL');
  const entry = db.prepare(ENTRY_WRITES.entry);
  const record = db.prepare(ENTRY_WRITES.record);
  const recency = db.prepare(ENTRY_WRITES.recency);
  const now = (): number => performance.timeOrigin + performance.now();
  let commits = 0;
  for (let at = now(); at < countUntil; at = now()) {
    const ms = Math.round(at);
    db.exec('BEGIN IMMEDIATE');
    entry.run(randomUUID(), activity, ms - 60_000, ms, 'bench', ms);
    record.run(randomUUID(), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', ANSWER, ms);
    recency.run(ms, activity);
    db.exec('COMMIT');
    if (at >= countFrom) commits++;
  }
  db.close();
  return commits;
}

async function main(config: Config): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-sqlite-'));
  try {
    const path = join(dir, 'plain.db');
    const db = new DatabaseSync(path);
    db.exec('PRAGMA journal_mode = WAL');
    for (const migration of MIGRATIONS) db.exec(migration.sql);
    const activity = randomUUID();
    db.prepare(`INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at) VALUES (?, 'a', 'a', 'a', 'a', 0, 0)`).run(activity);
    db.close();
    const data: WriterData = { path, activity };
    // Every writer loaded first (loading a worker takes a while on a busy machine), then one window for all.
    const workers = await Promise.all(
      Array.from({ length: config.writers }, async () => {
        const w = new Worker(new URL(import.meta.url), { workerData: data });
        const [ready] = (await once(w, 'message')) as [string];
        if (ready !== 'ready') throw new Error(`a writer said ${ready}`);
        return w;
      }),
    );
    const start = performance.timeOrigin + performance.now();
    const window: Window = { countFrom: start + config.warmupMs, countUntil: start + config.warmupMs + config.durationMs };
    const counts = await Promise.all(
      workers.map((w) => {
        const done = once(w, 'message').then(([count]) => count as number);
        w.postMessage(window);
        return done;
      }),
    );
    const commits = counts.reduce((a, b) => a + b, 0);
    const seconds = config.durationMs / 1000;
    process.stdout.write(`${JSON.stringify({ rps: commits / seconds, commits, seconds, writers: config.writers })}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMainThread) await main(JSON.parse(process.argv[2] ?? '{}') as Config);
else {
  parentPort?.once('message', (window: Window) => parentPort?.postMessage(writer(workerData as WriterData, window)));
  parentPort?.postMessage('ready');
}
