/**
 * Seeds a `tock.db` for the scaling figures, straight through SQL on the store's own schema
 * (openStore migrates it; packages/core/src/migrations.ts is the reference), in one
 * transaction, so a million sessions take seconds. IDs are time-ordered UUIDv7s (RFC 9562):
 * the primary-key B-tree is appended to rather than written at random, which keeps the seed
 * fast without changing what a query reads.
 */

import { randomBytes } from 'node:crypto';
import { localDayAt, nameKey, openStore, searchKey, systemTimeZone, wordKey } from '@tock/core';

/** What to put into the store. Every count may be 0. */
export interface SeedSpec {
  /** Sessions that ended before today, one in ten with a break. */
  pastSessions?: number;
  /** Activities with names drawn from a small vocabulary plus a number (unique). */
  activities?: number;
  /** Today's blocks (three ended sessions, one with a break, and one running), the same in every seeded store. */
  today?: boolean;
}

/** What was seeded, and how long it took. */
export interface SeedReport {
  sessions: number;
  breaks: number;
  activities: number;
  ms: number;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** The vocabulary of activity names (as in core's performance tests: accents included). */
export const WORDS = (
  'alpha beta gamma delta review write code design meeting email client project plan deploy test bug ' +
  'feature refactor docs research support sales budget report standup sprint backlog infra release ' +
  'café crème über naïve résumé straße mobile web backend frontend data model audit hiring interview'
).split(' ');

/** A small seeded PRNG: the same data set on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Time-ordered UUIDv7 ids: `ms` in the first 48 bits, a per-seed random tail plus a counter after. */
function uuidFactory(): (ms: number) => string {
  const tail = randomBytes(4).toString('hex');
  let seq = 0;
  return (ms) => {
    const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
    const n = seq++;
    const a = (n & 0xfff).toString(16).padStart(3, '0');
    const b = (0x8000 | ((n >>> 12) & 0x3fff)).toString(16);
    const c = tail + (n & 0xffff).toString(16).padStart(4, '0');
    return `${t.slice(0, 8)}-${t.slice(8)}-7${a}-${b}-${c}`;
  };
}

/** Seeds the database at `path` (created and migrated if needed) as of `nowMs`. */
export function seedStore(path: string, spec: SeedSpec, nowMs: number): SeedReport {
  const started = performance.now();
  const store = openStore(path);
  const db = store.db;
  db.exec('PRAGMA cache_size = -262144'); // 256 MiB while seeding; this connection is closed after
  const uuid = uuidFactory();
  const report: SeedReport = { sessions: 0, breaks: 0, activities: 0, ms: 0 };
  const insertActivity = db.prepare(
    `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSession = db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const insertBreak = db.prepare('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const rnd = prng(42);
  const todayStart = localDayAt(nowMs, systemTimeZone()).start;

  store.transaction(() => {
    // Activities for the sessions: a handful, used since a year ago.
    const owners: string[] = [];
    for (let i = 0; i < 20; i++) {
      const name = `Bench project ${i}`;
      const id = uuid(nowMs - 365 * 24 * HOUR_MS);
      insertActivity.run(id, name, nameKey(name), searchKey(name), wordKey(name), nowMs - 365 * 24 * HOUR_MS, nowMs - HOUR_MS);
      owners.push(id);
      report.activities++;
    }

    const activities = spec.activities ?? 0;
    for (let i = 0; i < activities; i++) {
      const words = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => WORDS[Math.floor(rnd() * WORDS.length)]);
      const name = `${words.join(' ')} ${i}`;
      const used = nowMs - Math.floor(rnd() * 365 * 24 * HOUR_MS);
      insertActivity.run(uuid(used), name, nameKey(name), searchKey(name), wordKey(name), used, used);
      report.activities++;
    }

    // Past sessions: 4 minutes every 5 minutes, back from an hour before today (oldest first,
    // so the time-ordered ids are appended); one in ten has a one-minute break.
    const past = spec.pastSessions ?? 0;
    const lastEnd = todayStart - HOUR_MS;
    for (let i = past - 1; i >= 0; i--) {
      const end = lastEnd - i * 5 * MINUTE_MS;
      const start = end - 4 * MINUTE_MS;
      const id = uuid(start);
      insertSession.run(id, owners[i % owners.length] as string, start, end);
      report.sessions++;
      if (i % 10 === 0) {
        insertBreak.run(uuid(start), id, start + MINUTE_MS, start + 2 * MINUTE_MS);
        report.breaks++;
      }
    }

    if (spec.today) {
      // Spread over the part of today that has passed, so it works just after midnight too.
      const span = Math.max(10 * MINUTE_MS, nowMs - todayStart);
      const at = (f: number): number => Math.max(todayStart, nowMs - span) + Math.floor(f * span);
      for (let k = 0; k < 3; k++) {
        const start = at(0.1 + k * 0.2);
        const id = uuid(start);
        insertSession.run(id, owners[k] as string, start, start + Math.floor(span * 0.1));
        report.sessions++;
        if (k === 0) {
          insertBreak.run(uuid(start), id, start + Math.floor(span * 0.02), start + Math.floor(span * 0.04));
          report.breaks++;
        }
      }
      insertSession.run(uuid(at(0.8)), owners[3] as string, at(0.8), null);
      report.sessions++;
    }
  });
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  store.close();
  report.ms = performance.now() - started;
  return report;
}
