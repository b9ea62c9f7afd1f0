/**
 * Migrations 7–9: what this machine captures and keeps for the capture retention — editor
 * heartbeats (7) and capture spans (9) — and, shipped between them, a session's note (8).
 * Shipped: never edit one, append a new migration (migrations.ts).
 */

import type { Migration } from './migration.ts';

/** Migrations 7–9, in order. */
export const CAPTURE_MIGRATIONS: readonly Migration[] = [
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
];
