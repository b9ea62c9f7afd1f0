/**
 * Writing what an import read, in ONE transaction: all of it or, when anything fails, none
 * (a dry run rolls it back on purpose). Idempotent: a block whose activity (by name, case-
 * insensitively), start and end (to the second) equal a block already in the store — or one
 * added earlier in the same file — is skipped, so importing a file twice adds nothing.
 */

import { nameKey, searchKey, wordKey } from '../names.ts';
import type { Store } from '../store.ts';
import type { ReadFile } from './blocks.ts';
import { ImportProblem } from './problem.ts';

/** What an import did (or, in a dry run, would do). */
export interface ImportCounts {
  /** Blocks written. */
  imported: number;
  /** Blocks already present, left out. */
  skipped: number;
  /** Activities created for names the store did not have. */
  activitiesCreated: number;
  /** Blocks without an end (running when the file was written), left out. */
  openSkipped: number;
  /** Foreign blocks that end when they start, left out. */
  emptySkipped: number;
}

/** Thrown inside the transaction of a dry run, to undo it. */
class DryRunDone extends Error {}

/** When each activity was first and last used by the blocks written. */
type Usage = Map<string, { first: number; last: number; created: boolean }>;

/**
 * Writes `file` into `store` (new IDs from `newId`, entries' `created_at` = `now`) and
 * returns the counts; with `dryRun` the same work is done and then undone. A reference to
 * an activity neither the file nor the store has refuses the whole import.
 */
export function applyImport(store: Store, file: ReadFile, options: { now: number; newId: () => string; dryRun: boolean }): ImportCounts {
  const counts: ImportCounts = { imported: 0, skipped: 0, activitiesCreated: 0, openSkipped: file.openSkipped, emptySkipped: file.emptySkipped };
  const q = store.statement;
  const byKey = q('SELECT id FROM activities WHERE name_key = ?');
  const byId = q('SELECT id FROM activities WHERE id = ?');
  const insertActivity = q(
    `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  // "Present": the same activity, and start and end within the same whole seconds. The
  // ended_at indexes find the candidates: blocks ending within that second.
  const present = q(
    `SELECT EXISTS (SELECT 1 FROM entries WHERE ended_at >= ?1 AND ended_at < ?1 + 1000 AND activity_id = ?3
                      AND started_at >= ?2 AND started_at < ?2 + 1000)
         OR EXISTS (SELECT 1 FROM sessions WHERE ended_at >= ?1 AND ended_at < ?1 + 1000 AND activity_id = ?3
                      AND started_at >= ?2 AND started_at < ?2 + 1000) AS present`,
  );
  const insertEntry = q('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const insertSession = q('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const insertBreak = q('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const sessionExists = q('SELECT 1 FROM sessions WHERE id = ?');
  const entryExists = q('SELECT 1 FROM entries WHERE id = ?');

  const usage: Usage = new Map();
  const use = (activityID: string, start: number): void => {
    const u = usage.get(activityID);
    if (u === undefined) usage.set(activityID, { first: start, last: start, created: false });
    else {
      u.first = Math.min(u.first, start);
      u.last = Math.max(u.last, start);
    }
  };
  const create = (id: string, name: string, createdAt: number): string => {
    const clean = name.trim().normalize('NFC');
    insertActivity.run(id, clean, nameKey(clean), searchKey(clean), wordKey(clean), createdAt, createdAt);
    counts.activitiesCreated++;
    usage.set(id, { first: createdAt, last: createdAt, created: true });
    return id;
  };
  const floorSecond = (ms: number): number => Math.floor(ms / 1000) * 1000;
  const isPresent = (activityID: string, start: number, end: number): boolean =>
    (present.get(floorSecond(end), floorSecond(start), activityID) as { present: number }).present === 1;

  const write = (): void => {
    // Foreign blocks: activities by name, each block an entry.
    const idsByKey = new Map<string, string>();
    for (const block of file.foreign) {
      const key = nameKey(block.activity);
      let activityID = idsByKey.get(key);
      if (activityID === undefined) {
        const row = byKey.get(key) as { id: string } | undefined;
        activityID = row?.id ?? create(options.newId(), block.activity, block.start);
        idsByKey.set(key, activityID);
      }
      if (isPresent(activityID, block.start, block.end)) {
        counts.skipped++;
        continue;
      }
      insertEntry.run(options.newId(), activityID, block.start, block.end, block.note, options.now);
      use(activityID, block.start);
      counts.imported++;
    }

    // A Tock export: activities by ID, then by name; sessions and entries keep their IDs.
    const idsByFileId = new Map<string, string>();
    for (const a of file.activities) {
      if (idsByFileId.has(a.id)) continue;
      const sameId = byId.get(a.id) as { id: string } | undefined;
      const sameName = sameId ?? (byKey.get(nameKey(a.name)) as { id: string } | undefined);
      idsByFileId.set(a.id, sameName?.id ?? create(a.id, a.name, a.createdAt));
    }
    const activityOf = (place: string, fileId: string): string => {
      let id = idsByFileId.get(fileId);
      if (id === undefined) {
        id = (byId.get(fileId) as { id: string } | undefined)?.id;
        if (id === undefined) throw new ImportProblem(place, `activityID "${fileId}" is not among the file's activities`);
        idsByFileId.set(fileId, id);
      }
      return id;
    };
    for (const s of file.sessions) {
      const activityID = activityOf(s.place, s.activityID);
      if (sessionExists.get(s.id) !== undefined || isPresent(activityID, s.start, s.end)) {
        counts.skipped++;
        continue;
      }
      insertSession.run(s.id, activityID, s.start, s.end);
      for (const b of s.breaks) insertBreak.run(options.newId(), s.id, b.start, b.end);
      use(activityID, s.start);
      counts.imported++;
    }
    for (const e of file.entries) {
      const activityID = activityOf(e.place, e.activityID);
      if (entryExists.get(e.id) !== undefined || isPresent(activityID, e.start, e.end)) {
        counts.skipped++;
        continue;
      }
      insertEntry.run(e.id, activityID, e.start, e.end, e.note, options.now);
      use(activityID, e.start);
      counts.imported++;
    }

    // Search ranks by recent use: the latest block start of each activity touched.
    // An activity created here has existed since its first block.
    const touch = q('UPDATE activities SET last_used_at = max(last_used_at, ?) WHERE id = ?');
    const backdate = q('UPDATE activities SET created_at = min(created_at, ?) WHERE id = ?');
    for (const [id, u] of usage) {
      touch.run(u.last, id);
      if (u.created && file.activities.length === 0) backdate.run(u.first, id);
    }
  };

  try {
    store.transaction(() => {
      write();
      if (options.dryRun) throw new DryRunDone();
    });
  } catch (error) {
    if (!(error instanceof DryRunDone)) throw error;
  }
  return counts;
}
