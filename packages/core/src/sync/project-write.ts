/**
 * The two writes every projection of the merged state makes (docs/sync.md): one statement whose
 * refusal hides the row instead of failing the batch, and the mark of a thing waiting for what
 * it refers to.
 */

import type { DatabaseSync } from 'node:sqlite';
import { sql } from './entities.ts';

/**
 * Runs a projection write of one statement; a row the tables' rules refuse is not shown. A
 * failing statement undoes only itself (SQLite's statement atomicity): nothing else of the
 * batch is hurt, and no savepoint is needed. Returns whether the write went in.
 */
export function guarded(write: () => void, remove: () => void): boolean {
  try {
    write();
    return true;
  } catch {
    remove();
    return false;
  }
}

/**
 * Marks a thing as waiting for its ref (an activity or session not shown) or not. Only waiting
 * things are in the by-ref index; shown ones are found through the tracking tables.
 */
export function setPending(db: DatabaseSync, id: string, waiting: boolean): void {
  const flag = waiting ? 1 : 0;
  sql(db, 'UPDATE sync_entities SET pending = ? WHERE id = ? AND pending <> ?').run(flag, id, flag);
}
