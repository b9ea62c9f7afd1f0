/**
 * Writing what an import read, in ONE transaction: all of it or, when anything fails, none
 * (a dry run rolls it back on purpose). Idempotent: a block whose activity (by name, case-
 * insensitively), start and end (to the second) equal a block already in the store — or one
 * added earlier in the same file — is skipped, so importing a file twice adds nothing.
 */

import { nextActivityColor } from '../activity-colors.ts';
import { invoicedProblem } from '../invoiced.ts';
import type { NewId } from '../ids.ts';
import { nameKey, searchKey, wordKey } from '../names.ts';
import type { ImportCounts } from '../shapes/import.ts';
import type { Store } from '../store.ts';
import type { ClientBilling, ReadFile } from './blocks.ts';
import { ImportProblem } from './problem.ts';

/** Thrown inside the transaction of a dry run, to undo it. */
class DryRunDone extends Error {}

/** When each activity was last used by the blocks written (an activity created here: since its first block). */
type Usage = Map<string, { last: number }>;

/**
 * Writes `file` into `store` (new IDs from `newId`, entries' `created_at` = `now`) and
 * returns the counts; with `dryRun` the same work is done and then undone. A reference to
 * an activity neither the file nor the store has refuses the whole import.
 */
export function applyImport(store: Store, file: ReadFile, options: { now: number; newId: NewId; dryRun: boolean }): ImportCounts {
  const counts: ImportCounts = { imported: 0, skipped: 0, activitiesCreated: 0, openSkipped: file.openSkipped, emptySkipped: file.emptySkipped };
  const q = store.statement;
  const byKey = q('SELECT id FROM activities WHERE name_key = ?');
  const byId = q('SELECT id FROM activities WHERE id = ?');
  const insertActivity = q(
    `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at, color) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // "Present": the same activity, and start and end within the same whole seconds. The
  // ended_at indexes find the candidates: blocks ending within that second. `+activity_id`
  // keeps SQLite from walking every block of the activity instead (an equality it prefers).
  const present = q(
    `SELECT EXISTS (SELECT 1 FROM entries WHERE ended_at >= ?1 AND ended_at < ?1 + 1000 AND +activity_id = ?3
                      AND started_at >= ?2 AND started_at < ?2 + 1000)
         OR EXISTS (SELECT 1 FROM sessions WHERE ended_at >= ?1 AND ended_at < ?1 + 1000 AND +activity_id = ?3
                      AND started_at >= ?2 AND started_at < ?2 + 1000) AS present`,
  );
  const insertEntry = q('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, tags, billable) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const insertSession = q('INSERT INTO sessions (id, activity_id, started_at, ended_at, note, tags, billable) VALUES (?, ?, ?, ?, ?, ?, ?)');
  // The ledger (docs/data.md "The ledger"): clients by ID, then by name; an activity's fields are
  // filled where it has none, so an import never overwrites what the person set.
  const clientById = q('SELECT id FROM clients WHERE id = ?');
  const clientByKey = q('SELECT id FROM clients WHERE name_key = ? ORDER BY id LIMIT 1');
  const insertClient = q(
    'INSERT INTO clients (id, name, name_key, rate, currency, address, tax_id, tax_rate, reverse_charge, language, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // A tax rate and reverse charge exclude each other: the file's fills only a client with neither.
  const fillClient = q(
    `UPDATE clients SET rate = coalesce(rate, ?1), currency = coalesce(currency, ?2), address = coalesce(address, ?3), tax_id = coalesce(tax_id, ?4),
       tax_rate = CASE WHEN reverse_charge = 1 THEN tax_rate ELSE coalesce(tax_rate, ?5) END,
       reverse_charge = CASE WHEN tax_rate IS NULL AND ?6 = 1 THEN 1 ELSE reverse_charge END,
       language = coalesce(language, ?7) WHERE id = ?8`,
  );
  const fillActivity = q(
    'UPDATE activities SET client_id = coalesce(client_id, ?), rate = coalesce(rate, ?), billable = max(billable, ?), budget_hours = coalesce(budget_hours, ?) WHERE id = ?',
  );
  const clientFor = (id: string | undefined, name: string, fields: { rate: string | null; currency: string | null; address: string | null } & Partial<ClientBilling>): string => {
    const clean = name.trim().normalize('NFC');
    const found = ((id === undefined ? undefined : clientById.get(id)) ?? clientByKey.get(nameKey(clean))) as { id: string } | undefined;
    const billing = [fields.taxID ?? null, fields.taxRate ?? null, fields.reverseCharge === true ? 1 : 0, fields.language ?? null] as const;
    if (found) {
      fillClient.run(fields.rate, fields.currency, fields.address, ...billing, found.id);
      return found.id;
    }
    const made = id ?? options.newId();
    insertClient.run(made, clean, nameKey(clean), fields.rate, fields.currency, fields.address, ...billing, options.now);
    return made;
  };
  const insertBreak = q('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const sessionExists = q('SELECT 1 FROM sessions WHERE id = ?');
  const entryExists = q('SELECT 1 FROM entries WHERE id = ?');
  // Invoiced is final (invoiced.ts): a block of the file with the ID of an invoiced block must be
  // that block as invoiced, or the whole import is refused, naming the place and the invoice.
  const invoicedBlock = (table: 'sessions' | 'entries') =>
    q(
      `SELECT i.number AS number, b.activity_id AS activityID, b.started_at AS start, b.ended_at AS end, b.note AS note, b.tags AS tags, b.billable AS billable
         FROM ${table} b JOIN invoices i ON i.id = b.invoice_id WHERE b.id = ?`,
    );
  const invoicedSession = invoicedBlock('sessions');
  const invoicedEntry = invoicedBlock('entries');
  type Stored = { activityID: string; start: number; end: number; note: string | null; tags: string | null; billable: number | null };
  const refuseOverInvoiced = (found: unknown, place: string, block: Stored): void => {
    if (found === undefined) return;
    const stored = found as Stored & { number: string };
    const same =
      stored.activityID === block.activityID && stored.start === block.start && stored.end === block.end && stored.note === block.note && stored.tags === block.tags && stored.billable === block.billable;
    if (!same) throw new ImportProblem(place, invoicedProblem(stored.number).message, { code: 'import_invoiced', values: { number: stored.number } });
  };

  const usage: Usage = new Map();
  const use = (activityID: string, start: number): void => {
    const u = usage.get(activityID);
    if (u === undefined) usage.set(activityID, { last: start });
    else if (start > u.last) u.last = start;
  };
  // An activity made here gets its colour once (docs/product.md "Activity colours"): the file's
  // (a Tock export), else the least used; an activity the store has keeps its own.
  const create = (id: string, name: string, createdAt: number, color: number | null = null): string => {
    const clean = name.trim().normalize('NFC');
    insertActivity.run(id, clean, nameKey(clean), searchKey(clean), wordKey(clean), createdAt, createdAt, color ?? nextActivityColor(store));
    counts.activitiesCreated++;
    usage.set(id, { last: createdAt });
    return id;
  };
  const floorSecond = (ms: number): number => Math.floor(ms / 1000) * 1000;
  // The span of the ends already stored: outside it no stored block can be equal.
  const stored = q(
    `SELECT min(lo) AS lo, max(hi) AS hi FROM (SELECT min(ended_at) AS lo, max(ended_at) AS hi FROM entries
      UNION ALL SELECT min(ended_at), max(ended_at) FROM sessions)`,
  ).get() as { lo: number | null; hi: number | null };
  const storedFrom = stored.lo === null ? Number.POSITIVE_INFINITY : floorSecond(stored.lo);
  const storedTo = stored.hi ?? Number.NEGATIVE_INFINITY;
  const isPresent = (activityID: string, start: number, end: number): boolean => {
    if (end < storedFrom || floorSecond(end) > storedTo) return false;
    return (present.get(floorSecond(end), floorSecond(start), activityID) as { present: number }).present === 1;
  };
  /**
   * Which of `count` blocks repeat an earlier one of the same import (same key: activity,
   * start second, end second): sorted by key, a block equal to its predecessor is a repeat.
   * `key(i, k)` is block `i`'s part `k` of the key (0 activity, 1 start, 2 end), read where the
   * block is kept rather than copied into an array of three numbers a block (2.4 MB for 100 k).
   */
  const repeats = (key: (i: number, k: number) => number, count: number): Uint8Array => {
    // -1, 0 or 1 (a difference of two times would be a double the sort boxes, comparison after comparison).
    const compare = (a: number, b: number): number => {
      for (let k = 0; k < 3; k++) {
        const x = key(a, k);
        const y = key(b, k);
        if (x !== y) return x < y ? -1 : 1;
      }
      return 0;
    };
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort((a, b) => compare(a, b) || a - b);
    const repeated = new Uint8Array(count);
    for (let k = 1; k < count; k++) {
      const b = order[k] as number;
      if (compare(order[k - 1] as number, b) === 0) repeated[b] = 1;
    }
    return repeated;
  };

  const write = (): void => {
    // Foreign blocks: activities by name, each block an entry.
    const foreign = file.foreign;
    // Names of the file that are one activity ("Café" and "café") share the first one's index.
    const canonical = new Map<string, number>();
    const activityIndexes = foreign.names.map((name, n) => {
      const key = nameKey(name);
      const first = canonical.get(key);
      if (first !== undefined) return first;
      canonical.set(key, n);
      return n;
    });
    const firstStarts = new Float64Array(foreign.names.length).fill(Number.POSITIVE_INFINITY);
    for (let i = 0; i < foreign.length; i++) {
      const n = activityIndexes[foreign.activity(i)] as number;
      firstStarts[n] = Math.min(firstStarts[n] as number, foreign.start(i));
    }
    const activityIDs: string[] = [];
    for (const [n, name] of foreign.names.entries()) {
      const c = activityIndexes[n] as number;
      if (c !== n) {
        activityIDs[n] = activityIDs[c] as string;
        continue;
      }
      const row = byKey.get(nameKey(name)) as { id: string } | undefined;
      activityIDs[n] = row?.id ?? create(options.newId(), name, firstStarts[n] as number);
    }
    // What the file says of each activity's client and rate (Toggl).
    for (const [n, name] of foreign.names.entries()) {
      const said = foreign.ledger.get(name);
      if (said === undefined || (said.client === undefined && said.rate === undefined)) continue;
      const clientID = said.client === undefined ? null : clientFor(undefined, said.client, { rate: null, currency: said.currency ?? null, address: null });
      fillActivity.run(clientID, said.rate ?? null, 0, null, activityIDs[n] as string);
    }
    const key = (i: number, k: number): number =>
      k === 0 ? (activityIndexes[foreign.activity(i)] as number) : floorSecond(k === 1 ? foreign.start(i) : foreign.end(i));
    const repeated = repeats(key, foreign.length);
    for (let i = 0; i < foreign.length; i++) {
      const activityID = activityIDs[foreign.activity(i)] as string;
      const start = foreign.start(i);
      const end = foreign.end(i);
      if (repeated[i] === 1 || isPresent(activityID, start, end)) {
        counts.skipped++;
        continue;
      }
      // An entry's ID is time-ordered by its start, as logEntry's (ids.ts).
      insertEntry.run(options.newId(start), activityID, start, end, foreign.note(i), options.now, foreign.tags(i), foreign.billable(i));
      use(activityID, start);
      counts.imported++;
    }

    // A Tock export: activities by ID, then by name; sessions and entries keep their IDs.
    const clientIds = new Map<string, string>();
    for (const c of file.clients) if (!clientIds.has(c.id)) clientIds.set(c.id, clientFor(c.id, c.name, c));
    const idsByFileId = new Map<string, string>();
    for (const a of file.activities) {
      if (idsByFileId.has(a.id)) continue;
      const sameId = byId.get(a.id) as { id: string } | undefined;
      const sameName = sameId ?? (byKey.get(nameKey(a.name)) as { id: string } | undefined);
      const id = sameName?.id ?? create(a.id, a.name, a.createdAt, a.color);
      // An activity the import makes is archived as the file says; one the store has keeps its own state.
      if (sameName === undefined && a.archived) store.statement('UPDATE activities SET archived = 1 WHERE id = ?').run(id);
      idsByFileId.set(a.id, id);
      const clientID = a.clientID === null ? null : (clientIds.get(a.clientID) ?? null);
      if (clientID !== null || a.rate !== null || a.billable || a.budgetHours !== null) fillActivity.run(clientID, a.rate, a.billable ? 1 : 0, a.budgetHours, id);
    }
    const activityOf = (place: string, fileId: string): string => {
      let id = idsByFileId.get(fileId);
      if (id === undefined) {
        id = (byId.get(fileId) as { id: string } | undefined)?.id;
        if (id === undefined) throw new ImportProblem(place, `activityID "${fileId}" is not among the file's activities`, { code: 'import_activity_unknown', values: { id: fileId } });
        idsByFileId.set(fileId, id);
      }
      return id;
    };
    for (const s of file.sessions) {
      const activityID = activityOf(s.place, s.activityID);
      refuseOverInvoiced(invoicedSession.get(s.id), s.place, { activityID, start: s.start, end: s.end, note: s.note, tags: s.ledger.tags, billable: s.ledger.billable });
      if (sessionExists.get(s.id) !== undefined || isPresent(activityID, s.start, s.end)) {
        counts.skipped++;
        continue;
      }
      insertSession.run(s.id, activityID, s.start, s.end, s.note, s.ledger.tags, s.ledger.billable);
      for (const b of s.breaks) insertBreak.run(options.newId(), s.id, b.start, b.end);
      use(activityID, s.start);
      counts.imported++;
    }
    for (const e of file.entries) {
      const activityID = activityOf(e.place, e.activityID);
      refuseOverInvoiced(invoicedEntry.get(e.id), e.place, { activityID, start: e.start, end: e.end, note: e.note, tags: e.ledger.tags, billable: e.ledger.billable });
      if (entryExists.get(e.id) !== undefined || isPresent(activityID, e.start, e.end)) {
        counts.skipped++;
        continue;
      }
      insertEntry.run(e.id, activityID, e.start, e.end, e.note, options.now, e.ledger.tags, e.ledger.billable);
      use(activityID, e.start);
      counts.imported++;
    }

    // Search ranks by recent use: the latest block start of each activity touched.
    const touch = q('UPDATE activities SET last_used_at = max(last_used_at, ?) WHERE id = ?');
    for (const [id, u] of usage) touch.run(u.last, id);
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
