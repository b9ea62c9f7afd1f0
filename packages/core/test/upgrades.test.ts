/**
 * Upgrades from every earlier schema version: the committed fixture stores
 * (packages/core/test/fixtures/schema-vN.db, made by scripts/make-store-fixtures.ts) open with
 * today's openStore, nothing in them is lost, and an upgrade killed half way leaves the old
 * store intact and openable.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EMPTY_AT_REST, buildSchema, fixturePath, isInternalTable, virtualTablesOf } from '../../../scripts/make-store-fixtures.ts';
import { restoreStore } from '../src/backup.ts';
import { SCHEMA_VERSION } from '../src/migrations.ts';
import { openStore } from '../src/store.ts';
import { TOCK_APPLICATION_ID } from '../src/store-file.ts';
import { createTracker } from '../src/tracker.ts';
import { killWhenPaused } from './support.ts';

const EARLIER = Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 1);
const CHILD = fileURLToPath(new URL('./support/upgrade-child.ts', import.meta.url));

/** A copy of the fixture of `version` in a temporary directory. */
function copyOfFixture(t: TestContext, version: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'tock-upgrade-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'tock.db');
  copyFileSync(fixturePath(version), path);
  return path;
}

/** The schema as SQLite states it: what each CREATE said, by kind and name. */
function schemaOf(db: DatabaseSync): string[] {
  return (db.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as { type: string; name: string; sql: string | null }[]).map(
    (r) => `${r.type} ${r.name}: ${(r.sql ?? '').replace(/\s+/g, ' ')}`,
  );
}

/** Rows in the order they were written: by rowid, or by the key of a WITHOUT ROWID table (schema v4's sync_entities). */
function orderOf(db: DatabaseSync, table: string): string {
  const { wr } = db.prepare('SELECT wr FROM pragma_table_list WHERE name = ?').get(table) as { wr: number };
  return wr === 1 ? '1' : 'rowid';
}

/** Every row of every table of the user's data (not SQLite's or FTS5's own), all columns, in rowid order. */
function contentsOf(db: DatabaseSync): Record<string, unknown[]> {
  const virtual = virtualTablesOf(db);
  const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[])
    .map((r) => r.name)
    .filter((name) => !isInternalTable(name, virtual));
  const contents: Record<string, unknown[]> = {};
  for (const table of tables) contents[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY ${orderOf(db, table)}`).all().map((row) => ({ ...row }));
  return contents;
}

/** The same rows, read back with only the columns they had (a later migration may add some). */
function sameColumns(db: DatabaseSync, old: Record<string, unknown[]>): Record<string, unknown[]> {
  const now: Record<string, unknown[]> = {};
  for (const [table, rows] of Object.entries(old)) {
    const columns = rows.length === 0 ? '*' : Object.keys(rows[0] as object).map((c) => `"${c}"`).join(', ');
    now[table] = db.prepare(`SELECT ${columns} FROM "${table}" ORDER BY ${orderOf(db, table)}`).all().map((row) => ({ ...row }));
  }
  return now;
}

function read<T>(path: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

// This build's own version too: a stop ships it, and its fixture is what notices an edit after that
// (docs/decisions.md "Store safety"). While a migration is being written, delete its fixture and
// run the script again.
test('there is a committed fixture store for every schema version up to this build\'s, with rows in every table', () => {
  for (const version of [...EARLIER, SCHEMA_VERSION]) {
    assert.ok(existsSync(fixturePath(version)), `no fixture for schema v${version}: run node scripts/make-store-fixtures.ts and commit it`);
    const contents = read(fixturePath(version), contentsOf);
    for (const [table, rows] of Object.entries(contents)) if (!EMPTY_AT_REST.has(table)) assert.ok(rows.length > 0, `v${version}: table ${table} is empty`);
    assert.equal(read(fixturePath(version), (db) => Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version)), version);
  }
});

test("shipped migrations are unchanged: migrations 1..N still make each fixture's schema", () => {
  for (let version = 1; version <= SCHEMA_VERSION; version++) {
    if (!existsSync(fixturePath(version))) continue;
    const fresh = new DatabaseSync(':memory:');
    buildSchema(fresh, version);
    const expected = read(fixturePath(version), schemaOf);
    assert.deepEqual(schemaOf(fresh), expected, `migration ${version} or an earlier one was edited after it shipped; append a new migration instead`);
    fresh.close();
  }
});

for (const version of EARLIER) {
  test(`a store of schema v${version} opens with today's Tock and keeps every row`, (t) => {
    const path = copyOfFixture(t, version);
    const before = read(path, contentsOf);
    const store = openStore(path);
    t.after(() => store.close());
    assert.equal(store.schemaVersion, SCHEMA_VERSION);
    assert.equal(Number((store.db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id), TOCK_APPLICATION_ID);
    assert.deepEqual(sameColumns(store.db, before), before);
    assert.deepEqual({ ...store.db.prepare('PRAGMA integrity_check').get() }, { integrity_check: 'ok' });

    // And the app's use cases read it: the running session on its break, search over old names.
    const tracker = createTracker({ store, clock: () => Date.UTC(2026, 2, 29, 2, 0), timeZone: 'Europe/Berlin' });
    const status = tracker.getStatus();
    assert.equal(status.isTracking, true);
    assert.equal(status.isOnBreak, true);
    assert.equal(status.currentActivity?.activityName, 'Writing');
    assert.ok(status.todaySeconds > 0);
    assert.deepEqual(
      tracker.searchActivities('revision', 10).map((a) => a.activityName),
      ['Café ☕ Révision, "quoted"'],
    );
    // Colours kept with the activities (schema v12) are the ones the window gave them before: creation order.
    if (version < 12) {
      assert.deepEqual(
        tracker.listActivities().map((a) => [a.activityName, a.color]),
        [['Café ☕ Révision, "quoted"', 1], ['Code review', 2], ['Writing', 0]],
      );
    }
  });
}

/** Runs the upgrade in a child process, kills it with SIGKILL once it paused after migration `step`. */
function killUpgradeAfter(path: string, step: number): Promise<void> {
  return killWhenPaused(CHILD, [path, String(step)]);
}

for (const version of EARLIER) {
  test(`an upgrade from v${version} killed half way (-9 after migration ${version + 1}) leaves the old store intact, and it opens again`, async (t) => {
    const path = copyOfFixture(t, version);
    const before = read(path, (db) => ({ schema: schemaOf(db), contents: contentsOf(db) }));
    await killUpgradeAfter(path, version + 1);
    // As the old Tock would see it: its version, its schema, its rows.
    const db = new DatabaseSync(path);
    try {
      assert.equal(Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version), version);
      assert.deepEqual(schemaOf(db), before.schema);
      assert.deepEqual(contentsOf(db), before.contents);
    } finally {
      db.close();
    }
    const store = openStore(path);
    t.after(() => store.close());
    assert.equal(store.schemaVersion, SCHEMA_VERSION);
    assert.deepEqual(sameColumns(store.db, before.contents), before.contents);
  });
}

test("a store schema 15's first build made, without its last two indexes, gains them at 16, and its backups restore", (t) => {
  const path = copyOfFixture(t, 15);
  const LATE = ['sessions_long', 'sync_entities_activity_names'];
  // What the first build of schema 15 made: the same store without the two indexes it gained later.
  const first = new DatabaseSync(path);
  for (const name of LATE) first.exec(`DROP INDEX ${name}`);
  first.close();
  const indexesOf = (db: DatabaseSync) => schemaOf(db).filter((line) => LATE.some((name) => line.startsWith(`index ${name}:`)));
  const home = mkdtempSync(join(tmpdir(), 'tock-restore-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  // Its backup is Tock's: an index it lacks is no reason to refuse it.
  restoreStore(path, join(home, 'first.db'), Date.UTC(2026, 10, 29));

  const store = openStore(path);
  assert.equal(store.schemaVersion, 16);
  const gained = indexesOf(store.db);
  store.close();
  const fresh = new DatabaseSync(':memory:');
  buildSchema(fresh, SCHEMA_VERSION);
  assert.equal(gained.length, 2);
  assert.deepEqual(gained, indexesOf(fresh), 'the upgrade makes the two indexes with the SQL a new store has');
  fresh.close();
  // And the upgraded store's backup passes the check of every object's SQL.
  restoreStore(path, join(home, 'upgraded.db'), Date.UTC(2026, 10, 29));
});
