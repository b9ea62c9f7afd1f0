import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test, type TestContext } from 'node:test';
import { SCHEMA_VERSION } from '../src/migrations.ts';
import { openStore } from '../src/store.ts';
import { ruleMessage, type FieldRule, type FieldRuleCode } from '@tock/protocol';
import { StoreFileError, TOCK_APPLICATION_ID, type StoreFileProblem } from '../src/store-file.ts';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'tock-store-file-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The bytes of a real store with a little data in it, checkpointed into the main file. */
function wholeStore(dir: string): Buffer {
  const path = join(dir, 'source.db');
  const store = openStore(path);
  for (let i = 0; i < 50; i++) store.settings.set(`key ${i}`, 'x'.repeat(200));
  store.close();
  const bytes = readFileSync(path);
  rmSync(path);
  return bytes;
}

/**
 * Runs `makeFile` for tock.db, checks openStore refuses it as `problem`, said by `rule` (its
 * English the message, the file's path among its values), and that nothing changed.
 */
function assertRefused(t: TestContext, problem: StoreFileProblem, rule: FieldRuleCode, message: RegExp, makeFile: (path: string) => void): void {
  const dir = tempDir(t);
  const path = join(dir, 'tock.db');
  makeFile(path);
  const before = readFileSync(path);
  const mode = statSync(path).mode;
  assert.throws(
    () => openStore(path),
    (error: unknown) => {
      assert.ok(error instanceof StoreFileError, `a StoreFileError, not ${String(error)}`);
      assert.equal(error.problem, problem);
      assert.match(error.message, message);
      assert.equal(error.rule.rule, rule);
      assert.equal(error.rule.values?.path, path);
      assert.equal(ruleMessage(error.rule), error.message, 'the English is its rule’s');
      assert.ok(error.message.includes(path), 'names the file');
      assert.ok(!error.message.includes('\n'), 'one line');
      return true;
    },
  );
  assert.deepEqual(readFileSync(path), before, 'the file is byte for byte as it was');
  assert.equal(statSync(path).mode, mode);
  assert.deepEqual(readdirSync(dir), ['tock.db'], 'no -wal, -shm, journal or half-made store left beside it');
}

test('refuses an empty (0-byte) tock.db and leaves it as it was', (t) => {
  assertRefused(t, 'empty', 'storeEmpty', /is empty \(0 bytes\)/, (path) => writeFileSync(path, ''));
});

test('refuses a zeroed tock.db', (t) => {
  assertRefused(t, 'not-sqlite', 'storeZeroed', /is zeroed/, (path) => writeFileSync(path, Buffer.alloc(143_360)));
});

test('refuses a file that is not SQLite at all', (t) => {
  assertRefused(t, 'not-sqlite', 'storeNotSqlite', /is not an SQLite database/, (path) => writeFileSync(path, 'activity,start\nWriting,2026-01-01\n'));
});

test('refuses a truncated store, naming how much is missing', (t) => {
  const bytes = wholeStore(tempDir(t));
  assertRefused(t, 'truncated', 'storeTruncated', new RegExp(`is truncated \\(${bytes.length / 2} of ${bytes.length} bytes\\)`), (path) =>
    writeFileSync(path, bytes.subarray(0, bytes.length / 2)),
  );
});

test('refuses a store cut inside its header', (t) => {
  const bytes = wholeStore(tempDir(t));
  assertRefused(t, 'not-sqlite', 'storeNotSqlite', /is not an SQLite database/, (path) => writeFileSync(path, bytes.subarray(0, 60)));
});

test('refuses a store whose first page is damaged', (t) => {
  const bytes = wholeStore(tempDir(t));
  assertRefused(t, 'corrupt', 'storeSqliteDamaged', /is damaged/, (path) => {
    const damaged = Buffer.from(bytes);
    damaged.fill(0xa5, 100, 4096); // the schema table's page, after the file header
    writeFileSync(path, damaged);
  });
});

test("refuses another program's SQLite database, marked or not", (t) => {
  assertRefused(t, 'foreign', 'storeOtherProgram', /database of another program \(application_id 0x1234\)/, (path) => {
    const db = new DatabaseSync(path);
    db.exec('PRAGMA application_id = 4660; CREATE TABLE photos (id INTEGER PRIMARY KEY)');
    db.close();
  });
  assertRefused(t, 'foreign', 'storeNoTable', /is an SQLite database, but not Tock's/, (path) => {
    const db = new DatabaseSync(path);
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello')");
    db.close();
  });
});

test('refuses a store from a newer Tock, by its header and by its write-ahead log', (t) => {
  assertRefused(t, 'newer', 'storeNewer', new RegExp(`written by a newer Tock \\(schema version ${SCHEMA_VERSION + 1}; this Tock knows up to ${SCHEMA_VERSION}\\)`), (path) => {
    openStore(path).close();
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
  });
  // A newer Tock crashed right after its upgrade: the header is old, the log has the new version.
  const dir = tempDir(t);
  const live = join(dir, 'live.db');
  const store = openStore(live);
  store.db.exec('PRAGMA wal_autocheckpoint = 0');
  store.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  const crashed = join(tempDir(t), 'tock.db');
  copyFileSync(live, crashed);
  copyFileSync(`${live}-wal`, `${crashed}-wal`);
  store.close();
  const before = [readFileSync(crashed), readFileSync(`${crashed}-wal`)];
  assert.throws(() => openStore(crashed), (error: unknown) => error instanceof StoreFileError && error.problem === 'newer');
  assert.deepEqual([readFileSync(crashed), readFileSync(`${crashed}-wal`)], before, 'neither the store nor its log changed');
});

test('marks the stores it makes as Tock\'s, and they are 0600 with their -wal and -shm', (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'tock.db');
  const store = openStore(path);
  t.after(() => store.close());
  store.settings.set('written', true);
  assert.equal(Number((store.db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id), TOCK_APPLICATION_ID);
  assert.deepEqual(readdirSync(dir).sort(), ['tock.db', 'tock.db-shm', 'tock.db-wal']);
  for (const name of readdirSync(dir)) assert.equal(statSync(join(dir, name)).mode & 0o777, 0o600, name);
});

test('a folder it makes for a store is 0700, whatever the umask', (t) => {
  const dir = tempDir(t);
  const before = process.umask(0);
  t.after(() => process.umask(before));
  const path = join(dir, 'made', 'here', 'tock.db');
  openStore(path).close();
  for (const folder of [join(dir, 'made'), join(dir, 'made', 'here')]) assert.equal(statSync(folder).mode & 0o777, 0o700, folder);
});

test('makes an existing store owner-only when it opens it', (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'tock.db');
  writeFileSync(path, wholeStore(dir), { mode: 0o644 });
  openStore(path).close();
  assert.equal(statSync(path).mode & 0o777, 0o600);
});

test('says what is wrong with a store file by its rule, in the English it always did', () => {
  const p = '/home/ada/.tock/tock.db';
  const lines: [FieldRule, string][] = [
    [{ rule: 'storeNotFile', values: { path: p } }, `${p} is not a file`],
    [{ rule: 'storeEmpty', values: { path: p } }, `${p} is empty (0 bytes), not a Tock database`],
    [{ rule: 'storeZeroed', values: { path: p } }, `${p} is zeroed (its first bytes are all 0), not a Tock database`],
    [{ rule: 'storeNotSqlite', values: { path: p } }, `${p} is not an SQLite database`],
    [{ rule: 'storePageSize', values: { path: p } }, `${p} is damaged (its header names no valid page size)`],
    [{ rule: 'storeTruncated', values: { path: p, size: 4096, expected: 8192 } }, `${p} is truncated (4096 of 8192 bytes)`],
    [{ rule: 'storeOtherProgram', values: { path: p, id: '1234' } }, `${p} is the database of another program (application_id 0x1234), not Tock's`],
    [{ rule: 'storeNewer', values: { path: 'tock.db', version: 99, known: 12 } }, 'tock.db was written by a newer Tock (schema version 99; this Tock knows up to 12): update Tock'],
    [{ rule: 'storeNoTable', values: { path: p, table: 'activities' } }, `${p} is an SQLite database, but not Tock's (it has no activities)`],
    [{ rule: 'storeNoSchemaVersion', values: { path: p } }, `${p} is an SQLite database, but not Tock's (it has no schema version)`],
    [{ rule: 'storeSqliteDamaged', values: { path: p, error: 'database disk image is malformed' } }, `${p} is damaged (SQLite: database disk image is malformed)`],
    [{ rule: 'storeIntegrity', values: { path: p, finding: 'Tree 43 page 43: bad' } }, `${p} is damaged (integrity check: Tree 43 page 43: bad)`],
    [{ rule: 'storeEmptySqlite', values: { path: p } }, `${p} is an empty SQLite database, not a Tock store`],
    [{ rule: 'storeObjectForeign', values: { path: p, type: 'trigger', name: '"steal"' } }, `${p} holds a trigger "steal" that is not Tock's (a backup Tock made has none)`],
    [{ rule: 'storeObjectAltered', values: { path: p, type: 'table', name: '"entries"' } }, `${p} holds a table "entries" that is not as Tock makes it (it was altered)`],
  ];
  for (const [rule, line] of lines) assert.equal(new StoreFileError('corrupt', rule).message, line, rule.rule);
});
