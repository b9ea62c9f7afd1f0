/**
 * The SQLite store behind Tock: one file, `tock.db`, opened in WAL mode with
 * `synchronous=FULL`, so that a write is on disk before the call that made it returns and a
 * `kill -9` loses nothing acknowledged. Besides the tracking tables (used through
 * {@link createTracker}) it offers the small generic stores the app needs: settings,
 * idempotency keys and nonces (keyed-stores.ts). Its transactions and group commit are
 * store-connection.ts; making a new file is store-create.ts.
 */

import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { installInvoiceGuard } from './invoiced.ts';
import {
  idempotencyStore,
  nonceStore,
  settingsStore,
  type IdempotencyStore,
  type NonceStore,
  type SettingsStore,
} from './keyed-stores.ts';
import { migrate, type MigrateOptions } from './migrations.ts';
import { storeConnection, type StoreConnection } from './store-connection.ts';
import { createStoreFile, ownerOnly } from './store-create.ts';
import { asStoreFileError, checkStoreFileBytes, checkStoreIdentity } from './store-file.ts';

export type { IdempotencyRecord, IdempotencyStore, NonceStore, RememberedNonce, SettingsStore } from './keyed-stores.ts';
export { syncDirectory } from './store-create.ts';

/** How long a connection waits for another one's write lock before giving up, ms. */
export const BUSY_TIMEOUT_MS = 5000;

/** An open `tock.db`: its connection's transaction rules (store-connection.ts) and its stores. */
export interface Store extends StoreConnection {
  /** The path it was opened with (`:memory:` for an in-memory store). */
  readonly path: string;
  /** The schema version after migrations ran. */
  readonly schemaVersion: number;
  /**
   * The SQLite connection. Meant for core's own modules and for tests; the app should go
   * through the tracker and the stores below.
   */
  readonly db: DatabaseSync;
  readonly settings: SettingsStore;
  readonly idempotency: IdempotencyStore;
  readonly nonces: NonceStore;
}

/** How to open a store; everything is optional. */
export interface OpenStoreOptions {
  /** Passed to {@link migrate}: a test's hook that runs inside the upgrade transaction. */
  migrate?: MigrateOptions;
}

/**
 * Opens (creating if needed) the database at `path` — a file path, or `:memory:` — with WAL,
 * `synchronous=FULL`, foreign keys on and a busy timeout, and brings its schema up to date.
 * The directory is created if it does not exist; the file and its -wal and -shm are 0600.
 *
 * An existing file is checked before anything is written to it (see store-file.ts): an
 * empty, zeroed, truncated or foreign file, or a store from a newer Tock, is refused with a
 * {@link StoreFileError} and left byte for byte as it was. A new store is built under a
 * temporary name and linked into place whole, so `tock.db` is never a half-made file.
 */
export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  const onDisk = path !== ':memory:' && !path.startsWith('file:');
  if (onDisk) {
    // A folder made here is the person's alone (0700 by the mode, then by the umask at most).
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (!checkStoreFileBytes(path)) createStoreFile(path, options.migrate);
  }
  // Commits left in a write-ahead log (after a crash) are part of the store: check them too,
  // through a read-only connection, which cannot checkpoint them into a file it then refuses.
  if (onDisk && existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0) {
    const probe = new DatabaseSync(path, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
    try {
      checkStoreIdentity(probe, path);
    } finally {
      probe.close();
    }
  }
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: BUSY_TIMEOUT_MS });
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Before the first write (switching to WAL rewrites the header): is it ours, and whole?
    if (onDisk) {
      checkStoreIdentity(db, path);
      ownerOnly(path);
    }
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    // The statement journal of the group commit's savepoints (store-connection.ts) in memory:
    // at the default it spills past 64 KiB to a temp file, one opened, written and unlinked
    // every few requests of a heartbeat bulk (bench/README.md "Target 5").
    db.exec('PRAGMA temp_store = MEMORY');
    const schemaVersion = migrate(db, options.migrate);
    installInvoiceGuard(db);
    if (onDisk) for (const sidecar of ['-wal', '-shm']) ownerOnly(path + sidecar);
    return makeStore(path, db, schemaVersion);
  } catch (error) {
    db.close();
    throw (onDisk ? asStoreFileError(error, path) : undefined) ?? error;
  }
}

/** The store's object over its open, migrated connection. */
function makeStore(path: string, db: DatabaseSync, schemaVersion: number): Store {
  return storeConnection(db, (statement) => ({
    path,
    schemaVersion,
    db,
    settings: settingsStore(statement),
    idempotency: idempotencyStore(statement),
    nonces: nonceStore(statement),
  }));
}
