/**
 * The schema of `tock.db`, as an ordered list of migrations. `PRAGMA user_version` holds the
 * number of migrations applied; opening a store applies the missing ones all in one
 * transaction together with the bump of `user_version`, so a crash never leaves half an
 * upgrade behind. Never edit a migration that has shipped: append a new one (the fixture
 * stores under packages/core/test/fixtures/ and their test notice an edited one).
 */

import type { DatabaseSync } from 'node:sqlite';
import { CAPTURE_MIGRATIONS } from './migrations/capture.ts';
import { LEDGER_MIGRATIONS } from './migrations/ledger.ts';
import type { Migration } from './migrations/migration.ts';
import { SYNC_MIGRATIONS } from './migrations/sync.ts';
import { TRACKING_MIGRATIONS } from './migrations/tracking.ts';
import { StoreFileError, TOCK_APPLICATION_ID } from './store-file-error.ts';

export type { Migration } from './migrations/migration.ts';

/**
 * Every migration, in order (each group in migrations/ lists its own). The last one's `version`
 * is the schema version of this build.
 */
export const MIGRATIONS: readonly Migration[] = [...TRACKING_MIGRATIONS, ...SYNC_MIGRATIONS, ...CAPTURE_MIGRATIONS, ...LEDGER_MIGRATIONS];

/** The schema version this build writes: the number of migrations it knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version a database is at (`PRAGMA user_version`). */
export function schemaVersionOf(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/** Hooks into {@link migrate}, for tests that stop an upgrade half way. */
export interface MigrateOptions {
  /**
   * Called after each migration's SQL ran, inside the upgrade's one transaction (nothing of
   * it is committed yet). A test kills the process here to show the old store stays intact.
   */
  afterStep?: (version: number) => void;
}

/**
 * Brings a database up to {@link SCHEMA_VERSION} in one transaction: every missing migration,
 * the new `user_version` and Tock's `application_id` land together or not at all, so a crash
 * or a failing step leaves the store exactly at its old version. Running it again is a no-op.
 * A database written by a newer Tock is refused (a {@link StoreFileError}) rather than altered.
 */
export function migrate(db: DatabaseSync, options: MigrateOptions = {}): number {
  const refuseNewer = (version: number): void => {
    if (version > SCHEMA_VERSION) {
      throw new StoreFileError('newer', { rule: 'storeNewer', values: { path: 'tock.db', version, known: SCHEMA_VERSION } });
    }
  };
  const current = schemaVersionOf(db);
  refuseNewer(current);
  if (current === SCHEMA_VERSION && applicationIdOf(db) === TOCK_APPLICATION_ID) return current;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    const locked = schemaVersionOf(db);
    refuseNewer(locked);
    for (const migration of MIGRATIONS) {
      if (migration.version <= locked) continue;
      db.exec(migration.sql);
      options.afterStep?.(migration.version);
    }
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec(`PRAGMA application_id = ${TOCK_APPLICATION_ID}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return schemaVersionOf(db);
}

function applicationIdOf(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA application_id').get() as { application_id: number } | undefined;
  return Number(row?.application_id ?? 0);
}
