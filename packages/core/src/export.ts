/**
 * `tock export` (docs/data.md "Your data: export, import, backup"): the store's activities,
 * sessions with their breaks, and entries, as Tock's JSON format or as CSV — produced as a
 * stream of text chunks read from SQLite iterators, so a history of a million sessions is
 * written out without ever being held in memory.
 *
 * Which blocks a range takes: those that *start* on one of its local days (both days
 * included). Consecutive ranges then export every block exactly once, and each block whole
 * (a session across midnight belongs to the day it began) — see docs/decisions.md
 * "Export ranges take the blocks that start in them".
 */

import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { TIME_RANGE, validationProblem, type FieldProblem, Problem } from '@tock/protocol';
import { overlapMs, wholeSeconds } from './blocks.ts';
import { csvRow } from './csv.ts';
import { addDays, assertTimeZone, localDateTime, startOfLocalDay, type DayKey } from './day.ts';
import { toIso } from './instants.ts';
import { BUSY_TIMEOUT_MS, type Store } from './store.ts';
import { readQueryField } from './report-range.ts';
import { checkBusiness, checkRounding, NO_ROUNDING, roundBilled } from './ledger-settings.ts';
import type { Rounding } from './shapes/ledger.ts';
import { tagsOf } from './tags.ts';
import { exactAmount, roundAmount } from './money.ts';

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

/** How much an export wrote; the value a finished {@link exportChunks} generator returns. */
export interface ExportCounts {
  activities: number;
  sessions: number;
  entries: number;
}

/**
 * The CSV export's header row (docs/data.md "Export"): the first six columns as they always
 * were (tools read them by position), then what a timesheet needs — the wall-clock start and
 * end in the export's zone and the worked time in decimal hours. Once sync has been on in the
 * store, two more say on which device each block was made (docs/sync.md): `device`, its name,
 * and `deviceID`, as the JSON's `device`.
 */
export const EXPORT_CSV_HEADER = ['kind', 'activity', 'start', 'end', 'seconds', 'note', 'localStart', 'localEnd', 'hours'] as const;

/** The columns a synced store's CSV export adds after {@link EXPORT_CSV_HEADER}. */
export const EXPORT_CSV_DEVICE_COLUMNS = ['device', 'deviceID'] as const;

/**
 * The ledger's columns, last in every CSV export (docs/data.md "The ledger"): the activity's
 * client, the block's tags (joined by `, `), whether it is billable, and its billed seconds and
 * amount (rounded per block; empty amount where no rate applies) in its currency.
 */
export const EXPORT_CSV_LEDGER_COLUMNS = ['client', 'tags', 'billable', 'billed_seconds', 'amount', 'currency'] as const;

/** Worked seconds as decimal hours, to the hundredth (a timesheet's unit): 5 400 s is 1.5. */
export function decimalHours(seconds: number): number {
  return Math.round((seconds / 3600) * 100) / 100;
}

/** Chunks are gathered up to about this many UTF-16 units before one is handed out. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Checks an export request from outside (CLI flags, a window's query) and returns it typed,
 * or throws a `validation_failed` problem naming the field: a format other than json/csv, a
 * day that is not `YYYY-MM-DD` of the calendar, `to` before `from`, or an unknown zone.
 * Checking happens here, before the first chunk, so a refused export writes nothing.
 */
export function checkExportRequest(input: {
  format?: unknown;
  from?: unknown;
  to?: unknown;
  timeZone: string;
  now: number;
}): ExportRequest {
  const format = input.format ?? 'json';
  if (format !== 'json' && format !== 'csv') throw validationProblem([{ field: 'format', message: 'must be json or csv' }]);
  const day = (field: 'from' | 'to', value: unknown): DayKey | undefined => {
    // An empty flag or form field means "no bound", as absent does.
    const problems: FieldProblem[] = [];
    const read = readQueryField(field, value === '' ? undefined : value, undefined, problems);
    if (problems.length > 0) throw validationProblem(problems);
    return read;
  };
  const fromDay = day('from', input.from);
  const toDay = day('to', input.to);
  if (fromDay !== undefined && toDay !== undefined && toDay < fromDay) {
    throw validationProblem([{ field: 'to', message: `${toDay} is before ${fromDay}; give the earlier day as --from` }]);
  }
  try {
    assertTimeZone(input.timeZone);
  } catch (error) {
    throw validationProblem([{ field: 'timeZone', message: (error as Error).message }]);
  }
  return { format, fromDay, toDay, timeZone: input.timeZone, now: input.now };
}

/** A connection to read one export from, and how to let go of it. */
export interface ExportSource {
  readonly db: DatabaseSync;
  /** Ends the read transaction and closes the connection (if it was opened for the export). */
  close(): void;
}

/**
 * Opens a separate read-only connection to the store's file, inside one read transaction:
 * the export sees a single moment of the store (WAL snapshot) however long the consumer takes,
 * and the app's writes go on meanwhile without ever showing up half in it. An in-memory store
 * (tests) has no file to open a second time: its own connection is used as it is.
 */
export function openExportSource(store: Store): ExportSource {
  if (store.path === ':memory:' || store.path.startsWith('file:')) return { db: store.db, close: () => {} };
  const db = new DatabaseSync(store.path, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
  try {
    db.exec('BEGIN');
  } catch (error) {
    db.close();
    throw error;
  }
  let open = true;
  return {
    db,
    close() {
      if (!open) return;
      open = false;
      try {
        if (db.isTransaction) db.exec('COMMIT');
      } finally {
        db.close();
      }
    },
  };
}

/** Bounds in ms of the blocks' starts that a request takes, `[from, to)`. */
function startBounds(request: ExportRequest): { from: number; to: number } {
  return {
    from: request.fromDay === undefined ? Number.MIN_SAFE_INTEGER : startOfLocalDay(request.fromDay, request.timeZone),
    to: request.toDay === undefined ? Number.MAX_SAFE_INTEGER : startOfLocalDay(addDays(request.toDay, 1), request.timeZone),
  };
}

interface ActivityRow {
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
interface BlockLedgerColumns {
  tags: string | null;
  billable: number | null;
}

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

interface EntryRow extends BlockLedgerColumns {
  id: string;
  device: string;
  activityID: string;
  activityName: string;
  start: number;
  end: number;
  note: string | null;
}

/** A session with its breaks, as assembled from consecutive joined rows. */
interface SessionOut extends BlockLedgerColumns {
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

const ACTIVITY_COLUMNS = 'id, name, created_at AS createdAt, client_id AS clientID, rate, billable, budget_hours AS budgetHours, color, archived';

function activitiesStatement(db: DatabaseSync, ranged: boolean): StatementSync {
  // With a range, only the activities its blocks use: the file stands on its own without
  // listing every activity ever made.
  return db.prepare(
    ranged
      ? `SELECT ${ACTIVITY_COLUMNS} FROM activities
          WHERE id IN (SELECT activity_id FROM sessions WHERE started_at >= ?1 AND started_at < ?2
                       UNION SELECT activity_id FROM entries WHERE started_at >= ?1 AND started_at < ?2)
          ORDER BY created_at, id`
      : `SELECT ${ACTIVITY_COLUMNS} FROM activities ORDER BY created_at, id`,
  );
}

/**
 * Sessions joined with their breaks, one row per break (or one with null break columns),
 * in order of start: the rows of one session come together.
 */
function* sessions(db: DatabaseSync, from: number, to: number): Generator<SessionOut> {
  const rows = db
    .prepare(
      `SELECT s.id, s.device_id AS device, s.activity_id AS activityID, a.name AS activityName, s.started_at AS start, s.ended_at AS end, s.note,
              s.tags, s.billable, b.started_at AS breakStart, b.ended_at AS breakEnd
         FROM sessions s JOIN activities a ON a.id = s.activity_id
         LEFT JOIN breaks b ON b.session_id = s.id
        WHERE s.started_at >= ? AND s.started_at < ?
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

function entries(db: DatabaseSync, from: number, to: number): Iterable<EntryRow> {
  return db
    .prepare(
      `SELECT e.id, e.device_id AS device, e.activity_id AS activityID, a.name AS activityName, e.started_at AS start, e.ended_at AS end, e.note,
              e.tags, e.billable
         FROM entries e JOIN activities a ON a.id = e.activity_id
        WHERE e.started_at >= ? AND e.started_at < ?
        ORDER BY e.started_at, e.id`,
    )
    .iterate(from, to) as Iterable<EntryRow>;
}

/**
 * Once sync has been turned on in this store, each block says on which device it was made
 * (docs/sync.md): this gives that device's id for a block's `device_id` ('' is this device);
 * before, it gives undefined and the export has no device at all.
 */
function deviceOfBlocks(db: DatabaseSync): (made: string) => string | undefined {
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
function deviceNames(db: DatabaseSync): (deviceID: string) => string {
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

/** Worked seconds of a session: its span up to now when running, breaks left out. */
export function sessionWorkedSeconds(session: { start: number; end: number | null; breaks: readonly { start: number; end: number | null }[] }, now: number): number {
  const end = session.end ?? Math.max(session.start, now);
  let ms = end - session.start;
  for (const b of session.breaks) ms -= overlapMs(b.start, b.end ?? Math.max(b.start, now), session.start, end);
  return wholeSeconds(ms);
}

/** Hands out text in chunks of about {@link CHUNK_CHARS}. */
class ChunkBuffer {
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

/**
 * The export as text chunks, in order; the generator's return value counts what was written.
 * Each call reads the store afresh through `db` (use {@link openExportSource} for a
 * consistent snapshot). Nothing is read before the first chunk is asked for, and stopping
 * early (`return()`) stops the SQLite iterators.
 */
export function* exportChunks(db: DatabaseSync, request: ExportRequest): Generator<string, ExportCounts, undefined> {
  try {
    return request.format === 'csv' ? yield* csvChunks(db, request) : yield* jsonChunks(db, request);
  } catch (error) {
    throw unreadableTime(db, error) ?? error;
  }
}

/**
 * When `error` is what reading or writing a time outside 1970–2199 throws (node:sqlite's
 * ERR_OUT_OF_RANGE past 2^53, `toISOString`'s RangeError past ±8.64e15 ms), an
 * `export_failed` {@link Problem} naming the first such block; otherwise undefined. Such a time can only
 * be in a store written before import and sync refused them (docs/decisions.md "Times already
 * in a store"). Looked up only after a failure: the happy path costs nothing. Only IDs are
 * read here — the times are compared inside SQLite, never read into JavaScript.
 */
function unreadableTime(db: DatabaseSync, error: unknown): Problem | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof RangeError) && code !== 'ERR_OUT_OF_RANGE') return undefined;
  const outside = (column: string) => `(${column} < 0 OR ${column} > ${TIME_RANGE.maxMs})`;
  const found = db
    .prepare(
      `SELECT 'session' AS kind, id FROM sessions WHERE ${outside('started_at')} OR ${outside('ended_at')}
       UNION ALL SELECT 'entry', id FROM entries WHERE ${outside('started_at')} OR ${outside('ended_at')}
       UNION ALL SELECT 'session', session_id FROM breaks WHERE ${outside('started_at')} OR ${outside('ended_at')}
       UNION ALL SELECT 'activity', id FROM activities WHERE ${outside('created_at')} LIMIT 1`,
    )
    .get() as { kind: string; id: string } | undefined;
  if (found === undefined) return undefined;
  return new Problem('export_failed', 
    `the store holds a time outside the years 1970–2199 (${found.kind} ${found.id}), from an import or a sync before Tock refused such times; ` +
      'Tock cannot export it: restore a backup from before it came in, or remove that row',
  );
}

function* jsonChunks(db: DatabaseSync, request: ExportRequest): Generator<string, ExportCounts, undefined> {
  const { from, to } = startBounds(request);
  const counts: ExportCounts = { activities: 0, sessions: 0, entries: 0 };
  const out = new ChunkBuffer();
  const head = { format: 'tock-export', version: 1, exportedAt: toIso(request.now), timeZone: request.timeZone };
  // One record per line: readable, diffable, and still one JSON document.
  out.add(`${JSON.stringify(head).slice(0, -1)},`);
  if (db.prepare('SELECT 1 FROM clients LIMIT 1').get() === undefined) out.add('\n"activities":[');
  const ranged = request.fromDay !== undefined || request.toDay !== undefined;
  const deviceOf = deviceOfBlocks(db);
  const device = (made: string): { device?: string } => {
    const id = deviceOf(made);
    return id === undefined ? {} : { device: id };
  };
  // Clients only when there are any: a file without the ledger reads as before.
  const clients = db.prepare('SELECT id, name, rate, currency, address FROM clients ORDER BY name_key, id').all() as unknown as ClientRow[];
  if (clients.length > 0) {
    out.add(`\n"clients":[${clients.map((c) => `\n${JSON.stringify({ id: c.id, name: c.name, rate: c.rate, currency: c.currency, address: c.address })}`).join(',')}\n],\n"activities":[`);
  }
  const activities = activitiesStatement(db, ranged);
  for (const a of (ranged ? activities.iterate(from, to) : activities.iterate()) as Iterable<ActivityRow>) {
    const record = {
      id: a.id,
      name: a.name,
      createdAt: toIso(a.createdAt),
      ...(a.clientID === null ? {} : { clientID: a.clientID }),
      ...(a.rate === null ? {} : { rate: a.rate }),
      ...(a.billable === 1 ? { billable: true } : {}),
      ...(a.budgetHours === null ? {} : { budgetHours: a.budgetHours }),
      // Its colour (docs/product.md "Activity colours"): an import keeps it for an activity it makes.
      color: a.color,
      // Archived (docs/product.md "Activities"): an import archives an activity it makes.
      ...(a.archived === 1 ? { archived: true } : {}),
    };
    const line = `${counts.activities++ === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`;
    const chunk = out.add(line);
    if (chunk !== undefined) yield chunk;
  }
  out.add(`${counts.activities === 0 ? '' : '\n'}],\n"sessions":[`);
  for (const s of sessions(db, from, to)) {
    const record = {
      id: s.id,
      activityID: s.activityID,
      start: toIso(s.start),
      end: s.end === null ? null : toIso(s.end),
      // Only a session with a note says so: files of sessions without one read as before.
      ...(s.note === null ? {} : { note: s.note }),
      ...blockLedgerFields(s),
      ...device(s.device),
      breaks: s.breaks.map((b) => ({ start: toIso(b.start), end: b.end === null ? null : toIso(b.end) })),
    };
    const chunk = out.add(`${counts.sessions++ === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`);
    if (chunk !== undefined) yield chunk;
  }
  out.add(`${counts.sessions === 0 ? '' : '\n'}],\n"entries":[`);
  for (const e of entries(db, from, to)) {
    const record = { id: e.id, activityID: e.activityID, start: toIso(e.start), end: toIso(e.end), note: e.note, ...blockLedgerFields(e), ...device(e.device) };
    const chunk = out.add(`${counts.entries++ === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`);
    if (chunk !== undefined) yield chunk;
  }
  out.add(`${counts.entries === 0 ? '' : '\n'}]}\n`);
  yield out.take();
  return counts;
}

function* csvChunks(db: DatabaseSync, request: ExportRequest): Generator<string, ExportCounts, undefined> {
  const { from, to } = startBounds(request);
  const counts: ExportCounts = { activities: 0, sessions: 0, entries: 0 };
  const names = new Set<string>();
  const out = new ChunkBuffer();
  const deviceOf = deviceOfBlocks(db);
  const synced = deviceOf('') !== undefined;
  const nameOf = synced ? deviceNames(db) : (id: string) => id;
  const device = (made: string): string[] => {
    if (!synced) return [];
    const id = deviceOf(made) as string;
    return [nameOf(id), id];
  };
  const local = (ms: number | null): string => (ms === null ? '' : localDateTime(ms, request.timeZone));
  out.add(csvRow([...EXPORT_CSV_HEADER, ...(synced ? EXPORT_CSV_DEVICE_COLUMNS : []), ...EXPORT_CSV_LEDGER_COLUMNS]));
  const ledger = csvLedger(db);
  // Two iterators, each in order of start, merged: sessions first on a tie.
  const sessionIt = sessions(db, from, to)[Symbol.iterator]();
  const entryIt = entries(db, from, to)[Symbol.iterator]();
  let s = sessionIt.next();
  let e = entryIt.next();
  try {
    while (!s.done || !e.done) {
      let line: string;
      if (!s.done && (e.done || s.value.start <= e.value.start)) {
        const session = s.value;
        names.add(session.activityID);
        counts.sessions++;
        const seconds = sessionWorkedSeconds(session, request.now);
        line = csvRow([
          'session',
          session.activityName,
          toIso(session.start),
          session.end === null ? '' : toIso(session.end),
          seconds,
          session.note ?? '',
          local(session.start),
          local(session.end),
          decimalHours(seconds),
          ...device(session.device),
          ...ledger(session.activityID, session, seconds),
        ]);
        s = sessionIt.next();
      } else {
        const entry = (e as IteratorYieldResult<EntryRow>).value;
        names.add(entry.activityID);
        counts.entries++;
        const seconds = wholeSeconds(entry.end - entry.start);
        line = csvRow([
          'entry',
          entry.activityName,
          toIso(entry.start),
          toIso(entry.end),
          seconds,
          entry.note ?? '',
          local(entry.start),
          local(entry.end),
          decimalHours(seconds),
          ...device(entry.device),
          ...ledger(entry.activityID, entry, seconds),
        ]);
        e = entryIt.next();
      }
      const chunk = out.add(line);
      if (chunk !== undefined) yield chunk;
    }
  } finally {
    sessionIt.return?.(undefined);
    entryIt.return?.(undefined);
  }
  yield out.take();
  counts.activities = names.size;
  return counts;
}

interface ClientRow {
  id: string;
  name: string;
  rate: string | null;
  currency: string | null;
  address: string | null;
}

/** A block's tags and billable flag in the JSON export: only when set, so files without them read as before. */
function blockLedgerFields(block: BlockLedgerColumns): { tags?: string[]; billable?: boolean } {
  const tags = tagsOf(block.tags);
  return { ...(tags.length === 0 ? {} : { tags }), ...(block.billable === null ? {} : { billable: block.billable === 1 }) };
}

/** A ledger setting read straight from the export's connection (its own snapshot), checked; undefined when unset or unreadable. */
function settingOf<T>(db: DatabaseSync, key: string, check: (value: unknown) => T): T | undefined {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  if (row === undefined) return undefined;
  try {
    return check(JSON.parse(row.value));
  } catch {
    return undefined;
  }
}

/**
 * The CSV's ledger columns of one block ({@link EXPORT_CSV_LEDGER_COLUMNS}): read once per
 * export — activities with a client, a rate or a billable default, the clients, the rounding
 * and the business currency — then worked out per row. The billed seconds are the block's own,
 * rounded per block (a rounding per day belongs to a day's total: reports show it); the amount
 * is rounded half-up once, in the row.
 */
function csvLedger(db: DatabaseSync): (activityID: string, block: BlockLedgerColumns, seconds: number) => (string | number)[] {
  const activities = new Map<string, { clientID: string | null; rate: string | null; billable: number }>();
  for (const a of db.prepare('SELECT id, client_id AS clientID, rate, billable FROM activities WHERE client_id IS NOT NULL OR rate IS NOT NULL OR billable <> 0').all() as unknown as {
    id: string;
    clientID: string | null;
    rate: string | null;
    billable: number;
  }[]) {
    activities.set(a.id, a);
  }
  const clients = new Map<string, ClientRow>();
  for (const c of db.prepare('SELECT id, name, rate, currency, address FROM clients').all() as unknown as ClientRow[]) clients.set(c.id, c);
  const rounding: Rounding = settingOf(db, 'rounding', checkRounding) ?? { ...NO_ROUNDING };
  const perBlock: Rounding = { ...rounding, per: 'block' };
  const fallbackCurrency = settingOf(db, 'business', checkBusiness)?.currency ?? null;
  return (activityID, block, seconds) => {
    const a = activities.get(activityID);
    const client = a?.clientID ? clients.get(a.clientID) : undefined;
    const billable = (block.billable ?? a?.billable ?? 0) === 1;
    const rate = a?.rate ?? client?.rate ?? null;
    const currency = client?.currency ?? fallbackCurrency;
    const billed = billable ? roundBilled(seconds, perBlock) : 0;
    const priced = billable && rate !== null && currency !== null;
    return [
      client?.name ?? '',
      tagsOf(block.tags).join(', '),
      billable ? 'true' : 'false',
      billed,
      priced ? roundAmount(exactAmount(billed, rate), currency) : '',
      priced ? currency : '',
    ];
  };
}
