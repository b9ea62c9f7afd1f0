/**
 * A full disk, told as what it is. SQLite refuses a write with SQLITE_FULL (and rolls the
 * transaction back, so nothing half-written remains); without this the listener would answer
 * an anonymous 500. The use cases behind the listener are wrapped so that the client gets
 * 503 `storage_full` with a line that says what to do, and the app keeps running.
 */
import { Problem } from '@tock/protocol';

/** SQLite's primary result code for "database or disk is full". */
const SQLITE_FULL = 13;

const STORAGE_FULL_MESSAGE = 'the disk is full, so Tock could not save this; free some disk space and retry';

/** True for SQLite's SQLITE_FULL (any extended code) and for a file system's ENOSPC / EDQUOT. */
export function isStorageFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown };
  if (e.code === 'ENOSPC' || e.code === 'EDQUOT') return true;
  return e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' && (e.errcode & 0xff) === SQLITE_FULL;
}

/** `fn`, with a full disk turned into a 503 `storage_full` problem; other failures pass through. */
export function reportingFullDisk<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    try {
      return fn(...args);
    } catch (error) {
      throw storageProblem(error);
    }
  };
}

/** A full disk as a 503 `storage_full` problem; any other failure as it is. */
export function storageProblem(error: unknown): unknown {
  return isStorageFull(error) ? new Problem('storage_full', STORAGE_FULL_MESSAGE) : error;
}
