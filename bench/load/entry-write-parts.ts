/**
 * What each of the three writes of an acknowledged `POST /entries` costs (issue 42, target 3):
 * the entry's row, its idempotency record and the activity's recency — each statement alone,
 * then `logEntry` as the tracker runs it (entry + recency + the activity looked up + the
 * result), then a durable transaction of one request (`BEGIN IMMEDIATE`, `logEntry`, the
 * idempotency record, `COMMIT` with its fsync, as `Store.durably` does for a group of one).
 * A real store (`openStore`: WAL, `synchronous=FULL`, the store's schema and triggers) in a
 * temporary directory; CPU (user + system, `process.cpuUsage()`) per operation, the median of
 * alternating rounds, each arm in its own transaction of `ops` statements (no fsync) except
 * the durable one.
 *
 *   node bench/load/entry-write-parts.ts '{"rounds": 6, "ops": 3000, "durable": 300}'
 *
 * Prints `{"arms": {name: {cpuUs, wallUs, rounds}}}` and a table on stderr.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTracker, openStore } from '@tock/core';

const config = { rounds: 6, ops: 3000, durable: 300, ...(JSON.parse(process.argv[2] ?? '{}') as object) } as {
  rounds: number;
  ops: number;
  durable: number;
};
const dir = mkdtempSync(join(tmpdir(), 'tock-bench-write-parts-'));
const store = openStore(join(dir, 'tock.db'));
let now = Date.parse('2026-11-28T08:00:00.000Z');
const clock = (): number => now;
const tracker = createTracker({ store, clock, timeZone: 'UTC' });
const first = tracker.logEntry({ name: 'Bench project 0', createIfMissing: true, durationMinutes: 1, note: 'bench' });
const activityID = first.activity.activityID;
// The answer the listener keeps for a repeat: the size of figure 5's.
const answer = JSON.stringify({ ok: true, result: first });
let serial = 0;

const insertEntry = store.statement(
  'INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, tags, billable) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
);
const touch = store.statement('UPDATE activities SET last_used_at = max(last_used_at, ?) WHERE id = ?');
const saveKey = (): void =>
  store.idempotency.save(`bench-key-${serial++}`, {
    method: 'POST',
    path: '/entries',
    bodySha256: 'a'.repeat(64),
    status: 201,
    body: answer,
    createdAtMs: now,
  });
const logOne = (): void => {
  now += 1000;
  tracker.logEntry({ name: 'Bench project 0', durationMinutes: 1, note: 'bench' });
};

/** Each arm: one operation, run `ops` times in one transaction (or, durable, one transaction each). */
const arms: Record<string, { durable: boolean; op: () => void }> = {
  'entry row (INSERT)': {
    durable: false,
    op: () => {
      now += 1000;
      insertEntry.run(crypto.randomUUID(), activityID, now - 60_000, now, 'bench', now, null, null);
    },
  },
  'idempotency record (INSERT OR REPLACE)': { durable: false, op: saveKey },
  "activity's recency (UPDATE)": {
    durable: false,
    op: () => {
      now += 1000;
      touch.run(now - 60_000, activityID);
    },
  },
  'logEntry (row + recency + lookup + result)': { durable: false, op: logOne },
  'logEntry + idempotency record': {
    durable: false,
    op: () => {
      logOne();
      saveKey();
    },
  },
  'durable: BEGIN, logEntry + record, COMMIT': {
    durable: true,
    op: () => {
      store.transaction(() => {
        logOne();
        saveKey();
      });
    },
  },
};

function measure(arm: { durable: boolean; op: () => void }): { cpuUs: number; wallUs: number } {
  const n = arm.durable ? config.durable : config.ops;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  if (arm.durable) for (let i = 0; i < n; i++) arm.op();
  else store.transaction(() => {
    for (let i = 0; i < n; i++) arm.op();
  });
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / n, wallUs: ((performance.now() - wall) * 1000) / n };
}

const names = Object.keys(arms);
const results = new Map<string, { cpuUs: number[]; wallUs: number[] }>(names.map((n) => [n, { cpuUs: [], wallUs: [] }]));
for (const name of names) measure(arms[name] as (typeof arms)[string]); // warm-up, unmeasured
for (let r = 0; r < config.rounds; r++) {
  const order = r % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    const m = measure(arms[name] as (typeof arms)[string]);
    const into = results.get(name) as { cpuUs: number[]; wallUs: number[] };
    into.cpuUs.push(m.cpuUs);
    into.wallUs.push(m.wallUs);
  }
}
store.close();
rmSync(dir, { recursive: true, force: true });

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const out: Record<string, { cpuUs: number; wallUs: number; rounds: number[] }> = {};
for (const [name, r] of results) {
  out[name] = { cpuUs: Math.round(median(r.cpuUs) * 10) / 10, wallUs: Math.round(median(r.wallUs) * 10) / 10, rounds: r.cpuUs.map((x) => Math.round(x * 10) / 10) };
  process.stderr.write(`${name.padEnd(45)} ${out[name].cpuUs.toFixed(1).padStart(7)} µs CPU  ${out[name].wallUs.toFixed(1).padStart(8)} µs wall  rounds ${out[name].rounds.join(' ')}\n`);
}
process.stdout.write(`${JSON.stringify({ arms: out })}\n`);
