/**
 * The merged state of every synced thing (docs/sync.md): activity, session, break, entry and
 * client are kept in `sync_entities` as their fields, each with the hlc that set it, and the hlc
 * of their delete. A field takes a value only from a higher hlc (last writer wins), and a thing
 * is gone while its delete's hlc is above every field's (a delete wins over every edit with a
 * lower hlc): that state does not depend on the order operations arrive in. This file reads and
 * writes that state; drain.ts, apply.ts and projection.ts use it.
 */


import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { nameKey } from '../names.ts';
import { parseHlc, sortableHlc, type Hlc } from './hlc.ts';
import { FIELDS, OPTIONAL_FIELDS, type EntityKind, type FieldValue } from './ops.ts';

/** One synced thing as merged. */
export interface Entity {
  id: string;
  kind: EntityKind;
  fields: Record<string, [FieldValue, string]>;
  deleted: string | null;
  /**
   * The seq of this device's log line that set every field (its create), while no other
   * operation changed one: then the stored row refers to the line instead of repeating it.
   */
  logSeq?: number;
}

/** A sync_entities row as read (its kind apart), with the log line its fields are in when `log_seq` is set. */
export interface StoredEntity {
  fields: string;
  deleted: string | null;
  logSeq: number | null;
  line: string | null;
}

/** Reads a thing's stored row (see {@link StoredEntity}). */
export function entityOf(id: string, kind: EntityKind, row: StoredEntity): Entity {
  if (row.logSeq === null || row.line === null) return { id, kind, fields: decodeFields(row.fields), deleted: row.deleted };
  const op = JSON.parse(row.line) as { hlc: string; set: Record<string, FieldValue> };
  const hlc = sortableHlc(parseHlc(op.hlc) as Hlc);
  const fields: Entity['fields'] = {};
  for (const field in op.set) fields[field] = [op.set[field] as FieldValue, hlc];
  return { id, kind, fields, deleted: row.deleted, logSeq: row.logSeq };
}

/** The columns of a {@link StoredEntity}, from `sync_entities AS e` joined to `sync_log AS l` (all NULL: no such thing). */
export const STORED_COLUMNS = 'e.kind AS storedKind, e.fields AS fields, e.deleted_hlc AS deleted, e.log_seq AS logSeq, l.line AS line';
export const STORED_JOIN = 'LEFT JOIN sync_log AS l ON l.seq = e.log_seq';

/** An outbox row as the drain reads it (drain.ts; an insert's row: capture.ts `capturedRows`), with its thing's stored state (`storedKind` NULL: none). */
export interface OutboxRow extends StoredEntity {
  seq: number;
  kind: EntityKind;
  id: string;
  change: string | null;
  row: string | null;
  storedKind: EntityKind | null;
}

/** Prepared statements per connection: preparing one per row would cost time and memory until GC. */
export const prepared = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** `sql` prepared once per connection. */
export function sql(db: DatabaseSync, text: string): StatementSync {
  let statements = prepared.get(db);
  if (!statements) {
    statements = new Map();
    prepared.set(db, statements);
  }
  let s = statements.get(text);
  if (!s) {
    s = db.prepare(text);
    statements.set(text, s);
  }
  return s;
}

/** Rows one statement of {@link batchedInsert} writes: one INSERT of many rows costs a third to a half less a row than one each. */
const BATCH_ROWS = 64;

type SqlValue = string | number | null;

/**
 * `INSERT INTO <into> VALUES (…), … <tail>` with `columns` values a row, {@link BATCH_ROWS} rows a
 * statement, the rest one row each: `add` a row's values, `flush` what is left. The statements
 * are prepared once per connection (see {@link sql}).
 */
export function batchedInsert(db: DatabaseSync, into: string, columns: number, tail = ''): { add(...row: SqlValue[]): void; flush(): void } {
  const values = `(${Array(columns).fill('?').join(', ')})`;
  const statement = (rows: number): StatementSync => sql(db, `INSERT INTO ${into} VALUES ${Array(rows).fill(values).join(', ')} ${tail}`);
  const pending: SqlValue[] = [];
  let many: StatementSync | undefined;
  return {
    add(...row) {
      pending.push(...row);
      if (pending.length === BATCH_ROWS * columns) {
        many ??= statement(BATCH_ROWS);
        many.run(...pending);
        pending.length = 0;
      }
    },
    flush() {
      if (pending.length === 0) return;
      const one = statement(1);
      for (let i = 0; i < pending.length; i += columns) one.run(...pending.slice(i, i + columns));
      pending.length = 0;
    },
  };
}

export class Entities {
  private readonly cache = new Map<string, Entity | null>();
  readonly dirty = new Map<string, Entity>();
  /**
   * Each merged activity's name before its first merge here (undefined: it had none): the group
   * it leaves on a rename must be made again too (projection.ts).
   */
  readonly namesBefore = new Map<string, FieldValue | undefined>();
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  get(id: string): Entity | undefined {
    let e = this.cache.get(id);
    if (e === undefined) {
      const row = sql(this.db, `SELECT ${STORED_COLUMNS} FROM sync_entities AS e ${STORED_JOIN} WHERE e.id = ?`).get(id) as
        | (StoredEntity & { storedKind: EntityKind })
        | undefined;
      e = row ? entityOf(id, row.storedKind, row) : null;
      this.cache.set(id, e);
    }
    return e ?? undefined;
  }

  /**
   * Caches the state of the drain's things, read with its outbox rows in the same query (one
   * query instead of one per row, most of them new, so not there): unknown for a row without one.
   */
  known(rows: readonly OutboxRow[]): void {
    for (const row of rows) if (!this.cache.has(row.id)) this.cache.set(row.id, row.storedKind === null ? null : entityOf(row.id, row.storedKind, row));
  }

  /** Merges an operation; true when it changed the state. */
  merge(kind: EntityKind, id: string, hlc: string, set: Record<string, FieldValue> | undefined): boolean {
    let e = this.get(id);
    if (e === undefined) {
      e = { id, kind, fields: {}, deleted: null };
      this.cache.set(id, e);
    }
    if (e.kind !== kind) return false; // an id of another kind: not this thing (refused by nothing else)
    if (kind === 'activity' && !this.namesBefore.has(id)) this.namesBefore.set(id, value(e, 'name'));
    let changed = false;
    if (set === undefined) {
      if (e.deleted === null || e.deleted < hlc) {
        e.deleted = hlc;
        changed = true;
      }
    } else {
      for (const field in set) {
        const value = set[field] as FieldValue;
        const current = e.fields[field];
        if (current === undefined || current[1] < hlc) {
          e.fields[field] = [value, hlc];
          changed = true;
          e.logSeq = undefined; // the fields are no longer the create's line alone
        }
      }
    }
    if (changed) this.dirty.set(id, e);
    return changed;
  }

  /**
   * Writes the changed entities back, many rows a statement ({@link batchedInsert}): the drain
   * saves a row for each thing it logs.
   */
  save(): void {
    const upsert = batchedInsert(
      this.db,
      'sync_entities (id, kind, ref, fields, deleted_hlc, log_seq)',
      6,
      'ON CONFLICT (id) DO UPDATE SET ref = excluded.ref, fields = excluded.fields, deleted_hlc = excluded.deleted_hlc, log_seq = excluded.log_seq',
    );
    for (const e of this.dirty.values()) {
      if (e.logSeq === undefined) upsert.add(e.id, e.kind, refOf(e), encodeFields(e.fields), e.deleted, null);
      else upsert.add(e.id, e.kind, refOf(e), '', e.deleted, e.logSeq);
    }
    upsert.flush();
  }
}

/**
 * A thing's fields as stored: each distinct hlc once (`h`), each field with its value and the
 * index of its hlc (`f`). Most things are set by one operation, so this keeps one hlc instead
 * of one per field: half the bytes, and the write path's cost with sync on.
 */
export function encodeFields(fields: Entity['fields']): string {
  const hlcs: string[] = [];
  const f: Record<string, [FieldValue, number]> = {};
  for (const [field, [value, hlc]] of Object.entries(fields)) {
    let i = hlcs.indexOf(hlc);
    if (i < 0) i = hlcs.push(hlc) - 1;
    f[field] = [value, i];
  }
  return JSON.stringify({ h: hlcs, f });
}

export function decodeFields(text: string): Entity['fields'] {
  const stored = JSON.parse(text) as { h: string[]; f: Record<string, [FieldValue, number]> };
  const fields: Entity['fields'] = {};
  for (const [field, [value, i]] of Object.entries(stored.f)) fields[field] = [value, stored.h[i] as string];
  return fields;
}

/**
 * What a thing is found by in `ref`: a block's activityID, a break's sessionID, an activity's
 * name key (its group: projection.ts reads a group down the index on it, not every activity).
 */
export function refOf(e: Entity): string | null {
  if (e.kind === 'activity') return activityKey(e);
  const ref = e.kind === 'break' ? e.fields.sessionID : e.kind === 'session' || e.kind === 'entry' ? e.fields.activityID : undefined;
  return ref === undefined ? null : (ref[0] as string);
}

/** An activity's name key (names.ts), '' while it has no name (an edit that arrived before its create). */
export function activityKey(e: Entity): string {
  const name = value(e, 'name');
  return typeof name === 'string' ? nameKey(name) : '';
}

export function value(e: Entity, field: string): FieldValue | undefined {
  return e.fields[field]?.[0];
}

/** Shown at all: every field it needs is there, and no delete is above all its fields. */
export function visible(e: Entity): boolean {
  for (const field of Object.keys(FIELDS[e.kind])) if (e.fields[field] === undefined && !OPTIONAL_FIELDS[e.kind].has(field)) return false;
  if (e.deleted === null) return true;
  for (const [, hlc] of Object.values(e.fields)) if (hlc > e.deleted) return true;
  return false;
}

/** Whether two field values are the same (a list of tags by its items). */
export function sameValue(a: FieldValue, b: FieldValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}
