/**
 * Entries: blocks of time logged after the fact (`POST /entries`, docs/protocol.md
 * "Endpoints"), and editing or deleting them. An entry is stored as `[endedAt − duration,
 * endedAt]` and lasts at most 24 h. Callers own the transaction and the clock: every function
 * takes the instant `at` it acts at.
 */

import { validationProblem, type EntryRequest, type Entry, type FieldProblem } from '@tock/protocol';
import { readActivityID, requireActivity, resolveActivity, touchActivity } from './activities.ts';
import { wholeSeconds, type Block } from './blocks.ts';
import { toIso } from './instants.ts';
import type { NewId } from './ids.ts';
import { tagsColumn } from './tags.ts';
import {
  checkNotFuture,
  durationProblem,
  durationMs,
  noteProblem,
  readEntryRequest,
  readInstant,
  type InstantInput,
} from './requests.ts';
import {
  ENTRY_COLUMNS,
  activityRef,
  blockColumns,
  blockNotFound,
  blockOfColumns,
  entryBlock,
  type ActivityRow,
  type BlockColumns,
  type EntryRow,
} from './rows.ts';
import type { Store } from './store.ts';

/** An entry request as the tracker takes it: the wire request (docs/protocol.md "Endpoints"). */
export type LogEntryInput = EntryRequest & { endedAt?: string };

/** Changes to an entry; absent fields stay as they are. The block is `[endedAt − duration, endedAt]`. */
export interface EntryPatch {
  activityID?: string;
  durationMinutes?: number;
  endedAt?: InstantInput;
  /** `null` removes the note. */
  note?: string | null;
}

const FROM_ENTRIES = 'FROM entries e JOIN activities a ON a.id = e.activity_id';

/** Entries last at most 24 h, so one that overlaps `[from, to)` ends before `to + 24 h`. */
const ENTRY_MAX_MS = 24 * 3_600_000;

/** Logs an entry checked as of `at`, creating its activity when the request asks to. */
export function logEntry(store: Store, input: LogEntryInput, at: number, newId: NewId): Entry {
  const checked = readEntryRequest(input, at);
  const { activity, created } = resolveActivity(store, checked.activity, at, newId);
  const startedAt = checked.endedAtMs - checked.durationMs;
  // Time-ordered by the entry's start (ids.ts): side by side in the index, and nothing new told.
  const id = newId(startedAt);
  store
    .statement('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, tags, billable) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(id, activity.id, startedAt, checked.endedAtMs, checked.note, at, tagsColumn(checked.tags), checked.billable === null ? null : checked.billable ? 1 : 0);
  touchActivity(store, activity.id, startedAt);
  return {
    entryID: id,
    activity: activityRef(activity),
    created,
    startedAt: toIso(startedAt),
    endedAt: toIso(checked.endedAtMs),
    durationMinutes: checked.durationMs / 60_000,
    note: checked.note,
  };
}

/** Entries overlapping `[fromMs, toMs)`, read through the `ended_at` index. */
export function entriesOverlapping(store: Store, fromMs: number, toMs: number): EntryRow[] {
  return store
    .statement(`SELECT ${ENTRY_COLUMNS}, e.device_id AS deviceID ${FROM_ENTRIES} WHERE e.ended_at > ?1 AND e.ended_at < ?3 AND +e.started_at < ?2`)
    .all(fromMs, toMs, toMs + ENTRY_MAX_MS) as unknown as EntryRow[];
}

/**
 * The entries that overlap `[fromMs, toMs)` as blocks, in the order {@link entriesOverlapping}
 * reads them and with what {@link entryBlock} makes of each, read as arrays and each block made
 * once (a range's blocks, `Tracker.listBlocks`; bench/README.md "Reads per row").
 */
export function entryBlocksOverlapping(store: Store, fromMs: number, toMs: number): Block[] {
  const read = store.statement(`SELECT ${blockColumns('e')} ${FROM_ENTRIES} WHERE e.ended_at > ?1 AND e.ended_at < ?3 AND +e.started_at < ?2`);
  read.setReturnArrays(true);
  const rows = read.all(fromMs, toMs, toMs + ENTRY_MAX_MS) as unknown as BlockColumns[];
  return rows.map((row) => {
    const ms = (row[4] as number) - row[3];
    return blockOfColumns(row, 'entry', wholeSeconds(ms), ms / 60_000, []);
  });
}

function entryById(store: Store, id: string): EntryRow | undefined {
  return store.statement(`SELECT ${ENTRY_COLUMNS} ${FROM_ENTRIES} WHERE e.id = ?`).get(id) as EntryRow | undefined;
}

/**
 * Changes an entry's activity, duration, end or note as of `at` (the end not in the future).
 * Every wrong field is reported at once.
 */
export function updateEntry(store: Store, entryID: string, patch: EntryPatch, at: number): Block {
  const entry = entryById(store, entryID);
  if (!entry) throw blockNotFound('entry', entryID);
  const problems: FieldProblem[] = [];
  const fields = (patch ?? {}) as Record<string, unknown>;
  const activityID = readActivityID(fields.activityID ?? undefined, problems);
  let duration = entry.endedAt - entry.startedAt;
  if (fields.durationMinutes !== undefined) {
    const badDuration = durationProblem(fields.durationMinutes);
    if (badDuration !== undefined) problems.push(badDuration);
    else duration = durationMs(fields.durationMinutes as number);
  }
  const end = fields.endedAt === undefined ? entry.endedAt : readInstant(fields.endedAt, 'endedAt', problems);
  if (end !== undefined && fields.endedAt !== undefined) checkNotFuture(end, at, 'endedAt', problems);
  const badNote = noteProblem(fields.note);
  if (badNote !== undefined) problems.push(badNote);
  if (problems.length > 0 || end === undefined) throw validationProblem(problems);
  const note = fields.note === undefined ? entry.note : (fields.note as string | null);
  const activity: ActivityRow =
    activityID === undefined ? { id: entry.activityID, name: entry.activityName } : requireActivity(store, activityID);
  const start = end - duration;
  store
    .statement('UPDATE entries SET activity_id = ?, started_at = ?, ended_at = ?, note = ? WHERE id = ?')
    .run(activity.id, start, end, note, entry.id);
  touchActivity(store, activity.id, start);
  return entryBlock(entryById(store, entry.id) as EntryRow);
}

/** Deletes an entry; false when there was none with that ID. */
export function deleteEntry(store: Store, entryID: string): boolean {
  return Number(store.statement('DELETE FROM entries WHERE id = ?').run(entryID).changes) > 0;
}
