import { isProblem, type FieldRule, type Problem } from '@tock/protocol';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test, type TestContext } from 'node:test';
import { backupStamp, backupStore, restoreStore } from '../src/backup.ts';
import { SCHEMA_VERSION } from '../src/migrations.ts';
import { openStore, type Store } from '../src/store.ts';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'tock-backup-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function openIn(t: TestContext, path: string): Store {
  const store = openStore(path);
  t.after(() => store.close());
  return store;
}

function settingIn(path: string, key: string): unknown {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row === undefined ? undefined : JSON.parse(row.value);
  } finally {
    db.close();
  }
}

/** Everything in `dir` with its bytes, to show that a refused restore changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) files[name] = readFileSync(join(dir, name)).toString('base64');
  return files;
}

test('names backups by the local time of the clock, YYYYMMDD-HHMMSS', () => {
  const at = new Date(2026, 2, 7, 9, 5, 3).getTime();
  assert.equal(backupStamp(at), '20260307-090503');
});

test('backs up a store in use: a self-contained 0600 copy of what was committed, while writes go on', async (t) => {
  const dir = tempDir(t);
  const store = openIn(t, join(dir, 'tock.db'));
  store.settings.set('before', 1);
  const destination = join(dir, 'backups', 'copy.db');
  const copying = backupStore(store, destination);
  store.settings.set('during', 2);
  assert.ok((await copying) > 0);
  assert.deepEqual(readdirSync(join(dir, 'backups')), ['copy.db'], 'no -wal or half-written file beside it');
  assert.equal(statSync(destination).mode & 0o777, 0o600);
  assert.equal(statSync(join(dir, 'backups')).mode & 0o777, 0o700);
  assert.equal(settingIn(destination, 'before'), 1);
  const copy = new DatabaseSync(destination, { readOnly: true });
  t.after(() => copy.close());
  assert.deepEqual({ ...copy.prepare('PRAGMA journal_mode').get() }, { journal_mode: 'delete' });
  assert.deepEqual({ ...copy.prepare('PRAGMA integrity_check').get() }, { integrity_check: 'ok' });
  assert.equal(settingIn(store.path, 'during'), 2, 'the store went on taking writes');
});

test('never overwrites: a backup to an existing file is refused with one line', async (t) => {
  const dir = tempDir(t);
  const store = openIn(t, join(dir, 'tock.db'));
  const destination = join(dir, 'taken.db');
  writeFileSync(destination, 'mine');
  await assert.rejects(backupStore(store, destination), (error: unknown) => {
    assert.ok(isProblem(error, 'backup_failed'));
    assert.match(error.message, /taken\.db already exists; choose another file name or remove it first/);
    return true;
  });
  assert.equal(readFileSync(destination, 'utf8'), 'mine');
  assert.deepEqual(readdirSync(dir).sort(), ['taken.db', 'tock.db', 'tock.db-shm', 'tock.db-wal']);
});

/** A home with a store holding `current`, and a backup holding `backedUp`, both closed. */
async function homeWithBackup(t: TestContext): Promise<{ home: string; database: string; backup: string }> {
  const root = tempDir(t);
  const home = join(root, 'home');
  const database = join(home, 'tock.db');
  const store = openStore(database);
  store.settings.set('which', 'backed up');
  const backup = join(root, 'backup.db');
  await backupStore(store, backup);
  store.settings.set('which', 'current');
  store.close();
  return { home, database, backup };
}

test('restores a backup and keeps the current store as tock.db.before-restore-<stamp>', async (t) => {
  const { home, database, backup } = await homeWithBackup(t);
  const backupBytes = readFileSync(backup);
  const at = new Date(2026, 10, 23, 18, 30, 5).getTime();
  const result = restoreStore(backup, database, at);
  assert.deepEqual(result, { database, keptAs: `${database}.before-restore-20261123-183005` });
  assert.deepEqual(readdirSync(home).sort(), ['tock.db', 'tock.db.before-restore-20261123-183005']);
  assert.equal(statSync(database).mode & 0o777, 0o600);
  assert.equal(settingIn(database, 'which'), 'backed up');
  assert.equal(settingIn(`${database}.before-restore-20261123-183005`, 'which'), 'current');
  assert.deepEqual(readFileSync(backup), backupBytes, 'the backup itself is untouched');
  const reopened = openIn(t, database);
  assert.equal(reopened.settings.get('which'), 'backed up');
});

test('a store left with a write-ahead log (a crash) is kept with its log, which never meets the restored file', async (t) => {
  const { home, database, backup } = await homeWithBackup(t);
  const store = openStore(database);
  store.db.exec('PRAGMA wal_autocheckpoint = 0');
  store.settings.set('which', 'only in the log');
  // Keep the log as a crash would: copy the files while the store is open, then put them back.
  const crashed = { db: readFileSync(database), wal: readFileSync(`${database}-wal`) };
  store.close();
  writeFileSync(database, crashed.db);
  writeFileSync(`${database}-wal`, crashed.wal);
  const { keptAs } = restoreStore(backup, database, Date.now());
  assert.ok(keptAs !== null);
  assert.deepEqual(readdirSync(home).sort(), ['tock.db', `${keptAs.slice(home.length + 1)}`, `${keptAs.slice(home.length + 1)}-wal`].sort());
  assert.equal(settingIn(database, 'which'), 'backed up');
  assert.equal(settingIn(keptAs, 'which'), 'only in the log', 'the kept store still has its last commits');
});

test('restores into a home without a store', async (t) => {
  const { backup } = await homeWithBackup(t);
  const database = join(tempDir(t), 'fresh', 'tock.db');
  assert.deepEqual(restoreStore(backup, database, Date.now()), { database, keptAs: null });
  assert.equal(settingIn(database, 'which'), 'backed up');
});

test('refuses, changing nothing, a file that is missing, not SQLite, damaged, not Tock\'s or from a newer Tock', async (t) => {
  const { home, database, backup } = await homeWithBackup(t);
  const bad = join(tempDir(t), 'bad');
  mkdirSync(bad);
  const good = readFileSync(backup);
  const cases: [string, (path: string) => void, RegExp][] = [
    ['missing.db', () => {}, /missing\.db does not exist; give the path of a backup/],
    ['notes.txt', (path) => writeFileSync(path, 'not a database\n'), /notes\.txt is not an SQLite database; nothing was restored — pick another backup/],
    ['empty.db', (path) => writeFileSync(path, ''), /empty\.db is empty \(0 bytes\)/],
    ['half.db', (path) => writeFileSync(path, good.subarray(0, good.length / 2)), /half\.db is truncated/],
    [
      'damaged.db',
      (path) => {
        const bytes = Buffer.from(good);
        bytes.fill(0xff, bytes.length - 4096 * 3, bytes.length - 4096 * 2); // a page inside, the header intact
        writeFileSync(path, bytes);
      },
      /damaged\.db is damaged.*; nothing was restored — pick another backup/,
    ],
    [
      'other.db',
      (path) => {
        const db = new DatabaseSync(path);
        db.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY); INSERT INTO photos VALUES (1)');
        db.close();
      },
      /other\.db is an SQLite database, but not Tock's/,
    ],
    [
      'blank.db',
      (path) => {
        const db = new DatabaseSync(path);
        db.exec('PRAGMA user_version = 0; VACUUM');
        db.close();
      },
      /blank\.db is an empty SQLite database, not a Tock store/,
    ],
    [
      'newer.db',
      (path) => {
        writeFileSync(path, good);
        const db = new DatabaseSync(path);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
        db.close();
      },
      new RegExp(`newer\\.db was written by a newer Tock \\(schema version ${SCHEMA_VERSION + 1}`),
    ],
  ];
  const before = snapshot(home);
  for (const [name, make, message] of cases) {
    const path = join(bad, name);
    make(path);
    const file = existsSync(path) ? readFileSync(path) : null;
    assert.throws(
      () => restoreStore(path, database, Date.now()),
      (error: unknown) => {
        assert.ok(isProblem(error, 'backup_failed'), `${name}: ${String(error)}`);
        assert.match(error.message, message);
        assert.ok(!error.message.includes('\n'));
        return true;
      },
      name,
    );
    assert.deepEqual(snapshot(home), before, `${name}: the home is as it was`);
    if (file !== null) assert.deepEqual(readFileSync(path), file, `${name}: the file is as it was`);
  }
  assert.equal(settingIn(database, 'which'), 'current');
});

test('restores a store copied with its write-ahead log, commits in the log included, and leaves the copy as it was', async (t) => {
  const root = tempDir(t);
  const live = join(root, 'live', 'tock.db');
  const store = openStore(live);
  store.db.exec('PRAGMA wal_autocheckpoint = 0');
  store.settings.set('which', 'only in the log');
  // A copy taken with a file manager while the app ran: the main file and its log.
  const file = join(root, 'copied.db');
  writeFileSync(file, readFileSync(live));
  writeFileSync(`${file}-wal`, readFileSync(`${live}-wal`));
  store.close();
  const before = [readFileSync(file), readFileSync(`${file}-wal`)];
  const database = join(root, 'home', 'tock.db');
  restoreStore(file, database, Date.now());
  assert.deepEqual(readdirSync(join(root, 'home')), ['tock.db'], 'one self-contained file');
  assert.equal(settingIn(database, 'which'), 'only in the log');
  assert.deepEqual([readFileSync(file), readFileSync(`${file}-wal`)], before);
  assert.deepEqual(readdirSync(root).sort(), ['copied.db', 'copied.db-wal', 'home', 'live']);
});

test('restore refuses a store with a trigger, view, table or index that is not Tock\'s, or one of Tock\'s altered; nothing changes', async (t) => {
  const foreign: [string, RegExp, string][] = [
    // A trigger that would run inside every write of the app (the attack of issue 23).
    ["CREATE TRIGGER evil AFTER INSERT ON entries BEGIN UPDATE settings SET value = '\"x\"' WHERE key = 'sync'; END", /holds a trigger "evil" that is not Tock's/, 'storeObjectForeign'],
    ['CREATE VIEW v AS SELECT * FROM entries', /holds a view "v" that is not Tock's/, 'storeObjectForeign'],
    ['CREATE TABLE extra (x)', /holds a table "extra" that is not Tock's/, 'storeObjectForeign'],
    ['CREATE INDEX extra_ix ON entries (note)', /holds a index "extra_ix" that is not Tock's/, 'storeObjectForeign'],
    // Tock's own name with another body.
    ["CREATE TRIGGER sync_capture_entries_insert AFTER INSERT ON entries BEGIN DELETE FROM activities; END", /holds a trigger "sync_capture_entries_insert" that is not as Tock makes it/, 'storeObjectAltered'],
  ];
  for (const [sql, refusal, rule] of foreign) {
    const { home, database, backup } = await homeWithBackup(t);
    const db = new DatabaseSync(backup);
    db.exec(sql);
    db.close();
    const before = snapshot(home);
    assert.throws(() => restoreStore(backup, database, Date.now()), (error: Error) => isProblem(error, 'backup_failed') && refusal.test(error.message) && /nothing was restored/.test(error.message), sql);
    // What is wrong with the file by its own rule inside restoreUnreadable, for the doors to word it.
    const line = problemLine(() => restoreStore(backup, database, Date.now()));
    assert.equal(line?.rule, 'restoreUnreadable', sql);
    assert.equal(line?.item?.rule, rule, sql);
    assert.equal(line?.item?.values?.path, backup, sql);
    assert.deepEqual(snapshot(home), before, sql);
  }
});

test("restore takes Tock's own sync capture triggers, turns sync off with the reason and forgets the device id", async (t) => {
  const { database, backup } = await homeWithBackup(t);
  const store = openIn(t, join(tempDir(t), 'synced.db'));
  const { installCapture, SYNC_SETTINGS } = await import('../src/sync/index.ts');
  store.settings.set(SYNC_SETTINGS.config, { dir: '/somewhere', name: 'laptop', format: 2 });
  store.settings.set(SYNC_SETTINGS.device, { deviceID: 'dddddddd-0000-4000-8000-000000000001', createdAt: 0 });
  store.settings.set(SYNC_SETTINGS.format, 2);
  installCapture(store);
  rmSync(backup);
  await backupStore(store, backup);
  restoreStore(backup, database, Date.now());
  assert.equal(settingIn(database, SYNC_SETTINGS.config), undefined);
  assert.equal(settingIn(database, SYNC_SETTINGS.device), undefined);
  assert.equal(settingIn(database, SYNC_SETTINGS.format), undefined);
  assert.match((settingIn(database, SYNC_SETTINGS.offReason) as { reason: string }).reason, /restored from a backup, so sync was turned off .* `tock sync enable DIR --key KEY`/);
  assert.equal((settingIn(database, SYNC_SETTINGS.offReason) as { code?: string }).code, 'sync_restored', 'its code beside the English (docs/i18n.md)');
  const db = new DatabaseSync(database, { readOnly: true });
  assert.equal((db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'sync_capture%'").get() as { n: number }).n, 0);
  db.close();
});

/** The rule of the line a refusal carries (its first detail's `line`), or undefined. */
function problemLine(refuse: () => unknown): FieldRule | undefined {
  try {
    refuse();
  } catch (error) {
    return (error as Problem).details?.[0]?.line;
  }
  assert.fail('not refused');
}
