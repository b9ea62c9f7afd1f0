/**
 * Migrations 4–6: sync through a folder (docs/sync.md) — the device a block was made on, the
 * outbox, this device's log, the merged state, then cheaper writes with sync on. Shipped: never
 * edit one, append a new migration (migrations.ts).
 */

import type { Migration } from './migration.ts';

/** Migrations 4–6, in order. */
export const SYNC_MIGRATIONS: readonly Migration[] = [
  {
    version: 4,
    description: 'sync through a folder: the device a block was made on, the outbox, this device\'s log, merged state',
    sql: `
      -- The device a block was made on; '' is this device (docs/sync.md).
      ALTER TABLE sessions ADD COLUMN device_id TEXT NOT NULL DEFAULT '';
      ALTER TABLE entries ADD COLUMN device_id TEXT NOT NULL DEFAULT '';
      -- Rows written while sync is on, filled by triggers that exist only then (core/src/sync/capture.ts):
      -- the row as it now is, or NULL when it was deleted. Emptied into sync_log in order.
      CREATE TABLE sync_outbox (
        seq  INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,                    -- activity, session, break, entry
        id   TEXT NOT NULL,
        row  TEXT                              -- JSON; NULL: deleted
      ) STRICT;
      -- This device's change log, one operation per line, in the order written to its segments.
      CREATE TABLE sync_log (
        seq     INTEGER PRIMARY KEY,
        line    TEXT NOT NULL                  -- without its newline
      ) STRICT;
      -- The segments of that log: a segment holds the lines from its first_seq to the next one's.
      CREATE TABLE sync_segments (
        segment   INTEGER PRIMARY KEY,
        first_seq INTEGER NOT NULL,
        bytes     INTEGER NOT NULL             -- its file's size: the lines with their newlines
      ) STRICT;
      -- Every synced thing's fields with the hlc that set each, and its delete's hlc (last writer wins).
      CREATE TABLE sync_entities (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        ref         TEXT,                      -- activityID of a block, sessionID of a break
        pending     INTEGER NOT NULL DEFAULT 0, -- 1: not shown for want of its ref (an activity or session not there)
        fields      TEXT NOT NULL,             -- JSON {"h": [hlc, …], "f": {field: [value, index into h]}}
        deleted_hlc TEXT
      ) STRICT, WITHOUT ROWID;
      -- Only things waiting for their ref are indexed by it: what is shown is found through the
      -- tracking tables, so this device's writes add no index entry here.
      CREATE INDEX sync_entities_pending ON sync_entities (ref) WHERE pending = 1;
      CREATE INDEX sync_entities_activities ON sync_entities (id) WHERE kind = 'activity';
      -- How far each other device's log has been applied, and what went wrong there.
      CREATE TABLE sync_devices (
        device_id      TEXT PRIMARY KEY,
        segment        INTEGER NOT NULL,
        offset         INTEGER NOT NULL,       -- bytes of that segment applied
        line           INTEGER NOT NULL,       -- lines of that segment applied
        applied        INTEGER NOT NULL,       -- operations applied in all
        last_hlc       TEXT,
        last_applied_at INTEGER
      ) STRICT;
      -- One row while other devices' operations are applied: the capture triggers stay quiet.
      CREATE TABLE sync_applying (flag INTEGER) STRICT;
    `,
  },
  {
    version: 5,
    description: 'cheaper writes with sync on: sync_entities as a rowid table, the outbox without the row',
    sql: `
      -- Keyed by random UUIDs, the WITHOUT ROWID table put each new row (~300 bytes) on a random
      -- page, so logging a second of writes rewrote most of the table; rows now go at the end and
      -- only the id index (~50 bytes an entry) takes random inserts (docs/decisions.md).
      CREATE TABLE sync_entities_v5 (
        id          TEXT PRIMARY KEY,
        kind        TEXT NOT NULL,
        ref         TEXT,
        pending     INTEGER NOT NULL DEFAULT 0,
        fields      TEXT NOT NULL,
        deleted_hlc TEXT
      ) STRICT;
      INSERT INTO sync_entities_v5 (id, kind, ref, pending, fields, deleted_hlc)
        SELECT id, kind, ref, pending, fields, deleted_hlc FROM sync_entities ORDER BY id;
      DROP TABLE sync_entities;
      ALTER TABLE sync_entities_v5 RENAME TO sync_entities;
      CREATE INDEX sync_entities_pending ON sync_entities (ref) WHERE pending = 1;
      CREATE INDEX sync_entities_activities ON sync_entities (id) WHERE kind = 'activity';
      -- What each outbox row records (core/src/sync/capture.ts): 'insert' (the row is read when the
      -- outbox is drained), 'update' (row: the row written; before: the row it replaced),
      -- 'delete' (before: the row removed), 'history' (enabling on a store with history).
      -- NULL: a v4 trigger's row, whole in row. The app puts in today's triggers when it starts.
      ALTER TABLE sync_outbox ADD COLUMN change TEXT;
      ALTER TABLE sync_outbox ADD COLUMN before TEXT;
    `,
  },
  {
    version: 6,
    description: "cheaper writes with sync on: a thing this device made keeps its fields in its log line",
    sql: `
      -- Set: every field of the thing is what this device's log line log_seq (its create) set,
      -- with that line's hlc, and fields is '' (the line says them). A change of a field writes
      -- the fields out and clears it (core/src/sync/entities.ts; docs/decisions.md).
      ALTER TABLE sync_entities ADD COLUMN log_seq INTEGER;
    `,
  },
];
