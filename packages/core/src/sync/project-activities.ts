/**
 * The merged activities in the activities table (docs/sync.md): one row per name
 * (case-insensitive, NFC), the lowest id of those sharing it, with its ledger fields and colour.
 */

import type { DatabaseSync } from 'node:sqlite';
import { colorFromId } from '../activity-colors.ts';
import { nameKey, searchKey, wordKey } from '../names.ts';
import { type Entities, type Entity, activityKey, sql, value, visible } from './entities.ts';

/**
 * The activities a projection makes again: those whose name key is one of `keys` (the groups a
 * change concerns, found down the index on `sync_entities.ref`), or `'all'` of them — the same
 * rows either way as long as the table showed every other group before (docs/sync.md "Merging").
 */
export type ActivityGroups = ReadonlySet<string> | 'all';

/**
 * Makes the activities table show the merged activities of `groups`: one row per name
 * (case-insensitive, NFC), the lowest id of those sharing it, with that activity's name. Returns
 * the ids of every activity whose row appeared, went or changed, and of every member of such a
 * group: their blocks must be pointed again. Blocks are pointed after this (foreign keys are
 * checked at commit).
 */
export function projectActivities(
  db: DatabaseSync,
  entities: Entities,
  touched: ReadonlySet<string>,
  groups: ActivityGroups,
): { regrouped: string[]; edited: boolean } {
  let ids: string[];
  let rows: ShownActivity[];
  if (groups === 'all') {
    ids = (sql(db, "SELECT id FROM sync_entities WHERE kind = 'activity' ORDER BY id").all() as { id: string }[]).map((r) => r.id);
    rows = sql(db, `SELECT ${SHOWN_COLUMNS} FROM activities`).all() as unknown as ShownActivity[];
  } else {
    keyActivities(db, entities);
    const members = sql(db, "SELECT id FROM sync_entities WHERE kind = 'activity' AND ref = ? ORDER BY id");
    const shown = sql(db, `SELECT ${SHOWN_COLUMNS} FROM activities WHERE name_key = ?`);
    ids = [];
    rows = [];
    for (const key of groups) {
      for (const r of members.all(key) as { id: string }[]) ids.push(r.id);
      const row = shown.get(key) as ShownActivity | undefined;
      if (row) rows.push(row);
    }
  }
  const groupsOf = new Map<string, Entity[]>();
  for (const id of ids) {
    const e = entities.get(id);
    if (!e || !visible(e)) continue;
    const key = nameKey(String(value(e, 'name')));
    const group = groupsOf.get(key);
    if (group) group.push(e);
    else groupsOf.set(key, [e]);
  }
  const wanted = new Map<string, { name: string; createdAt: number; members: string[]; ledger: ActivityLedgerColumns; color: number | null }>();
  for (const group of groupsOf.values()) {
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
  // A group's lowest id shown under another name than its group's (a table that did not show
  // the merged state): compared like every row, so it is written again rather than twice.
  if (groups !== 'all') {
    const byId = sql(db, `SELECT ${SHOWN_COLUMNS} FROM activities WHERE id = ?`);
    const fetched = new Set(rows.map((r) => r.id));
    for (const id of wanted.keys()) {
      const row = fetched.has(id) ? undefined : (byId.get(id) as ShownActivity | undefined);
      if (row) rows.push(row);
    }
  }
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
    if (entities.get(row.id)?.kind !== 'activity') continue; // not synced (cannot happen once the outbox is drained): left alone
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

/** An activities row as the projection compares it with the merged state. */
type ShownActivity = { id: string; name: string; createdAt: number; lastUsedAt: number; color: number } & ActivityLedgerColumns;

const SHOWN_COLUMNS =
  'id, name, created_at AS createdAt, last_used_at AS lastUsedAt, client_id AS clientID, rate, billable, budget_hours AS budgetHours, archived, color';

/**
 * Gives every synced activity its name key in `ref` (refOf) where it has none: those merged by a
 * Tock before groups were found by it. Once per store; after that the index finds none.
 */
function keyActivities(db: DatabaseSync, entities: Entities): void {
  const unkeyed = sql(db, "SELECT id FROM sync_entities WHERE kind = 'activity' AND ref IS NULL").all() as { id: string }[];
  const key = sql(db, 'UPDATE sync_entities SET ref = ? WHERE id = ?');
  for (const { id } of unkeyed) {
    const e = entities.get(id);
    key.run(e ? activityKey(e) : '', id);
  }
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

/** An activity's ledger fields as logged, in the activities table's columns. */
export function activityLedgerColumns(e: Entity): ActivityLedgerColumns {
  return {
    clientID: (value(e, 'clientID') ?? null) as string | null,
    rate: (value(e, 'rate') ?? null) as string | null,
    billable: value(e, 'billable') === true ? 1 : 0,
    budgetHours: (value(e, 'budgetHours') ?? null) as number | null,
    archived: value(e, 'archived') === true ? 1 : 0,
  };
}
