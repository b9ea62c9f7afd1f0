/**
 * Row mapping: the shapes the tracker's queries read from `tock.db` (activities, sessions,
 * breaks, entries) and how a row becomes what callers see — an activity reference or a
 * {@link Block}. Pure: nothing here touches the store.
 */

import { ruleProblem, validationProblem, type ActivityRef, type Problem } from '@tock/protocol';
import { wholeSeconds, type Block, type BreakSpan } from './blocks.ts';
import { toIso } from './instants.ts';
import { tagsOf } from './tags.ts';

/** An activity as the tracker reads it. */
export interface ActivityRow {
  id: string;
  name: string;
}

/** A session joined with its activity's name; `endedAt` is null while it runs. */
export interface SessionRow {
  id: string;
  activityID: string;
  activityName: string;
  startedAt: number;
  endedAt: number | null;
  /** What the person wrote about it (docs/product.md "Notes on sessions"); null: nothing. */
  note: string | null;
  /** The device it was made on ('' for this one), where the query read it (blocks listed for a range). */
  deviceID?: string;
  /** The number of the invoice it is on, if any. */
  invoice?: string | null;
  /**
   * Its tags as stored (JSON text; NULL: none) and whether it is billable (its own flag, else its
   * activity's; a block on an invoice is, whatever its activity says since: docs/data.md "Invoices").
   */
  tags?: string | null;
  billable?: number;
  /** The block's own flag (NULL: it follows its activity's). */
  ownBillable?: number | null;
}

/** An entry joined with its activity's name. */
export interface EntryRow {
  id: string;
  activityID: string;
  activityName: string;
  startedAt: number;
  endedAt: number;
  note: string | null;
  /** As in {@link SessionRow}. */
  deviceID?: string;
  /** The number of the invoice it is on, if any. */
  invoice?: string | null;
  tags?: string | null;
  billable?: number;
  ownBillable?: number | null;
}

/** A pause inside a session; `endedAt` is null while the break is on. */
export interface BreakRow {
  id: string;
  startedAt: number;
  endedAt: number | null;
}

/** The columns of a {@link SessionRow}, for `FROM sessions s JOIN activities a ON a.id = s.activity_id`. */
export const SESSION_COLUMNS = `s.id AS id, s.activity_id AS activityID, a.name AS activityName,
  s.started_at AS startedAt, s.ended_at AS endedAt, s.note AS note,
  s.tags AS tags, CASE WHEN s.invoice_id IS NULL THEN coalesce(s.billable, a.billable) ELSE 1 END AS billable, s.billable AS ownBillable,
  (SELECT number FROM invoices WHERE id = s.invoice_id) AS invoice`;

/** The columns of an {@link EntryRow}, for `FROM entries e JOIN activities a ON a.id = e.activity_id`. */
export const ENTRY_COLUMNS = `e.id AS id, e.activity_id AS activityID, a.name AS activityName,
  e.started_at AS startedAt, e.ended_at AS endedAt, e.note AS note,
  e.tags AS tags, CASE WHEN e.invoice_id IS NULL THEN coalesce(e.billable, a.billable) ELSE 1 END AS billable, e.billable AS ownBillable,
  (SELECT number FROM invoices WHERE id = e.invoice_id) AS invoice`;

/** The columns of a {@link BreakRow}, for `FROM breaks`. */
export const BREAK_COLUMNS = 'id, started_at AS startedAt, ended_at AS endedAt';

/** The wire reference to an activity row. */
export function activityRef(activity: ActivityRow): ActivityRef {
  return { activityID: activity.id, activityName: activity.name };
}

/**
 * Worked ms of a session: its span minus its breaks, running parts (the session or a break)
 * counted up to `at` and never below their start.
 */
export function workedMs(session: Pick<SessionRow, 'startedAt' | 'endedAt'>, breaks: readonly BreakRow[], at: number): number {
  const end = session.endedAt ?? Math.max(session.startedAt, at);
  let ms = end - session.startedAt;
  for (const b of breaks) ms -= (b.endedAt ?? Math.max(b.startedAt, at)) - b.startedAt;
  return ms;
}

/** A block's own billable flag as {@link Block}'s `ownBillable`: absent when it follows its activity's. */
function ownBillableOf(row: { ownBillable?: number | null }): { ownBillable?: boolean } {
  return row.ownBillable === null || row.ownBillable === undefined ? {} : { ownBillable: row.ownBillable === 1 };
}

/** A session and its breaks as a {@link Block}; a running session counts up to `at`. */
export function sessionBlock(session: SessionRow, breaks: readonly BreakRow[], at: number): Block {
  return {
    id: session.id,
    kind: 'session',
    activity: { activityID: session.activityID, activityName: session.activityName },
    startedAt: toIso(session.startedAt),
    endedAt: session.endedAt === null ? null : toIso(session.endedAt),
    seconds: wholeSeconds(workedMs(session, breaks, at)),
    note: session.note ?? null,
    durationMinutes: null,
    breaks: breaks.map(
      (b): BreakSpan => ({ id: b.id, startedAt: toIso(b.startedAt), endedAt: b.endedAt === null ? null : toIso(b.endedAt) }),
    ),
    tags: tagsOf(session.tags),
    billable: session.billable === 1,
    ...ownBillableOf(session),
    ...(session.deviceID ? { device: session.deviceID } : {}),
    ...(session.invoice ? { invoice: session.invoice } : {}),
  };
}

/** An entry as a {@link Block}. */
export function entryBlock(entry: EntryRow): Block {
  return {
    id: entry.id,
    kind: 'entry',
    activity: { activityID: entry.activityID, activityName: entry.activityName },
    startedAt: toIso(entry.startedAt),
    endedAt: toIso(entry.endedAt),
    seconds: wholeSeconds(entry.endedAt - entry.startedAt),
    note: entry.note,
    durationMinutes: (entry.endedAt - entry.startedAt) / 60_000,
    breaks: [],
    tags: tagsOf(entry.tags),
    billable: entry.billable === 1,
    ...ownBillableOf(entry),
    ...(entry.deviceID ? { device: entry.deviceID } : {}),
    ...(entry.invoice ? { invoice: entry.invoice } : {}),
  };
}

/**
 * A session's or entry's fields as a range's blocks read them: one array a row
 * (`setReturnArrays`), which node:sqlite makes for less than the object it makes otherwise.
 * {@link blockColumns} lists them in this order.
 */
export type BlockColumns = [
  id: string,
  activityID: string,
  activityName: string,
  startedAt: number,
  endedAt: number | null,
  note: string | null,
  tags: string | null,
  billable: number,
  ownBillable: number | null,
  invoice: string | null,
  deviceID: string,
];

/** The columns of {@link BlockColumns} for `FROM sessions s` (`'s'`) or `FROM entries e` (`'e'`), each joined with `activities a`. */
export function blockColumns(t: 's' | 'e'): string {
  return `${t}.id, ${t}.activity_id, a.name, ${t}.started_at, ${t}.ended_at, ${t}.note, ${t}.tags,
  CASE WHEN ${t}.invoice_id IS NULL THEN coalesce(${t}.billable, a.billable) ELSE 1 END, ${t}.billable,
  (SELECT number FROM invoices WHERE id = ${t}.invoice_id), ${t}.device_id`;
}

/**
 * The {@link Block} of a row of {@link BlockColumns}: the fields {@link sessionBlock} and
 * {@link entryBlock} give, in their order, from one object literal (no spread of optional parts).
 */
export function blockOfColumns(
  row: BlockColumns,
  kind: Block['kind'],
  seconds: number,
  durationMinutes: number | null,
  breaks: BreakSpan[],
): Block {
  const [id, activityID, activityName, startedAt, endedAt, note, tags, billable, ownBillable, invoice, deviceID] = row;
  const block: Block = {
    id,
    kind,
    activity: { activityID, activityName },
    startedAt: toIso(startedAt),
    endedAt: endedAt === null ? null : toIso(endedAt),
    seconds,
    note,
    durationMinutes,
    breaks,
    tags: tagsOf(tags),
    billable: billable === 1,
  };
  if (ownBillable !== null) block.ownBillable = ownBillable === 1;
  if (deviceID) block.device = deviceID;
  if (invoice) block.invoice = invoice;
  return block;
}

/** The refusal for an edit or delete of a block that does not exist. */
export function blockNotFound(kind: 'session' | 'entry', id: string): Problem {
  return validationProblem([ruleProblem('id', { rule: 'noRowWithId', values: { kind, id } })]);
}
