/**
 * The SQLite store behind Tock: one file, `tock.db`, opened in WAL mode with
 * `synchronous=FULL`, so that a write is on disk before the call that made it returns and a
 * `kill -9` loses nothing acknowledged. Besides the tracking tables (used through
 * {@link createTracker}) it offers the small generic stores the app needs: settings,
 * idempotency keys and nonces.
 */

import { chmodSync, closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { asInvoicedProblem, installInvoiceGuard } from './invoiced.ts';
import { migrate, type MigrateOptions } from './migrations.ts';
import { asStoreFileError, checkStoreFileBytes, checkStoreIdentity } from './store-file.ts';

/** How long a connection waits for another one's write lock before giving up, ms. */
export const BUSY_TIMEOUT_MS = 5000;

/** App settings: JSON values under string keys. */
export interface SettingsStore {
  /** The value stored under `key`, or `undefined` when there is none. */
  get<T = unknown>(key: string): T | undefined;
  /** Stores a JSON-serializable value under `key`, replacing any earlier one. */
  set(key: string, value: unknown): void;
  /** Removes `key`; true when it was there. */
  delete(key: string): boolean;
}

/** A response remembered for an `Idempotency-Key` (docs/protocol.md "Request signing"). */
export interface IdempotencyRecord {
  method: string;
  path: string;
  /** Lowercase hex SHA-256 of the request body bytes. */
  bodySha256: string;
  status: number;
  /** The response body, exactly as first sent. */
  body: string;
  createdAtMs: number;
}

/** Idempotency keys and the first response given to each (kept 24 h by the listener's pruning). */
export interface IdempotencyStore {
  find(key: string): IdempotencyRecord | undefined;
  /** Remembers the response for `key`, replacing any earlier record. */
  save(key: string, record: IdempotencyRecord): void;
  /** Forgets records created before `olderThanMs`; returns how many. */
  prune(olderThanMs: number): number;
}

/** A nonce as remembered: the nonce and its request's timestamp, Unix seconds. */
export interface RememberedNonce {
  nonce: string;
  timestamp: number;
}

/** Nonces of verified requests, kept across restarts so the replay window survives them. */
export interface NonceStore {
  remember(nonce: string, timestampSec: number): void;
  /** Nonces whose timestamp is `sinceSec` or later. */
  recent(sinceSec: number): RememberedNonce[];
  /** Forgets nonces whose timestamp is before `beforeSec`; returns how many. */
  prune(beforeSec: number): number;
}

/** An open `tock.db`. */
export interface Store {
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
  /**
   * Runs `fn` in one transaction (`BEGIN IMMEDIATE`): all its writes land or none do.
   * A nested call runs in a savepoint of the outer transaction: if it throws, its own writes
   * are undone and the outer transaction goes on.
   */
  transaction<T>(fn: () => T): T;
  /**
   * Group commit: runs `fn` at once, in a savepoint of a transaction that the writes arriving
   * in the same turn of the event loop share, and resolves once that transaction is committed
   * (on disk). One fsync then acknowledges every write of the group. Until it resolves nobody
   * else sees the writes: any other use of the store first commits the open group. When `fn`
   * throws, its own writes are undone and the promise rejects at once; when the commit fails,
   * every write of the group is undone and every promise rejects with that error.
   */
  durably<T>(fn: () => T): Promise<T>;
  /** A prepared statement for `sql`, prepared once per connection. */
  statement(sql: string): StatementSync;
  /**
   * Goes up whenever this connection may have changed data: a statement other than a SELECT
   * was taken for use, or a transaction began or ended (a rollback changes data too). Values
   * derived from the data can be kept while it stays the same. Writes made on `db` directly
   * are not counted.
   */
  readonly generation: number;
  /**
   * Calls `listener` each time {@link generation} goes up, until the returned function is
   * called: a way to hear of writes without looking on a timer (the tray, docs/desktop.md "The
   * tray"). It is called at once, possibly inside a transaction or before the statement just
   * taken has run: it must not use the store, only note that something changed and look later.
   */
  onWrite(listener: () => void): () => void;
  /** Closes the connection. Safe to call twice. */
  close(): void;
}

/** How to open a store; everything is optional. */
export interface OpenStoreOptions {
  /** Passed to {@link migrate}: a test's hook that runs inside the upgrade transaction. */
  migrate?: MigrateOptions;
}

/**
 * Whether a statement only reads: a SELECT, or a WITH … SELECT (a query over common table
 * expressions) that names no writing keyword. Anything else counts as a write for
 * {@link Store.generation}; a word like UPDATE inside a read's string literal only costs a
 * recomputation.
 */
function isRead(sql: string): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE|REPLACE|UPSERT)\b/i.test(sql);
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
    mkdirSync(dirname(path), { recursive: true });
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
    const schemaVersion = migrate(db, options.migrate);
    installInvoiceGuard(db);
    if (onDisk) for (const sidecar of ['-wal', '-shm']) ownerOnly(path + sidecar);
    return makeStore(path, db, schemaVersion);
  } catch (error) {
    db.close();
    throw (onDisk ? asStoreFileError(error, path) : undefined) ?? error;
  }
}

/** Makes a file owner-only (0600) if it exists; a no-op on Windows, whose modes mean little. */
function ownerOnly(path: string): void {
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
function createStoreFile(path: string, migrateOptions: MigrateOptions | undefined): void {
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

/** The writes waiting for one commit: how to tell each of them how it ended. */
interface Group {
  settle: ((error: unknown) => void)[];
}

function makeStore(path: string, db: DatabaseSync, schemaVersion: number): Store {
  const statements = new Map<string, StatementSync>();
  let depth = 0;
  let closed = false;
  /** The open group commit, if any: its transaction is open at depth 1. */
  let group: Group | null = null;
  /** True while a write of the open group runs: only then may the group's transaction be used. */
  let inGroup = false;
  /** The error with which SQLite rolled back the open transaction under a nested call, if it did. */
  let lostBy: unknown = null;
  /** See {@link Store.generation}; `writing` holds the statements that count. */
  let generation = 0;
  const writing = new WeakSet<StatementSync>();
  /** See {@link Store.onWrite}. */
  const writeListeners = new Set<() => void>();
  const wrote = (): void => {
    generation++;
    if (writeListeners.size > 0) for (const listener of writeListeners) listener();
  };

  /** Commits the open group (one fsync) and settles its writes. */
  const commitGroup = (): void => {
    const g = group;
    if (g === null) return;
    group = null;
    let failure: unknown = null;
    try {
      if (db.isTransaction) db.exec('COMMIT');
      else failure = lost();
    } catch (error) {
      failure = error;
      try {
        if (db.isTransaction) db.exec('ROLLBACK');
      } catch {
        // The connection is gone or broken: the writes are not saved either way, as reported.
      }
    } finally {
      depth = 0;
      wrote();
    }
    for (const settle of g.settle) settle(failure);
  };

  /** Anything but a write of the open group first commits it, so no one sees unsaved writes. */
  const outsideGroup = (): void => {
    if (group !== null && !inGroup) commitGroup();
  };

  const statement = (sql: string): StatementSync => {
    outsideGroup();
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
      if (!isRead(sql)) writing.add(s);
    }
    if (writing.has(s)) wrote();
    return s;
  };

  /**
   * Some failures (a full disk, an I/O error) make SQLite roll back the whole transaction, not
   * just the statement. A nested call that fails so throws as usual; if its caller catches the
   * error and goes on, the work it thinks it did is gone: it must not be committed or answered
   * as done. This is the error that took the transaction down, to throw at that caller.
   */
  const lost = (): unknown => lostBy ?? new Error('SQLite rolled the transaction back; nothing of it was saved');

  const transaction = <T>(fn: () => T): T => {
    outsideGroup();
    wrote();
    if (depth > 0) {
      // A savepoint: a nested call that fails undoes its own writes and leaves the outer
      // transaction to decide about the rest (the listener commits a use case together with
      // its idempotency record, and answers a failed use case without its half-done writes).
      const savepoint = `tock_nested_${depth}`;
      db.exec(`SAVEPOINT ${savepoint}`);
      depth++;
      try {
        const result = fn();
        if (!db.isTransaction) throw lost();
        db.exec(`RELEASE ${savepoint}`);
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        else lostBy ??= error;
        // A write the invoiced-block guard refused (invoiced.ts): the one problem, not SQLite's text.
        throw asInvoicedProblem(error);
      } finally {
        depth--;
        wrote();
      }
    }
    db.exec('BEGIN IMMEDIATE');
    depth = 1;
    lostBy = null;
    try {
      const result = fn();
      if (!db.isTransaction) throw lost();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw asInvoicedProblem(error);
    } finally {
      depth = 0;
      wrote();
    }
  };

  const durably = <T>(fn: () => T): Promise<T> => {
    if (group === null) {
      if (depth > 0) throw new Error('durably() was called inside transaction(): its writes would be saved by that transaction');
      db.exec('BEGIN IMMEDIATE');
      depth = 1;
      lostBy = null;
      group = { settle: [] };
      setImmediate(commitGroup);
    }
    const g = group;
    const nested = inGroup;
    inGroup = true;
    let result: T;
    try {
      result = transaction(fn);
    } catch (error) {
      // Some failures (a full disk, I/O errors) make SQLite roll back the whole transaction:
      // then the group's earlier writes are gone too, and they must hear it now.
      if (!db.isTransaction) commitGroup();
      return Promise.reject(error);
    } finally {
      inGroup = nested;
    }
    return new Promise<T>((resolve, reject) => {
      g.settle.push((failure) => (failure === null ? resolve(result) : reject(failure)));
    });
  };

  const run = (sql: string, ...params: SQLInputValue[]): number => Number(statement(sql).run(...params).changes);

  const settings: SettingsStore = {
    get<T>(key: string): T | undefined {
      const row = statement('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
      return row === undefined ? undefined : (JSON.parse(row.value) as T);
    },
    set(key: string, value: unknown): void {
      const json = JSON.stringify(value);
      if (json === undefined) throw new TypeError(`setting "${key}" must be a JSON value`);
      run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, json);
    },
    delete(key: string): boolean {
      return run('DELETE FROM settings WHERE key = ?', key) > 0;
    },
  };

  const idempotency: IdempotencyStore = {
    find(key: string): IdempotencyRecord | undefined {
      const row = statement(
        `SELECT method, path, body_sha256 AS bodySha256, status, body, created_at_ms AS createdAtMs
         FROM idempotency_keys WHERE key = ?`,
      ).get(key) as IdempotencyRecord | undefined;
      return row === undefined ? undefined : { ...row };
    },
    save(key: string, r: IdempotencyRecord): void {
      run(
        `INSERT OR REPLACE INTO idempotency_keys (key, method, path, body_sha256, status, body, created_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        key,
        r.method,
        r.path,
        r.bodySha256,
        r.status,
        r.body,
        r.createdAtMs,
      );
    },
    prune(olderThanMs: number): number {
      return run('DELETE FROM idempotency_keys WHERE created_at_ms < ?', olderThanMs);
    },
  };

  const nonces: NonceStore = {
    remember(nonce: string, timestampSec: number): void {
      run('INSERT OR REPLACE INTO nonces (nonce, timestamp) VALUES (?, ?)', nonce, timestampSec);
    },
    recent(sinceSec: number): RememberedNonce[] {
      const rows = statement('SELECT nonce, timestamp FROM nonces WHERE timestamp >= ? ORDER BY timestamp').all(
        sinceSec,
      ) as unknown as RememberedNonce[];
      return rows.map((r) => ({ nonce: r.nonce, timestamp: r.timestamp }));
    },
    prune(beforeSec: number): number {
      return run('DELETE FROM nonces WHERE timestamp < ?', beforeSec);
    },
  };

  return {
    path,
    schemaVersion,
    db,
    settings,
    idempotency,
    nonces,
    transaction,
    durably,
    statement,
    get generation(): number {
      return generation;
    },
    onWrite(listener) {
      writeListeners.add(listener);
      return () => writeListeners.delete(listener);
    },
    close(): void {
      if (closed) return;
      commitGroup();
      closed = true;
      statements.clear();
      db.close();
    },
  };
}
