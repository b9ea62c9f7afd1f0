/**
 * Migrations 10–16: the ledger (clients, rates, billable time, tags, budgets, invoices) and what
 * came after it — dismissed suggestions (11), an activity's colour (12), archived activities
 * (13), a client's invoice details (14), indexes for what a write and the window read (15, 16).
 * Shipped: never edit one, append a new migration (migrations.ts).
 */

import type { Migration } from './migration.ts';

/** Migrations 10–16, in order. */
export const LEDGER_MIGRATIONS: readonly Migration[] = [
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
  {
    version: 15,
    description: "indexes for what a write and the looks after it read: budgets left to announce, colours, clients' activities, sync's activities by name, sessions longer than a day",
    sql: `
      -- The budget look after every write (budgets.ts) asks whether any activity has a budget
      -- threshold left to announce: a scan of every activity (67 µs at 2 000, a write's worth at
      -- 20 000). Partial, so it holds only those few and an activity's other writes skip it.
      CREATE INDEX activities_budget_pending ON activities (id) WHERE budget_hours IS NOT NULL AND budget_announced < 100;
      -- A new activity's colour is the palette slot fewest activities have (activity-colors.ts):
      -- counted over this index in its order, not by reading every activity row and sorting the
      -- colours (5.4 ms at 20 000 activities, on every activity made). A colour is set once.
      CREATE INDEX activities_by_color ON activities (color);
      -- A client's activities: an invoice's draft and issue (invoices.ts) and removing a client
      -- (ledger.ts) read them here, not among every activity (1.6 ms at 20 000). Partial: most
      -- activities have no client, and an activity's recency writes never touch it.
      CREATE INDEX activities_by_client ON activities (client_id) WHERE client_id IS NOT NULL;
      -- Sync's activities by name (sync/project-activities.ts): an activity's ref is its name key,
      -- so applying a change of one regroups the activities of its names alone, not every one
      -- (300 ms at 20 000). Partial: blocks and breaks keep their refs in sync_entities_pending.
      CREATE INDEX sync_entities_activity_names ON sync_entities (ref, id) WHERE kind = 'activity';
      -- Sessions longer than a day (a timer left running), by their end. A range's sessions are
      -- found by their ends (totals.ts, sessions.ts, invoice-shares.ts, export-reads.ts): those
      -- that end within a day after the range through sessions_by_ended_at, and these few that
      -- end later here, not every session that ended since the range (History's week of a year
      -- and a half ago: 39 ms, this week 5 ms). Partial: a session of a day or less is not in it;
      -- those queries repeat its expression word for word, so SQLite can use it.
      CREATE INDEX sessions_long ON sessions (ended_at) WHERE ended_at - started_at > 86400000;
    `,
  },
  {
    version: 16,
    description: "schema 15's last two indexes, for stores made before they joined it: sync's activities by name, sessions longer than a day",
    sql: `
      -- Schema 15 first shipped with its first three indexes; these two joined it a stop later
      -- (docs/decisions.md "Store safety", "Make the fixture of a version when it ships"). A store
      -- the first build moved to 15 lacks them, so its reads of sync's groups and of a range's
      -- sessions stayed slow; a store made since has them, and IF NOT EXISTS leaves it as it is.
      -- The SQL is schema 15's word for word (SQLite keeps it without the IF NOT EXISTS), so a
      -- backup checks the same either way.
      CREATE INDEX IF NOT EXISTS sync_entities_activity_names ON sync_entities (ref, id) WHERE kind = 'activity';
      CREATE INDEX IF NOT EXISTS sessions_long ON sessions (ended_at) WHERE ended_at - started_at > 86400000;
    `,
  },
];
