/**
 * What `tock export` reads (docs/data.md "Your data: export, import, backup"): the request's
 * shape and the range of block starts it takes, the activities, sessions with their breaks and
 * entries as SQLite iterators in order of start, the device each block was made on, and the
 * buffer that hands the text out in chunks. export-json.ts and export-csv.ts write from these.
 */

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { overlapMs, wholeSeconds } from './blocks.ts';
import { addDays, startOfLocalDay, type DayKey } from './day.ts';

/** The two formats of `tock export`. */
export type ExportFormat = 'json' | 'csv';

/** What to export: a format, optional first and last local days, the zone and the moment. */
export interface ExportRequest {
  format: ExportFormat;
  /** First local day (`YYYY-MM-DD`) whose blocks are exported; none: from the beginning. */
  fromDay?: DayKey | undefined;
  /** Last local day, included; none: up to now and beyond. */
  toDay?: DayKey | undefined;
  /** The IANA zone the days are counted in (the app's). */
  timeZone: string;
  /** Now, ms since the epoch: `exportedAt`, and where a running session's seconds end. */
  now: number;
}

/** How much an export wrote; the value a finished `exportChunks` returns (export.ts). */
export interface ExportCounts {
  activities: number;
  sessions: number;
  entries: number;
}

/** Chunks are gathered up to about this many UTF-16 units before one is handed out. */
const CHUNK_CHARS = 64 * 1024;

/** Bounds in ms of the blocks' starts that a request takes, `[from, to)`. */
export function startBounds(request: ExportRequest): { from: number; to: number } {
  return {
    from: request.fromDay === undefined ? Number.MIN_SAFE_INTEGER : startOfLocalDay(request.fromDay, request.timeZone),
    to: request.toDay === undefined ? Number.MAX_SAFE_INTEGER : startOfLocalDay(addDays(request.toDay, 1), request.timeZone),
  };
}

/** An activity as the export reads it. */
export interface ActivityRow {
  id: string;
  name: string;
  createdAt: number;
  clientID: string | null;
  rate: string | null;
  billable: number;
  budgetHours: number | null;
  color: number;
  archived: number;
}

/** A block's ledger columns as read. */
export interface BlockLedgerColumns {
  tags: string | null;
  billable: number | null;
}

/** A session joined with one of its breaks (null break columns when it has none). */
interface SessionBreakRow extends BlockLedgerColumns {
  id: string;
  device: string;
  activityID: string;
  activityName: string;
  start: number;
  end: number | null;
  note: string | null;
  breakStart: number | null;
  breakEnd: number | null;
}

/** An entry with its activity's name, as the export reads it. */
export interface EntryRow extends BlockLedgerColumns {
  id: string;
  device: string;
  activityID: string;
  activityName: string;
  start: number;
  end: number;
  note: string | null;
}

/** A session with its breaks, as assembled from consecutive joined rows. */
export interface SessionOut extends BlockLedgerColumns {
  id: string;
  /** The device it was made on; '' for this one. */
  device: string;
  activityID: string;
  activityName: string;
  start: number;
  end: number | null;
  note: string | null;
  breaks: { start: number; end: number | null }[];
}

/** The activity columns the JSON format lists. */
const ACTIVITY_COLUMNS = 'id, name, created_at AS createdAt, client_id AS clientID, rate, billable, budget_hours AS budgetHours, color, archived';

/**
 * The sessions (alias `s`) and entries (`e`) that start in `[?1, ?2)` of a range that has a
 * first day, found through their `ended_at` indexes as totals.ts finds a range's blocks: a
 * block ends after it starts, an entry within 24 hours (docs/data.md "Import"), and a session
 * too or it is in `sessions_long`, or it still runs. A month's export then reads its own blocks,
 * not every block kept (there is no index by start: it would cost every write). Without a first
 * day the export is the whole history, read in order.
 */
function rangeSessions(column: string): string {
  const starts = '+started_at >= ?1 AND +started_at < ?2';
  return `SELECT ${column} FROM sessions WHERE ended_at >= ?1 AND ended_at < ?2 + 86400000 AND ${starts}
    UNION ALL SELECT ${column} FROM sessions WHERE ended_at - started_at > 86400000 AND ended_at >= ?2 + 86400000 AND ${starts}
    UNION ALL SELECT ${column} FROM sessions WHERE ended_at IS NULL AND ${starts}`;
}
const RANGE_SESSIONS = `s.id IN (${rangeSessions('id')})`;
const RANGE_ENTRIES = `e.ended_at >= ?1 AND e.ended_at < ?2 + ${24 * 3_600_000} AND +e.started_at >= ?1 AND +e.started_at < ?2`;

/** Whether `[from, to)` (startBounds) has a first day, so its blocks are found by their ends. */
function hasFirstDay(from: number): boolean {
  return from > Number.MIN_SAFE_INTEGER;
}

/**
 * The IDs of the activities the blocks that start in `[?1, ?2)` use, as a subquery: by their
 * ends with a first day, else (a range that only has a last day) by their starts.
 */
export function rangeActivityIDs(from: number): string {
  return hasFirstDay(from)
    ? // UNION ALL: IN keeps each once, and a UNION's merge would walk sessions in activity order.
      `${rangeSessions('activity_id')} UNION ALL SELECT e.activity_id FROM entries e WHERE ${RANGE_ENTRIES}`
    : 'SELECT activity_id FROM sessions WHERE started_at >= ?1 AND started_at < ?2 UNION SELECT activity_id FROM entries WHERE started_at >= ?1 AND started_at < ?2';
}

/** The activities an export lists, in order of creation: all of them, or with a range (`?1`, `?2`, starting at `from`) those its blocks use. */
export function activitiesStatement(db: DatabaseSync, ranged: boolean, from: number): StatementSync {
  // With a range, only the activities its blocks use: the file stands on its own without
  // listing every activity ever made.
  return db.prepare(
    ranged
      ? `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE id IN (${rangeActivityIDs(from)}) ORDER BY created_at, id`
      : `SELECT ${ACTIVITY_COLUMNS} FROM activities ORDER BY created_at, id`,
  );
}

/**
 * Sessions joined with their breaks, one row per break (or one with null break columns),
 * in order of start: the rows of one session come together.
 */
export function* sessions(db: DatabaseSync, from: number, to: number): Generator<SessionOut> {
  const rows = db
    .prepare(
      `SELECT s.id, s.device_id AS device, s.activity_id AS activityID, a.name AS activityName, s.started_at AS start, s.ended_at AS end, s.note,
              s.tags, s.billable, b.started_at AS breakStart, b.ended_at AS breakEnd
         FROM sessions s JOIN activities a ON a.id = s.activity_id
         LEFT JOIN breaks b ON b.session_id = s.id
        WHERE ${hasFirstDay(from) ? RANGE_SESSIONS : 's.started_at >= ?1 AND s.started_at < ?2'}
        ORDER BY s.started_at, s.id, b.started_at, b.id`,
    )
    .iterate(from, to) as Iterable<SessionBreakRow>;
  let current: SessionOut | undefined;
  for (const row of rows) {
    if (current === undefined || current.id !== row.id) {
      if (current !== undefined) yield current;
      current = {
        id: row.id,
        device: row.device,
        activityID: row.activityID,
        activityName: row.activityName,
        start: row.start,
        end: row.end,
        note: row.note,
        tags: row.tags,
        billable: row.billable,
        breaks: [],
      };
    }
    if (row.breakStart !== null) current.breaks.push({ start: row.breakStart, end: row.breakEnd });
  }
  if (current !== undefined) yield current;
}

/** The entries that start in `[from, to)`, in order of start. */
export function entries(db: DatabaseSync, from: number, to: number): Iterable<EntryRow> {
  return db
    .prepare(
      `SELECT e.id, e.device_id AS device, e.activity_id AS activityID, a.name AS activityName, e.started_at AS start, e.ended_at AS end, e.note,
              e.tags, e.billable
         FROM entries e JOIN activities a ON a.id = e.activity_id
        WHERE ${hasFirstDay(from) ? RANGE_ENTRIES : 'e.started_at >= ?1 AND e.started_at < ?2'}
        ORDER BY e.started_at, e.id`,
    )
    .iterate(from, to) as Iterable<EntryRow>;
}

/**
 * Once sync has been turned on in this store, each block says on which device it was made
 * (docs/sync.md): this gives that device's id for a block's `device_id` ('' is this device);
 * before, it gives undefined and the export has no device at all.
 */
export function deviceOfBlocks(db: DatabaseSync): (made: string) => string | undefined {
  const row = db.prepare("SELECT value FROM settings WHERE key = 'syncDevice'").get() as { value: string } | undefined;
  if (row === undefined) return () => undefined;
  const thisDevice = (JSON.parse(row.value) as { deviceID: string }).deviceID;
  return (made) => (made === '' ? thisDevice : made);
}

/**
 * The names devices go by, by id: this device's from its sync settings, the others' as their
 * `device.json` last said (kept by the app in the setting `syncDeviceNames`). A device whose
 * name was never read is shown by its id.
 */
export function deviceNames(db: DatabaseSync): (deviceID: string) => string {
  const names = new Map<string, string>();
  const setting = (key: string): unknown => {
    const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row === undefined ? undefined : JSON.parse(row.value);
  };
  const known = setting('syncDeviceNames');
  if (known !== null && typeof known === 'object') for (const [id, name] of Object.entries(known)) if (typeof name === 'string') names.set(id, name);
  const me = setting('syncDevice') as { deviceID?: string } | undefined;
  const config = setting('sync') as { name?: string } | undefined;
  if (me?.deviceID !== undefined && typeof config?.name === 'string') names.set(me.deviceID, config.name);
  return (deviceID) => names.get(deviceID) ?? deviceID;
}

/** A client as the export reads it. */
export interface ClientRow {
  id: string;
  name: string;
  rate: string | null;
  currency: string | null;
  address: string | null;
}

/** Worked seconds of a session: its span up to now when running, breaks left out. */
export function sessionWorkedSeconds(session: { start: number; end: number | null; breaks: readonly { start: number; end: number | null }[] }, now: number): number {
  const end = session.end ?? Math.max(session.start, now);
  let ms = end - session.start;
  for (const b of session.breaks) ms -= overlapMs(b.start, b.end ?? Math.max(b.start, now), session.start, end);
  return wholeSeconds(ms);
}

/** Hands out text in chunks of about {@link CHUNK_CHARS}. */
export class ChunkBuffer {
  private parts: string[] = [];
  private size = 0;

  /** Adds text; returns a chunk when enough has gathered. */
  add(text: string): string | undefined {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= CHUNK_CHARS ? this.take() : undefined;
  }

  /** Everything gathered so far ('' when nothing). */
  take(): string {
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    return chunk;
  }
}
