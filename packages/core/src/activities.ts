/**
 * Activities: finding one by ID or name, creating one (on its own or when a start or an entry
 * names a new one), renaming, archiving, merging one into another, deleting an unused one,
 * listing, and keeping `last_used_at` (the search's recency) up to date. Names follow the rules in names.ts; the identity is the case-insensitive `name_key`.
 * Callers own the transaction.
 */

import { Problem, ruleLine, ruleProblem, validationProblem, type ActivityRef, type FieldProblem } from '@tock/protocol';
import { nextActivityColor } from './activity-colors.ts';
import { toIso } from './instants.ts';
import { cleanName, nameKey, searchKey, wordKey } from './names.ts';
import type { ActivityChoice } from './requests.ts';
import { activityRef, type ActivityRow } from './rows.ts';
import type { ActivityInfo } from './shapes/activities.ts';
import type { Store } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The activity with this ID (a UUID in any case), if any. */
function activityById(store: Store, id: string): ActivityRow | undefined {
  const key = UUID.test(id) ? id.toLowerCase() : id;
  return store.statement('SELECT id, name FROM activities WHERE id = ?').get(key) as ActivityRow | undefined;
}

/** The activity whose name is this one case-insensitively, if any. */
function activityByName(store: Store, name: string): ActivityRow | undefined {
  return store.statement('SELECT id, name FROM activities WHERE name_key = ?').get(nameKey(name)) as
    | ActivityRow
    | undefined;
}

/** The refusal for an activity ID that names no activity. */
function activityNotFound(id: string): Problem {
  return new Problem('activity_not_found', `no activity with ID "${id}"`);
}

/** The activity with this ID, or the `activity_not_found` refusal. */
export function requireActivity(store: Store, id: string): ActivityRow {
  const found = activityById(store, id);
  if (!found) throw activityNotFound(id);
  return found;
}

/** Adds an activity with an already cleaned, new name, created and last used at `at`. */
function insertActivity(store: Store, id: string, name: string, at: number): ActivityRow {
  store
    .statement(
      `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at, color)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(id, name, nameKey(name), searchKey(name), wordKey(name), at, at, nextActivityColor(store));
  return { id, name };
}

/** Records a use of the activity at `at` (never moves `last_used_at` back). */
export function touchActivity(store: Store, id: string, at: number): void {
  store.statement('UPDATE activities SET last_used_at = max(last_used_at, ?) WHERE id = ?').run(at, id);
}

/**
 * The activity a start or an entry is about, created (with a `newId()` ID) when the request
 * names a new one and allows it; `created` tells whether it was.
 */
export function resolveActivity(
  store: Store,
  choice: ActivityChoice,
  at: number,
  newId: () => string,
): { activity: ActivityRow; created: boolean } {
  if ('activityID' in choice) return { activity: requireActivity(store, choice.activityID), created: false };
  const existing = activityByName(store, choice.name);
  if (existing) return { activity: existing, created: false };
  if (!choice.createIfMissing) {
    throw new Problem('activity_not_found', `no activity named "${choice.name}"; pass createIfMissing to create it`);
  }
  return { activity: insertActivity(store, newId(), choice.name, at), created: true };
}

/**
 * An `activityID` field of an edit: undefined when absent, else the ID as given (a problem is
 * recorded when it is not a non-empty string; whether it exists is checked later).
 */
export function readActivityID(value: unknown, problems: FieldProblem[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) {
    problems.push(ruleProblem('activityID', { rule: 'activityId' }));
    return undefined;
  }
  return value;
}

/**
 * The activities of these names (case-insensitively), each once; a name no activity has gives
 * none. One statement: the names' keys as a JSON array, each looked up in the name index (one
 * statement a name cost a day's suggestions 0.15 ms at 54 names).
 */
export function activitiesNamed(store: Store, names: Iterable<string>): ActivityRef[] {
  const keys = JSON.stringify([...new Set(Array.from(names, nameKey))]);
  const rows = store.statement('SELECT id, name FROM activities WHERE name_key IN (SELECT value FROM json_each(?))').all(keys) as unknown as ActivityRow[];
  return rows.map(activityRef);
}

/** `listActivities`' read, its columns in this order: the statement answers arrays, its own SQL (the store caches statements by their text). */
const ACTIVITY_LIST_SQL = 'SELECT id, name, created_at, last_used_at, color, archived FROM activities ORDER BY name_key, id';

/**
 * Every activity, by name (case-insensitively), then ID. The window reads it after every change
 * (`GET /api/activities/all`): its rows come as arrays, not objects, which halves the read (18 →
 * 10 ms at 20 000 activities); the two ISO dates a row are V8's `toISOString` (docs/data.md
 * "What a screen reads").
 */
export function listActivities(store: Store): ActivityInfo[] {
  const statement = store.statement(ACTIVITY_LIST_SQL);
  statement.setReturnArrays(true);
  const rows = statement.all() as unknown as [id: string, name: string, createdAt: number, lastUsedAt: number, color: number, archived: number][];
  return rows.map(([id, name, createdAt, lastUsedAt, color, archived]) => ({
    activityID: id,
    activityName: name,
    createdAt: toIso(createdAt),
    lastUsedAt: toIso(lastUsedAt),
    color,
    archived: archived === 1,
  }));
}

/** The refusal for a name another activity already has. */
function nameTaken(existing: ActivityRow): Problem {
  return validationProblem([ruleProblem('name', { rule: 'activityExists', values: { name: existing.name } })]);
}

/** Creates an activity with a name `cleanName` returned (refused when another has it) at `at`. */
export function createActivity(store: Store, clean: string, at: number, newId: () => string): ActivityRef {
  const existing = activityByName(store, clean);
  if (existing) throw nameTaken(existing);
  return activityRef(insertActivity(store, newId(), clean, at));
}

/**
 * Renames an activity to a name `cleanName` returned. Another activity's name is refused; a
 * change of case or accents of its own name is allowed.
 */
export function renameActivity(store: Store, activityID: string, clean: string): ActivityRef {
  const activity = requireActivity(store, activityID);
  const other = activityByName(store, clean);
  if (other && other.id !== activity.id) throw nameTaken(other);
  store
    .statement('UPDATE activities SET name = ?, name_key = ?, search_key = ?, word_key = ? WHERE id = ?')
    .run(clean, nameKey(clean), searchKey(clean), wordKey(clean), activity.id);
  return { activityID: activity.id, activityName: clean };
}

/** The activity with this ID or name (case-insensitively), or the `activity_not_found` refusal. */
export function activityNamed(store: Store, idOrName: unknown, field = 'activity'): ActivityRow {
  if (typeof idOrName !== 'string' || idOrName.trim() === '') throw validationProblem([ruleProblem(field, { rule: 'mustNameActivity' })]);
  if (UUID.test(idOrName.trim())) {
    const found = activityById(store, idOrName.trim());
    if (found) return found;
  }
  const found = activityByName(store, idOrName);
  // The name as a value beside the English (the app's own doors only: the listener never comes here).
  if (!found) throw new Problem('activity_not_found', ...ruleLine(field, { rule: 'noActivityNamed', values: { name: idOrName.trim() } }));
  return found;
}

/**
 * Archives an activity or brings it back (docs/product.md "Activities"): archived, it leaves
 * the pickers, search and the tray, and stays in reports and history with all its blocks.
 */
export function setActivityArchived(store: Store, idOrName: unknown, archived: boolean): ActivityRef {
  const activity = activityNamed(store, idOrName);
  store.statement('UPDATE activities SET archived = ? WHERE id = ? AND archived <> ?').run(archived ? 1 : 0, activity.id, archived ? 1 : 0);
  return activityRef(activity);
}

/** What a merge did: the activity that stays and how many blocks moved to it. */
export interface ActivityMerge {
  into: ActivityRef;
  /** The activity that was merged and is gone. */
  from: ActivityRef;
  sessions: number;
  entries: number;
}

/**
 * Merges `from` into `into` (docs/product.md "Activities"): every session and entry of `from`
 * moves to `into`, then `from` is deleted. Each moved block is a change sync logs like an edit.
 */
export function mergeActivities(store: Store, fromIdOrName: unknown, intoIdOrName: unknown): ActivityMerge {
  const from = activityNamed(store, fromIdOrName, 'from');
  const into = activityNamed(store, intoIdOrName, 'into');
  if (from.id === into.id) throw validationProblem([ruleProblem('into', { rule: 'mergeIntoItself', values: { name: from.name } })]);
  const sessions = Number(store.statement('UPDATE sessions SET activity_id = ? WHERE activity_id = ?').run(into.id, from.id).changes);
  const entries = Number(store.statement('UPDATE entries SET activity_id = ? WHERE activity_id = ?').run(into.id, from.id).changes);
  store.statement('UPDATE activities SET last_used_at = max(last_used_at, (SELECT last_used_at FROM activities WHERE id = ?)) WHERE id = ?').run(from.id, into.id);
  store.statement('DELETE FROM activities WHERE id = ?').run(from.id);
  return { into: activityRef(into), from: activityRef(from), sessions, entries };
}

/**
 * Deletes an activity that has no blocks. One with blocks is refused with one line that says
 * what to do instead: merge it into another, or archive it (its time stays then).
 */
export function deleteActivity(store: Store, idOrName: unknown): ActivityRef {
  const activity = activityNamed(store, idOrName);
  const { n } = store
    .statement('SELECT (SELECT count(*) FROM sessions WHERE activity_id = ?1) + (SELECT count(*) FROM entries WHERE activity_id = ?1) AS n')
    .get(activity.id) as { n: number };
  if (n > 0) throw new Problem('validation_failed', ...ruleLine('activity', { rule: 'activityHasBlocks', values: { name: activity.name, n } }));
  store.statement('DELETE FROM activities WHERE id = ?').run(activity.id);
  return activityRef(activity);
}

/** Renames the activity with this ID or name to `name` (the name rules; another activity's name is refused). */
export function renameActivityNamed(store: Store, idOrName: unknown, name: unknown): ActivityRef {
  const activity = activityNamed(store, idOrName);
  return renameActivity(store, activity.id, cleanName(name as string));
}
