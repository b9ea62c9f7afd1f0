/**
 * The merged sessions, breaks and entries in the tracking tables (docs/sync.md): each with the
 * device it was made on, under the activity its activity's group is shown as, or waiting for it.
 */

import type { DatabaseSync } from 'node:sqlite';
import { type Entity, sql, value, visible } from './entities.ts';
import { ENTRY_MAX_MS } from './ops.ts';
import { guarded, setPending } from './project-write.ts';

/** The latest block start per activity seen in a batch, written to `last_used_at` once each. */
export type LastUsed = Map<string, number>;

/** Keeps `startedAt` as `activity`'s latest block start of the batch when it is later than the one kept. */
export function used(lastUsed: LastUsed, activity: string, startedAt: number): void {
  if ((lastUsed.get(activity) ?? Number.NEGATIVE_INFINITY) < startedAt) lastUsed.set(activity, startedAt);
}

/**
 * Makes the sessions table show one merged session: every device's stopped ones, this device's
 * running one, under the activity its activity's group is shown as; one whose activity is not
 * shown waits for it. Returns whether a row changed.
 */
export function projectSession(db: DatabaseSync, e: Entity, resolve: (id: string) => string | undefined, me: string, lastUsed: LastUsed): boolean {
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
  const invoice = (value(e, 'invoiceID') ?? null) as string | null;
  const before = sql(db, 'SELECT activity_id AS a, started_at AS s, ended_at AS e, device_id AS d, note AS n, tags AS t, billable AS b, invoice_id AS i FROM sessions WHERE id = ?').get(e.id) as
    | { a: string; s: number; e: number | null; d: string; n: string | null; t: string | null; b: number | null; i: string | null }
    | undefined;
  const deviceColumn = device === me ? '' : device;
  if (before && before.a === activity && before.s === startedAt && before.e === endedAt && before.d === deviceColumn && before.n === note && before.t === tags && before.b === billable && before.i === invoice) return false;
  const written = guarded(
    () =>
      sql(
        db,
        `INSERT INTO sessions (id, activity_id, started_at, ended_at, device_id, note, tags, billable, invoice_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET activity_id = excluded.activity_id, started_at = excluded.started_at,
           ended_at = excluded.ended_at, device_id = excluded.device_id, note = excluded.note, tags = excluded.tags, billable = excluded.billable,
           invoice_id = excluded.invoice_id`,
      ).run(e.id, activity, startedAt, endedAt ?? null, deviceColumn, note, tags, billable, invoice),
    remove,
  );
  if (written) used(lastUsed, activity, startedAt);
  return true;
}

/**
 * Makes the breaks table show one merged break; one whose session is not shown waits for it.
 * Another device's open break shows once it has ended, like its running session: the table
 * keeps one open break, which must not be whichever arrived first. Returns whether a row changed.
 */
export function projectBreak(db: DatabaseSync, e: Entity): boolean {
  const remove = (): boolean => Number(sql(db, 'DELETE FROM breaks WHERE id = ?').run(e.id).changes) > 0;
  const sessionID = String(value(e, 'sessionID'));
  if (!visible(e)) {
    setPending(db, e.id, false);
    return remove();
  }
  const session = sql(db, 'SELECT device_id AS device FROM sessions WHERE id = ?').get(sessionID) as { device: string } | undefined;
  if (session === undefined) {
    setPending(db, e.id, true);
    return remove();
  }
  setPending(db, e.id, false);
  const startedAt = value(e, 'startedAt') as number;
  const endedAt = (value(e, 'endedAt') ?? null) as number | null;
  if (endedAt === null && session.device !== '') return remove();
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

/**
 * Makes the entries table show one merged entry, under the activity its activity's group is
 * shown as (waiting while it is not shown); merged fields the API would refuse hide it. Returns
 * whether a row changed.
 */
export function projectEntry(db: DatabaseSync, e: Entity, resolve: (id: string) => string | undefined, me: string, lastUsed: LastUsed): boolean {
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
    i: (value(e, 'invoiceID') ?? null) as string | null,
  };
  const before = sql(db, 'SELECT activity_id AS a, started_at AS s, ended_at AS e, note AS n, created_at AS c, device_id AS d, tags AS t, billable AS b, invoice_id AS i FROM entries WHERE id = ?')
    .get(e.id) as typeof row | undefined;
  if (before && before.a === row.a && before.s === row.s && before.e === row.e && before.n === row.n && before.c === row.c && before.d === row.d && before.t === row.t && before.b === row.b && before.i === row.i) return false;
  const written = guarded(
    () =>
      sql(
        db,
        `INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, device_id, tags, billable, invoice_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET activity_id = excluded.activity_id, started_at = excluded.started_at, ended_at = excluded.ended_at,
           note = excluded.note, created_at = excluded.created_at, device_id = excluded.device_id, tags = excluded.tags, billable = excluded.billable,
           invoice_id = excluded.invoice_id`,
      ).run(e.id, row.a, row.s, row.e, row.n, row.c, row.d, row.t, row.b, row.i),
    remove,
  );
  if (written) used(lastUsed, activity, row.s);
  return true;
}

/** A block's tags and billable flag as the sessions and entries tables keep them (its invoice is this device's). */
export function ledgerColumns(e: Entity): { tags: string | null; billable: number | null } {
  const tags = value(e, 'tags');
  const billable = value(e, 'billable');
  return {
    tags: Array.isArray(tags) && tags.length > 0 ? JSON.stringify(tags) : null,
    billable: billable === true ? 1 : billable === false ? 0 : null,
  };
}
