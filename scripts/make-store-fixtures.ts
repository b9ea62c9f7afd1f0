/**
 * Writes the upgrade fixtures: packages/core/test/fixtures/schema-vN.db, a store made by
 * migrations 1..N exactly as that version shipped them, with rows in every table. Run it
 * once after adding a migration (`node scripts/make-store-fixtures.ts`) and commit the new
 * file. Existing fixtures are never rewritten: each one is what its version made, and the
 * upgrade test (packages/core/test/upgrades.test.ts) checks today's migrations against them.
 * Why committed files and not stores built at test time: docs/decisions.md "Store safety".
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS, SCHEMA_VERSION } from '../packages/core/src/migrations.ts';
import { nameKey, searchKey, wordKey } from '../packages/core/src/names.ts';

/** Where the fixtures live. */
export const FIXTURES_DIR = fileURLToPath(new URL('../packages/core/test/fixtures/', import.meta.url));

/** The fixture file of schema version `version`. */
export function fixturePath(version: number): string {
  return join(FIXTURES_DIR, `schema-v${version}.db`);
}

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 2, 28, 22, 30); // the evening before Europe's spring-forward day
const ids = {
  writing: '00000000-0000-4000-8000-00000000000a',
  cafe: '00000000-0000-4000-8000-00000000000b',
  review: '00000000-0000-4000-8000-00000000000c',
  device: '00000000-0000-4000-8000-0000000000d1',
  peer: '00000000-0000-4000-8000-0000000000d2',
};

function activity(id: string, name: string, createdAt: number, lastUsedAt: number): unknown[] {
  return [id, name, nameKey(name), searchKey(name), wordKey(name), createdAt, lastUsedAt];
}

/**
 * Rows for every table, by the table's name: the SQL and the rows to insert. A table that a
 * migration adds needs its rows here before its fixture can be made (the script says so).
 */
const ROWS: Record<string, { sql: string; rows: unknown[][] }> = {
  activities: {
    sql: 'INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    rows: [
      activity(ids.writing, 'Writing', T0, T0 + 180 * MINUTE),
      activity(ids.cafe, 'Café ☕ Révision, "quoted"', T0 + MINUTE, T0 + 60 * MINUTE),
      activity(ids.review, 'Code review', T0 + 2 * MINUTE, T0 + 2 * MINUTE),
    ],
  },
  sessions: {
    sql: 'INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)',
    rows: [
      // Across midnight, with a break; an ended one; the running one.
      ['00000000-0000-4000-8000-000000000101', ids.writing, T0, T0 + 120 * MINUTE],
      ['00000000-0000-4000-8000-000000000102', ids.cafe, T0 + 130 * MINUTE, T0 + 150 * MINUTE],
      ['00000000-0000-4000-8000-000000000103', ids.writing, T0 + 180 * MINUTE, null],
    ],
  },
  breaks: {
    sql: 'INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)',
    rows: [
      ['00000000-0000-4000-8000-000000000201', '00000000-0000-4000-8000-000000000101', T0 + 30 * MINUTE, T0 + 45 * MINUTE],
      ['00000000-0000-4000-8000-000000000202', '00000000-0000-4000-8000-000000000103', T0 + 190 * MINUTE, null],
    ],
  },
  entries: {
    sql: 'INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    rows: [
      ['00000000-0000-4000-8000-000000000301', ids.cafe, T0 - 90 * MINUTE, T0 - 30 * MINUTE, 'Notes, "quoted", and ünïcödé', T0],
      ['00000000-0000-4000-8000-000000000302', ids.review, T0 - 24 * 60 * MINUTE, T0 - 23 * 60 * MINUTE, null, T0],
    ],
  },
  settings: {
    sql: 'INSERT INTO settings (key, value) VALUES (?, ?)',
    rows: [
      ['listener', JSON.stringify({ enabled: true, port: 39847 })],
      ['credentialStore', JSON.stringify('file')],
      ['firstRunMs', JSON.stringify(T0 - 3 * 24 * 60 * MINUTE)],
      ['uiPort', JSON.stringify(40123)],
    ],
  },
  idempotency_keys: {
    sql: 'INSERT INTO idempotency_keys (key, method, path, body_sha256, status, body, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
    rows: [['key-1', 'POST', '/entries', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 201, '{"ok":true,"result":null}', T0]],
  },
  nonces: {
    sql: 'INSERT INTO nonces (nonce, timestamp) VALUES (?, ?)',
    rows: [
      ['bm9uY2Ut-one-AAAAAAAAAA', Math.floor(T0 / 1000)],
      ['bm9uY2Ut-two-BBBBBBBBBB', Math.floor(T0 / 1000) + 5],
    ],
  },
  // Schema v4: sync on, one write of this device not drained yet, another device half read.
  sync_outbox: {
    sql: 'INSERT INTO sync_outbox (seq, kind, id, row) VALUES (?, ?, ?, ?)',
    rows: [[1, 'entry', '00000000-0000-4000-8000-000000000302', null]],
  },
  sync_log: {
    sql: 'INSERT INTO sync_log (seq, line) VALUES (?, ?)',
    rows: [
      [1, `{"v":1,"hlc":"${T0}-0-${ids.device}","op":"activity.create","id":"${ids.writing}","set":{"name":"Writing","createdAt":${T0}}}`],
      [2, `{"v":1,"hlc":"${T0}-1-${ids.device}","op":"session.start","id":"00000000-0000-4000-8000-000000000101","set":{"device":"${ids.device}","activityID":"${ids.writing}","startedAt":${T0},"endedAt":null}}`],
    ],
  },
  sync_segments: {
    sql: 'INSERT INTO sync_segments (segment, first_seq, bytes) VALUES (?, ?, ?)',
    rows: [[1, 1, 400]],
  },
  sync_entities: {
    sql: 'INSERT INTO sync_entities (id, kind, ref, pending, fields, deleted_hlc) VALUES (?, ?, ?, ?, ?, ?)',
    rows: [
      [ids.writing, 'activity', null, 0, JSON.stringify({ h: [`${T0}-0-${ids.device}`], f: { name: ['Writing', 0], createdAt: [T0, 0] } }), null],
      [
        '00000000-0000-4000-8000-000000000101',
        'session',
        ids.writing,
        0,
        JSON.stringify({ h: [`${T0}-1-${ids.device}`], f: { device: [ids.device, 0], activityID: [ids.writing, 0], startedAt: [T0, 0], endedAt: [null, 0] } }),
        null,
      ],
      // Another device's entry whose activity has not arrived yet.
      [
        '00000000-0000-4000-8000-000000000401',
        'entry',
        '00000000-0000-4000-8000-0000000004aa',
        1,
        JSON.stringify({ h: [`${T0}-0-${ids.peer}`], f: { device: [ids.peer, 0], activityID: ['00000000-0000-4000-8000-0000000004aa', 0], startedAt: [T0, 0], endedAt: [T0 + MINUTE, 0], note: [null, 0], createdAt: [T0, 0] } }),
        null,
      ],
    ],
  },
  sync_devices: {
    sql: 'INSERT INTO sync_devices (device_id, segment, offset, line, applied, last_hlc, last_applied_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    rows: [[ids.peer, 1, 310, 1, 1, `${T0}-0-${ids.peer}`, T0 + MINUTE]],
  },
  // Schema v7: editor heartbeats, one with every optional field and one with none.
  heartbeats: {
    sql: `INSERT INTO heartbeats (id, time_ms, entity, type, is_write, category, project, branch, language, lines, lineno, cursorpos, editor, machine, received_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    rows: [
      ['00000000-0000-4000-8000-000000000501', T0 + 5 * MINUTE + 123, '/home/ana/src/tock/README.md', 'file', 1, 'coding', 'tock', 'main', 'Markdown', 120, 7, 31, 'vscode', 'ana-laptop', T0 + 5 * MINUTE + 200],
      ['00000000-0000-4000-8000-000000000502', T0 + 6 * MINUTE, 'Café ☕.app', 'app', 0, null, null, null, null, null, null, null, null, null, T0 + 6 * MINUTE],
    ],
  },
  // Schema v9: capture spans, a window span with a title, an excluded one and an idle one.
  capture_spans: {
    sql: 'INSERT INTO capture_spans (id, start_ms, end_ms, source, app, title) VALUES (?, ?, ?, ?, ?, ?)',
    rows: [
      [1, T0 + 5 * MINUTE, T0 + 9 * MINUTE, 'window', 'Code', 'README.md — tock — Visual Studio Code'],
      [2, T0 + 9 * MINUTE, T0 + 11 * MINUTE, 'excluded', null, null],
      [3, T0 + 11 * MINUTE, T0 + 40 * MINUTE, 'idle', null, null],
    ],
  },
  // Schema v10: the ledger — a client with a rate, one without, and an issued invoice.
  clients: {
    sql: 'INSERT INTO clients (id, name, name_key, rate, currency, address, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    rows: [
      ['00000000-0000-4000-8000-000000000601', 'ACME GmbH', 'acme gmbh', '85.00', 'EUR', 'Hauptstraße 1\n10115 Berlin', T0],
      ['00000000-0000-4000-8000-000000000602', 'Café Crème', 'café crème', null, null, null, T0 + MINUTE],
    ],
  },
  invoices: {
    sql: 'INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    rows: [['00000000-0000-4000-8000-000000000701', 'INV-2026-001', 2026, 1, '00000000-0000-4000-8000-000000000601', '2026-03-01', '2026-03-28', T0, '{"lines":[]}']],
  },
  // Schema v11: a dismissed suggestion.
  dismissed_suggestions: {
    sql: 'INSERT INTO dismissed_suggestions (day, id, dismissed_at) VALUES (?, ?, ?)',
    rows: [['2026-03-29', '20260329-0123456789abcdef', T0 + 60 * MINUTE]],
  },
};

/**
 * Tables that hold no row while no transaction runs, so a fixture leaves them empty:
 * `sync_applying` has its one row only inside the transaction that applies other devices' operations.
 */
export const EMPTY_AT_REST: ReadonlySet<string> = new Set(['sync_applying']);

/** Tables SQLite or FTS5 keep for themselves, filled through the tables above. */
export function isInternalTable(name: string, virtualTables: readonly string[]): boolean {
  return name.startsWith('sqlite_') || virtualTables.some((v) => name === v || name.startsWith(`${v}_`));
}

/** The schema of migrations 1..version, applied to an empty database. */
export function buildSchema(db: DatabaseSync, version: number): void {
  for (const migration of MIGRATIONS.slice(0, version)) db.exec(migration.sql);
  db.exec(`PRAGMA user_version = ${version}`);
}

/** The virtual tables of a database (their shadow tables are internal). */
export function virtualTablesOf(db: DatabaseSync): string[] {
  return (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").all() as { name: string }[]).map((r) => r.name);
}

/** Makes the fixture of `version` at `path`; throws if a table has no rows to fill it with. */
function makeFixture(version: number, path: string): void {
  const building = `${path}.building`;
  rmSync(building, { force: true });
  const db = new DatabaseSync(building);
  try {
    db.exec('PRAGMA page_size = 1024; PRAGMA journal_mode = DELETE');
    db.exec('BEGIN');
    buildSchema(db, version);
    const virtual = virtualTablesOf(db);
    const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid").all() as { name: string }[])
      .map((r) => r.name)
      .filter((name) => !isInternalTable(name, virtual));
    for (const table of tables) {
      if (EMPTY_AT_REST.has(table)) continue;
      const fill = ROWS[table];
      if (fill === undefined) throw new Error(`schema v${version} has a table "${table}" with no rows in scripts/make-store-fixtures.ts: add them to ROWS`);
      const insert = db.prepare(fill.sql);
      for (const row of fill.rows) insert.run(...(row as never[]));
    }
    db.exec('COMMIT');
    db.exec('VACUUM');
  } finally {
    db.close();
  }
  renameSync(building, path);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(FIXTURES_DIR, { recursive: true });
  for (let version = 1; version <= SCHEMA_VERSION; version++) {
    const path = fixturePath(version);
    if (existsSync(path)) continue;
    makeFixture(version, path);
    console.log(`wrote ${path}`);
  }
}
