/**
 * The small generic stores the app keeps in `tock.db` beside the tracking tables: settings
 * (JSON values under string keys), idempotency keys with the first answer to each, and the
 * nonces of verified requests. Each works through the connection's prepared statements
 * (store-connection.ts), so its writes count for `Store.generation` and join the open group
 * commit like any other.
 */

import type { SQLInputValue, StatementSync } from 'node:sqlite';

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

/** The connection's prepared statement for `sql` (`Store.statement`). */
export type StatementFor = (sql: string) => StatementSync;

/** Runs a write through `statement` and returns how many rows it changed. */
function runner(statement: StatementFor) {
  return (sql: string, ...params: SQLInputValue[]): number => Number(statement(sql).run(...params).changes);
}

/** The settings table as a {@link SettingsStore}. */
export function settingsStore(statement: StatementFor): SettingsStore {
  const run = runner(statement);
  return {
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
}

/** The idempotency_keys table as an {@link IdempotencyStore}. */
export function idempotencyStore(statement: StatementFor): IdempotencyStore {
  const run = runner(statement);
  return {
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
}

/** The nonces table as a {@link NonceStore}. */
export function nonceStore(statement: StatementFor): NonceStore {
  const run = runner(statement);
  return {
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
}
