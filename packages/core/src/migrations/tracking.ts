/**
 * Migrations 1–3: the tracking store (activities, sessions with breaks, entries, settings,
 * idempotency keys, nonces) and the indexes search walks. Shipped: never edit one, append a new
 * migration (migrations.ts).
 */

import type { Migration } from './migration.ts';

/** Migrations 1–3, in order. */
export const TRACKING_MIGRATIONS: readonly Migration[] = [
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
];
