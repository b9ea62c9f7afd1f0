/**
 * Backups of `tock.db` and restoring one (docs/data.md "Backup and restore"). A backup is
 * taken with SQLite's online backup (`backup()` of node:sqlite) from a read-only connection
 * of its own, so it holds exactly the committed data of one moment while the app goes on
 * writing, and it is written under a temporary name and renamed into place once whole: a
 * file named like a backup is always a complete one. Backups are self-contained files (no
 * write-ahead log beside them), mode 0600.
 *
 * A restore checks a copy of the file (never the file itself, which stays as it was) before
 * anything in the home changes: SQLite's header, `PRAGMA integrity_check`, Tock's tables and a
 * schema version this build knows, and that every table, index, view and trigger in it is one
 * Tock makes, exactly as it makes it (a trigger smuggled into a backup would run inside every
 * write of the app). Sync is turned off in the copy, with the reason, and its device id
 * forgotten: the backup's log is older than what its device wrote to the folder since, so it
 * syncs again as a new device when the person turns sync on (docs/sync.md "Restore"). Then the
 * current store is kept under another name and the checked copy takes its place.
 */

import { Problem, isProblem, ruleLine } from '@tock/protocol';
import { closeSync, copyFileSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { installInvoiceGuard } from './invoiced.ts';
import { MIGRATIONS, SCHEMA_VERSION, schemaVersionOf } from './migrations.ts';
import type { Store } from './store.ts';
import { syncDirectory } from './store.ts';
import { checkStoreFileBytes, checkStoreIdentity, StoreFileError } from './store-file.ts';
import { captureTriggerSql } from './sync/capture.ts';
import { SYNC_SETTINGS } from './sync/log.ts';

/** `YYYYMMDD-HHMMSS` of an instant in the machine's local time: how backup files are named. */
export function backupStamp(ms: number): string {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Creates an empty 0600 file at `path` (SQLite would create it with the umask's mode). */
function createPrivateFile(path: string): void {
  closeSync(openSync(path, 'wx', 0o600));
}

/** A name beside `path` for a file being made, unique to this process and moment. */
function partialName(path: string): string {
  return join(dirname(path), `.${basename(path)}.partial-${process.pid}-${Date.now().toString(36)}`);
}

/** True for the temporary files {@link backupStore} writes, which a crash may leave behind. */
export function isPartialBackup(name: string): boolean {
  return name.startsWith('.') && name.includes('.partial-');
}

/**
 * Copies the store at `store.path` to `destination` (which must not exist) while the store
 * stays in use: SQLite's online backup in one step from a separate read-only connection (a
 * consistent snapshot of what was committed; writers go on meanwhile), switched to a rollback
 * journal so the copy is one file, made durable, then renamed into place. The directory is
 * created (0700) if needed. Resolves with the number of pages copied.
 */
export async function backupStore(store: Store, destination: string): Promise<number> {
  if (existsSync(destination)) throw new Problem('backup_failed', ...ruleLine('file', { rule: 'backupExists', values: { file: destination } }));
  mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
  const partial = partialName(destination);
  createPrivateFile(partial);
  try {
    const source = new DatabaseSync(store.path, { readOnly: true, timeout: 5000 });
    let pages: number;
    try {
      pages = await backup(source, partial, { rate: 2_147_483_647 });
    } finally {
      source.close();
    }
    const copy = new DatabaseSync(partial);
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
    } finally {
      copy.close();
    }
    fsyncFile(partial);
    // link, not rename: it fails instead of replacing a file someone made meanwhile.
    linkSync(partial, destination);
    syncDirectory(dirname(destination));
    return pages;
  } catch (error) {
    if (isProblem(error, 'backup_failed')) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Problem('backup_failed', ...ruleLine('file', { rule: 'backupExists', values: { file: destination } }));
    throw new Problem('backup_failed', ...ruleLine('file', { rule: 'backupWriteFailed', values: { file: destination, error: (error as Error).message } }));
  } finally {
    for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`]) rmSync(leftover, { force: true });
  }
}

/** What {@link restoreStore} did. */
export interface RestoreResult {
  /** The store now in place. */
  database: string;
  /** Where the store it replaced was kept, or null when there was none. */
  keptAs: string | null;
}

/**
 * Puts the backup `file` in place of the store at `database`. Refuses, changing nothing, a
 * file that is missing, not SQLite, damaged (`PRAGMA integrity_check` is not `ok`), not a
 * Tock store, or from a newer schema. The current store, if any, is kept as
 * `<database>.before-restore-<stamp>` (with its write-ahead log, if it has one, under the
 * same name plus `-wal`). The caller makes sure no app has the store open.
 */
export function restoreStore(file: string, database: string, stampMs: number): RestoreResult {
  const checked = checkedCopy(file, database);
  try {
    const stamp = backupStamp(stampMs);
    let keptAs: string | null = null;
    if (existsSync(database)) {
      keptAs = freeName(`${database}.before-restore-${stamp}`);
      // The old store keeps its inode under the new name; its log moves with it, first, so
      // the restored file never meets the old log (SQLite would replay it into the wrong file).
      linkSync(database, keptAs);
      if (existsSync(`${database}-wal`)) renameSync(`${database}-wal`, `${keptAs}-wal`);
      rmSync(`${database}-shm`, { force: true });
    }
    renameSync(checked, database);
    syncDirectory(dirname(database));
    return { database, keptAs };
  } finally {
    rmSync(checked, { force: true });
  }
}

/** `path`, or `path-2`, `path-3`… whichever does not exist yet. */
export function freeName(path: string, suffix = ''): string {
  if (!existsSync(path + suffix)) return path + suffix;
  for (let n = 2; ; n++) if (!existsSync(`${path}-${n}${suffix}`)) return `${path}-${n}${suffix}`;
}

/**
 * A checked copy of `file`, as a self-contained 0600 file beside `database`; the caller
 * removes or renames it. Throws {@link BackupError} when `file` is not a whole Tock store
 * this build can open; the copy is removed then and nothing else has changed.
 */
function checkedCopy(file: string, database: string): string {
  let exists: boolean;
  try {
    exists = checkStoreFileBytes(file);
  } catch (error) {
    throw refusal(file, error);
  }
  if (!exists) throw new Problem('backup_failed', ...ruleLine('file', { rule: 'backupNotFound', values: { file } }));
  mkdirSync(dirname(database), { recursive: true, mode: 0o700 });
  const copy = partialName(database);
  try {
    createPrivateFile(copy);
    copyFileSync(file, copy);
    // Commits still in a log beside the file are part of it: copy the log along.
    if (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const db = new DatabaseSync(copy);
    try {
      checkStoreIdentity(db, file);
      const problems = (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check);
      if (problems.length !== 1 || problems[0] !== 'ok') {
        // SQLite's first finding may span lines ("*** in database main ***\nTree 43 page 43: …"): one line.
        const finding = (problems[0] ?? 'no answer').replace(/\s+/g, ' ');
        throw new StoreFileError('corrupt', { rule: 'storeIntegrity', values: { path: file, finding } });
      }
      const tables = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' LIMIT 1").get();
      if (tables === undefined) throw new StoreFileError('foreign', { rule: 'storeEmptySqlite', values: { path: file } });
      checkSchemaObjects(db, file);
      db.exec('PRAGMA journal_mode = DELETE');
      turnSyncOff(db);
    } finally {
      db.close();
    }
    fsyncFile(copy);
    return copy;
  } catch (error) {
    for (const leftover of [copy, `${copy}-wal`, `${copy}-shm`, `${copy}-journal`]) rmSync(leftover, { force: true });
    throw refusal(file, error);
  }
}

/** Why a restored store does not sync, as `tock sync status` and Settings › Sync say it. */
export const RESTORED_SYNC_OFF_REASON =
  'this store was restored from a backup, so sync was turned off (the backup is older than what this device wrote to the sync folder); turn it on again with `tock sync enable DIR --key KEY` — this device then syncs as a new device, and what the other devices hold since the backup comes back';

/** Every schema object Tock makes at `version`, by name: its type and SQL as sqlite_schema keeps them. */
function tockSchema(version: number): Map<string, { type: string; sql: string | null }> {
  const scratch = new DatabaseSync(':memory:');
  try {
    for (const migration of MIGRATIONS) if (migration.version <= version) scratch.exec(migration.sql);
    // The invoiced-block guard (invoiced.ts), made when a store opens: once there are invoices.
    if (scratch.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'invoices'").get() !== undefined) installInvoiceGuard(scratch);
    const objects = new Map(
      (scratch.prepare('SELECT type, name, sql FROM sqlite_schema').all() as { type: string; name: string; sql: string | null }[]).map((r) => [r.name, { type: r.type, sql: r.sql }]),
    );
    // The capture triggers of sync (made while sync is on) are this build's: at this build's schema only.
    if (version === SCHEMA_VERSION) for (const [name, sql] of captureTriggerSql(scratch)) objects.set(name, { type: 'trigger', sql });
    return objects;
  } finally {
    scratch.close();
  }
}

/** A name from a file as a message may show it: quoted, control characters escaped, at most 80 characters. */
function shownName(name: string): string {
  const json = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  return json.replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

/**
 * Refuses a store holding a table, index, view or trigger that Tock does not make, or one of
 * Tock's names with other SQL: compared with what this build's migrations (and sync's capture
 * triggers) make at the store's schema version. SQLite's own objects (`sqlite_…`) are its own.
 */
function checkSchemaObjects(db: DatabaseSync, file: string): void {
  const expected = tockSchema(schemaVersionOf(db));
  const rows = db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY rowid').all() as { type: string; name: string; sql: string | null }[];
  for (const row of rows) {
    if (row.name.startsWith('sqlite_')) continue;
    const tock = expected.get(row.name);
    if (tock === undefined || tock.type !== row.type) {
      throw new StoreFileError('foreign', { rule: 'storeObjectForeign', values: { path: file, type: row.type, name: shownName(row.name) } });
    }
    if (tock.sql !== row.sql) throw new StoreFileError('foreign', { rule: 'storeObjectAltered', values: { path: file, type: row.type, name: shownName(row.name) } });
  }
}

/**
 * Turns sync off in the restored copy and forgets its device id and format (see the file
 * comment), keeping why for the status; drops the capture triggers (sync makes them again).
 */
function turnSyncOff(db: DatabaseSync): void {
  const keys = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'settings'").get();
  if (keys === undefined) return;
  const has = (key: string): boolean => db.prepare('SELECT 1 FROM settings WHERE key = ?').get(key) !== undefined;
  const wasOn = has(SYNC_SETTINGS.config);
  if (!wasOn && !has(SYNC_SETTINGS.device)) return;
  db.exec('BEGIN');
  try {
    for (const name of (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND substr(name, 1, 13) = 'sync_capture_'").all() as { name: string }[]).map((r) => r.name)) {
      db.exec(`DROP TRIGGER "${name.replaceAll('"', '""')}"`);
    }
    const remove = db.prepare('DELETE FROM settings WHERE key = ?');
    for (const key of [SYNC_SETTINGS.config, SYNC_SETTINGS.device, SYNC_SETTINGS.format, SYNC_SETTINGS.clock]) remove.run(key);
    if (wasOn) {
      db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
        SYNC_SETTINGS.offReason,
        // Its code beside the English, for the doors that say it in the person's language (docs/i18n.md).
        JSON.stringify({ reason: RESTORED_SYNC_OFF_REASON, code: 'sync_restored' }),
      );
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function refusal(file: string, error: unknown): Error {
  if (isProblem(error, 'backup_failed')) return error;
  // What is wrong with the file by its own rule inside (`item`), for the doors that word it.
  if (error instanceof StoreFileError) return new Problem('backup_failed', ...ruleLine('file', { rule: 'restoreUnreadable', values: { reason: error.message }, item: error.rule }));
  const problem = (error as { errcode?: number } | null)?.errcode;
  if (problem !== undefined && ((problem & 0xff) === 11 || (problem & 0xff) === 26)) {
    return new Problem('backup_failed', ...ruleLine('file', { rule: 'restoreDamaged', values: { file, error: (error as Error).message } }));
  }
  return new Problem('backup_failed', ...ruleLine('file', { rule: 'restoreFailed', values: { file, error: (error as Error).message ?? String(error) } }));
}
