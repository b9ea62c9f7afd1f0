/**
 * Making the tracking tables show the merged state (docs/sync.md), so every device that has the
 * same operations shows the same history. Activities are grouped by name (case-insensitive,
 * NFC) — the lowest id of a group is the activity, the others' blocks point to it; every
 * device's stopped sessions, their breaks and entries, each with the device it was made on;
 * this device's running session, but not another device's (each device keeps its own; see
 * docs/decisions.md "Sync through a folder").
 */


import type { DatabaseSync } from 'node:sqlite';
import { colorFromId } from '../activity-colors.ts';
import { nameKey, searchKey, wordKey } from '../names.ts';
import { ENTRY_MAX_MS, type EntityKind } from './ops.ts';
import { type Entities, type Entity, sql, value, visible } from './entities.ts';

/**
 * Makes the tracking tables show the merged state of the touched things (and of whatever
 * hangs on them: the blocks of an activity whose group changed, the breaks of a session).
 * Returns whether any table row changed.
 */
export function project(db: DatabaseSync, entities: Entities, touched: Map<string, EntityKind>, me: string, shownBefore: ReadonlySet<string>): boolean {
  let changed = false;
  const blocks = new Set<string>();
  for (const [id, kind] of touched) {
    if (kind === 'client') {
      const e = entities.get(id);
      if (e) changed = projectClient(db, e) || changed;
    } else if (kind === 'invoice') {
      const e = entities.get(id);
      if (e) changed = projectInvoice(db, e) || changed;
    } else if (kind === 'book') {
      // Read where it is kept (sync_entities): book.ts.
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
export function guarded(write: () => void, remove: () => void): boolean {
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
export function setPending(db: DatabaseSync, id: string, waiting: boolean): void {
  const flag = waiting ? 1 : 0;
  sql(db, 'UPDATE sync_entities SET pending = ? WHERE id = ? AND pending <> ?').run(flag, id, flag);
}

/** The latest block start per activity seen in a batch, written to `last_used_at` once each. */
export type LastUsed = Map<string, number>;

export function used(lastUsed: LastUsed, activity: string, startedAt: number): void {
  if ((lastUsed.get(activity) ?? Number.NEGATIVE_INFINITY) < startedAt) lastUsed.set(activity, startedAt);
}

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

export function projectBreak(db: DatabaseSync, e: Entity): boolean {
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

/**
 * Makes the activities table show the merged activities: one row per name (case-insensitive,
 * NFC), the lowest id of those sharing it, with that activity's name. Returns the ids of every
 * activity whose row appeared, went or changed, and of every member of such a group: their
 * blocks must be pointed again. Blocks are pointed after this (foreign keys are checked at commit).
 */
export function projectActivities(db: DatabaseSync, entities: Entities, touched: ReadonlySet<string>): { regrouped: string[]; edited: boolean } {
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
  const rows = sql(db, 'SELECT id, name, created_at AS createdAt, last_used_at AS lastUsedAt, client_id AS clientID, rate, billable, budget_hours AS budgetHours, archived, color FROM activities').all() as unknown as ({
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
  const setLedger = sql(db, 'UPDATE activities SET client_id = ?, rate = ?, billable = ?, budget_hours = ?, archived = ? WHERE id = ?');
  const setColor = sql(db, 'UPDATE activities SET color = ? WHERE id = ?');
  // The colour a row had before it is written again (a rename by an older Tock logs none).
  const shownColor = new Map<string, number>();
  let edited = false;
  for (const row of rows) {
    if (!known.has(row.id)) continue; // not synced (cannot happen once the outbox is drained): left alone
    const w = wanted.get(row.id);
    if (w && w.name === row.name && w.createdAt === row.createdAt) {
      const l = w.ledger;
      if (l.clientID !== row.clientID || l.rate !== row.rate || l.billable !== row.billable || l.budgetHours !== row.budgetHours || l.archived !== row.archived) {
        setLedger.run(l.clientID, l.rate, l.billable, l.budgetHours, l.archived, row.id);
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
    `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at, client_id, rate, billable, budget_hours, color, archived)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const [id, w] of wanted) {
    if (present.has(id)) continue;
    const l = w.ledger;
    // Its colour as logged; from its id alone when an older Tock logged none, the same on every device.
    const color = w.color ?? shownColor.get(id) ?? colorFromId(id);
    insert.run(id, w.name, nameKey(w.name), searchKey(w.name), wordKey(w.name), w.createdAt, Math.max(w.createdAt, lastUsed.get(id) ?? 0), l.clientID, l.rate, l.billable, l.budgetHours, color, l.archived);
    regrouped.add(id);
  }
  // Every touched activity (merged into another, deleted, renamed) and every member of a group
  // with a row that changed or a touched member.
  for (const id of touched) regrouped.add(id);
  for (const w of wanted.values()) if (w.members.some((m) => regrouped.has(m))) for (const m of w.members) regrouped.add(m);
  return { regrouped: [...regrouped], edited };
}

/** An activity's ledger columns as the activities table keeps them. */
export interface ActivityLedgerColumns {
  clientID: string | null;
  rate: string | null;
  billable: number;
  budgetHours: number | null;
  /** 1: archived (docs/product.md "Activities"); lines of an older Tock carry none: 0. */
  archived: number;
}

export function activityLedgerColumns(e: Entity): ActivityLedgerColumns {
  return {
    clientID: (value(e, 'clientID') ?? null) as string | null,
    rate: (value(e, 'rate') ?? null) as string | null,
    billable: value(e, 'billable') === true ? 1 : 0,
    budgetHours: (value(e, 'budgetHours') ?? null) as number | null,
    archived: value(e, 'archived') === true ? 1 : 0,
  };
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

/**
 * Makes the invoices table show one merged invoice (docs/sync.md "One book"): by its id, with
 * its number, client, period and document as the book's device issued it (a void is an edit of
 * the document). A number another invoice here holds already is not shown (two devices that
 * both issued before the book was recorded); a delete takes it away.
 */
export function projectInvoice(db: DatabaseSync, e: Entity): boolean {
  const remove = (): boolean => Number(sql(db, 'DELETE FROM invoices WHERE id = ?').run(e.id).changes) > 0;
  if (!visible(e)) return remove();
  const number = String(value(e, 'number'));
  const [, year, seq] = /^INV-(\d{4})-(\d+)$/.exec(number) ?? [];
  const row = { number, year: Number(year), seq: Number(seq), client: String(value(e, 'clientID')), from: String(value(e, 'from')), to: String(value(e, 'to')), at: value(e, 'createdAt') as number, document: String(value(e, 'document')) };
  const before = sql(db, 'SELECT number, client_id AS client, from_day AS "from", to_day AS "to", created_at AS at, document FROM invoices WHERE id = ?').get(e.id) as
    | { number: string; client: string; from: string; to: string; at: number; document: string }
    | undefined;
  if (before && before.number === row.number && before.client === row.client && before.from === row.from && before.to === row.to && before.at === row.at && before.document === row.document) return false;
  guarded(
    () =>
      sql(
        db,
        `INSERT INTO invoices (id, number, year, seq, client_id, from_day, to_day, created_at, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET number = excluded.number, year = excluded.year, seq = excluded.seq, client_id = excluded.client_id,
           from_day = excluded.from_day, to_day = excluded.to_day, created_at = excluded.created_at, document = excluded.document`,
      ).run(e.id, row.number, row.year, row.seq, row.client, row.from, row.to, row.at, row.document),
    remove,
  );
  return true;
}

/**
 * Makes the clients table show one merged client: by its id (two clients of one name made on
 * two devices are two; the API keeps names unique only where they are made). Its activities
 * keep its id while it is gone, and find it again when it comes back.
 */
export function projectClient(db: DatabaseSync, e: Entity): boolean {
  if (!visible(e)) return Number(sql(db, 'DELETE FROM clients WHERE id = ?').run(e.id).changes) > 0;
  const name = String(value(e, 'name'));
  const row = {
    n: name,
    r: (value(e, 'rate') ?? null) as string | null,
    c: (value(e, 'currency') ?? null) as string | null,
    a: (value(e, 'address') ?? null) as string | null,
    t: value(e, 'createdAt') as number,
    // Its invoice details (absent on lines written before they travelled: none).
    x: (value(e, 'taxID') ?? null) as string | null,
    p: (value(e, 'taxRate') ?? null) as number | null,
    v: value(e, 'reverseCharge') === true ? 1 : 0,
    l: (value(e, 'language') ?? null) as string | null,
  };
  const before = sql(
    db,
    'SELECT name AS n, rate AS r, currency AS c, address AS a, created_at AS t, tax_id AS x, tax_rate AS p, reverse_charge AS v, language AS l FROM clients WHERE id = ?',
  ).get(e.id) as typeof row | undefined;
  if (
    before &&
    before.n === row.n &&
    before.r === row.r &&
    before.c === row.c &&
    before.a === row.a &&
    before.t === row.t &&
    before.x === row.x &&
    before.p === row.p &&
    before.v === row.v &&
    before.l === row.l
  )
    return false;
  sql(
    db,
    `INSERT INTO clients (id, name, name_key, rate, currency, address, created_at, tax_id, tax_rate, reverse_charge, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, rate = excluded.rate, currency = excluded.currency,
       address = excluded.address, created_at = excluded.created_at, tax_id = excluded.tax_id, tax_rate = excluded.tax_rate,
       reverse_charge = excluded.reverse_charge, language = excluded.language`,
  ).run(e.id, row.n, nameKey(row.n), row.r, row.c, row.a, row.t, row.x, row.p, row.v, row.l);
  return true;
}

/** Projects this device's own activity changes (see drainOutbox), its writes not captured. */
export function reproject(db: DatabaseSync, entities: Entities, activities: ReadonlySet<string>, me: string): void {
  db.exec('INSERT INTO sync_applying (flag) VALUES (1)');
  try {
    project(db, entities, new Map([...activities].map((id) => [id, 'activity' as EntityKind])), me, new Set());
  } finally {
    db.exec('DELETE FROM sync_applying');
  }
}
