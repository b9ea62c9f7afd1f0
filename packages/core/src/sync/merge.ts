/**
 * Merging change logs into the store (docs/sync.md). Every synced thing — activity, session,
 * break, entry — is kept in `sync_entities` as its fields, each with the hlc that set it, and
 * the hlc of its delete: a field takes a value only from a higher hlc (last writer wins), and
 * a thing is gone while its delete's hlc is above every field's (a delete wins over every
 * edit with a lower hlc). That state does not depend on the order operations arrive in; the
 * tracking tables are then made to show it (projection), so every device that has the same
 * operations shows the same history.
 *
 * What the tables show: activities grouped by name (case-insensitive, NFC) — the lowest id
 * of a group is the activity, the others' blocks point to it; every device's stopped
 * sessions, their breaks and entries, each with the device it was made on; this device's
 * running session, but not another device's (each device keeps its own; see
 * docs/decisions.md "Sync through a folder").
 *
 * This device's own writes reach the same state through {@link drainOutbox}: the rows the
 * capture triggers recorded become operations with this device's next hlc, lines of its log.
 */

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { colorFromId } from '../activity-colors.ts';
import { nameKey, searchKey, wordKey } from '../names.ts';
import type { Store } from '../store.ts';
import { OUTBOX_ROW_SQL } from './capture.ts';
import { HybridClock, formatHlc, parseHlc, sortableHlc, type Hlc } from './hlc.ts';
import { SIGNED_LINE_OVERHEAD } from './folder-key.ts';
import { ENTRY_MAX_MS, FIELDS, OPTIONAL_FIELDS, formatOpLine, type EntityKind, type FieldValue, type SyncOp } from './ops.ts';

/** The bytes past which this device starts a new segment (docs/sync.md). */
export const SEGMENT_LIMIT_BYTES = 1024 * 1024;

/** Settings keys of sync's own state. */
export const SYNC_SETTINGS = {
  /** `{deviceID, createdAt}`: made once per Tock home, kept when sync is turned off. */
  device: 'syncDevice',
  /** `{dir, name}` while sync is on. */
  config: 'sync',
  /** The hybrid clock's last reading, `{ms, counter}`. */
  clock: 'syncClock',
  /** The folder format this store's sync state was made for (2); absent: format 1, or never synced. */
  format: 'syncFormat',
  /** Why Tock turned sync off (a restore), `{reason}`; gone once it is on again. */
  offReason: 'syncOffReason',
  /** Other devices' names as their device.json last gave them, `{deviceID: name}` (exports name devices). */
  deviceNames: 'syncDeviceNames',
  /** One timer across devices (docs/sync.md "One timer"): `true`/`false`; absent means on. */
  oneTimer: 'oneTimer',
} as const;

/** One synced thing as merged. */
interface Entity {
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
interface StoredEntity {
  fields: string;
  deleted: string | null;
  logSeq: number | null;
  line: string | null;
}

/** Reads a thing's stored row (see {@link StoredEntity}). */
function entityOf(id: string, kind: EntityKind, row: StoredEntity): Entity {
  if (row.logSeq === null || row.line === null) return { id, kind, fields: decodeFields(row.fields), deleted: row.deleted };
  const op = JSON.parse(row.line) as { hlc: string; set: Record<string, FieldValue> };
  const hlc = sortableHlc(parseHlc(op.hlc) as Hlc);
  const fields: Entity['fields'] = {};
  for (const field in op.set) fields[field] = [op.set[field] as FieldValue, hlc];
  return { id, kind, fields, deleted: row.deleted, logSeq: row.logSeq };
}

/** The columns of a {@link StoredEntity}, from `sync_entities AS e` joined to `sync_log AS l` (all NULL: no such thing). */
const STORED_COLUMNS = 'e.kind AS storedKind, e.fields AS fields, e.deleted_hlc AS deleted, e.log_seq AS logSeq, l.line AS line';
const STORED_JOIN = 'LEFT JOIN sync_log AS l ON l.seq = e.log_seq';

/** An outbox row as the drain reads it (see OUTBOX_ROW_SQL), with its thing's stored state (`storedKind` NULL: none). */
interface OutboxRow extends StoredEntity {
  seq: number;
  kind: EntityKind;
  id: string;
  change: string | null;
  row: string | null;
  storedKind: EntityKind | null;
}

/** How far one other device's log has been applied; saved with the batch that got there. */
export interface DevicePosition {
  deviceID: string;
  segment: number;
  offset: number;
  line: number;
  /** Operations applied from it in all. */
  applied: number;
  lastHlc: string | null;
  lastAppliedAt: number | null;
}

/** What a merge or drain did. */
export interface MergeResult {
  /** Lines this device added to its own log (segments to write). */
  logged: number;
  /** Segments those lines went to. */
  segments: number[];
  /** Whether the tracking tables changed (the window and the status should look again). */
  changed: boolean;
  /** A drain given a time slice: whether rows are left for the next one. */
  more?: boolean;
}

/** Prepared statements per connection: preparing one per row would cost time and memory until GC. */
const prepared = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** `sql` prepared once per connection. */
function sql(db: DatabaseSync, text: string): StatementSync {
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

/** Builds this device's clock from the stored reading. */
export function deviceClock(store: Store, deviceID: string, now: () => number): HybridClock {
  return new HybridClock(deviceID, now, store.settings.get<{ ms: number; counter: number }>(SYNC_SETTINGS.clock));
}

class Entities {
  private readonly cache = new Map<string, Entity | null>();
  readonly dirty = new Map<string, Entity>();
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
    let changed = false;
    if (set === undefined) {
      if (e.deleted === null || e.deleted < hlc) {
        e.deleted = hlc;
        changed = true;
      }
    } else {
      for (const [field, value] of Object.entries(set)) {
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

  /** Writes the changed entities back. */
  save(): void {
    const upsert = sql(
      this.db,
      `INSERT INTO sync_entities (id, kind, ref, fields, deleted_hlc, log_seq) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET ref = excluded.ref, fields = excluded.fields, deleted_hlc = excluded.deleted_hlc, log_seq = excluded.log_seq`,
    );
    for (const e of this.dirty.values()) {
      if (e.logSeq === undefined) upsert.run(e.id, e.kind, refOf(e), encodeFields(e.fields), e.deleted, null);
      else upsert.run(e.id, e.kind, refOf(e), '', e.deleted, e.logSeq);
    }
  }
}

/**
 * A thing's fields as stored: each distinct hlc once (`h`), each field with its value and the
 * index of its hlc (`f`). Most things are set by one operation, so this keeps one hlc instead
 * of one per field: half the bytes, and the write path's cost with sync on.
 */
function encodeFields(fields: Entity['fields']): string {
  const hlcs: string[] = [];
  const f: Record<string, [FieldValue, number]> = {};
  for (const [field, [value, hlc]] of Object.entries(fields)) {
    let i = hlcs.indexOf(hlc);
    if (i < 0) i = hlcs.push(hlc) - 1;
    f[field] = [value, i];
  }
  return JSON.stringify({ h: hlcs, f });
}

function decodeFields(text: string): Entity['fields'] {
  const stored = JSON.parse(text) as { h: string[]; f: Record<string, [FieldValue, number]> };
  const fields: Entity['fields'] = {};
  for (const [field, [value, i]] of Object.entries(stored.f)) fields[field] = [value, stored.h[i] as string];
  return fields;
}

function refOf(e: Entity): string | null {
  const ref = e.kind === 'break' ? e.fields.sessionID : e.kind === 'session' || e.kind === 'entry' ? e.fields.activityID : undefined;
  return ref === undefined ? null : (ref[0] as string);
}

function value(e: Entity, field: string): FieldValue | undefined {
  return e.fields[field]?.[0];
}

/** Shown at all: every field it needs is there, and no delete is above all its fields. */
function visible(e: Entity): boolean {
  for (const field of Object.keys(FIELDS[e.kind])) if (e.fields[field] === undefined && !OPTIONAL_FIELDS[e.kind].has(field)) return false;
  if (e.deleted === null) return true;
  for (const [, hlc] of Object.values(e.fields)) if (hlc > e.deleted) return true;
  return false;
}

/** Whether two field values are the same (a list of tags by its items). */
function sameValue(a: FieldValue, b: FieldValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** The verb of this device's operation, from what it changes. */
function verbOf(kind: EntityKind, known: boolean, set: Record<string, FieldValue>, before: Entity | undefined): string {
  if (!known) return kind === 'activity' || kind === 'entry' || kind === 'client' ? 'create' : 'start';
  const only = Object.keys(set);
  const endingNow = only.length === 1 && only[0] === 'endedAt' && before !== undefined && value(before, 'endedAt') === null;
  if (kind === 'client') return 'edit';
  // A rename when the name changes; the ledger's fields alone are an edit (an older Tock refuses both fields and verb).
  if (kind === 'activity') return 'name' in set ? 'rename' : 'edit';
  if (kind === 'session') return endingNow ? 'stop' : 'edit';
  if (kind === 'break') return endingNow ? 'end' : 'edit';
  return 'edit';
}

/**
 * Turns the outbox into operations of this device's log (next hlc each), merges them into
 * the synced state, and empties the outbox. Runs inside the caller's transaction. Each change
 * is read as it was made (see OUTBOX_ROW_SQL); a row that sets nothing new (the history logged again, a write that changed no synced field) adds no line.
 */
function drain(
  store: Store,
  entities: Entities,
  clock: HybridClock,
  limit: number,
): { logged: number; taken: number; segments: Set<number>; activities: Set<string> } {
  const db = store.db;
  const rows = sql(
    db,
    `SELECT o.seq AS seq, o.kind AS kind, o.id AS id, o.change AS change, ${OUTBOX_ROW_SQL} AS row, ${STORED_COLUMNS}
     FROM (SELECT * FROM sync_outbox ORDER BY seq LIMIT ?) AS o LEFT JOIN sync_entities AS e ON e.id = o.id ${STORED_JOIN} ORDER BY o.seq`,
  ).all(limit) as unknown as OutboxRow[];
  const segments = new Set<number>();
  const activities = new Set<string>();
  if (rows.length === 0) return { logged: 0, taken: 0, segments, activities };
  entities.known(rows);
  insertedRows(db, rows);
  // The segment being filled and its size; every segment started or grown here, to save.
  const tail = sql(db, 'SELECT segment, first_seq AS first, bytes FROM sync_segments ORDER BY segment DESC LIMIT 1').get() as
    | { segment: number; first: number; bytes: number }
    | undefined;
  let current = tail ?? { segment: 1, first: -1, bytes: 0 };
  const grown = new Map<number, { segment: number; first: number; bytes: number }>();
  const append = sql(db, 'INSERT INTO sync_log (line) VALUES (?)');
  let logged = 0;
  for (const r of rows) {
    const before = entities.get(r.id);
    let set: Record<string, FieldValue> | undefined;
    if (r.row !== null) {
      const row = JSON.parse(r.row) as Record<string, FieldValue>;
      if (row.device === '') row.device = clock.device;
      set = {};
      for (const [field, v] of Object.entries(row)) {
        if (field === 'device' && before !== undefined && value(before, 'device') !== undefined) continue; // made once
        // An optional field never set is null already: a session without a note logs no note,
        // so its lines read in a Tock that knows no session notes.
        if (v === null && OPTIONAL_FIELDS[r.kind].has(field) && before?.fields[field] === undefined) continue;
        if (before === undefined || before.fields[field] === undefined || !sameValue(before.fields[field][0], v)) set[field] = v;
      }
      if (Object.keys(set).length === 0) continue;
    } else if (before === undefined || (before.deleted !== null && !visible(before))) {
      continue;
    }
    const hlc = clock.tick();
    const verb = set === undefined ? 'delete' : verbOf(r.kind, before !== undefined && Object.keys(before.fields).length > 0, set, before);
    const line = formatOpLine({ hlc: formatHlc(hlc), op: `${r.kind}.${verb}`, id: r.id, set });
    // The bytes the line takes in the folder: signed there (folder-key.ts), as sync_log does not keep the mac.
    const size = Buffer.byteLength(line) + 1 + SIGNED_LINE_OVERHEAD;
    if (current.bytes > 0 && current.bytes + size > SEGMENT_LIMIT_BYTES) current = { segment: current.segment + 1, first: -1, bytes: 0 };
    const seq = Number(append.run(line).lastInsertRowid);
    if (current.first < 0) current.first = seq;
    current.bytes += size;
    grown.set(current.segment, current);
    segments.add(current.segment);
    entities.merge(r.kind, r.id, sortableHlc(hlc), set);
    // A create: its line holds every field with their one hlc; the merged row refers to it.
    if (before === undefined) (entities.get(r.id) as Entity).logSeq = seq;
    // A new activity joins no group: its name is in no other activity shown here (the tracker
    // would have used that one), and only what is shown groups (see projectActivities).
    if (r.kind === 'activity' && (verb === 'rename' || verb === 'delete')) activities.add(r.id);
    logged++;
  }
  const saveSegment = sql(
    db,
    'INSERT INTO sync_segments (segment, first_seq, bytes) VALUES (?, ?, ?) ON CONFLICT (segment) DO UPDATE SET bytes = excluded.bytes',
  );
  for (const g of grown.values()) saveSegment.run(g.segment, g.first, g.bytes);
  sql(db, 'DELETE FROM sync_outbox WHERE seq <= ?').run(rows[rows.length - 1]?.seq ?? 0);
  return { logged, taken: rows.length, segments, activities };
}

/**
 * Gives each insert of `rows` the row it inserted: the `before` of the next update or delete of
 * that thing still in the outbox, when there is one (else the row read now is the one inserted).
 * So a session started and stopped within one drain logs a start and a stop, as it happened.
 */
function insertedRows(db: DatabaseSync, rows: { seq: number; id: string; change: string | null; row: string | null }[]): void {
  const inserts = new Map<string, { seq: number; row: string | null }[]>();
  for (const r of rows) if (r.change === 'insert') inserts.set(r.id, [...(inserts.get(r.id) ?? []), r]);
  if (inserts.size === 0) return;
  const changes = sql(db, "SELECT seq, id, before FROM sync_outbox WHERE change IN ('update', 'delete') AND seq > ? ORDER BY seq").all(rows[0]?.seq ?? 0) as {
    seq: number;
    id: string;
    before: string;
  }[];
  for (const c of changes) {
    const waiting = inserts.get(c.id);
    if (waiting === undefined) continue;
    for (const insert of waiting) if (insert.seq < c.seq) insert.row = c.before;
    const rest = waiting.filter((insert) => insert.seq > c.seq);
    if (rest.length > 0) inserts.set(c.id, rest);
    else inserts.delete(c.id);
  }
}

/** Outbox rows turned into log lines per transaction: enabling on a long history takes many. */
const DRAIN_ROWS = 2000;

/**
 * Logs this device's pending writes (see {@link drain}), {@link DRAIN_ROWS} outbox rows per
 * transaction (each commits its lines with the removal of its rows, so a crash resumes where
 * it stopped). The caller then writes the returned segments to the folder. Given `sliceMs`, it
 * stops after the transaction that used that much time up, with `more` set when rows are left.
 */
export function drainOutbox(store: Store, clock: HybridClock, sliceMs = Number.POSITIVE_INFINITY): MergeResult {
  const started = performance.now();
  let logged = 0;
  let more = false;
  const segments = new Set<number>();
  for (;;) {
    const step = store.transaction(() => {
      const entities = new Entities(store.db);
      const result = drain(store, entities, clock, DRAIN_ROWS);
      entities.save();
      // An activity renamed or deleted here can split a group other devices' activities share
      // with it: their blocks are pointed again, as every other device does on reading this.
      if (result.activities.size > 0) reproject(store.db, entities, result.activities, clock.device);
      if (result.logged > 0) store.settings.set(SYNC_SETTINGS.clock, clock.state());
      return result;
    });
    logged += step.logged;
    for (const n of step.segments) segments.add(n);
    if (step.taken < DRAIN_ROWS) break;
    if (performance.now() - started >= sliceMs) {
      more = true;
      break;
    }
  }
  return { logged, segments: [...segments].sort((a, b) => a - b), changed: false, more };
}

/** Whether this device has more pending writes than one drain transaction takes. */
export function hasDrainBacklog(store: Store): boolean {
  return sql(store.db, 'SELECT 1 FROM sync_outbox LIMIT 1 OFFSET ?').get(DRAIN_ROWS) !== undefined;
}

/** Every segment of this device's log with its size in bytes, in order. */
export function segmentSizes(store: Store): { segment: number; bytes: number }[] {
  return (sql(store.db, 'SELECT segment, bytes FROM sync_segments ORDER BY segment').all() as { segment: number; bytes: number }[]).map((r) => ({
    segment: r.segment,
    bytes: r.bytes,
  }));
}

/** How other devices' operations are applied. */
export interface ApplyOptions {
  /**
   * One timer across devices (docs/sync.md "One timer"): a session start from another device
   * that is later than this device's running session's start ends that session at it.
   */
  oneTimer?: boolean;
}

/**
 * Applies other devices' operations in ONE transaction, together with the positions they
 * were read up to: a crash leaves all of the batch applied or none of it. This device's
 * pending writes are logged first, so the tables never show older state than the store
 * holds. Applying an operation twice, or a batch in any order, gives the same store.
 */
export function applyOperations(
  store: Store,
  clock: HybridClock,
  ops: readonly SyncOp[],
  positions: readonly DevicePosition[] = [],
  options: ApplyOptions = {},
): MergeResult {
  return store.transaction(() => {
    const db = store.db;
    const entities = new Entities(db);
    const drained = { logged: 0, segments: new Set<number>() };
    const ownActivities = new Set<string>();
    for (;;) {
      const step = drain(store, entities, clock, DRAIN_ROWS);
      drained.logged += step.logged;
      for (const n of step.segments) drained.segments.add(n);
      for (const id of step.activities) ownActivities.add(id);
      if (step.taken < DRAIN_ROWS) break;
    }
    db.exec('INSERT INTO sync_applying (flag) VALUES (1)');
    let changed = false;
    try {
      const touched = new Map<string, EntityKind>();
      for (const id of ownActivities) touched.set(id, 'activity');
      // The activity rows the touched activities' blocks point to now (before their names change).
      const shownBefore = new Set<string>();
      const rowOf = sql(db, 'SELECT id FROM activities WHERE name_key = ?');
      for (const op of ops) {
        clock.receive(op.hlc);
        if (op.kind === 'activity' && !touched.has(op.id)) {
          const name = entities.get(op.id)?.fields.name?.[0];
          const row = typeof name === 'string' ? (rowOf.get(nameKey(name)) as { id: string } | undefined) : undefined;
          if (row) shownBefore.add(row.id);
        }
        if (entities.merge(op.kind, op.id, sortableHlc(op.hlc), op.deletes ? undefined : op.set)) touched.set(op.id, op.kind);
      }
      entities.save();
      if (touched.size > 0) changed = project(db, entities, touched, clock.device, shownBefore);
      savePositions(db, positions);
    } finally {
      db.exec('DELETE FROM sync_applying');
    }
    // Captured as this device's own write (sync_applying is gone): its stop travels as a line of its log.
    if (options.oneTimer === true && endOutrunSession(db, entities, ops, clock.device)) changed = true;
    store.settings.set(SYNC_SETTINGS.clock, clock.state());
    return { logged: drained.logged, segments: [...drained.segments].sort((a, b) => a - b), changed };
  });
}

/**
 * One timer across devices (docs/sync.md "One timer"): when sessions that another device
 * started arrive, and one of them starts after this device's running session did, the running
 * session ends where the first such start is — ties by session id, the higher id being the
 * later, so both devices agree which of two starts in one millisecond wins. The end is read
 * from the operations alone (never this device's clock), and written as this device's own
 * change: its stop (and the break it ends) goes into its log, so every device shows the same
 * end. Breaks that begin at or after that end go; one that is open or reaches past it ends there. Returns whether
 * a session was ended.
 */
function endOutrunSession(db: DatabaseSync, entities: Entities, ops: readonly SyncOp[], me: string): boolean {
  const running = sql(db, "SELECT id, started_at AS startedAt FROM sessions WHERE ended_at IS NULL AND device_id = ''").get() as
    | { id: string; startedAt: number }
    | undefined;
  if (running === undefined) return false;
  const later = (a: { at: number; id: string }, b: { at: number; id: string }): boolean => a.at > b.at || (a.at === b.at && a.id > b.id);
  const mine = { at: running.startedAt, id: running.id };
  let first: { at: number; id: string } | undefined;
  for (const op of ops) {
    if (op.op !== 'session.start' || op.hlc.device === me) continue;
    const e = entities.get(op.id);
    if (e === undefined || !visible(e) || value(e, 'device') === me) continue;
    const startedAt = value(e, 'startedAt');
    if (typeof startedAt !== 'number') continue;
    const start = { at: startedAt, id: op.id };
    if (later(start, mine) && (first === undefined || later(first, start))) first = start;
  }
  if (first === undefined) return false;
  sql(db, 'DELETE FROM breaks WHERE session_id = ? AND started_at >= ?').run(running.id, first.at);
  sql(db, 'UPDATE breaks SET ended_at = ?1 WHERE session_id = ?2 AND (ended_at IS NULL OR ended_at > ?1)').run(first.at, running.id);
  sql(db, 'UPDATE sessions SET ended_at = ? WHERE id = ?').run(first.at, running.id);
  return true;
}

function savePositions(db: DatabaseSync, positions: readonly DevicePosition[]): void {
  const save = sql(db, 
    `INSERT INTO sync_devices (device_id, segment, offset, line, applied, last_hlc, last_applied_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (device_id) DO UPDATE SET segment = excluded.segment, offset = excluded.offset, line = excluded.line,
       applied = excluded.applied, last_hlc = excluded.last_hlc, last_applied_at = excluded.last_applied_at`,
  );
  for (const p of positions) save.run(p.deviceID, p.segment, p.offset, p.line, p.applied, p.lastHlc, p.lastAppliedAt);
}

/** Projects this device's own activity changes (see drainOutbox), its writes not captured. */
function reproject(db: DatabaseSync, entities: Entities, activities: ReadonlySet<string>, me: string): void {
  db.exec('INSERT INTO sync_applying (flag) VALUES (1)');
  try {
    project(db, entities, new Map([...activities].map((id) => [id, 'activity' as EntityKind])), me, new Set());
  } finally {
    db.exec('DELETE FROM sync_applying');
  }
}

/** The applied positions of every other device seen. */
export function devicePositions(store: Store): DevicePosition[] {
  return (
    sql(store.db, 
        `SELECT device_id AS deviceID, segment, offset, line, applied, last_hlc AS lastHlc, last_applied_at AS lastAppliedAt
           FROM sync_devices ORDER BY device_id`,
      )
      .all() as unknown as DevicePosition[]
  ).map((p) => ({ ...p }));
}

/**
 * Makes the tracking tables show the merged state of the touched things (and of whatever
 * hangs on them: the blocks of an activity whose group changed, the breaks of a session).
 * Returns whether any table row changed.
 */
function project(db: DatabaseSync, entities: Entities, touched: Map<string, EntityKind>, me: string, shownBefore: ReadonlySet<string>): boolean {
  let changed = false;
  const blocks = new Set<string>();
  for (const [id, kind] of touched) {
    if (kind === 'client') {
      const e = entities.get(id);
      if (e) changed = projectClient(db, e) || changed;
    } else if (kind !== 'activity') blocks.add(id);
  }
  const activities = new Set([...touched].filter(([, kind]) => kind === 'activity').map(([id]) => id));
  if (activities.size > 0) {
    const { regrouped, edited } = projectActivities(db, entities, activities);
    if (regrouped.length > 0 || edited) changed = true;
    // The blocks to point again: those waiting for one of these activities, and those shown
    // under an activity row that went, came or changed, or that a touched activity was shown as.
    const waiting = sql(db, "SELECT id FROM sync_entities WHERE pending = 1 AND ref = ? AND kind IN ('session', 'entry') ORDER BY id");
    const sessionsOf = sql(db, 'SELECT id FROM sessions WHERE activity_id = ?');
    const entriesOf = sql(db, 'SELECT id FROM entries WHERE activity_id = ?');
    for (const activity of regrouped) for (const r of waiting.all(activity) as { id: string }[]) blocks.add(r.id);
    for (const row of new Set([...regrouped, ...shownBefore])) {
      for (const r of sessionsOf.all(row) as { id: string }[]) blocks.add(r.id);
      for (const r of entriesOf.all(row) as { id: string }[]) blocks.add(r.id);
    }
  }
  const keptIds = new Map<string, string | undefined>();
  const resolve = (activityID: string): string | undefined => {
    if (!keptIds.has(activityID)) {
      const a = entities.get(activityID);
      const kept =
        a && visible(a)
          ? (sql(db, 'SELECT id FROM activities WHERE name_key = ?').get(nameKey(String(value(a, 'name')))) as { id: string } | undefined)?.id
          : undefined;
      keptIds.set(activityID, kept);
    }
    return keptIds.get(activityID);
  };
  const waitingBreaks = sql(db, "SELECT id FROM sync_entities WHERE pending = 1 AND ref = ? AND kind = 'break' ORDER BY id");
  const shownBreaks = sql(db, 'SELECT id FROM breaks WHERE session_id = ?');
  const breaksOf = (sessionID: string): string[] => [
    ...(shownBreaks.all(sessionID) as { id: string }[]).map((r) => r.id),
    ...(waitingBreaks.all(sessionID) as { id: string }[]).map((r) => r.id),
  ];
  const lastUsed: LastUsed = new Map();
  // Sessions and entries first, each session with its breaks (shown or waiting for it); then
  // the touched breaks not done with their session (a break of this batch may not wait yet).
  const breaksDone = new Set<string>();
  for (const id of blocks) {
    const e = entities.get(id);
    if (!e) continue;
    if (e.kind === 'session') {
      changed = projectSession(db, e, resolve, me, lastUsed) || changed;
      for (const b of breaksOf(id)) {
        const be = entities.get(b);
        if (!be || breaksDone.has(b)) continue;
        breaksDone.add(b);
        changed = projectBreak(db, be) || changed;
      }
    } else if (e.kind === 'entry') {
      changed = projectEntry(db, e, resolve, me, lastUsed) || changed;
    }
  }
  for (const id of blocks) {
    const e = entities.get(id);
    if (e?.kind === 'break' && !breaksDone.has(id)) changed = projectBreak(db, e) || changed;
  }
  // Search's recency: each activity's latest block start, once per batch (never moved back).
  const touch = sql(db, 'UPDATE activities SET last_used_at = max(last_used_at, ?) WHERE id = ?');
  for (const [activity, startedAt] of lastUsed) touch.run(startedAt, activity);
  return changed;
}

/**
 * Runs a projection write of one statement; a row the tables' rules refuse is not shown. A
 * failing statement undoes only itself (SQLite's statement atomicity): nothing else of the
 * batch is hurt, and no savepoint is needed. Returns whether the write went in.
 */
function guarded(write: () => void, remove: () => void): boolean {
  try {
    write();
    return true;
  } catch {
    remove();
    return false;
  }
}

/**
 * Marks a thing as waiting for its ref (an activity or session not shown) or not. Only waiting
 * things are in the by-ref index; shown ones are found through the tracking tables.
 */
function setPending(db: DatabaseSync, id: string, waiting: boolean): void {
  const flag = waiting ? 1 : 0;
  sql(db, 'UPDATE sync_entities SET pending = ? WHERE id = ? AND pending <> ?').run(flag, id, flag);
}

/** The latest block start per activity seen in a batch, written to `last_used_at` once each. */
type LastUsed = Map<string, number>;

function used(lastUsed: LastUsed, activity: string, startedAt: number): void {
  if ((lastUsed.get(activity) ?? Number.NEGATIVE_INFINITY) < startedAt) lastUsed.set(activity, startedAt);
}

function projectSession(db: DatabaseSync, e: Entity, resolve: (id: string) => string | undefined, me: string, lastUsed: LastUsed): boolean {
  const remove = (): boolean => {
    // Its breaks go with it (cascade): they wait for it to be shown again.
    sql(db, 'UPDATE sync_entities SET pending = 1 WHERE id IN (SELECT id FROM breaks WHERE session_id = ?)').run(e.id);
    return Number(sql(db, 'DELETE FROM sessions WHERE id = ?').run(e.id).changes) > 0;
  };
  const device = String(value(e, 'device'));
  const endedAt = value(e, 'endedAt') as number | null | undefined;
  // Every device keeps its own running session: another device's shows once it has ended.
  if (!visible(e) || (device !== me && endedAt === null)) {
    setPending(db, e.id, false);
    return remove();
  }
  const activity = resolve(String(value(e, 'activityID')));
  if (activity === undefined) {
    setPending(db, e.id, true);
    return remove();
  }
  setPending(db, e.id, false);
  const startedAt = value(e, 'startedAt') as number;
  const note = (value(e, 'note') ?? null) as string | null;
  const { tags, billable } = ledgerColumns(e);
  const before = sql(db, 'SELECT activity_id AS a, started_at AS s, ended_at AS e, device_id AS d, note AS n, tags AS t, billable AS b FROM sessions WHERE id = ?').get(e.id) as
    | { a: string; s: number; e: number | null; d: string; n: string | null; t: string | null; b: number | null }
    | undefined;
  const deviceColumn = device === me ? '' : device;
  if (before && before.a === activity && before.s === startedAt && before.e === endedAt && before.d === deviceColumn && before.n === note && before.t === tags && before.b === billable) return false;
  const written = guarded(
    () =>
      sql(
        db,
        `INSERT INTO sessions (id, activity_id, started_at, ended_at, device_id, note, tags, billable) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET activity_id = excluded.activity_id, started_at = excluded.started_at,
           ended_at = excluded.ended_at, device_id = excluded.device_id, note = excluded.note, tags = excluded.tags, billable = excluded.billable`,
      ).run(e.id, activity, startedAt, endedAt ?? null, deviceColumn, note, tags, billable),
    remove,
  );
  if (written) used(lastUsed, activity, startedAt);
  return true;
}

function projectBreak(db: DatabaseSync, e: Entity): boolean {
  const remove = (): boolean => Number(sql(db, 'DELETE FROM breaks WHERE id = ?').run(e.id).changes) > 0;
  const sessionID = String(value(e, 'sessionID'));
  if (!visible(e)) {
    setPending(db, e.id, false);
    return remove();
  }
  if (sql(db, 'SELECT 1 FROM sessions WHERE id = ?').get(sessionID) === undefined) {
    setPending(db, e.id, true);
    return remove();
  }
  setPending(db, e.id, false);
  const startedAt = value(e, 'startedAt') as number;
  const endedAt = (value(e, 'endedAt') ?? null) as number | null;
  const before = sql(db, 'SELECT session_id AS s, started_at AS a, ended_at AS b FROM breaks WHERE id = ?').get(e.id) as
    | { s: string; a: number; b: number | null }
    | undefined;
  if (before && before.s === sessionID && before.a === startedAt && before.b === endedAt) return false;
  guarded(
    () =>
      sql(
        db,
        `INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, started_at = excluded.started_at, ended_at = excluded.ended_at`,
      ).run(e.id, sessionID, startedAt, endedAt),
    remove,
  );
  return true;
}

function projectEntry(db: DatabaseSync, e: Entity, resolve: (id: string) => string | undefined, me: string, lastUsed: LastUsed): boolean {
  const remove = (): boolean => Number(sql(db, 'DELETE FROM entries WHERE id = ?').run(e.id).changes) > 0;
  if (!visible(e)) {
    setPending(db, e.id, false);
    return remove();
  }
  const activity = resolve(String(value(e, 'activityID')));
  if (activity === undefined) {
    setPending(db, e.id, true);
    return remove();
  }
  const startedAt = value(e, 'startedAt') as number;
  const endedAt = value(e, 'endedAt') as number;
  // The API's rule for entries, on the merged fields (an edit may set one end only).
  if (endedAt < startedAt || endedAt - startedAt > ENTRY_MAX_MS) {
    setPending(db, e.id, false);
    return remove();
  }
  setPending(db, e.id, false);
  const device = String(value(e, 'device'));
  const row = {
    a: activity,
    s: value(e, 'startedAt') as number,
    e: value(e, 'endedAt') as number,
    n: (value(e, 'note') ?? null) as string | null,
    c: value(e, 'createdAt') as number,
    d: device === me ? '' : device,
    t: ledgerColumns(e).tags,
    b: ledgerColumns(e).billable,
  };
  const before = sql(db, 'SELECT activity_id AS a, started_at AS s, ended_at AS e, note AS n, created_at AS c, device_id AS d, tags AS t, billable AS b FROM entries WHERE id = ?')
    .get(e.id) as typeof row | undefined;
  if (before && before.a === row.a && before.s === row.s && before.e === row.e && before.n === row.n && before.c === row.c && before.d === row.d && before.t === row.t && before.b === row.b) return false;
  const written = guarded(
    () =>
      sql(
        db,
        `INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, device_id, tags, billable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET activity_id = excluded.activity_id, started_at = excluded.started_at, ended_at = excluded.ended_at,
           note = excluded.note, created_at = excluded.created_at, device_id = excluded.device_id, tags = excluded.tags, billable = excluded.billable`,
      ).run(e.id, row.a, row.s, row.e, row.n, row.c, row.d, row.t, row.b),
    remove,
  );
  if (written) used(lastUsed, activity, row.s);
  return true;
}

/**
 * Makes the activities table show the merged activities: one row per name (case-insensitive,
 * NFC), the lowest id of those sharing it, with that activity's name. Returns the ids of every
 * activity whose row appeared, went or changed, and of every member of such a group: their
 * blocks must be pointed again. Blocks are pointed after this (foreign keys are checked at commit).
 */
function projectActivities(db: DatabaseSync, entities: Entities, touched: ReadonlySet<string>): { regrouped: string[]; edited: boolean } {
  const all = sql(db, "SELECT id FROM sync_entities WHERE kind = 'activity' ORDER BY id").all() as { id: string }[];
  const groups = new Map<string, Entity[]>();
  for (const { id } of all) {
    const e = entities.get(id);
    if (!e || !visible(e)) continue;
    const key = nameKey(String(value(e, 'name')));
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  const wanted = new Map<string, { name: string; createdAt: number; members: string[]; ledger: ActivityLedgerColumns; color: number | null }>();
  for (const group of groups.values()) {
    group.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const kept = group[0] as Entity;
    wanted.set(kept.id, {
      name: String(value(kept, 'name')),
      createdAt: value(kept, 'createdAt') as number,
      members: group.map((m) => m.id),
      ledger: activityLedgerColumns(kept),
      color: (value(kept, 'color') ?? null) as number | null,
    });
  }
  const known = new Set(all.map((a) => a.id));
  const rows = sql(db, 'SELECT id, name, created_at AS createdAt, last_used_at AS lastUsedAt, client_id AS clientID, rate, billable, budget_hours AS budgetHours, color FROM activities').all() as unknown as ({
    id: string;
    name: string;
    createdAt: number;
    lastUsedAt: number;
    color: number;
  } & ActivityLedgerColumns)[];
  const regrouped = new Set<string>();
  const lastUsed = new Map<string, number>();
  const stale: string[] = [];
  // The ledger's fields of an activity that stays: changed in place (budget_announced is this device's and stays).
  const setLedger = sql(db, 'UPDATE activities SET client_id = ?, rate = ?, billable = ?, budget_hours = ? WHERE id = ?');
  const setColor = sql(db, 'UPDATE activities SET color = ? WHERE id = ?');
  // The colour a row had before it is written again (a rename by an older Tock logs none).
  const shownColor = new Map<string, number>();
  let edited = false;
  for (const row of rows) {
    if (!known.has(row.id)) continue; // not synced (cannot happen once the outbox is drained): left alone
    const w = wanted.get(row.id);
    if (w && w.name === row.name && w.createdAt === row.createdAt) {
      const l = w.ledger;
      if (l.clientID !== row.clientID || l.rate !== row.rate || l.billable !== row.billable || l.budgetHours !== row.budgetHours) {
        setLedger.run(l.clientID, l.rate, l.billable, l.budgetHours, row.id);
        edited = true;
      }
      // A colour logged wins by its hlc; lines without one (an older Tock) leave the row's.
      if (w.color !== null && w.color !== row.color) {
        setColor.run(w.color, row.id);
        edited = true;
      }
      continue;
    }
    stale.push(row.id);
    lastUsed.set(row.id, row.lastUsedAt);
    shownColor.set(row.id, row.color);
  }
  const present = new Set(rows.map((r) => r.id));
  db.exec('PRAGMA defer_foreign_keys = ON');
  const remove = sql(db, 'DELETE FROM activities WHERE id = ?');
  for (const id of stale) {
    remove.run(id);
    present.delete(id);
    regrouped.add(id);
  }
  const insert = sql(db, 
    `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at, client_id, rate, billable, budget_hours, color)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const [id, w] of wanted) {
    if (present.has(id)) continue;
    const l = w.ledger;
    // Its colour as logged; from its id alone when an older Tock logged none, the same on every device.
    const color = w.color ?? shownColor.get(id) ?? colorFromId(id);
    insert.run(id, w.name, nameKey(w.name), searchKey(w.name), wordKey(w.name), w.createdAt, Math.max(w.createdAt, lastUsed.get(id) ?? 0), l.clientID, l.rate, l.billable, l.budgetHours, color);
    regrouped.add(id);
  }
  // Every touched activity (merged into another, deleted, renamed) and every member of a group
  // with a row that changed or a touched member.
  for (const id of touched) regrouped.add(id);
  for (const w of wanted.values()) if (w.members.some((m) => regrouped.has(m))) for (const m of w.members) regrouped.add(m);
  return { regrouped: [...regrouped], edited };
}

/** An activity's ledger columns as the activities table keeps them. */
interface ActivityLedgerColumns {
  clientID: string | null;
  rate: string | null;
  billable: number;
  budgetHours: number | null;
}

function activityLedgerColumns(e: Entity): ActivityLedgerColumns {
  return {
    clientID: (value(e, 'clientID') ?? null) as string | null,
    rate: (value(e, 'rate') ?? null) as string | null,
    billable: value(e, 'billable') === true ? 1 : 0,
    budgetHours: (value(e, 'budgetHours') ?? null) as number | null,
  };
}

/** A block's tags and billable flag as the sessions and entries tables keep them (its invoice is this device's). */
function ledgerColumns(e: Entity): { tags: string | null; billable: number | null } {
  const tags = value(e, 'tags');
  const billable = value(e, 'billable');
  return {
    tags: Array.isArray(tags) && tags.length > 0 ? JSON.stringify(tags) : null,
    billable: billable === true ? 1 : billable === false ? 0 : null,
  };
}

/**
 * Makes the clients table show one merged client: by its id (two clients of one name made on
 * two devices are two; the API keeps names unique only where they are made). Its activities
 * keep its id while it is gone, and find it again when it comes back.
 */
function projectClient(db: DatabaseSync, e: Entity): boolean {
  if (!visible(e)) return Number(sql(db, 'DELETE FROM clients WHERE id = ?').run(e.id).changes) > 0;
  const name = String(value(e, 'name'));
  const row = {
    n: name,
    r: (value(e, 'rate') ?? null) as string | null,
    c: (value(e, 'currency') ?? null) as string | null,
    a: (value(e, 'address') ?? null) as string | null,
    t: value(e, 'createdAt') as number,
  };
  const before = sql(db, 'SELECT name AS n, rate AS r, currency AS c, address AS a, created_at AS t FROM clients WHERE id = ?').get(e.id) as typeof row | undefined;
  if (before && before.n === row.n && before.r === row.r && before.c === row.c && before.a === row.a && before.t === row.t) return false;
  sql(
    db,
    `INSERT INTO clients (id, name, name_key, rate, currency, address, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, rate = excluded.rate, currency = excluded.currency,
       address = excluded.address, created_at = excluded.created_at`,
  ).run(e.id, row.n, nameKey(row.n), row.r, row.c, row.a, row.t);
  return true;
}

/**
 * Forgets every synced state of the store — the merged things, this device's log, how far
 * other devices' logs were read, the pending captures and the hybrid clock — in one
 * transaction. Run before sync is turned on in a format-2 folder by a store that synced in
 * format 1 (or whose state cannot be trusted): the tables are kept, and capturing again
 * (installCapture) writes this device's whole history into its new log.
 */
export function resetSyncState(store: Store): void {
  store.transaction(() => {
    for (const table of ['sync_entities', 'sync_log', 'sync_segments', 'sync_devices', 'sync_outbox']) store.db.exec(`DELETE FROM ${table}`);
    store.settings.delete(SYNC_SETTINGS.clock);
  });
}

/** This device's log lines of one segment, in order (to write that segment's file). */
export function segmentLines(store: Store, segment: number): string[] {
  const bounds = sql(store.db, 'SELECT segment, first_seq AS first FROM sync_segments WHERE segment IN (?, ?)').all(segment, segment + 1) as {
    segment: number;
    first: number;
  }[];
  const from = bounds.find((b) => b.segment === segment)?.first;
  if (from === undefined) return [];
  const to = bounds.find((b) => b.segment === segment + 1)?.first ?? Number.MAX_SAFE_INTEGER;
  return (sql(store.db, 'SELECT line FROM sync_log WHERE seq >= ? AND seq < ? ORDER BY seq').all(from, to) as { line: string }[]).map((r) => r.line);
}

/** The segments of this device's log, in order. */
export function logSegments(store: Store): number[] {
  return (sql(store.db, 'SELECT segment FROM sync_segments ORDER BY segment').all() as { segment: number }[]).map((r) => r.segment);
}

/** Lines in this device's log (none is ever removed: the highest seq is their number). */
export function logLength(store: Store): number {
  return Number((sql(store.db, 'SELECT coalesce(max(seq), 0) AS n FROM sync_log').get() as { n: number }).n);
}

export type { Hlc };

/** A session another device is running now, as its log says (docs/sync.md "Several devices"). */
export interface RunningElsewhere {
  sessionID: string;
  deviceID: string;
  activity: { activityID: string; activityName: string };
  startedAt: number;
  note: string | null;
  /** Its breaks so far (`endedAt` null: on a break now). */
  breaks: { startedAt: number; endedAt: number | null }[];
}

/**
 * The sessions other devices are running now: kept in the merged state only (every device keeps
 * its own running session; another device's is shown once it has ended), so they are the synced
 * sessions without an end that the tracking tables do not hold. One pass over the synced
 * sessions; the window asks again only when another device's log brought something new.
 */
export function sessionsRunningElsewhere(store: Store): RunningElsewhere[] {
  const db = store.db;
  const entities = new Entities(db);
  const ids = sql(
    db,
    "SELECT e.id FROM sync_entities AS e WHERE e.kind = 'session' AND e.pending = 0 AND NOT EXISTS (SELECT 1 FROM sessions AS s WHERE s.id = e.id) ORDER BY e.id",
  ).all() as { id: string }[];
  const activityOf = sql(db, 'SELECT id, name FROM activities WHERE name_key = ?');
  const breakIds = sql(db, "SELECT id FROM sync_entities WHERE pending = 1 AND ref = ? AND kind = 'break' ORDER BY id");
  const running: RunningElsewhere[] = [];
  for (const { id } of ids) {
    const e = entities.get(id);
    if (e === undefined || !visible(e) || value(e, 'endedAt') !== null) continue;
    const a = entities.get(String(value(e, 'activityID')));
    if (a === undefined || !visible(a)) continue;
    const shown = activityOf.get(nameKey(String(value(a, 'name')))) as { id: string; name: string } | undefined;
    if (shown === undefined) continue;
    const breaks = (breakIds.all(id) as { id: string }[])
      .map((r) => entities.get(r.id))
      .filter((b): b is Entity => b !== undefined && visible(b))
      .map((b) => ({ startedAt: value(b, 'startedAt') as number, endedAt: (value(b, 'endedAt') ?? null) as number | null }))
      .sort((x, y) => x.startedAt - y.startedAt);
    running.push({
      sessionID: id,
      deviceID: String(value(e, 'device')),
      activity: { activityID: shown.id, activityName: shown.name },
      startedAt: value(e, 'startedAt') as number,
      note: (value(e, 'note') ?? null) as string | null,
      breaks,
    });
  }
  return running.sort((x, y) => x.startedAt - y.startedAt || x.sessionID.localeCompare(y.sessionID));
}
