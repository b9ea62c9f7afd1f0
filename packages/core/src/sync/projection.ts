/**
 * Making the tracking tables show the merged state (docs/sync.md), so every device that has the
 * same operations shows the same history. Activities are grouped by name (case-insensitive,
 * NFC) — the lowest id of a group is the activity, the others' blocks point to it; every
 * device's stopped sessions, their breaks and entries, each with the device it was made on;
 * this device's running session, but not another device's (each device keeps its own; see
 * docs/decisions.md "Sync through a folder").
 */

import type { DatabaseSync } from 'node:sqlite';
import { nameKey } from '../names.ts';
import { type Entities, activityKey, sql, value, visible } from './entities.ts';
import type { EntityKind } from './ops.ts';
import { projectActivities } from './project-activities.ts';
import { projectBreak, projectEntry, projectSession, type LastUsed } from './project-blocks.ts';
import { projectClient, projectInvoice } from './project-ledger.ts';

/**
 * Makes the tracking tables show the merged state of the touched things (and of whatever
 * hangs on them: the blocks of an activity whose group changed, the breaks of a session).
 * Activities are regrouped within the name groups the touched ones concern (groupsOf), or
 * across every activity with `groups` 'all' (the same rows: a test compares them). Returns
 * whether any table row changed.
 */
export function project(
  db: DatabaseSync,
  entities: Entities,
  touched: Map<string, EntityKind>,
  me: string,
  shownBefore: ReadonlySet<string>,
  groups: 'concerned' | 'all' = 'concerned',
): boolean {
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
    const { regrouped, edited } = projectActivities(db, entities, activities, groups === 'all' ? 'all' : groupsOf(entities, activities));
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
  // Every session and entry first, then the breaks: the touched ones and those of each touched
  // session (shown under it or waiting for it). A break is shown only once every session of the
  // batch is: one moved to a session of the same batch must find it there, whichever of the two
  // comes first (otherwise the outcome would depend on the order lines arrive in).
  const breaks = new Set<string>();
  for (const id of blocks) {
    const e = entities.get(id);
    if (!e) continue;
    if (e.kind === 'session') {
      changed = projectSession(db, e, resolve, me, lastUsed) || changed;
      for (const b of breaksOf(id)) breaks.add(b);
    } else if (e.kind === 'entry') {
      changed = projectEntry(db, e, resolve, me, lastUsed) || changed;
    } else if (e.kind === 'break') {
      breaks.add(id);
    }
  }
  for (const id of breaks) {
    const e = entities.get(id);
    if (e?.kind === 'break') changed = projectBreak(db, e) || changed;
  }
  // Search's recency: each activity's latest block start, once per batch (never moved back).
  const touch = sql(db, 'UPDATE activities SET last_used_at = max(last_used_at, ?) WHERE id = ?');
  for (const [activity, startedAt] of lastUsed) touch.run(startedAt, activity);
  return changed;
}

/**
 * The name groups the changes of `activities` concern: each one's name before this batch (the
 * group it left; a rename here has renamed its row already) and now (the group it joined).
 * Every other group keeps its members, and so its row.
 */
function groupsOf(entities: Entities, activities: ReadonlySet<string>): Set<string> {
  const keys = new Set<string>();
  for (const id of activities) {
    const before = entities.namesBefore.get(id);
    if (typeof before === 'string') keys.add(nameKey(before));
    const e = entities.get(id);
    if (e) keys.add(activityKey(e));
  }
  keys.delete('');
  return keys;
}

/** Projects this device's own activity changes (see drainOutbox), its writes not captured. */
export function reproject(db: DatabaseSync, entities: Entities, activities: ReadonlySet<string>, me: string, groups: 'concerned' | 'all' = 'concerned'): void {
  db.exec('INSERT INTO sync_applying (flag) VALUES (1)');
  try {
    project(db, entities, new Map([...activities].map((id) => [id, 'activity' as EntityKind])), me, new Set(), groups);
  } finally {
    db.exec('DELETE FROM sync_applying');
  }
}
