/**
 * Capturing this device's writes for its change log (docs/sync.md). While sync is on, SQLite
 * triggers on activities, sessions, breaks and entries record each change in `sync_outbox`
 * (see {@link OUTBOX_ROW_SQL}) — inside the transaction of the write itself, whichever use case made it
 * (listener, window, CLI, import, idle discard), so the log and the store never disagree
 * after a crash. Once sync has been on, turning it off keeps capturing deletes only (see
 * {@link pauseCapture}); a store that never synced has no triggers and no write pays anything.
 * Rows written while other devices' operations are applied are not captured (`sync_applying`).
 */

import type { DatabaseSync } from 'node:sqlite';
import type { Store } from '../store.ts';

/** A block's billable flag as JSON (NULL: its activity's). Its invoice travels (docs/sync.md "One book"). */
const BILLABLE = "CASE new.billable WHEN 1 THEN json('true') WHEN 0 THEN json('false') END";

/** Each synced table's kind, the row as the log sees it (SQL over `new`), and the updates that log it. */
const CAPTURED = {
  // Clients first: the history reads in an order a reader can follow. Activities are logged
  // for their name and ledger fields, never for last_used_at or budget_announced (this device's).
  clients: {
    kind: 'client',
    row: "json_object('name', new.name, 'createdAt', new.created_at, 'rate', new.rate, 'currency', new.currency, 'address', new.address, 'taxID', new.tax_id, 'taxRate', new.tax_rate, 'reverseCharge', CASE WHEN new.reverse_charge = 1 THEN json('true') END, 'language', new.language)",
    update: 'UPDATE',
  },
  activities: {
    kind: 'activity',
    row: "json_object('name', new.name, 'createdAt', new.created_at, 'clientID', new.client_id, 'rate', new.rate, 'billable', CASE WHEN new.billable = 1 THEN json('true') END, 'budgetHours', new.budget_hours, 'color', new.color, 'archived', CASE WHEN new.archived = 1 THEN json('true') END)",
    update: 'UPDATE OF name, client_id, rate, billable, budget_hours, color, archived',
  },
  sessions: {
    kind: 'session',
    row: `json_object('device', new.device_id, 'activityID', new.activity_id, 'startedAt', new.started_at, 'endedAt', new.ended_at, 'note', new.note, 'tags', json(new.tags), 'billable', ${BILLABLE}, 'invoiceID', new.invoice_id)`,
    update: 'UPDATE',
  },
  breaks: {
    kind: 'break',
    row: "json_object('sessionID', new.session_id, 'startedAt', new.started_at, 'endedAt', new.ended_at)",
    update: 'UPDATE',
  },
  entries: {
    kind: 'entry',
    row: `json_object('device', new.device_id, 'activityID', new.activity_id, 'startedAt', new.started_at, 'endedAt', new.ended_at, 'note', new.note, 'createdAt', new.created_at, 'tags', json(new.tags), 'billable', ${BILLABLE}, 'invoiceID', new.invoice_id)`,
    update: 'UPDATE',
  },
  // Invoices last: the blocks they mark are logged before them (docs/sync.md "One book").
  invoices: {
    kind: 'invoice',
    row: "json_object('number', new.number, 'clientID', new.client_id, 'from', new.from_day, 'to', new.to_day, 'createdAt', new.created_at, 'document', new.document)",
    update: 'UPDATE',
  },
} as const;

const QUIET = 'WHEN NOT EXISTS (SELECT 1 FROM sync_applying)';

/**
 * How the drain reads an outbox row `o` as JSON (NULL: gone). An insert records only that it
 * happened — building the row in every write cost sync about a tenth of the write rate (bench
 * figure 17) — and is read as it was then: the `before` of the next update or delete of that
 * thing (the drain finds it), or else the row as it is now. Updates keep the row they wrote
 * (`row`) and the one they replaced (`before`); deletes the one they removed. Rows without a
 * `change` are schema v4's, which kept every row whole.
 */
export const OUTBOX_ROW_SQL = `CASE WHEN o.change IN ('insert', 'history') THEN CASE o.kind ${Object.entries(CAPTURED)
  .map(([table, c]) => `WHEN '${c.kind}' THEN (SELECT ${c.row} FROM ${table} AS new WHERE new.id = o.id)`)
  .join(' ')} END ELSE o.row END`;

const EVENTS = ['insert', 'update', 'delete'] as const;

/** Drops and makes `events`' triggers of every synced table; run inside a transaction. */
function makeTriggers(store: Pick<Store, 'db'>, events: readonly (typeof EVENTS)[number][]): void {
  const db = store.db;
  for (const [table, c] of Object.entries(CAPTURED)) {
    for (const event of EVENTS) db.exec(`DROP TRIGGER IF EXISTS sync_capture_${table}_${event}`);
    const old = c.row.replaceAll('new.', 'old.');
    const record = {
      insert: `(kind, id, change) VALUES ('${c.kind}', new.id, 'insert')`,
      update: `(kind, id, change, row, before) VALUES ('${c.kind}', new.id, 'update', ${c.row}, ${old})`,
      delete: `(kind, id, change, before) VALUES ('${c.kind}', old.id, 'delete', ${old})`,
    } as const;
    for (const event of events) {
      const when = event === 'update' ? `AFTER ${c.update}` : `AFTER ${event.toUpperCase()}`;
      db.exec(`CREATE TRIGGER sync_capture_${table}_${event} ${when} ON ${table} ${QUIET} BEGIN INSERT INTO sync_outbox ${record[event]}; END;`);
    }
  }
}

/**
 * Installs the triggers and puts every row the store already holds into the outbox, in one
 * transaction: enabling sync on a device with history logs that history (draining it writes
 * only what the log does not already say, so enabling again writes nothing twice).
 */
export function installCapture(store: Store): void {
  store.transaction(() => {
    makeTriggers(store, EVENTS);
    // The history, in an order a reader can follow: activities before the blocks that use them.
    for (const [table, c] of Object.entries(CAPTURED)) store.db.exec(`INSERT INTO sync_outbox (kind, id, change) SELECT '${c.kind}', id, 'history' FROM ${table} ORDER BY rowid`);
  });
}

/**
 * The capture triggers this build makes, by name, with their SQL as sqlite_schema keeps it —
 * made in `db` (a scratch database at this build's schema) and read back. A restore takes
 * these, and no other trigger, as Tock's (backup.ts).
 */
export function captureTriggerSql(db: DatabaseSync): Map<string, string> {
  makeTriggers({ db }, EVENTS);
  const rows = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND substr(name, 1, 13) = 'sync_capture_'").all() as { name: string; sql: string }[];
  return new Map(rows.map((r) => [r.name, r.sql]));
}

/** Puts in this build's triggers when sync is on (a store whose triggers an older Tock made). */
export function refreshCapture(store: Store): void {
  store.transaction(() => makeTriggers(store, EVENTS));
}

/**
 * Sync turned off: inserts and updates are no longer captured (they cost what they did before
 * sync), but deletes still are — a row that is gone leaves nothing to compare when sync is turned
 * on again, so its id waits in the outbox and becomes a delete then. Enabling logs what was
 * added or changed meanwhile by comparing every row with the log.
 */
export function pauseCapture(store: Store): void {
  store.transaction(() => makeTriggers(store, ['delete']));
}
