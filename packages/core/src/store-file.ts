/**
 * Is this file a Tock store this build can open? Answered before SQLite writes anything to it:
 * opening a file read-write and switching it to WAL rewrites its header, and a damaged file
 * "opened" that way is changed for good. So the first checks read the 100-byte SQLite header
 * with plain file reads; the ones that need SQLite (which tables, the schema version as the
 * write-ahead log has it) run on a connection that has not written yet. A file that fails
 * any of them is left exactly as it was, and the caller gets a {@link StoreFileError} that
 * says what is wrong in one line. What to do about it (restore a backup) is the app's to say.
 */

import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { SCHEMA_VERSION, schemaVersionOf } from './migrations.ts';
import { StoreFileError, TOCK_APPLICATION_ID } from './store-file-error.ts';

export { StoreFileError, TOCK_APPLICATION_ID, type StoreFileProblem } from './store-file-error.ts';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

/** The fields of the SQLite header that say whether a file is whole and whose it is. */
interface SqliteHeader {
  pageSize: number;
  changeCounter: number;
  pagesInHeader: number;
  versionValidFor: number;
  userVersion: number;
  applicationId: number;
}

function readHeaderBytes(path: string, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function parseHeader(bytes: Buffer): SqliteHeader {
  const rawPageSize = bytes.readUInt16BE(16);
  return {
    pageSize: rawPageSize === 1 ? 65536 : rawPageSize,
    changeCounter: bytes.readUInt32BE(24),
    pagesInHeader: bytes.readUInt32BE(28),
    versionValidFor: bytes.readUInt32BE(92),
    userVersion: bytes.readInt32BE(60),
    applicationId: bytes.readUInt32BE(68),
  };
}

function newerError(path: string, version: number): StoreFileError {
  return new StoreFileError('newer', { rule: 'storeNewer', values: { path, version, known: SCHEMA_VERSION } });
}

/** A file of another program: its `application_id` as hex digits. */
function otherProgram(path: string, applicationId: number): StoreFileError {
  return new StoreFileError('foreign', { rule: 'storeOtherProgram', values: { path, id: applicationId.toString(16) } });
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Checks the file at `path` from its bytes alone, without SQLite: it exists and is not
 * empty, starts with SQLite's header, is as long as its header says (unless a write-ahead log
 * beside it still holds pages), belongs to Tock or to no program in particular, and is not
 * from a newer schema. Returns false when there is no file (a new store may be created),
 * true when it passed; throws {@link StoreFileError} otherwise. Reads at most 4 KiB.
 */
export function checkStoreFileBytes(path: string): boolean {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (!stats.isFile()) throw new StoreFileError('not-sqlite', { rule: 'storeNotFile', values: { path } });
  if (stats.size === 0) throw new StoreFileError('empty', { rule: 'storeEmpty', values: { path } });
  const bytes = readHeaderBytes(path, 4096);
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    const zeros = bytes.every((b) => b === 0);
    throw new StoreFileError('not-sqlite', { rule: zeros ? 'storeZeroed' : 'storeNotSqlite', values: { path } });
  }
  const header = parseHeader(bytes);
  const { pageSize } = header;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    throw new StoreFileError('corrupt', { rule: 'storePageSize', values: { path } });
  }
  // The header's page count is current when its "valid for" stamp matches the change counter.
  // A write-ahead log beside the file may hold pages a checkpoint had not finished writing.
  const headerSizeValid = header.pagesInHeader > 0 && header.versionValidFor === header.changeCounter;
  const expected = header.pagesInHeader * pageSize;
  if (headerSizeValid && stats.size < expected && sizeOf(`${path}-wal`) === 0) {
    throw new StoreFileError('truncated', { rule: 'storeTruncated', values: { path, size: stats.size, expected } });
  }
  if (header.applicationId !== 0 && header.applicationId !== TOCK_APPLICATION_ID) throw otherProgram(path, header.applicationId);
  if (header.userVersion > SCHEMA_VERSION) throw newerError(path, header.userVersion);
  return true;
}

/** The tables every Tock schema version has had: how stores made before the application id are known. */
const TOCK_TABLES = ['activities', 'sessions', 'breaks', 'entries', 'settings'] as const;

/**
 * Checks, through a connection that has not written anything yet, that `db` holds a Tock
 * store this build can migrate (or nothing at all): its schema version is not newer than
 * {@link SCHEMA_VERSION} and it is marked as Tock's or has Tock's tables. SQLite's own
 * "malformed" and "not a database" errors become a {@link StoreFileError} too. `path` only
 * names the file in messages.
 */
export function checkStoreIdentity(db: DatabaseSync, path: string): void {
  let tables: string[];
  let version: number;
  let applicationId: number;
  try {
    tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    version = schemaVersionOf(db);
    applicationId = Number((db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id);
  } catch (error) {
    throw asStoreFileError(error, path) ?? error;
  }
  if (version > SCHEMA_VERSION) throw newerError(path, version);
  if (applicationId === TOCK_APPLICATION_ID) return;
  if (applicationId !== 0) throw otherProgram(path, applicationId);
  if (version === 0 && tables.length === 0) return; // a new, empty database
  const missing = TOCK_TABLES.filter((t) => !tables.includes(t));
  if (version === 0 || missing.length > 0) {
    const table = missing[0];
    throw new StoreFileError('foreign', table === undefined ? { rule: 'storeNoSchemaVersion', values: { path } } : { rule: 'storeNoTable', values: { path, table } });
  }
}

/**
 * SQLite's errors that mean "this file is damaged or not a database" (SQLITE_CORRUPT,
 * SQLITE_NOTADB, and their extended codes) as a {@link StoreFileError}; undefined for any
 * other error (a full disk, a lock), which is not the file's fault.
 */
export function asStoreFileError(error: unknown, path: string): StoreFileError | undefined {
  if (error instanceof StoreFileError) return error;
  const code = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof code !== 'number') return undefined;
  const primary = code & 0xff;
  if (primary === 11) return new StoreFileError('corrupt', { rule: 'storeSqliteDamaged', values: { path, error: (error as Error).message } });
  if (primary === 26) return new StoreFileError('not-sqlite', { rule: 'storeNotSqlite', values: { path } });
  return undefined;
}
