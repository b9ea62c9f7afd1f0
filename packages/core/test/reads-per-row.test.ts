/**
 * Reads that cost per row what they need not (issue 42: costs that grow with the history): a
 * range's blocks read their sessions' breaks in one statement, not one a session, and their
 * sessions and entries as arrays, each block made once from its row; a range's heartbeats come
 * as arrays, not as an object SQLite makes for each row and another made from it (a day's spans
 * read only the fields they use). Each answers exactly what the read it replaced answered — that
 * read is kept here as the oracle — on a store with breaks at the range's edges, a running
 * session on a break, sessions across midnight, every field a block reads set and not. What
 * they cost is in bench/README.md "Reads per row".
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listHeartbeats, type Block, type Store, type StoredHeartbeat } from '../src/index.ts';
import { entriesOverlapping } from '../src/entries.ts';
import { eachSpanHeartbeat } from '../src/heartbeat-spans.ts';
import type { SpanHeartbeat } from '../src/heartbeats.ts';
import { entryBlock } from '../src/rows.ts';
import { sessionBlockOf, sessionsOverlapping } from '../src/sessions.ts';
import { fixture, fullTableScans, queryPlansOf, seedHistory } from './support.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_ZONE = 'Europe/Berlin';
const at = (iso: string): number => Date.parse(iso);

/** The blocks of `[fromMs, toMs)` as `listBlocks` read them before: sessions and entries as objects, each session's breaks by a statement of its own. */
function blocksReadPerSession(store: Store, fromMs: number, toMs: number, now: number): Block[] {
  const blocks = [...sessionsOverlapping(store, fromMs, toMs).map((s) => sessionBlockOf(store, s, now)), ...entriesOverlapping(store, fromMs, toMs).map(entryBlock)];
  return blocks.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
}

/** How many times each statement that reads `breaks` ran while `run` ran, by SQL. */
function breakReads(store: Store, run: () => void): number[] {
  const runs = new Map<string, number>();
  const statement = store.statement;
  store.statement = (sql: string) => {
    const real = statement(sql);
    if (!/\b(FROM|JOIN) breaks\b/.test(sql)) return real;
    return new Proxy(real, {
      get: (target, key) => {
        const value = Reflect.get(target, key) as (...args: unknown[]) => unknown;
        if (key !== 'get' && key !== 'all' && key !== 'iterate') return value.bind(target);
        return (...args: unknown[]) => {
          runs.set(sql, (runs.get(sql) ?? 0) + 1);
          return value.apply(target, args);
        };
      },
    });
  };
  try {
    run();
  } finally {
    store.statement = statement;
  }
  return [...runs.values()];
}

/**
 * A year of sessions (one break each) and entries, and around 2026-11-20/21 (Berlin) the cases
 * a batched read could get wrong: a session across midnight with breaks before, over and after
 * it; breaks ending and starting at a day's edge, two starting at the same instant, one of no
 * length, one at the session's start; a session that ends where the day begins and one that
 * begins where it ends; a session with no breaks; the running session on an open break.
 */
function seedBlocks(store: Store, now: number): void {
  store.transaction(() => {
    const { activities } = seedHistory(store, now, { activities: 40, clients: 4, sessions: 3_000 }, now - 30 * HOUR);
    const session = store.db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
    const pause = store.db.prepare('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
    const midnight = at('2026-11-20T23:00:00Z'); // 2026-11-21 00:00 in Berlin
    const cases: [start: number, end: number | null, breaks: [number, number | null][]][] = [
      [
        midnight - 2 * HOUR,
        midnight + 2 * HOUR,
        [
          [midnight - HOUR, midnight - 50 * MINUTE],
          [midnight - 10 * MINUTE, midnight],
          [midnight, midnight + 5 * MINUTE],
          [midnight + 30 * MINUTE, midnight + 40 * MINUTE],
          [midnight + 30 * MINUTE, midnight + 35 * MINUTE],
          [midnight + HOUR, midnight + HOUR],
        ],
      ],
      [midnight + 3 * HOUR, midnight + 4 * HOUR, [[midnight + 3 * HOUR, midnight + 3 * HOUR + 10 * MINUTE]]],
      [midnight - DAY + HOUR, midnight - 3 * HOUR, []],
      [midnight - DAY - HOUR, midnight - DAY, [[midnight - DAY - 30 * MINUTE, midnight - DAY]]],
      [midnight + DAY, midnight + DAY + HOUR, [[midnight + DAY, midnight + DAY + MINUTE]]],
      [midnight + 5 * HOUR, midnight + 6 * HOUR, []],
      [now - 2 * HOUR, null, [[now - 90 * MINUTE, now - 80 * MINUTE], [now - 20 * MINUTE, null]]],
    ];
    for (const [i, [start, end, breaks]] of cases.entries()) {
      const id = `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      session.run(id, activities[i] as string, start, end);
      for (const [k, [from, to]] of breaks.entries()) pause.run(`20000000-0000-4000-8000-${String(i * 100 + k).padStart(12, '0')}`, id, from, to);
    }
    seedLedgerFields(store, activities, midnight + 7 * HOUR);
  });
}

/**
 * Sessions and entries with every field a block reads from its row set or not, from `from` on
 * (one a quarter of an hour): a note, tags (a list, none, text that is not a list or not JSON),
 * their own billable flag (set, unset, none) over billable and other activities, an invoice that
 * exists and one that does not, another device's; and a session and an entry that start
 * together (the session first).
 */
function seedLedgerFields(store: Store, activities: string[], from: number): void {
  const db = store.db;
  db.prepare(
    "INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES ('inv-1', 'INV-2026-007', 2026, 7, 'c', '2026-11-01', '2026-11-30', 0, '{}')",
  ).run();
  const session = db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at, note, tags, billable, invoice_id, device_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const entry = db.prepare(
    'INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, tags, billable, invoice_id, device_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const notes = [null, 'reviewed the “draft”', ''];
  const tags = [null, '["a","b"]', '[]', '{"a":1}', 'not json', '["x",3]'];
  const billable = [null, 0, 1];
  const invoices = [null, 'inv-1', 'gone'];
  const devices = ['', 'laptop-2'];
  for (let i = 0; i < 36; i++) {
    const start = from + i * 15 * MINUTE;
    // activities[0] is a client's and billable (seedHistory); activities[1] is not.
    const fields: (string | number | null)[] = [notes[i % 3] ?? null, tags[i % 6] ?? null, billable[Math.floor(i / 3) % 3] ?? null, invoices[Math.floor(i / 9) % 3] ?? null, devices[Math.floor(i / 2) % 2] ?? ''];
    session.run(`40000000-0000-4000-8000-${String(i).padStart(12, '0')}`, activities[i % 2] as string, start, start + 10 * MINUTE, ...fields);
    entry.run(`50000000-0000-4000-8000-${String(i).padStart(12, '0')}`, activities[(i + 1) % 2] as string, start + (i % 4 === 0 ? 0 : 11 * MINUTE), start + 14 * MINUTE, fields[0] ?? null, start, ...fields.slice(1));
  }
}

/** Ranges over the seeded store: each day and week around the cases, edges that cut breaks, a year, none at all. */
function ranges(now: number): [number, number][] {
  const midnight = at('2026-11-20T23:00:00Z');
  const list: [number, number][] = [];
  for (let d = -10; d <= 3; d++) list.push([midnight + d * DAY, midnight + (d + 1) * DAY]);
  list.push([midnight - 6 * DAY, midnight + DAY], [midnight - 370 * DAY, now + DAY], [midnight - 200 * DAY, midnight - 193 * DAY]);
  list.push([midnight - 5 * MINUTE, midnight + 2 * MINUTE], [midnight + 30 * MINUTE, midnight + 30 * MINUTE], [midnight - DAY, midnight - DAY + 1]);
  list.push([now - 85 * MINUTE, now - 15 * MINUTE], [now + HOUR, now + 2 * HOUR], [midnight - 800 * DAY, midnight - 790 * DAY]);
  return list;
}

test('a range of blocks answers as the read of objects and of each session’s breaks did: the same blocks in the same order, the same breaks in each, the same fields', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z', timeZone: TIME_ZONE });
  seedBlocks(f.store, f.clock());
  let sessionsWithBreaks = 0;
  for (const [from, to] of ranges(f.clock())) {
    const blocks = f.tracker.listBlocks(from, to);
    const read = blocksReadPerSession(f.store, from, to, f.clock());
    assert.deepEqual(blocks, read, `[${new Date(from).toISOString()}, ${new Date(to).toISOString()})`);
    assert.equal(JSON.stringify(blocks), JSON.stringify(read), 'the same JSON: fields in the same order');
    sessionsWithBreaks += blocks.filter((b) => b.breaks.length > 1).length;
  }
  assert.ok(sessionsWithBreaks >= 10, 'the ranges hold sessions of several breaks');
  const ledger = f.tracker.listBlocks(at('2026-11-21T06:00:00Z'), at('2026-11-21T15:00:00Z')).filter((b) => /^[45]0000000/.test(b.id));
  assert.equal(ledger.length, 72);
  for (const field of ['ownBillable', 'invoice', 'device'] as const) {
    assert.ok(
      ledger.some((b) => b.kind === 'session' && field in b) && ledger.some((b) => b.kind === 'entry' && field in b) && ledger.some((b) => !(field in b)),
      `blocks with ${field} and without it`,
    );
  }
  assert.ok(ledger.some((b) => b.ownBillable === false && b.billable) && ledger.some((b) => b.ownBillable === false && !b.billable), 'an invoice’s block is billable whatever its flag');
  assert.deepEqual(new Set(ledger.map((b) => b.tags.join())), new Set(['', 'a,b', 'x']), 'tags: lists read, others none');
  const together = ledger.findIndex((b) => b.id.endsWith('000000000004') && b.kind === 'session');
  assert.equal(ledger[together + 1]?.id, '50000000-0000-4000-8000-000000000004', 'of a session and an entry that start together, the session first');
  assert.equal(ledger[together + 1]?.startedAt, ledger[together]?.startedAt);
  assert.equal(typeof sessionsOverlapping(f.store, at('2026-11-20T23:00:00Z'), at('2026-11-21T23:00:00Z'))[0]?.id, 'string', 'the objects’ read still answers objects');
  const midnight = f.tracker.listBlocks(at('2026-11-20T23:00:00Z'), at('2026-11-21T23:00:00Z')).find((b) => b.id.startsWith('10000000') && b.breaks.length === 6);
  assert.deepEqual(
    midnight?.breaks.map((b) => b.id.slice(-2)),
    ['00', '01', '02', '03', '04', '05'],
    'breaks in order of start; of two that start together, the one stored first',
  );
  const running = f.tracker.listBlocks(f.clock() - HOUR, f.clock() + 1).find((b) => b.endedAt === null);
  assert.deepEqual(running?.breaks.at(-1)?.endedAt, null, 'the running session’s open break is there');
  f.clock.advanceMinutes(7);
  const later = f.tracker.listBlocks(f.clock() - HOUR, f.clock() + 1);
  assert.deepEqual(later, blocksReadPerSession(f.store, f.clock() - HOUR, f.clock() + 1, f.clock()), 'a running session on a break counts up to the clock as before');
});

test('a range of blocks reads the breaks of all its sessions in one statement, however many sessions, and none when it has no session', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z', timeZone: TIME_ZONE });
  seedBlocks(f.store, f.clock());
  const week: [number, number] = [at('2026-11-08T23:00:00Z'), at('2026-11-15T23:00:00Z')];
  let sessions = 0;
  const reads = breakReads(f.store, () => {
    sessions = f.tracker.listBlocks(...week).filter((b) => b.kind === 'session').length;
  });
  assert.ok(sessions >= 40, `the week holds ${sessions} sessions`);
  assert.deepEqual(reads, [1]);
  assert.deepEqual(
    breakReads(f.store, () => f.tracker.listBlocks(at('2020-01-01T00:00:00Z'), at('2020-01-08T00:00:00Z'))),
    [],
  );
});

test('the breaks of a range’s sessions are found through breaks_by_session, each session looked up, never the breaks table read whole nor sorted', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z', timeZone: TIME_ZONE });
  seedBlocks(f.store, f.clock());
  const plans = queryPlansOf(f.store, () => f.tracker.listBlocks(at('2026-11-08T23:00:00Z'), at('2026-11-15T23:00:00Z')));
  const breaks = [...plans].filter(([sql]) => /\bJOIN breaks\b/.test(sql));
  assert.equal(breaks.length, 1, JSON.stringify([...plans.keys()]));
  const [, steps] = breaks[0] as [string, string[]];
  assert.ok(steps.includes('SEARCH b USING INDEX breaks_by_session (session_id=?)'), JSON.stringify(steps));
  assert.deepEqual(
    steps.filter((s) => s.startsWith('USE TEMP B-TREE')),
    [],
  );
  assert.deepEqual(fullTableScans(plans), []);
});

/** The heartbeats of `[fromMs, toMs)` as `listHeartbeats` read them before: an object a row from SQLite, another made from it. */
function heartbeatsReadAsObjects(store: Store, fromMs: number, toMs: number): StoredHeartbeat[] {
  const rows = store.db
    .prepare(
      `SELECT id, time_ms, entity, type, is_write, category, project, branch, language, lines, lineno, cursorpos, editor, machine, received_at
       FROM heartbeats WHERE time_ms >= ? AND time_ms < ? ORDER BY time_ms, entity, is_write`,
    )
    .all(fromMs, toMs) as Record<string, string | number | null>[];
  return rows.map((r) => ({
    id: r.id as string,
    timeMs: r.time_ms as number,
    entity: r.entity as string,
    type: r.type as StoredHeartbeat['type'],
    isWrite: r.is_write === 1,
    category: r.category as string | null,
    project: r.project as string | null,
    branch: r.branch as string | null,
    language: r.language as string | null,
    lines: r.lines as number | null,
    lineno: r.lineno as number | null,
    cursorpos: r.cursorpos as number | null,
    editor: r.editor as string | null,
    machine: r.machine as string | null,
    receivedAt: r.received_at as number,
  }));
}

test('a range of heartbeats answers as the read of an object a row did, and the spans’ read the same heartbeats with their fields: same order, nulls and writes too', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z', timeZone: TIME_ZONE });
  const now = f.clock();
  const insert = f.store.db.prepare(
    'INSERT INTO heartbeats (id, time_ms, entity, type, is_write, category, project, branch, language, lines, lineno, cursorpos, editor, machine, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  f.store.transaction(() => {
    for (let i = 0; i < 2_000; i++) {
      // Two days, a heartbeat a minute and some at the same millisecond (of other files, or a write of the same).
      const time = now - 2 * DAY + Math.floor(i / 3) * MINUTE;
      const full = i % 4 !== 0;
      const browser = i % 11 === 5;
      insert.run(
        `30000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        time,
        browser ? 'example.com' : `/src/f${i % 3 === 1 ? 2 : 1}.ts`,
        browser ? 'domain' : 'file',
        i % 3 === 2 ? 1 : 0,
        full ? 'coding' : null,
        full ? `p${i % 3}` : null,
        full ? 'main' : null,
        full ? 'TypeScript' : null,
        full ? 100 + i : null,
        full ? i % 90 : null,
        full ? i * 3 : null,
        browser ? 'firefox' : full ? 'vscode' : null,
        full ? 'box' : null,
        time + 1_000,
      );
    }
  });
  const edge = now - 2 * DAY + 100 * MINUTE; // a heartbeat's time: in a range that starts there, not in one that ends there
  for (const [from, to] of [
    [0, now + DAY],
    [edge, edge + 10 * MINUTE],
    [edge - 10 * MINUTE, edge],
    [edge, edge + 1],
    [edge, edge],
    [now - DAY, now],
    [now + HOUR, now + 2 * HOUR],
  ] as const) {
    const read = heartbeatsReadAsObjects(f.store, from, to);
    assert.deepEqual(listHeartbeats(f.store, from, to), read, `[${from}, ${to})`);
    const spanRead: SpanHeartbeat[] = [];
    eachSpanHeartbeat(f.store, from, to, (beat) => spanRead.push(beat));
    assert.deepEqual(
      spanRead,
      read.map(({ timeMs, entity, type, project, branch, language, editor, machine }) => ({ timeMs, entity, type, project, branch, language, editor, machine })),
      `spans' read of [${from}, ${to})`,
    );
  }
  const all = listHeartbeats(f.store, 0, now + DAY);
  assert.equal(all.length, 2_000);
  assert.ok(all.some((h) => h.isWrite) && all.some((h) => h.project === null) && all.some((h) => h.type === 'domain'));
  assert.equal(listHeartbeats(f.store, edge, edge + 1).length, 3, 'three heartbeats share the edge’s millisecond');
});
