/**
 * This device's own writes into its log (docs/sync.md): the rows the capture triggers recorded
 * in `sync_outbox` become operations with this device's next hlc, lines of its log, merged into
 * the same state other devices' operations reach (entities.ts).
 */


import type { DatabaseSync } from 'node:sqlite';
import type { Store } from '../store.ts';
import { capturedRows } from './capture.ts';
import { type HybridClock, formatHlc, sortableHlc } from './hlc.ts';
import { SIGNED_LINE_OVERHEAD } from './folder-key.ts';
import { OPTIONAL_FIELDS, formatOpLine, type EntityKind, type FieldValue } from './ops.ts';
import { type MergeResult, SEGMENT_LIMIT_BYTES, SYNC_SETTINGS } from './log.ts';
import { Entities, type Entity, type OutboxRow, STORED_JOIN, batchedInsert, sameValue, sql, value, visible } from './entities.ts';
import { reproject } from './projection.ts';

/** The verb of this device's operation, from what it changes. */
export function verbOf(kind: EntityKind, known: boolean, set: Record<string, FieldValue>, before: Entity | undefined): string {
  if (kind === 'book') return 'set';
  if (!known) return kind === 'activity' || kind === 'entry' || kind === 'client' || kind === 'invoice' ? 'create' : 'start';
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
 * is read as it was made (see capturedRows); a row that sets nothing new (the history logged again, a write that changed no synced field) adds no line.
 */
export function drain(
  store: Store,
  entities: Entities,
  clock: HybridClock,
  limit: number,
): { logged: number; taken: number; segments: Set<number>; activities: Set<string> } {
  const db = store.db;
  const read = sql(
    db,
    `SELECT o.seq, o.kind, o.id, o.change, o.row, e.kind, e.fields, e.deleted_hlc, e.log_seq, l.line
     FROM (SELECT seq, kind, id, change, row FROM sync_outbox ORDER BY seq LIMIT ?) AS o LEFT JOIN sync_entities AS e ON e.id = o.id ${STORED_JOIN} ORDER BY o.seq`,
  );
  // As arrays, made into objects of one shape here: SQLite's rows are objects without a prototype,
  // slower to make and to read (a tenth of the drain's time a row).
  read.setReturnArrays(true);
  const rows: OutboxRow[] = (read.all(limit) as unknown as OutboxValues[]).map(
    ([seq, kind, id, change, row, storedKind, fields, deleted, logSeq, line]) => ({ seq, kind, id, change, row, storedKind, fields, deleted, logSeq, line }),
  );
  const segments = new Set<number>();
  const activities = new Set<string>();
  if (rows.length === 0) return { logged: 0, taken: 0, segments, activities };
  entities.known(rows);
  // The rows inserts recorded: each as the next change of its thing replaced it, else as it is now.
  insertedRows(db, rows);
  const inserted = new Map<number, Record<string, FieldValue>>();
  const insertedKinds = new Set<EntityKind>();
  for (const r of rows) if (r.row === null && (r.change === 'insert' || r.change === 'history')) insertedKinds.add(r.kind);
  const first = (rows[0] as OutboxRow).seq;
  const last = (rows[rows.length - 1] as OutboxRow).seq;
  for (const kind of insertedKinds) for (const [seq, row] of capturedRows(db, kind, first, last)) inserted.set(seq, row);
  // The segment being filled and its size; every segment started or grown here, to save.
  const tail = sql(db, 'SELECT segment, first_seq AS first, bytes FROM sync_segments ORDER BY segment DESC LIMIT 1').get() as
    | { segment: number; first: number; bytes: number }
    | undefined;
  let current = tail ?? { segment: 1, first: -1, bytes: 0 };
  const grown = new Map<number, { segment: number; first: number; bytes: number }>();
  const append = appender(db);
  let logged = 0;
  for (const r of rows) {
    const before = entities.get(r.id);
    let set: Record<string, FieldValue> | undefined;
    const row = r.row !== null ? (JSON.parse(r.row) as Record<string, FieldValue>) : inserted.get(r.seq);
    if (row !== undefined) {
      if (row.device === '') row.device = clock.device;
      set = {};
      let fields = 0;
      const optional = OPTIONAL_FIELDS[r.kind];
      for (const field in row) {
        const v = row[field] as FieldValue;
        if (field === 'device' && before !== undefined && value(before, 'device') !== undefined) continue; // made once
        // An optional field never set is null already: a session without a note logs no note,
        // so its lines read in a Tock that knows no session notes.
        if (v === null && optional.has(field) && before?.fields[field] === undefined) continue;
        const was = before?.fields[field];
        if (was === undefined || !sameValue(was[0], v)) {
          set[field] = v;
          fields++;
        }
      }
      if (fields === 0) continue;
    } else if (before === undefined || (before.deleted !== null && !visible(before))) {
      continue;
    }
    const hlc = clock.tick();
    const verb = set === undefined ? 'delete' : verbOf(r.kind, before !== undefined && Object.keys(before.fields).length > 0, set, before);
    const line = formatOpLine({ hlc: formatHlc(hlc), op: `${r.kind}.${verb}`, id: r.id, set });
    // The bytes the line takes in the folder: signed there (folder-key.ts), as sync_log does not keep the mac.
    const size = Buffer.byteLength(line) + 1 + SIGNED_LINE_OVERHEAD;
    if (current.bytes > 0 && current.bytes + size > SEGMENT_LIMIT_BYTES) current = { segment: current.segment + 1, first: -1, bytes: 0 };
    const seq = append.add(line);
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
  append.flush();
  const saveSegment = sql(
    db,
    'INSERT INTO sync_segments (segment, first_seq, bytes) VALUES (?, ?, ?) ON CONFLICT (segment) DO UPDATE SET bytes = excluded.bytes',
  );
  for (const g of grown.values()) saveSegment.run(g.segment, g.first, g.bytes);
  sql(db, 'DELETE FROM sync_outbox WHERE seq <= ?').run(last);
  return { logged, taken: rows.length, segments, activities };
}

/** An outbox row and its thing's stored state as the drain reads them (see {@link OutboxRow}). */
type OutboxValues = [
  seq: number,
  kind: EntityKind,
  id: string,
  change: string | null,
  row: string | null,
  storedKind: EntityKind | null,
  fields: string,
  deleted: string | null,
  logSeq: number | null,
  line: string | null,
];

/**
 * Appends lines to sync_log, many a statement ({@link batchedInsert}), numbered on from its last
 * line as SQLite numbers a row itself: `add` answers the line's seq at once, `flush` writes what
 * is left. Nothing reads a drain's lines before it flushes them.
 */
function appender(db: DatabaseSync): { add(line: string): number; flush(): void } {
  let next = Number((sql(db, 'SELECT coalesce(max(seq), 0) AS n FROM sync_log').get() as { n: number }).n) + 1;
  const insert = batchedInsert(db, 'sync_log (seq, line)', 2);
  return {
    add(line: string): number {
      const seq = next++;
      insert.add(seq, line);
      return seq;
    },
    flush: () => insert.flush(),
  };
}

/**
 * Gives each insert of `rows` the row it inserted: the `before` of the next update or delete of
 * that thing still in the outbox, when there is one (else the row read now is the one inserted).
 * So a session started and stopped within one drain logs a start and a stop, as it happened.
 */
export function insertedRows(db: DatabaseSync, rows: { seq: number; id: string; change: string | null; row: string | null }[]): void {
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
export const DRAIN_ROWS = 2000;

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
