/**
 * Applying other devices' operations (docs/sync.md): each is merged into the state
 * (entities.ts), the position reached is saved with the batch, and the tracking tables are made
 * to show the result (projection.ts).
 */


import type { DatabaseSync } from 'node:sqlite';
import { nameKey } from '../names.ts';
import type { Store } from '../store.ts';
import { type HybridClock, sortableHlc } from './hlc.ts';
import type { EntityKind, SyncOp } from './ops.ts';
import { SYNC_SETTINGS, type DevicePosition, type MergeResult } from './log.ts';
import { Entities, sql, value, visible } from './entities.ts';
import { DRAIN_ROWS, drain } from './drain.ts';
import { project } from './projection.ts';

/** How other devices' operations are applied. */
export interface ApplyOptions {
  /**
   * One timer across devices (docs/sync.md "One timer"): a session start from another device
   * that is later than this device's running session's start ends that session at it.
   */
  oneTimer?: boolean;
}

/**
 * Applies other devices' operations in ONE transaction, together with the positions they
 * were read up to: a crash leaves all of the batch applied or none of it. This device's
 * pending writes are logged first, so the tables never show older state than the store
 * holds. Applying an operation twice, or a batch in any order, gives the same store.
 */
export function applyOperations(
  store: Store,
  clock: HybridClock,
  ops: readonly SyncOp[],
  positions: readonly DevicePosition[] = [],
  options: ApplyOptions = {},
): MergeResult {
  return store.transaction(() => {
    const db = store.db;
    const entities = new Entities(db);
    const drained = { logged: 0, segments: new Set<number>() };
    const ownActivities = new Set<string>();
    for (;;) {
      const step = drain(store, entities, clock, DRAIN_ROWS);
      drained.logged += step.logged;
      for (const n of step.segments) drained.segments.add(n);
      for (const id of step.activities) ownActivities.add(id);
      if (step.taken < DRAIN_ROWS) break;
    }
    db.exec('INSERT INTO sync_applying (flag) VALUES (1)');
    let changed = false;
    try {
      const touched = new Map<string, EntityKind>();
      for (const id of ownActivities) touched.set(id, 'activity');
      // The activity rows the touched activities' blocks point to now (before their names change).
      const shownBefore = new Set<string>();
      const rowOf = sql(db, 'SELECT id FROM activities WHERE name_key = ?');
      for (const op of ops) {
        clock.receive(op.hlc);
        if (op.kind === 'activity' && !touched.has(op.id)) {
          const name = entities.get(op.id)?.fields.name?.[0];
          const row = typeof name === 'string' ? (rowOf.get(nameKey(name)) as { id: string } | undefined) : undefined;
          if (row) shownBefore.add(row.id);
        }
        if (entities.merge(op.kind, op.id, sortableHlc(op.hlc), op.deletes ? undefined : op.set)) touched.set(op.id, op.kind);
      }
      entities.save();
      if (touched.size > 0) changed = project(db, entities, touched, clock.device, shownBefore);
      savePositions(db, positions);
    } finally {
      db.exec('DELETE FROM sync_applying');
    }
    // Captured as this device's own write (sync_applying is gone): its stop travels as a line of its log.
    if (options.oneTimer === true && endOutrunSession(db, entities, ops, clock.device)) changed = true;
    store.settings.set(SYNC_SETTINGS.clock, clock.state());
    return { logged: drained.logged, segments: [...drained.segments].sort((a, b) => a - b), changed };
  });
}

/**
 * One timer across devices (docs/sync.md "One timer"): when sessions that another device
 * started arrive, and one of them starts after this device's running session did, the running
 * session ends where the first such start is — ties by session id, the higher id being the
 * later, so both devices agree which of two starts in one millisecond wins. The end is read
 * from the operations alone (never this device's clock), and written as this device's own
 * change: its stop (and the break it ends) goes into its log, so every device shows the same
 * end. Breaks that begin at or after that end go; one that is open or reaches past it ends there. Returns whether
 * a session was ended.
 */
export function endOutrunSession(db: DatabaseSync, entities: Entities, ops: readonly SyncOp[], me: string): boolean {
  const running = sql(db, "SELECT id, started_at AS startedAt FROM sessions WHERE ended_at IS NULL AND device_id = ''").get() as
    | { id: string; startedAt: number }
    | undefined;
  if (running === undefined) return false;
  const later = (a: { at: number; id: string }, b: { at: number; id: string }): boolean => a.at > b.at || (a.at === b.at && a.id > b.id);
  const mine = { at: running.startedAt, id: running.id };
  let first: { at: number; id: string } | undefined;
  for (const op of ops) {
    if (op.op !== 'session.start' || op.hlc.device === me) continue;
    const e = entities.get(op.id);
    if (e === undefined || !visible(e) || value(e, 'device') === me) continue;
    const startedAt = value(e, 'startedAt');
    if (typeof startedAt !== 'number') continue;
    const start = { at: startedAt, id: op.id };
    if (later(start, mine) && (first === undefined || later(first, start))) first = start;
  }
  if (first === undefined) return false;
  sql(db, 'DELETE FROM breaks WHERE session_id = ? AND started_at >= ?').run(running.id, first.at);
  sql(db, 'UPDATE breaks SET ended_at = ?1 WHERE session_id = ?2 AND (ended_at IS NULL OR ended_at > ?1)').run(first.at, running.id);
  sql(db, 'UPDATE sessions SET ended_at = ? WHERE id = ?').run(first.at, running.id);
  return true;
}

export function savePositions(db: DatabaseSync, positions: readonly DevicePosition[]): void {
  const save = sql(db, 
    `INSERT INTO sync_devices (device_id, segment, offset, line, applied, last_hlc, last_applied_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (device_id) DO UPDATE SET segment = excluded.segment, offset = excluded.offset, line = excluded.line,
       applied = excluded.applied, last_hlc = excluded.last_hlc, last_applied_at = excluded.last_applied_at`,
  );
  for (const p of positions) save.run(p.deviceID, p.segment, p.offset, p.line, p.applied, p.lastHlc, p.lastAppliedAt);
}

