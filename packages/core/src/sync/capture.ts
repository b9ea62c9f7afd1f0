/**
 * Capturing this device's writes for its change log (docs/sync.md). While sync is on, SQLite
 * triggers on activities, sessions, breaks and entries put each written row into
 * `sync_outbox` — inside the transaction of the write itself, whichever use case made it
 * (listener, window, CLI, import, idle discard), so the log and the store never disagree
 * after a crash. While sync is off the triggers do not exist: no write pays anything.
 * Rows written while other devices' operations are applied are not captured (`sync_applying`).
 */

import type { Store } from '../store.ts';

/** What each table's captured row holds, as SQL over `new`. */
const CAPTURED = {
  activities: { kind: 'activity', row: "json_object('name', new.name, 'createdAt', new.created_at)", update: 'UPDATE OF name' },
  sessions: {
    kind: 'session',
    row: "json_object('device', new.device_id, 'activityID', new.activity_id, 'startedAt', new.started_at, 'endedAt', new.ended_at)",
    update: 'UPDATE',
  },
  breaks: {
    kind: 'break',
    row: "json_object('sessionID', new.session_id, 'startedAt', new.started_at, 'endedAt', new.ended_at)",
    update: 'UPDATE',
  },
  entries: {
    kind: 'entry',
    row: "json_object('device', new.device_id, 'activityID', new.activity_id, 'startedAt', new.started_at, 'endedAt', new.ended_at, 'note', new.note, 'createdAt', new.created_at)",
    update: 'UPDATE',
  },
} as const;

const QUIET = 'WHEN NOT EXISTS (SELECT 1 FROM sync_applying)';

/** The trigger names, for dropping them. */
function triggerNames(): string[] {
  return Object.keys(CAPTURED).flatMap((table) => ['insert', 'update', 'delete'].map((event) => `sync_capture_${table}_${event}`));
}

/**
 * Installs the triggers and puts every row the store already holds into the outbox, in one
 * transaction: enabling sync on a device with history logs that history (draining it writes
 * only what the log does not already say, so enabling again writes nothing twice).
 */
export function installCapture(store: Store): void {
  store.transaction(() => {
    for (const [table, c] of Object.entries(CAPTURED)) {
      const db = store.db;
      db.exec(`DROP TRIGGER IF EXISTS sync_capture_${table}_insert; DROP TRIGGER IF EXISTS sync_capture_${table}_update; DROP TRIGGER IF EXISTS sync_capture_${table}_delete;`);
      db.exec(`CREATE TRIGGER sync_capture_${table}_insert AFTER INSERT ON ${table} ${QUIET} BEGIN
        INSERT INTO sync_outbox (kind, id, row) VALUES ('${c.kind}', new.id, ${c.row}); END;`);
      db.exec(`CREATE TRIGGER sync_capture_${table}_update AFTER ${c.update} ON ${table} ${QUIET} BEGIN
        INSERT INTO sync_outbox (kind, id, row) VALUES ('${c.kind}', new.id, ${c.row}); END;`);
      db.exec(`CREATE TRIGGER sync_capture_${table}_delete AFTER DELETE ON ${table} ${QUIET} BEGIN
        INSERT INTO sync_outbox (kind, id, row) VALUES ('${c.kind}', old.id, NULL); END;`);
      // The history, in an order a reader can follow: activities before the blocks that use them.
      db.exec(`INSERT INTO sync_outbox (kind, id, row) SELECT '${c.kind}', new.id, ${c.row} FROM ${table} AS new ORDER BY rowid`);
    }
  });
}

/** Drops the triggers: from now on writes are not logged (and cost what they did before sync). */
export function removeCapture(store: Store): void {
  store.transaction(() => {
    for (const name of triggerNames()) store.db.exec(`DROP TRIGGER IF EXISTS ${name}`);
    store.db.exec('DELETE FROM sync_outbox');
  });
}
