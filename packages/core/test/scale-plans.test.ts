/**
 * Costs that grow with a person's history: years of daily use leave tens of thousands of
 * activities, sessions and entries, a million heartbeats and capture spans, hundreds of clients
 * and invoices. A write, and every look the app takes after one (the budgets, the status, the
 * tray, the window's Today, suggestions, sync's outbox), must cost what the write touched, not
 * what the person kept. Stated as SQLite's query plans of every statement they run — a table
 * read row by row (`SCAN activities`) or a sort of a large set (`USE TEMP B-TREE`) fails — and
 * of the triggers a write fires. The store never runs ANALYZE, so its plans do not depend on
 * the rows it holds: the store below is large for the figures its test prints, not for the
 * plans. How fast these calls are is measured in bench/ and in the commits that fixed them.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatementSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import {
  BudgetWatch,
  acceptSuggestion,
  addClient,
  buildReport,
  createTracker,
  daySuggestions,
  draftInvoice,
  editClient,
  issueInvoice,
  lastContinuableActivity,
  lastTrackedActivity,
  openStore,
  pruneCapture,
  recordHeartbeats,
  recordSpan,
  removeClient,
  reportPeriod,
  runningSessionSpan,
  setActivityArchived,
  setActivityLedger,
  setBlockBillable,
  tagBlock,
  untagBlock,
  voidInvoice,
  type Store,
  type Tracker,
} from '../src/index.ts';
import { deviceClock, drainOutbox, hasDrainBacklog, refreshCapture, sessionsRunningElsewhere } from '../src/sync/index.ts';
import { manualClock, seedHistory, type ManualClock } from './support.ts';

const DAY = 86_400_000;
const TIME_ZONE = 'Europe/Berlin';
const SIZES = { activities: 20_000, clients: 200, sessions: 10_000, entries: 10_000, heartbeats: 20_000, spans: 10_000, invoices: 300 };
/** Tables that grow with the person's history: none may be read whole by a write or a look after one. */
const LARGE = new Set(['activities', 'clients', 'sessions', 'breaks', 'entries', 'heartbeats', 'capture_spans', 'invoices', 'dismissed_suggestions', 'sync_entities', 'sync_log', 'nonces', 'idempotency_keys']);

let dir: string;
let store: Store;
let tracker: Tracker;
let clock: ManualClock;
const activities: string[] = [];
const clients: string[] = [];

/** The store, filled by SQL in one transaction: 20 000 activities (some archived, a quarter with a client), a year of sessions with breaks and entries, heartbeats, spans, invoices. */
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tock-scale-'));
  store = openStore(join(dir, 'tock.db'));
  clock = manualClock('2026-11-22T09:00:00.000Z');
  tracker = createTracker({ store, clock, timeZone: TIME_ZONE });
  const now = clock();
  const db = store.db;
  store.transaction(() => {
    const seeded = seedHistory(store, now, SIZES, now - 2 * DAY);
    clients.push(...seeded.clients);
    activities.push(...seeded.activities);
    const heartbeat = db.prepare("INSERT INTO heartbeats (id, time_ms, entity, type, is_write, editor, project, received_at) VALUES (?, ?, ?, 'file', 0, ?, ?, ?)");
    for (let i = 0; i < SIZES.heartbeats; i++) {
      const at = now - 2 * DAY - i * 60_000;
      heartbeat.run(crypto.randomUUID(), at, `/src/f${i % 500}.ts`, i % 3 === 0 ? 'vim' : 'vscode', `p${i % 30}`, at);
    }
    const span = db.prepare("INSERT INTO capture_spans (start_ms, end_ms, source, app, title) VALUES (?, ?, 'window', ?, ?)");
    for (let i = 0; i < SIZES.spans; i++) span.run(now - 2 * DAY - i * 120_000, now - 2 * DAY - i * 120_000 + 100_000, `app${i % 20}`, `title ${i}`);
    const invoice = db.prepare('INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const onInvoice = (table: string) => db.prepare(`UPDATE ${table} SET invoice_id = ? WHERE rowid BETWEEN ? AND ?`);
    const [markSessions, markEntries] = [onInvoice('sessions'), onInvoice('entries')];
    for (let i = 0; i < SIZES.invoices; i++) {
      const id = crypto.randomUUID();
      const number = `2025-${String(i + 1).padStart(4, '0')}`;
      invoice.run(id, number, 2025, i + 1, clients[i % SIZES.clients] as string, '2025-01-01', '2025-01-31', now - 300 * DAY, JSON.stringify({ number }));
      markSessions.run(id, 1 + i * 10, 10 + i * 10);
      markEntries.run(id, 1 + i * 10, 10 + i * 10);
    }
    // Today's capture, for suggestions: half an hour of an editor, three hours ago.
    for (let i = 0; i < 15; i++) recordSpan(store, { startMs: now - 3 * 3_600_000 + i * 120_000, endMs: now - 3 * 3_600_000 + i * 120_000 + 110_000, source: 'window', app: 'code', title: 'x' });
  });
});

after(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Every statement `run` prepares or takes from the store's cache — through `store.statement`,
 * or `store.db.prepare` as sync's and the exports' modules do — with the step that ran it first.
 */
function statementsOf(steps: readonly (readonly [string, () => unknown])[]): Map<string, string> {
  const seen = new Map<string, string>();
  let step = '';
  const statement = store.statement;
  const db = store.db as { prepare: (sql: string) => StatementSync };
  const prepare = db.prepare;
  store.statement = (sql: string) => {
    if (!seen.has(sql)) seen.set(sql, step);
    return statement(sql);
  };
  db.prepare = (sql: string) => {
    if (!seen.has(sql)) seen.set(sql, step);
    return prepare.call(store.db, sql);
  };
  try {
    for (const [name, run] of steps) {
      step = name;
      run();
    }
  } finally {
    store.statement = statement;
    db.prepare = prepare;
  }
  return seen;
}

/** The statements inside the store's triggers (their WHEN and their body), NEW and OLD as parameters. */
function triggerStatements(): Map<string, string> {
  const found = new Map<string, string>();
  for (const { name, sql } of store.db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'").all() as { name: string; sql: string }[]) {
    const when = /\bWHEN\b([\s\S]*?)\bBEGIN\b/i.exec(sql)?.[1];
    const body = sql.replace(/^[\s\S]*?\bBEGIN\b/i, '').replace(/\bEND;?\s*$/i, '');
    for (const part of [...(when ? [`SELECT ${when}`] : []), ...body.split(';')]) {
      // RAISE() is a trigger's own: its message's subquery is planned as an ordinary value.
      const statement = part.trim().replace(/\b(new|old)\.(\w+)/gi, ':$1_$2').replace(/\bRAISE\(ABORT,/gi, 'concat(');
      if (statement !== '') found.set(statement, `trigger ${name}`);
    }
  }
  return found;
}

/**
 * The plan steps of `sql` that read a large table row by row (`SCAN sessions`, `SCAN b` for an
 * alias of one) or sort a set (`USE TEMP B-TREE`). Names after FROM or JOIN give the aliases; a
 * common table expression or a subquery is no table.
 */
function costlySteps(sql: string): string[] {
  if (!/^\s*(WITH|SELECT|INSERT|UPDATE|DELETE)\b/i.test(sql)) return [];
  const tables = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const [table, alias] = [m[1] as string, m[2]];
    tables.set(table, table);
    if (alias !== undefined && !/^(WHERE|ON|SET|VALUES|ORDER|GROUP|LIMIT|UNION|JOIN|LEFT|CROSS|INNER|USING|AND|OR)$/i.test(alias)) tables.set(alias, table);
  }
  const steps = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail);
  return steps.filter((step) => {
    const scan = /^SCAN (\w+)$/.exec(step);
    if (scan) return LARGE.has(tables.get(scan[1] as string) ?? '');
    return step.startsWith('USE TEMP B-TREE');
  });
}

/**
 * Sorts that stay small whatever the history: each is over a handful of rows the statement
 * found through an index first. Keyed by a piece of their SQL, with why.
 */
const SMALL_SORTS: Record<string, string> = {
  // idle-time.ts: the running session and the last ended session and entry, at most three rows.
  'ORDER BY t.at DESC LIMIT 1': 'the last tracked activity sorts its three candidates',
  // ledger.ts: the blocks that ended at the latest end (ties), then the three candidates.
  'WHERE ended_at = (SELECT max(ended_at) FROM': 'the last block sorts the blocks that ended last, then its three candidates',
  // sync/log.ts: one session's breaks that wait for it.
  "kind = 'break' ORDER BY id": "a session's waiting breaks, found by its id",
};

/** The write use cases, each followed by every look the app takes after a write (see `looks`). */
function scenario(): (readonly [string, () => unknown])[] {
  const device = crypto.randomUUID();
  const watch = new BudgetWatch({ store, clock });
  const now = (): number => clock();
  const looks = (after: string): (readonly [string, () => unknown])[] => [
    // packages/app/src/live-events.ts: the budgets after every write.
    [`${after} › BudgetWatch.check`, () => watch.check()],
    // The desktop's wakes, the change bus's StatusChanges, the listener's GET /status.
    [`${after} › getTracking`, () => tracker.getTracking()],
    [`${after} › getStatus`, () => tracker.getStatus()],
    // The reminder; the tray's and the window's Continue.
    [`${after} › lastTrackedActivity`, () => lastTrackedActivity(store)],
    [`${after} › lastContinuableActivity`, () => lastContinuableActivity(store)],
    [`${after} › runningSessionSpan`, () => runningSessionSpan(store)],
    // packages/desktop/src/tray/tray-feed.ts: the menu's facts after a write.
    [`${after} › tray continueCandidate`, () => tracker.continueCandidate()],
    [`${after} › tray running session`, () => tracker.listBlocks(now() - DAY, now() + 1)],
    [`${after} › tray recent activities`, () => tracker.searchActivities('', 11)],
    // The window's Today after a write (packages/window/src/screens/Today.tsx): the day's blocks, its report, the week.
    [`${after} › Today blocks`, () => tracker.listBlocks(now() - 10 * 3_600_000, now() + 14 * 3_600_000)],
    [`${after} › Today report`, () => buildReport(store, reportPeriod('today', now(), TIME_ZONE), now(), TIME_ZONE)],
    [`${after} › week totals`, () => tracker.dailyTotals('2026-11-16', '2026-11-22')],
    // The window's suggestions lane, GET /suggestions.
    [`${after} › day suggestions`, () => daySuggestions(store, '2026-11-22', { timeZone: TIME_ZONE, nowMs: now() })],
    // Sync while on (packages/sync): the outbox drained after writes, the others' running sessions.
    [`${after} › sync drain`, () => drainOutbox(store, deviceClock(store, device, now))],
    [`${after} › sync backlog`, () => hasDrainBacklog(store)],
    [`${after} › sync running elsewhere`, () => sessionsRunningElsewhere(store)],
  ];
  let entryID = '';
  let sessionID = '';
  let client = '';
  let number = '';
  const invoiceRequest = () => ({ client: clients[4], from: '2026-01-01', to: '2026-11-21' });
  return [
    // Sync on: its capture triggers on every synced table (without the history, which a drain would log first).
    ['sync on', () => refreshCapture(store)],
    // The listener's checks of every signed request: its nonce, its idempotency key, their pruning.
    [
      'a signed request',
      () => {
        const key = crypto.randomUUID();
        store.nonces.remember(key, Math.floor(now() / 1000));
        store.nonces.recent(Math.floor(now() / 1000) - 300);
        store.nonces.prune(Math.floor(now() / 1000) - 600);
        store.idempotency.find(key);
        store.idempotency.save(key, { method: 'POST', path: '/entries', bodySha256: '0'.repeat(64), status: 201, body: '{}', createdAtMs: now() });
        store.idempotency.prune(now() - DAY);
      },
    ],
    ...looks('start'),
    ['set a budget', () => setActivityLedger(store, activities[1] as string, { budgetHours: 10 })],
    ['start', () => tracker.startActivity({ activityID: activities[5] as string })],
    ...looks('start'),
    ['break', () => (clock.advanceMinutes(10), tracker.startBreak())],
    ['resume', () => (clock.advanceMinutes(5), tracker.resumeBreak())],
    ...looks('resume'),
    ['switch', () => (clock.advanceMinutes(10), tracker.startActivity({ activityID: activities[1] as string }))],
    ['stop', () => (clock.advanceMinutes(10), tracker.stopActivity())],
    ...looks('stop'),
    ['continue', () => tracker.continueLast()],
    ['stop again', () => (clock.advanceMinutes(10), tracker.stopActivity())],
    ['log an entry', () => (entryID = tracker.logEntry({ activityID: activities[7] as string, durationMinutes: 20 }).entryID)],
    ['log an entry of a new activity', () => tracker.logEntry({ name: 'Brand new', durationMinutes: 5, createIfMissing: true })],
    ...looks('log'),
    ['edit an entry', () => tracker.updateEntry(entryID, { note: 'n' })],
    ['find the session', () => (sessionID = tracker.listBlocks(now() - DAY, now() + 1).find((b) => b.kind === 'session')?.id ?? '')],
    ['edit a session', () => tracker.updateSession(sessionID, { note: 'x' })],
    ['add a break', () => tracker.addBreak(sessionID, { startedAt: new Date(now() - 28 * 60_000).toISOString(), endedAt: new Date(now() - 27 * 60_000).toISOString() })],
    ['tag', () => tagBlock(store, entryID, ['t1'])],
    ['untag', () => untagBlock(store, entryID, ['t1'])],
    ['tag the last block', () => tagBlock(store, 'last', ['t2'])],
    ['billable', () => setBlockBillable(store, entryID, true)],
    ['delete an entry', () => tracker.deleteEntry(entryID)],
    ['delete a session', () => tracker.deleteSession(sessionID)],
    ...looks('delete'),
    ['add a client', () => (client = addClient(store, { name: 'New Co', rate: '90', currency: 'EUR' }, now(), () => crypto.randomUUID()).id)],
    ['edit a client', () => editClient(store, client, { address: 'Street 1' })],
    ['give an activity a client', () => setActivityLedger(store, activities[8] as string, { client })],
    ['remove a client', () => removeClient(store, client)],
    ['rename', () => tracker.renameActivity(activities[9] as string, 'renamed nine')],
    ['archive', () => setActivityArchived(store, activities[11] as string, true)],
    ['create an activity', () => tracker.createActivity('made now')],
    ...looks('ledger'),
    ['issue an invoice', () => (number = issueInvoice(store, draftInvoice(store, invoiceRequest(), now(), TIME_ZONE), invoiceRequest(), now(), TIME_ZONE, () => crypto.randomUUID()).number)],
    ['void it', () => voidInvoice(store, number, '2026-11-22')],
    ...looks('invoice'),
    [
      'a heartbeat bulk',
      () =>
        recordHeartbeats(
          store,
          [
            { entity: '/src/a.ts', type: 'file', time: now() / 1000 - 30 },
            { entity: '/src/b.ts', type: 'file', time: now() / 1000 - 10 },
          ],
          { userAgent: 'vscode/1.95.0' },
          { nowMs: now(), newId: () => crypto.randomUUID() },
        ),
    ],
    ['a capture span', () => recordSpan(store, { startMs: now() - 60_000, endMs: now() - 1_000, source: 'window', app: 'firefox', title: 'x' })],
    ...looks('capture'),
    [
      'accept a suggestion',
      () => {
        const id = daySuggestions(store, '2026-11-22', { timeZone: TIME_ZONE, nowMs: now() }).suggestions[0]?.id;
        assert.ok(id !== undefined, 'a suggestion from the capture of the morning');
        return acceptSuggestion(store, { id, activityName: 'from capture' }, { timeZone: TIME_ZONE, nowMs: now(), newId: () => crypto.randomUUID() });
      },
    ],
    ...looks('accept'),
    // packages/app/src: the hourly pruning of capture past its retention.
    ['prune capture', () => pruneCapture(store, now())],
  ];
}

test('every write use case, and every look the app takes after a write, reads no large table whole and sorts no large set', (t) => {
  const started = performance.now();
  const statements = statementsOf(scenario());
  const ran = performance.now() - started;
  for (const [sql, by] of triggerStatements()) statements.set(sql, by);
  const found: string[] = [];
  for (const [sql, by] of statements) {
    const small = Object.keys(SMALL_SORTS).filter((key) => sql.includes(key));
    for (const step of costlySteps(sql)) {
      if (step.startsWith('USE TEMP B-TREE') && small.length > 0) continue;
      found.push(`${step} [${by}]: ${sql.replace(/\s+/g, ' ').trim()}`);
    }
  }
  t.diagnostic(`${statements.size} statements and trigger statements over ${SIZES.activities} activities, ${SIZES.sessions} sessions, ${SIZES.heartbeats} heartbeats (scenario ${ran.toFixed(0)} ms)`);
  assert.deepEqual(found, []);
});
