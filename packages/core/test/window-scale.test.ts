/**
 * What the window reads at a heavy user's store (docs/data.md "What a screen reads"): each of
 * its screens asks for a day, a week, a month's report, one activity's ledger — and must cost
 * what that holds, not the person's whole history. Stated, as scale-plans.test.ts states the
 * writes', as SQLite's query plans of every statement the core use case behind each window
 * route runs: a large table walked whole (`SCAN activities`, also along an index that is not
 * partial, without a LIMIT) or a large set sorted (`USE TEMP B-TREE`) fails, unless the route
 * answers that whole table by design (`GET /api/activities/all` every activity, `GET
 * /api/clients` every client, `GET /api/invoices` every invoice). The store never runs
 * ANALYZE, so plans do not depend on its rows: the store is small; how fast the routes are at
 * 20 000 activities and 40 000 sessions is in the commits that fixed them.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatementSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import {
  activityLedger,
  addDays,
  addRule,
  budgetUsage,
  buildReport,
  createTracker,
  dailyTotals,
  daySuggestions,
  exportChunks,
  listClients,
  invoiceSummary,
  listInvoices,
  listRules,
  openStore,
  recordSpan,
  reportPeriod,
  setActivityLedger,
  startOfLocalDay,
  timeline,
  type Store,
  type Tracker,
} from '../src/index.ts';
import { manualClock, seedHistory, type ManualClock } from './support.ts';

const DAY = 86_400_000;
const TIME_ZONE = 'Europe/Berlin';
const SIZES = { activities: 2_000, clients: 50, sessions: 2_000, spans: 2_000, invoices: 30 };
/** Tables that grow with the person's history. */
const LARGE = new Set(['activities', 'clients', 'sessions', 'breaks', 'entries', 'heartbeats', 'capture_spans', 'invoices', 'dismissed_suggestions', 'sync_entities', 'sync_log']);

let dir: string;
let store: Store;
let tracker: Tracker;
let clock: ManualClock;
const activities: string[] = [];
const clients: string[] = [];

/** A store filled by SQL: activities (a quarter with a client), a year of sessions with breaks and entries, spans, invoices; today's capture of an editor project that names an activity. */
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tock-window-scale-'));
  store = openStore(join(dir, 'tock.db'));
  clock = manualClock('2026-11-22T09:00:00.000Z');
  tracker = createTracker({ store, clock, timeZone: TIME_ZONE });
  const now = clock();
  const db = store.db;
  store.transaction(() => {
    const seeded = seedHistory(store, now, SIZES, now - 5 * 3_600_000);
    clients.push(...seeded.clients);
    activities.push(...seeded.activities);
    const invoice = db.prepare('INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < SIZES.invoices; i++) {
      const number = `INV-2026-${String(i + 1).padStart(3, '0')}`;
      const client = clients[i % SIZES.clients] as string;
      const lines = Array.from({ length: i % 4 }, (_, k) => ({ date: '2026-01-05', activity: `ticket ${k} review`, billedSeconds: 3600 }));
      const totals = [{ currency: 'EUR', net: `${i}.00`, taxes: [], gross: `${i}.00` }];
      const document = { number, issued: '2026-02-01', from: '2026-01-01', to: '2026-01-31', client: { id: client, name: `Client ${i}` }, lines, billedSeconds: 3600 * (i % 4), totals, ...(i % 5 === 2 ? { voided: '2026-03-01' } : {}) };
      invoice.run(crypto.randomUUID(), number, 2026, i + 1, client, '2026-01-01', '2026-01-31', now - 300 * DAY, JSON.stringify(document));
    }
    for (let i = 0; i < SIZES.spans; i++) recordSpan(store, { startMs: now - 2 * DAY - i * 120_000, endMs: now - 2 * DAY - i * 120_000 + 100_000, source: 'window', app: `app${i % 20}`, title: `t${i}` });
    // This morning: an hour in an editor on the project "ticket 3 review" (an activity's name), then half an hour of firefox.
    const heartbeat = db.prepare("INSERT INTO heartbeats (id, time_ms, entity, type, is_write, editor, project, received_at) VALUES (?, ?, '/src/a.ts', 'file', 0, 'vscode', 'ticket 3 review', ?)");
    for (let i = 0; i < 60; i++) heartbeat.run(crypto.randomUUID(), now - 4 * 3_600_000 + i * 60_000, now - 4 * 3_600_000 + i * 60_000);
    for (let i = 0; i < 15; i++) recordSpan(store, { startMs: now - 2 * 3_600_000 + i * 120_000, endMs: now - 2 * 3_600_000 + i * 120_000 + 110_000, source: 'window', app: 'firefox', title: 'x' });
  });
  addRule(store.settings, { match: { app: 'firefox' }, activity: 'ticket 5 review' });
  setActivityLedger(store, activities[4] as string, { budgetHours: 10 });
});

after(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every statement `run` prepares or takes from the store's cache (as scale-plans.test.ts's `statementsOf`). */
function statementsOf(run: () => unknown): Set<string> {
  const seen = new Set<string>();
  const statement = store.statement;
  const db = store.db as { prepare: (sql: string) => StatementSync };
  const prepare = db.prepare;
  store.statement = (sql: string) => (seen.add(sql), statement(sql));
  db.prepare = (sql: string) => (seen.add(sql), prepare.call(store.db, sql));
  try {
    run();
  } finally {
    store.statement = statement;
    db.prepare = prepare;
  }
  return seen;
}

/** The store's partial indexes: each holds only the few rows of its WHERE, so a walk of one is small. */
function partialIndexes(): Set<string> {
  const rows = store.db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL").all() as { name: string; sql: string }[];
  return new Set(rows.filter((r) => /\bWHERE\b/i.test(r.sql)).map((r) => r.name));
}

/**
 * The plan steps of `sql` that read a large table whole — `SCAN sessions`, `SCAN b` for an
 * alias, or a walk along one of its indexes that is not partial, in a statement without a LIMIT
 * — or sort a set (`USE TEMP B-TREE`), with the tables they read.
 */
function costlySteps(sql: string, partial: Set<string>): { step: string; table: string | null }[] {
  if (!/^\s*(WITH|SELECT)\b/i.test(sql)) return [];
  const tables = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const [table, alias] = [m[1] as string, m[2]];
    tables.set(table, table);
    if (alias !== undefined && !/^(WHERE|ON|ORDER|GROUP|LIMIT|UNION|JOIN|LEFT|CROSS|INNER|USING|AND|OR|INDEXED)$/i.test(alias)) tables.set(alias, table);
  }
  const limited = /\bLIMIT\b/i.test(sql);
  const steps = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail);
  const found: { step: string; table: string | null }[] = [];
  for (const step of steps) {
    const scan = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?$/.exec(step);
    // A range open at its end (`ended_at>?` alone) reads every row after its start: the whole
    // history since a week of long ago.
    const open = /^SEARCH (\w+) USING (?:COVERING )?INDEX (\w+) \(\w+>\?\)$/.exec(step);
    if (open) {
      const table = tables.get(open[1] as string) ?? '';
      if (LARGE.has(table) && !partial.has(open[2] as string) && !limited) found.push({ step, table });
    } else if (scan) {
      const table = tables.get(scan[1] as string) ?? '';
      const index = scan[2];
      if (LARGE.has(table) && (index === undefined || (!partial.has(index) && !limited))) found.push({ step, table });
    } else if (step.startsWith('USE TEMP B-TREE')) found.push({ step, table: null });
  }
  return found;
}

/** Sorts that stay small whatever the history, keyed by a piece of their SQL, with why. */
const SMALL_SORTS: Record<string, string> = {
  // report-billing.ts: one invoice's blocks, to bill them as its lines did.
  'WHERE invoice_id = ? ORDER BY started_at, id': "an invoice's own blocks",
  // ledger.ts: clients of the same name key (ties) by ID; the list is every client by design.
  'FROM clients ORDER BY name_key, id': 'the tie-break of clients with one name',
  // search.ts: the activities whose whole search key is the query (names differ by case or accents at most).
  'WHERE search_key = ? ORDER BY': 'the few activities one search key names',
  // export-reads.ts: a ranged export's blocks and activities, found by their ends, in order of start or creation.
  'ORDER BY s.started_at, s.id, b.started_at, b.id': "a range's sessions and breaks, in order",
  'ORDER BY e.started_at, e.id': "a range's entries, in order",
  'ORDER BY created_at, id': "the activities a range's blocks use",
  // idle-time.ts: the running session and the last ended session and entry, at most three rows.
  'ORDER BY t.at DESC LIMIT 1': 'the last tracked activity sorts its three candidates',
};

/** The window's routes (packages/window/src/contract/routes.ts) as the core use cases they call, each with the large table it answers whole by design. */
function windowReads(): { route: string; run: () => unknown; whole?: string | undefined }[] {
  const now = clock();
  const today = '2026-11-22';
  const dayStart = Date.parse('2026-11-21T23:00:00Z');
  const weekStart = Date.parse('2026-11-15T23:00:00Z');
  const report = (query: Parameters<typeof buildReport>[1]) => buildReport(store, query, now, TIME_ZONE);
  return [
    { route: 'GET /api/activities/all (open, after every change)', run: () => tracker.listActivities(), whole: 'activities' },
    { route: 'GET /api/state, GET /api/status', run: () => tracker.getStatus() },
    { route: 'GET /api/activities (the picker)', run: () => tracker.searchActivities('tick', 10) },
    // Today (packages/window/src/screens/Today.tsx): the day's blocks, its report, the lanes.
    { route: 'GET /api/blocks (Today)', run: () => tracker.listBlocks(dayStart, dayStart + DAY) },
    { route: 'GET /api/report?period=today', run: () => report(reportPeriod('today', now, TIME_ZONE)) },
    { route: 'GET /api/suggestions', run: () => daySuggestions(store, undefined, { timeZone: TIME_ZONE, nowMs: now }) },
    { route: 'GET /api/capture/timeline', run: () => timeline(store, { day: today, timeZone: TIME_ZONE, nowMs: now, open: [] }) },
    // History's week (screens/history/Week.tsx): totals, blocks, the report by day; a week of long ago too.
    { route: 'GET /api/totals (a week of last year)', run: () => dailyTotals(store, '2025-11-17', '2025-11-23', now, TIME_ZONE) },
    { route: 'GET /api/blocks (a week of last year)', run: () => tracker.listBlocks(weekStart - 364 * DAY, weekStart - 357 * DAY) },
    { route: 'GET /api/report (a week of last year by day)', run: () => report({ from: '2025-11-17', to: '2025-11-23', by: 'day' }) },
    { route: 'GET /api/totals (a week)', run: () => dailyTotals(store, '2026-11-16', today, now, TIME_ZONE) },
    { route: 'GET /api/blocks (a week)', run: () => tracker.listBlocks(weekStart, weekStart + 7 * DAY) },
    { route: 'GET /api/report (a week by day)', run: () => report({ from: '2026-11-16', to: today, by: 'day' }) },
    // Reports (screens/Reports.tsx): a month by each grouping, its chart's totals.
    ...(['activity', 'day', 'client', 'tag'] as const).map((by) => ({ route: `GET /api/report?period=month&by=${by}`, run: () => report({ ...reportPeriod('month', now, TIME_ZONE), by }) })),
    { route: 'GET /api/report?period=month&billable=true&client=…', run: () => report({ ...reportPeriod('month', now, TIME_ZONE), billable: 'true', client: clients[4] }) },
    { route: 'GET /api/totals (a month)', run: () => dailyTotals(store, '2026-11-01', '2026-11-30', now, TIME_ZONE) },
    // Reports' and Settings › Data's downloads of a range: the month as CSV and as JSON (read as they stream).
    // The JSON file lists every client (an activity of the range may name any).
    ...(['csv', 'json'] as const).map((format) => ({
      route: `GET /api/export?format=${format} (a month)`,
      run: () => [...exportChunks(store.db, { format, fromDay: '2026-11-01', toDay: '2026-11-30', timeZone: TIME_ZONE, now })],
      whole: format === 'json' ? 'clients' : undefined,
    })),
    { route: 'GET /api/export?format=json (from a day on)', run: () => [...exportChunks(store.db, { format: 'json', fromDay: '2026-11-01', timeZone: TIME_ZONE, now })], whole: 'clients' },
    // The ledger: clients, invoices, an activity's billing and budget; Settings › Capture's rules.
    { route: 'GET /api/clients', run: () => listClients(store), whole: 'clients' },
    { route: 'GET /api/invoices', run: () => listInvoices(store), whole: 'invoices' },
    { route: 'POST /api/invoices, POST /api/invoices/:number/void (the summary they answer)', run: () => invoiceSummary(store, 'INV-2026-007') },
    { route: 'GET /api/activities/:id/ledger', run: () => [activityLedger(store, activities[4]), budgetUsage(store, activities[4] as string, now)] },
    { route: 'GET /api/rules', run: () => listRules(store.settings) },
  ];
}

test("each window route reads what its screen shows — a day, a week, a month, one activity — not a large table whole, and sorts no large set", () => {
  const partial = partialIndexes();
  const found: string[] = [];
  let statements = 0;
  for (const { route, run, whole } of windowReads()) {
    for (const sql of statementsOf(run)) {
      statements++;
      const small = Object.keys(SMALL_SORTS).some((key) => sql.includes(key));
      for (const { step, table } of costlySteps(sql, partial)) {
        if (table === null && small) continue;
        if (table !== null && table === whole) continue;
        found.push(`${step} [${route}]: ${sql.replace(/\s+/g, ' ').trim()}`);
      }
    }
  }
  assert.ok(statements > 20, `the routes ran ${statements} statements`);
  assert.deepEqual(found, []);
});

test('the suggestions of a day label an editor project and a rule with the activities of those names, read by name', () => {
  const { suggestions } = daySuggestions(store, '2026-11-22', { timeZone: TIME_ZONE, nowMs: clock() });
  const labelled = suggestions.map((s) => [s.activityName, s.activityID]);
  assert.deepEqual(labelled, [
    ['ticket 3 review', activities[3]],
    ['ticket 5 review', activities[5]],
  ]);
});

test('every activity is listed by name, then ID, with its dates, colour and archived flag as the store keeps them', () => {
  const listed = tracker.listActivities();
  const kept = store.db.prepare('SELECT id, name, created_at, last_used_at, color, archived FROM activities ORDER BY name_key, id').all() as {
    id: string;
    name: string;
    created_at: number;
    last_used_at: number;
    color: number;
    archived: number;
  }[];
  assert.equal(listed.length, kept.length);
  assert.deepEqual(
    listed,
    kept.map((r) => ({ activityID: r.id, activityName: r.name, createdAt: new Date(r.created_at).toISOString(), lastUsedAt: new Date(r.last_used_at).toISOString(), color: r.color, archived: r.archived === 1 })),
  );
});

test('the invoices are listed newest first, each as its document says, and one is found by its number as listed', () => {
  const documents = (store.db.prepare('SELECT document FROM invoices ORDER BY year DESC, seq DESC').all() as { document: string }[]).map((r) => JSON.parse(r.document));
  const listed = listInvoices(store);
  assert.deepEqual(
    listed,
    documents.map((d) => ({
      number: d.number,
      issued: d.issued,
      clientID: d.client.id,
      clientName: d.client.name,
      from: d.from,
      to: d.to,
      lines: d.lines.length,
      billedSeconds: d.billedSeconds,
      totals: d.totals,
      state: d.voided === undefined ? 'issued' : 'void',
    })),
  );
  assert.deepEqual(
    listed.filter((i) => i.state === 'void').map((i) => i.number),
    ['INV-2026-028', 'INV-2026-023', 'INV-2026-018', 'INV-2026-013', 'INV-2026-008', 'INV-2026-003'],
  );
  assert.deepEqual(invoiceSummary(store, 'INV-2026-008'), listed.find((i) => i.number === 'INV-2026-008'));
  assert.equal(invoiceSummary(store, 'INV-2026-999'), undefined);
});

/** How many times `run` ran each statement that reads `table` (a get, an all, an iterate). */
function readsOf(table: string, run: () => unknown): Map<string, number> {
  const runs = new Map<string, number>();
  const statement = store.statement;
  store.statement = (sql: string) => {
    const real = statement(sql);
    if (!new RegExp(`\\bFROM ${table}\\b`).test(sql)) return real;
    const counted = (method: 'get' | 'all' | 'iterate') => (...args: never[]) => {
      runs.set(sql, (runs.get(sql) ?? 0) + 1);
      return (real[method] as (...a: never[]) => unknown).apply(real, args);
    };
    return new Proxy(real, {
      get: (target, key) => (key === 'get' || key === 'all' || key === 'iterate' ? counted(key) : (Reflect.get(target, key) as (...a: unknown[]) => unknown).bind(target)),
    });
  };
  try {
    run();
  } finally {
    store.statement = statement;
  }
  return runs;
}

test('a report and the daily totals read the activities of their range in one statement, however many there are', () => {
  const now = clock();
  const month = reportPeriod('month', now, TIME_ZONE);
  for (const by of ['activity', 'day', 'client', 'tag'] as const) {
    const reads = readsOf('activities', () => buildReport(store, { ...month, by }, now, TIME_ZONE));
    assert.deepEqual([...reads.values()], [1], `a month by ${by}: ${JSON.stringify([...reads])}`);
  }
  const reads = readsOf('activities', () => dailyTotals(store, month.from, month.to, now, TIME_ZONE));
  assert.deepEqual([...reads.values()], [1], `a month's totals: ${JSON.stringify([...reads])}`);
  assert.ok(tracker.listBlocks(Date.parse('2026-11-01T00:00:00Z'), now).length > 100, 'the month holds many blocks of many activities');
});

test("the day's captured lane and suggestions read its heartbeats once, for the editor and the browser spans both", () => {
  const now = clock();
  const lane = readsOf('heartbeats', () => timeline(store, { day: '2026-11-22', timeZone: TIME_ZONE, nowMs: now, open: [] }));
  assert.deepEqual([...lane.values()], [1], JSON.stringify([...lane]));
  const suggestions = readsOf('heartbeats', () => daySuggestions(store, '2026-11-22', { timeZone: TIME_ZONE, nowMs: now }));
  assert.deepEqual([...suggestions.values()], [1], JSON.stringify([...suggestions]));
});

test('an export of a range holds the blocks that start in it, and their activities, found by their ends: a running session too', () => {
  tracker.startActivity({ activityID: activities[9] as string });
  // An entry of the last hour before the range's end, and one that runs over midnight into it.
  tracker.logEntry({ activityID: activities[10] as string, durationMinutes: 90, endedAt: '2026-11-20T23:30:00.000Z' });
  const now = clock();
  const startOf = (day: string) => startOfLocalDay(day, TIME_ZONE);
  for (const [fromDay, toDay] of [
    ['2026-11-01', '2026-11-30'],
    ['2026-11-21', '2026-11-22'],
    ['2026-06-01', '2026-06-30'],
    ['2026-11-22', undefined],
  ] as const) {
    const [from, to] = [startOf(fromDay), toDay === undefined ? Number.MAX_SAFE_INTEGER : startOf(addDays(toDay, 1))];
    const file = JSON.parse([...exportChunks(store.db, { format: 'json', fromDay, toDay, timeZone: TIME_ZONE, now })].join('')) as Record<string, { id: string }[]>;
    const ids = (table: string) => (store.db.prepare(`SELECT id FROM ${table} WHERE started_at >= ? AND started_at < ? ORDER BY started_at, id`).all(from, to) as { id: string }[]).map((r) => r.id);
    const used = store.db
      .prepare('SELECT id FROM activities WHERE id IN (SELECT activity_id FROM sessions WHERE started_at >= ?1 AND started_at < ?2 UNION SELECT activity_id FROM entries WHERE started_at >= ?1 AND started_at < ?2) ORDER BY created_at, id')
      .all(from, to) as { id: string }[];
    const range = `${fromDay}…${toDay ?? ''}`;
    assert.ok(ids('sessions').length > 0, range);
    assert.deepEqual(file.sessions?.map((s) => s.id), ids('sessions'), `sessions of ${range}`);
    assert.deepEqual(file.entries?.map((e) => e.id), ids('entries'), `entries of ${range}`);
    assert.deepEqual(file.activities?.map((a) => a.id), used.map((r) => r.id), `activities of ${range}`);
    const csv = [...exportChunks(store.db, { format: 'csv', fromDay, toDay, timeZone: TIME_ZONE, now })].join('');
    assert.equal(csv.trimEnd().split('\n').length - 1, ids('sessions').length + ids('entries').length, `CSV rows of ${range}`);
  }
});

test('a week of long ago holds the sessions that overlap it, one left running for weeks among them, found by their ends', () => {
  const now = clock();
  const at = (iso: string) => Date.parse(iso);
  const long = [
    // Five days, ending inside the week; two months, ending long after it (sessions_long); one day exactly.
    [crypto.randomUUID(), at('2025-11-14T10:00:00Z'), at('2025-11-19T10:00:00Z')],
    [crypto.randomUUID(), at('2025-11-10T08:00:00Z'), at('2026-01-10T08:00:00Z')],
    [crypto.randomUUID(), at('2025-11-16T12:00:00Z'), at('2025-11-17T12:00:00Z')],
  ] as const;
  const insert = store.db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  for (const [id, start, end] of long) insert.run(id, activities[20] as string, start, end);
  const [from, to] = [startOfLocalDay('2025-11-17', TIME_ZONE), startOfLocalDay('2025-11-24', TIME_ZONE)];
  const overlapping = (store.db.prepare('SELECT id FROM sessions WHERE started_at < ?2 AND (ended_at > ?1 OR ended_at IS NULL) ORDER BY id').all(from, to) as { id: string }[]).map((r) => r.id);
  for (const [id] of long) assert.ok(overlapping.includes(id));
  const listed = tracker
    .listBlocks(from, to)
    .filter((b) => b.kind === 'session')
    .map((b) => b.id)
    .sort();
  assert.deepEqual(listed, overlapping);
  const week = dailyTotals(store, '2025-11-17', '2025-11-23', now, TIME_ZONE).filter((d) => d.activityID === activities[20]);
  assert.deepEqual(
    week.map((d) => [d.day, d.seconds]),
    ['2025-11-17', '2025-11-18', '2025-11-19', '2025-11-20', '2025-11-21', '2025-11-22', '2025-11-23'].map((day) => [day, 86_400]),
    'the two-month session covers every day of the week whole',
  );
  const report = buildReport(store, { from: '2025-11-17', to: '2025-11-23', by: 'activity' }, now, TIME_ZONE);
  assert.equal(report.rows.find((r) => 'activityID' in r && r.activityID === activities[20])?.seconds, 7 * 86_400);
  const file = JSON.parse([...exportChunks(store.db, { format: 'json', fromDay: '2025-11-10', toDay: '2025-11-10', timeZone: TIME_ZONE, now })].join('')) as { sessions: { id: string }[] };
  assert.ok(
    file.sessions.some((s) => s.id === long[1][0]),
    'the export of the day it began holds it',
  );
});
