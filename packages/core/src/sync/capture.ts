/**
 * Capturing this device's writes for its change log (docs/sync.md). While sync is on, SQLite
 * triggers on activities, sessions, breaks and entries record each change in `sync_outbox`
 * (see {@link capturedRows}) — inside the transaction of the write itself, whichever use case made it
 * (listener, window, CLI, import, idle discard), so the log and the store never disagree
 * after a crash. Once sync has been on, turning it off keeps capturing deletes only (see
 * {@link pauseCapture}); a store that never synced has no triggers and no write pays anything.
 * Rows written while other devices' operations are applied are not captured (`sync_applying`).
 */

import type { DatabaseSync } from 'node:sqlite';
import type { Store } from '../store.ts';
import { sql } from './entities.ts';
import type { EntityKind, FieldValue } from './ops.ts';

/**
 * How a column becomes a field of the log: as it is, `json` (JSON text: its value), `flag` (a
 * block's billable: 1 true, 0 false, NULL its activity's) or `true` (1 true, else absent: null).
 */
type Column = readonly [field: string, column: string, as?: 'json' | 'flag' | 'true'];

/**
 * Each synced table's kind, its columns as the log's fields in the order a line names them, and
 * the updates that log it. The triggers record a row as JSON built from this list in SQL
 * ({@link rowJson}); the drain reads an inserted row's columns by the same list ({@link capturedRows}).
 */
const CAPTURED = {
  // Clients first: the history reads in an order a reader can follow. Activities are logged
  // for their name and ledger fields, never for last_used_at or budget_announced (this device's).
  clients: {
    kind: 'client',
    columns: [['name', 'name'], ['createdAt', 'created_at'], ['rate', 'rate'], ['currency', 'currency'], ['address', 'address'], ['taxID', 'tax_id'], ['taxRate', 'tax_rate'], ['reverseCharge', 'reverse_charge', 'true'], ['language', 'language']],
    update: 'UPDATE',
  },
  activities: {
    kind: 'activity',
    columns: [['name', 'name'], ['createdAt', 'created_at'], ['clientID', 'client_id'], ['rate', 'rate'], ['billable', 'billable', 'true'], ['budgetHours', 'budget_hours'], ['color', 'color'], ['archived', 'archived', 'true']],
    update: 'UPDATE OF name, client_id, rate, billable, budget_hours, color, archived',
  },
  sessions: {
    kind: 'session',
    columns: [['device', 'device_id'], ['activityID', 'activity_id'], ['startedAt', 'started_at'], ['endedAt', 'ended_at'], ['note', 'note'], ['tags', 'tags', 'json'], ['billable', 'billable', 'flag'], ['invoiceID', 'invoice_id']],
    update: 'UPDATE',
  },
  breaks: {
    kind: 'break',
    columns: [['sessionID', 'session_id'], ['startedAt', 'started_at'], ['endedAt', 'ended_at']],
    update: 'UPDATE',
  },
  entries: {
    kind: 'entry',
    columns: [['device', 'device_id'], ['activityID', 'activity_id'], ['startedAt', 'started_at'], ['endedAt', 'ended_at'], ['note', 'note'], ['createdAt', 'created_at'], ['tags', 'tags', 'json'], ['billable', 'billable', 'flag'], ['invoiceID', 'invoice_id']],
    update: 'UPDATE',
  },
  // Invoices last: the blocks they mark are logged before them (docs/sync.md "One book").
  invoices: {
    kind: 'invoice',
    columns: [['number', 'number'], ['clientID', 'client_id'], ['from', 'from_day'], ['to', 'to_day'], ['createdAt', 'created_at'], ['document', 'document']],
    update: 'UPDATE',
  },
} as const satisfies Record<string, { kind: EntityKind; columns: readonly Column[]; update: string }>;

/** The row `new` (or `old`) as the JSON object a line's fields are read from. */
function rowJson(columns: readonly Column[], row: 'new' | 'old'): string {
  const value = ([, column, as]: Column): string => {
    const c = `${row}.${column}`;
    if (as === 'json') return `json(${c})`;
    // A block's billable flag as JSON (NULL: its activity's). Its invoice travels (docs/sync.md "One book").
    if (as === 'flag') return `CASE ${c} WHEN 1 THEN json('true') WHEN 0 THEN json('false') END`;
    if (as === 'true') return `CASE WHEN ${c} = 1 THEN json('true') END`;
    return c;
  };
  return `json_object(${columns.map((c) => `'${c[0]}', ${value(c)}`).join(', ')})`;
}

const QUIET = 'WHEN NOT EXISTS (SELECT 1 FROM sync_applying)';

/** Each kind's table and columns (see CAPTURED). */
const BY_KIND = new Map<EntityKind, { table: string; columns: readonly Column[] }>(Object.entries(CAPTURED).map(([table, c]) => [c.kind, { table, columns: c.columns }]));

/**
 * The rows the outbox's inserts `from`–`to` (seqs) of `kind` record, by seq, as the log's fields
 * (absent: that row is gone). An insert records only that it happened — building the row in
 * every write cost sync about a tenth of the write rate (bench figure 17) — and is read as it was
 * then: the `before` of the next update or delete of that thing (the drain finds it), or else the
 * row as it is now, read here. Updates keep the row they wrote (`row`) and the one they replaced
 * (`before`); deletes the one they removed. Rows without a `change` are schema v4's, which kept
 * every row whole. The columns are read as they are, not as JSON built in SQL and parsed again
 * (that round trip was a quarter of the drain's time a row): each becomes the value
 * {@link rowJson}'s JSON would have given it, the same in every line.
 */
export function capturedRows(db: DatabaseSync, kind: EntityKind, from: number, to: number): Map<number, Record<string, FieldValue>> {
  const rows = new Map<number, Record<string, FieldValue>>();
  const c = BY_KIND.get(kind);
  if (c === undefined) return rows;
  const statement = sql(
    db,
    `SELECT o.seq, ${c.columns.map(([, column]) => `new.${column}`).join(', ')} FROM sync_outbox AS o JOIN ${c.table} AS new ON new.id = o.id
     WHERE o.seq BETWEEN ? AND ? AND o.kind = '${kind}' AND o.change IN ('insert', 'history')`,
  );
  statement.setReturnArrays(true);
  const columns = c.columns;
  for (const values of statement.all(from, to) as unknown as unknown[][]) {
    const row: Record<string, FieldValue> = {};
    for (let i = 0; i < columns.length; i++) {
      const [field, , as] = columns[i] as Column;
      const v = values[i + 1] as FieldValue;
      if (as === undefined) row[field] = v;
      else if (as === 'json') row[field] = v === null ? null : (JSON.parse(v as string) as FieldValue);
      else if (as === 'flag') row[field] = v === 1 ? true : v === 0 ? false : null;
      else row[field] = v === 1 ? true : null;
    }
    rows.set(values[0] as number, row);
  }
  return rows;
}

/** A row as the triggers' JSON has it (see {@link rowJson}), parsed; undefined: no such row. What {@link capturedRows} must equal. */
export function capturedRowJson(db: DatabaseSync, kind: EntityKind, id: string): Record<string, FieldValue> | undefined {
  const c = BY_KIND.get(kind);
  const found = c === undefined ? undefined : (db.prepare(`SELECT ${rowJson(c.columns, 'new')} AS row FROM ${c.table} AS new WHERE new.id = ?`).get(id) as { row: string } | undefined);
  return found === undefined ? undefined : (JSON.parse(found.row) as Record<string, FieldValue>);
}

const EVENTS = ['insert', 'update', 'delete'] as const;

/** Drops and makes `events`' triggers of every synced table; run inside a transaction. */
function makeTriggers(store: Pick<Store, 'db'>, events: readonly (typeof EVENTS)[number][]): void {
  const db = store.db;
  for (const [table, c] of Object.entries(CAPTURED)) {
    for (const event of EVENTS) db.exec(`DROP TRIGGER IF EXISTS sync_capture_${table}_${event}`);
    const row = rowJson(c.columns, 'new');
    const old = rowJson(c.columns, 'old');
    const record = {
      insert: `(kind, id, change) VALUES ('${c.kind}', new.id, 'insert')`,
      update: `(kind, id, change, row, before) VALUES ('${c.kind}', new.id, 'update', ${row}, ${old})`,
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
