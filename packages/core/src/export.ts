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

import { DatabaseSync } from 'node:sqlite';
import { TIME_RANGE, ruleLine, ruleProblem, validationProblem, type FieldProblem, Problem } from '@tock/protocol';
import { assertTimeZone, type DayKey } from './day.ts';
import { csvChunks } from './export-csv.ts';
import { jsonChunks } from './export-json.ts';
import type { ExportCounts, ExportRequest } from './export-reads.ts';
import { readQueryField } from './report-range.ts';
import { BUSY_TIMEOUT_MS, type Store } from './store.ts';

/** The request and counts of an export, declared with what it reads. */
export type { ExportCounts, ExportFormat, ExportRequest } from './export-reads.ts';

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
  if (format !== 'json' && format !== 'csv') throw validationProblem([ruleProblem('format', { rule: 'jsonOrCsv' })]);
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
    throw validationProblem([ruleProblem('to', { rule: 'exportBackwards', values: { to: toDay, from: fromDay } })]);
  }
  try {
    assertTimeZone(input.timeZone);
  } catch (error) {
    // The zone as given inside; the words by its rule (docs/i18n.md), the English as assertTimeZone says it.
    if (error instanceof RangeError) throw validationProblem([ruleProblem('timeZone', { rule: 'unknownTimeZone', values: { zone: String(input.timeZone) } })]);
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
  return new Problem('export_failed', ...ruleLine('store', { rule: 'exportTimeOutside', values: { kind: found.kind, id: found.id } }));
}
