/**
 * The schema of `tock.db`, as an ordered list of migrations. `PRAGMA user_version` holds the
 * number of migrations applied; opening a store applies the missing ones all in one
 * transaction together with the bump of `user_version`, so a crash never leaves half an
 * upgrade behind. Never edit a migration that has shipped: append a new one (the fixture
 * stores under packages/core/test/fixtures/ and their test notice an edited one).
 */

import type { DatabaseSync } from 'node:sqlite';
import { StoreFileError, TOCK_APPLICATION_ID } from './store-file-error.ts';

/** One step of the schema. `version` is its position in {@link MIGRATIONS}, from 1. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** Every migration, in order. The last one's `version` is the schema version of this build. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'activities, sessions with breaks, entries, settings, idempotency keys, nonces',
    sql: `
      CREATE TABLE activities (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL,            -- trimmed, NFC, as typed
        name_key     TEXT NOT NULL,            -- NFC + lower case: uniqueness and lookup
        search_key   TEXT NOT NULL,            -- NFD, accents stripped, lower case
        word_key     TEXT NOT NULL,            -- search_key with U+0001 before each word
        created_at   INTEGER NOT NULL,         -- ms since epoch
        last_used_at INTEGER NOT NULL          -- latest of created_at and its blocks' starts
      ) STRICT;
      CREATE UNIQUE INDEX activities_by_name_key ON activities (name_key);
      CREATE INDEX activities_by_search_key ON activities (search_key);
      CREATE INDEX activities_by_last_used ON activities (last_used_at);

      CREATE TABLE sessions (
        id          TEXT PRIMARY KEY,
        activity_id TEXT NOT NULL REFERENCES activities (id),
        started_at  INTEGER NOT NULL,
        ended_at    INTEGER,                   -- NULL while it runs
        CHECK (ended_at IS NULL OR ended_at >= started_at)
      ) STRICT;
      -- At most one session runs at a time.
      CREATE UNIQUE INDEX sessions_one_running ON sessions ((ended_at IS NULL)) WHERE ended_at IS NULL;
      -- "Blocks overlapping [a, b)" reads ended_at > a, a short range near the present.
      -- (No index on started_at: "started_at < b" would cover the whole history.)
      CREATE INDEX sessions_by_ended_at ON sessions (ended_at);
      CREATE INDEX sessions_by_activity ON sessions (activity_id);

      CREATE TABLE breaks (
        id         TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        started_at INTEGER NOT NULL,
        ended_at   INTEGER,                    -- NULL while on the break
        CHECK (ended_at IS NULL OR ended_at >= started_at)
      ) STRICT;
      CREATE UNIQUE INDEX breaks_one_open ON breaks ((ended_at IS NULL)) WHERE ended_at IS NULL;
      CREATE INDEX breaks_by_session ON breaks (session_id, started_at);
      CREATE INDEX breaks_by_ended_at ON breaks (ended_at);

      CREATE TABLE entries (
        id          TEXT PRIMARY KEY,
        activity_id TEXT NOT NULL REFERENCES activities (id),
        started_at  INTEGER NOT NULL,
        ended_at    INTEGER NOT NULL,          -- at most 24 h after started_at
        note        TEXT,
        created_at  INTEGER NOT NULL,
        CHECK (ended_at > started_at)
      ) STRICT;
      CREATE INDEX entries_by_ended_at ON entries (ended_at);
      CREATE INDEX entries_by_activity ON entries (activity_id);

      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL                    -- JSON
      ) STRICT;

      CREATE TABLE idempotency_keys (
        key           TEXT PRIMARY KEY,
        method        TEXT NOT NULL,
        path          TEXT NOT NULL,
        body_sha256   TEXT NOT NULL,
        status        INTEGER NOT NULL,
        body          TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX idempotency_keys_by_created_at ON idempotency_keys (created_at_ms);

      CREATE TABLE nonces (
        nonce     TEXT PRIMARY KEY,
        timestamp INTEGER NOT NULL             -- the request's X-Tock-Timestamp, seconds
      ) STRICT;
      CREATE INDEX nonces_by_timestamp ON nonces (timestamp);
    `,
  },
  {
    version: 2,
    description: 'search walks activities by recency on a covering index',
    sql: `
      -- Search reads keys in recency order from this index alone and stops at the limit,
      -- so neither a dense query ("every name contains it") nor a sparse one sorts anything.
      DROP INDEX activities_by_last_used;
      CREATE INDEX activities_by_recency ON activities (last_used_at, search_key, word_key);
    `,
  },
  {
    version: 3,
    description: 'search finds substrings of 3+ characters in a trigram index of the search keys',
    sql: `
      -- Every substring of 3+ characters of each search_key and word_key, for queries that
      -- match few activities (which otherwise read the whole recency index). Rows mirror
      -- activities by rowid. Keys are already lower case without accents, so the tokenizer
      -- folds nothing: a phrase query on a column is exactly "the key contains it".
      CREATE VIRTUAL TABLE activities_trigram USING fts5(search_key, word_key, tokenize = 'trigram case_sensitive 1');
      INSERT INTO activities_trigram (rowid, search_key, word_key) SELECT rowid, search_key, word_key FROM activities;
      CREATE TRIGGER activities_trigram_insert AFTER INSERT ON activities BEGIN
        INSERT INTO activities_trigram (rowid, search_key, word_key) VALUES (new.rowid, new.search_key, new.word_key);
      END;
      CREATE TRIGGER activities_trigram_delete AFTER DELETE ON activities BEGIN
        DELETE FROM activities_trigram WHERE rowid = old.rowid;
      END;
      CREATE TRIGGER activities_trigram_update AFTER UPDATE ON activities
      WHEN old.search_key IS NOT new.search_key OR old.word_key IS NOT new.word_key OR old.rowid IS NOT new.rowid BEGIN
        DELETE FROM activities_trigram WHERE rowid = old.rowid;
        INSERT INTO activities_trigram (rowid, search_key, word_key) VALUES (new.rowid, new.search_key, new.word_key);
      END;
    `,
  },
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
  {
    version: 7,
    description: 'editor heartbeats (WakaTime-compatible), kept on this machine for the capture retention',
    sql: `
      -- One row per heartbeat an editor's wakatime-cli sent (docs/protocol.md "Editors: WakaTime
      -- heartbeats"). Never synced, never exported; deleted when older than the capture retention.
      -- No index on id: nothing looks a heartbeat up by it, and every index costs each insert.
      CREATE TABLE heartbeats (
        id          TEXT NOT NULL,             -- UUID, the answer's data.id
        time_ms     INTEGER NOT NULL,          -- the heartbeat's time, ms since epoch
        entity      TEXT NOT NULL,             -- file path, app, domain or URL
        type        TEXT NOT NULL,             -- file, app, domain, url, event
        is_write    INTEGER NOT NULL,          -- 0 or 1
        category    TEXT,
        project     TEXT,
        branch      TEXT,
        language    TEXT,
        lines       INTEGER,
        lineno      INTEGER,
        cursorpos   INTEGER,
        editor      TEXT,                      -- from the User-Agent: vscode, vim, pycharm, …
        machine     TEXT,                      -- X-Machine-Name
        received_at INTEGER NOT NULL           -- ms since epoch, the app's clock
      ) STRICT;
      -- A heartbeat sent again (same ms, entity and is_write) is stored once; by time for
      -- pruning and for a day's heartbeats.
      CREATE UNIQUE INDEX heartbeats_once ON heartbeats (time_ms, entity, is_write);
      -- The last heartbeat of each editor (the window's Integrations screen).
      CREATE INDEX heartbeats_by_editor ON heartbeats (editor, time_ms);
    `,
  },
  {
    version: 8,
    description: 'a note on a session, as entries have one (docs/product.md "Notes on sessions")',
    sql: `
      -- Free text of at most 2000 characters (LIMITS.noteMax), as an entry's; NULL: none.
      ALTER TABLE sessions ADD COLUMN note TEXT;
    `,
  },
  {
    version: 9,
    description: 'capture spans: the focused window and idle time, kept on this machine for the capture retention',
    sql: `
      -- What the window source saw (docs/data.md "Capture"): one row per span that ended, its
      -- application and (only when titles are on) its title; source window, idle or excluded
      -- (an excluded span keeps neither). Editor spans are not stored: they are made from the
      -- heartbeats when a timeline is read. Never synced, never in a default export; deleted
      -- when older than the capture retention. A span is at most 24 h (longer ones are written
      -- in pieces), so a day's spans are found through start_ms alone.
      CREATE TABLE capture_spans (
        id       INTEGER PRIMARY KEY,
        start_ms INTEGER NOT NULL,             -- ms since epoch
        end_ms   INTEGER NOT NULL,             -- ms since epoch, at or after start_ms
        source   TEXT NOT NULL,                -- window, idle, excluded
        app      TEXT,                         -- WM_CLASS, app_id, the window's class
        title    TEXT                          -- only when titles were on
      ) STRICT;
      CREATE INDEX capture_spans_by_start ON capture_spans (start_ms);
    `,
  },
  {
    version: 10,
    description: 'the ledger: clients, rates, billable time, tags, budgets and invoices',
    sql: `
      -- docs/data.md "The ledger". A client's rate is a decimal string per hour ("85.00"),
      -- its currency an ISO 4217 code; both optional. Names follow the activity name rules;
      -- uniqueness (case-insensitive) is the API's, not an index's: sync may bring two.
      CREATE TABLE clients (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL,              -- trimmed, NFC, as typed
        name_key   TEXT NOT NULL,              -- NFC + lower case
        rate       TEXT,                       -- decimal per hour; NULL: none
        currency   TEXT,                       -- ISO 4217, upper case; NULL: none
        address    TEXT,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX clients_by_name_key ON clients (name_key);
      -- An activity's client (no foreign key: a client another device deleted leaves none),
      -- its own rate (overrides the client's), whether its blocks are billable by default,
      -- its budget in hours, and the highest budget threshold already announced (0, 80, 100:
      -- this device's memory of the notification, never synced).
      ALTER TABLE activities ADD COLUMN client_id TEXT;
      ALTER TABLE activities ADD COLUMN rate TEXT;
      ALTER TABLE activities ADD COLUMN billable INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE activities ADD COLUMN budget_hours REAL;
      ALTER TABLE activities ADD COLUMN budget_announced INTEGER NOT NULL DEFAULT 0;
      -- A block's tags (a JSON array of names; NULL: none), whether it is billable (NULL: its
      -- activity's), and the invoice it is on (NULL: not invoiced).
      ALTER TABLE sessions ADD COLUMN tags TEXT;
      ALTER TABLE sessions ADD COLUMN billable INTEGER;
      ALTER TABLE sessions ADD COLUMN invoice_id TEXT;
      ALTER TABLE entries ADD COLUMN tags TEXT;
      ALTER TABLE entries ADD COLUMN billable INTEGER;
      ALTER TABLE entries ADD COLUMN invoice_id TEXT;
      -- Invoices as issued: the number (INV-<year>-<NNN>), the client and range, and what was
      -- on it (JSON, so a reissue renders the same document).
      CREATE TABLE invoices (
        id         TEXT PRIMARY KEY,
        number     TEXT NOT NULL UNIQUE,
        year       INTEGER NOT NULL,
        seq        INTEGER NOT NULL,
        client_id  TEXT NOT NULL,
        from_day   TEXT NOT NULL,
        to_day     TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        document   TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX invoices_by_year ON invoices (year, seq);
    `,
  },
  {
    version: 11,
    description: 'dismissed suggestions',
    sql: `
      -- docs/desktop.md "Suggestions": a dismissed suggestion stays hidden for good. Its id
      -- names its local day, start, end and label; day is the local day it was on (YYYY-MM-DD),
      -- so a day's dismissals are read by the primary key's prefix. This device's only: never synced.
      CREATE TABLE dismissed_suggestions (
        day          TEXT NOT NULL,
        id           TEXT NOT NULL,
        dismissed_at INTEGER NOT NULL,
        PRIMARY KEY (day, id)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 12,
    description: "each activity's colour, kept with it",
    sql: `
      -- docs/product.md "Activity colours": a slot of the window's palette (0-7), given once when
      -- the activity is made and carried by sync and Tock JSON. Existing activities get the
      -- colour the window gave them until now: their place in creation order, modulo the palette.
      ALTER TABLE activities ADD COLUMN color INTEGER NOT NULL DEFAULT 0;
      UPDATE activities SET color = (
        SELECT (o.n - 1) % 8 FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM activities) AS o
        WHERE o.id = activities.id
      );
    `,
  },
  {
    version: 13,
    description: 'archived activities',
    sql: `
      -- docs/product.md "Activities": an archived activity leaves the pickers, search and the
      -- tray and stays in reports and history. Carried by sync with the activity.
      ALTER TABLE activities ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
      -- Search leaves the archived ones out: read from this small index, never by a scan.
      CREATE INDEX activities_archived ON activities (id) WHERE archived = 1;
    `,
  },
  {
    version: 14,
    description: "a client's invoice details, kept and synced with it; an invoice's blocks found by it",
    sql: `
      -- docs/data.md "The ledger": a client's VAT ID, tax rate (percent; NULL: the business's),
      -- reverse charge and invoice language travel with the client through sync, so the device
      -- that takes over the book issues the same invoice. Until now they were this device's
      -- setting clientBilling (by client ID): moved here, and the setting goes.
      ALTER TABLE clients ADD COLUMN tax_id TEXT;
      ALTER TABLE clients ADD COLUMN tax_rate REAL;
      ALTER TABLE clients ADD COLUMN reverse_charge INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE clients ADD COLUMN language TEXT;
      UPDATE clients SET
        tax_id = (SELECT CASE WHEN json_type(value, '$."' || clients.id || '".taxID') = 'text' THEN json_extract(value, '$."' || clients.id || '".taxID') END
                    FROM settings WHERE key = 'clientBilling' AND json_valid(value)),
        tax_rate = (SELECT CASE WHEN json_type(value, '$."' || clients.id || '".taxRate') IN ('integer', 'real') THEN json_extract(value, '$."' || clients.id || '".taxRate') END
                    FROM settings WHERE key = 'clientBilling' AND json_valid(value)),
        reverse_charge = coalesce((SELECT json_type(value, '$."' || clients.id || '".reverseCharge') = 'true'
                    FROM settings WHERE key = 'clientBilling' AND json_valid(value)), 0),
        language = (SELECT CASE WHEN json_type(value, '$."' || clients.id || '".language') = 'text' THEN json_extract(value, '$."' || clients.id || '".language') END
                    FROM settings WHERE key = 'clientBilling' AND json_valid(value))
        WHERE EXISTS (SELECT 1 FROM settings WHERE key = 'clientBilling');
      DELETE FROM settings WHERE key = 'clientBilling';
      -- An invoice's blocks, read by a report (what each is billed, as its invoice says) and by a
      -- void: partial, so a block on no invoice costs its writes nothing more.
      CREATE INDEX sessions_by_invoice ON sessions (invoice_id) WHERE invoice_id IS NOT NULL;
      CREATE INDEX entries_by_invoice ON entries (invoice_id) WHERE invoice_id IS NOT NULL;
      -- A store that syncs logs them once (the capture triggers an older Tock made do not know
      -- these columns; the app makes this build's when it opens).
      INSERT INTO sync_outbox (kind, id, change) SELECT 'client', id, 'history' FROM clients
        WHERE (tax_id IS NOT NULL OR tax_rate IS NOT NULL OR reverse_charge = 1 OR language IS NOT NULL)
          AND EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'trigger' AND name = 'sync_capture_clients_update');
    `,
  },
];

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
      throw new StoreFileError(
        'newer',
        `tock.db was written by a newer Tock (schema version ${version}; this Tock knows up to ${SCHEMA_VERSION}): update Tock`,
      );
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
