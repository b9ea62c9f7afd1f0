/**
 * The three writes of a signed `POST /entries` with an `Idempotency-Key`, as bare SQL: the
 * entry, the record of its answer and the activity's recency. Shared by figure 5c's bare loops
 * (sqlite-request-loop.ts) and figure 5d's floor (servers/entry-floor.ts), so both write the
 * same rows.
 */

/** entry: id, activity, start, end, note, created. record: key, body SHA-256, answer, created ms. recency: ms, activity. */
export const ENTRY_WRITES = {
  entry: 'INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  record: `INSERT OR REPLACE INTO idempotency_keys (key, method, path, body_sha256, status, body, created_at_ms)
     VALUES (?, 'POST', '/entries', ?, 201, ?, ?)`,
  recency: 'UPDATE activities SET last_used_at = max(last_used_at, ?) WHERE id = ?',
} as const;
