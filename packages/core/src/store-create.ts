/**
 * Making `tock.db` on disk: a new store is built whole under a temporary name and linked into
 * place, so the file is never half made; the store's files are owner-only (0600); and a
 * directory's new entries are made durable. What checks an existing file is store-file.ts.
 */

import { chmodSync, closeSync, fsyncSync, linkSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { migrate, type MigrateOptions } from './migrations.ts';

/** Makes a file owner-only (0600) if it exists; a no-op on Windows, whose modes mean little. */
export function ownerOnly(path: string): void {
  if (process.platform === 'win32') return;
  try {
    if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Makes a directory's entries (a file linked or renamed into it) durable; not possible on Windows. */
export function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates a migrated store at `path`: built in a 0600 file beside it (rollback journal, so
 * the build leaves no -wal behind), made durable, then hard-linked into place. The link fails
 * if another process created `path` meanwhile; its store is then the one used.
 */
export function createStoreFile(path: string, migrateOptions: MigrateOptions | undefined): void {
  const building = `${path}.new-${process.pid}-${Date.now().toString(36)}`;
  closeSync(openSync(building, 'wx', 0o600));
  try {
    const db = new DatabaseSync(building);
    try {
      db.exec('PRAGMA journal_mode = DELETE');
      db.exec('PRAGMA synchronous = FULL');
      migrate(db, migrateOptions);
    } finally {
      db.close();
    }
    const fd = openSync(building, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(building, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    syncDirectory(dirname(path));
  } finally {
    rmSync(building, { force: true });
    rmSync(`${building}-journal`, { force: true });
  }
}
