/**
 * This device's log and where other devices' logs stand (docs/sync.md): the sync settings,
 * the device's hybrid clock, its segments and their lines, the applied position of every other
 * device, and the sessions other devices run now. The merge itself is entities.ts (the merged
 * state), drain.ts (this device's writes into its log), apply.ts (other devices' operations)
 * and projection.ts (the tracking tables made to show the merged state).
 */


import { nameKey } from '../names.ts';
import type { Store } from '../store.ts';
import { HybridClock, type Hlc } from './hlc.ts';
import { Entities, type Entity, sql, value, visible } from './entities.ts';

/** The bytes past which this device starts a new segment (docs/sync.md). */
export const SEGMENT_LIMIT_BYTES = 1024 * 1024;

/** Settings keys of sync's own state. */
export const SYNC_SETTINGS = {
  /** `{deviceID, createdAt}`: made once per Tock home, kept when sync is turned off. */
  device: 'syncDevice',
  /** `{dir, name}` while sync is on. */
  config: 'sync',
  /** The hybrid clock's last reading, `{ms, counter}`. */
  clock: 'syncClock',
  /** The folder format this store's sync state was made for (2); absent: format 1, or never synced. */
  format: 'syncFormat',
  /** Why Tock turned sync off (a restore), `{reason}`; gone once it is on again. */
  offReason: 'syncOffReason',
  /** Other devices' names as their device.json last gave them, `{deviceID: name}` (exports name devices). */
  deviceNames: 'syncDeviceNames',
  /** One timer across devices (docs/sync.md "One timer"): `true`/`false`; absent means on. */
  oneTimer: 'oneTimer',
} as const;

/** How far one other device's log has been applied; saved with the batch that got there. */
export interface DevicePosition {
  deviceID: string;
  segment: number;
  offset: number;
  line: number;
  /** Operations applied from it in all. */
  applied: number;
  lastHlc: string | null;
  lastAppliedAt: number | null;
}

/** What a merge or drain did. */
export interface MergeResult {
  /** Lines this device added to its own log (segments to write). */
  logged: number;
  /** Segments those lines went to. */
  segments: number[];
  /** Whether the tracking tables changed (the window and the status should look again). */
  changed: boolean;
  /** A drain given a time slice: whether rows are left for the next one. */
  more?: boolean;
}

/** Builds this device's clock from the stored reading. */
export function deviceClock(store: Store, deviceID: string, now: () => number): HybridClock {
  return new HybridClock(deviceID, now, store.settings.get<{ ms: number; counter: number }>(SYNC_SETTINGS.clock));
}

/** Every segment of this device's log with its size in bytes, in order. */
export function segmentSizes(store: Store): { segment: number; bytes: number }[] {
  return (sql(store.db, 'SELECT segment, bytes FROM sync_segments ORDER BY segment').all() as { segment: number; bytes: number }[]).map((r) => ({
    segment: r.segment,
    bytes: r.bytes,
  }));
}

/** The applied positions of every other device seen. */
export function devicePositions(store: Store): DevicePosition[] {
  return (
    sql(store.db, 
        `SELECT device_id AS deviceID, segment, offset, line, applied, last_hlc AS lastHlc, last_applied_at AS lastAppliedAt
           FROM sync_devices ORDER BY device_id`,
      )
      .all() as unknown as DevicePosition[]
  ).map((p) => ({ ...p }));
}

/**
 * Forgets every synced state of the store — the merged things, this device's log, how far
 * other devices' logs were read, the pending captures and the hybrid clock — in one
 * transaction. Run before sync is turned on in a format-2 folder by a store that synced in
 * format 1 (or whose state cannot be trusted): the tables are kept, and capturing again
 * (installCapture) writes this device's whole history into its new log.
 */
export function resetSyncState(store: Store): void {
  store.transaction(() => {
    for (const table of ['sync_entities', 'sync_log', 'sync_segments', 'sync_devices', 'sync_outbox']) store.db.exec(`DELETE FROM ${table}`);
    store.settings.delete(SYNC_SETTINGS.clock);
  });
}

/** This device's log lines of one segment, in order (to write that segment's file), from its `skip`th on. */
export function segmentLines(store: Store, segment: number, skip = 0): string[] {
  const bounds = sql(store.db, 'SELECT segment, first_seq AS first FROM sync_segments WHERE segment IN (?, ?)').all(segment, segment + 1) as {
    segment: number;
    first: number;
  }[];
  const from = bounds.find((b) => b.segment === segment)?.first;
  if (from === undefined) return [];
  const to = bounds.find((b) => b.segment === segment + 1)?.first ?? Number.MAX_SAFE_INTEGER;
  const lines = sql(store.db, 'SELECT line FROM sync_log WHERE seq >= ? AND seq < ? ORDER BY seq LIMIT -1 OFFSET ?');
  lines.setReturnArrays(true); // a row a one-item array: cheaper to make than SQLite's prototype-less object
  return (lines.all(from, to, skip) as unknown as [string][]).map((r) => r[0]);
}

/** The segments of this device's log, in order. */
export function logSegments(store: Store): number[] {
  return (sql(store.db, 'SELECT segment FROM sync_segments ORDER BY segment').all() as { segment: number }[]).map((r) => r.segment);
}

/** Lines in this device's log (none is ever removed: the highest seq is their number). */
export function logLength(store: Store): number {
  return Number((sql(store.db, 'SELECT coalesce(max(seq), 0) AS n FROM sync_log').get() as { n: number }).n);
}

export type { Hlc };

/** A session another device is running now, as its log says (docs/sync.md "Merging: the same store from the same operations"). */
export interface RunningElsewhere {
  sessionID: string;
  deviceID: string;
  activity: { activityID: string; activityName: string };
  startedAt: number;
  note: string | null;
  /** Its breaks so far (`endedAt` null: on a break now). */
  breaks: { startedAt: number; endedAt: number | null }[];
}

/**
 * The sessions other devices are running now: kept in the merged state only (every device keeps
 * its own running session; another device's is shown once it has ended), so they are the synced
 * sessions without an end that the tracking tables do not hold. One pass over the synced
 * sessions; the window asks again only when another device's log brought something new.
 */
export function sessionsRunningElsewhere(store: Store): RunningElsewhere[] {
  const db = store.db;
  const entities = new Entities(db);
  const ids = sql(
    db,
    "SELECT e.id FROM sync_entities AS e WHERE e.kind = 'session' AND e.pending = 0 AND NOT EXISTS (SELECT 1 FROM sessions AS s WHERE s.id = e.id) ORDER BY e.id",
  ).all() as { id: string }[];
  const activityOf = sql(db, 'SELECT id, name FROM activities WHERE name_key = ?');
  const breakIds = sql(db, "SELECT id FROM sync_entities WHERE pending = 1 AND ref = ? AND kind = 'break' ORDER BY id");
  const running: RunningElsewhere[] = [];
  // A session of this device's is never elsewhere, also one its tables no longer hold while its
  // delete waits in the outbox (a crumb not kept when it stopped, docs/product.md "No crumbs").
  const self = store.settings.get<{ deviceID?: string }>(SYNC_SETTINGS.device)?.deviceID;
  for (const { id } of ids) {
    const e = entities.get(id);
    if (e === undefined || !visible(e) || value(e, 'endedAt') !== null) continue;
    if (self !== undefined && value(e, 'device') === self) continue;
    const a = entities.get(String(value(e, 'activityID')));
    if (a === undefined || !visible(a)) continue;
    const shown = activityOf.get(nameKey(String(value(a, 'name')))) as { id: string; name: string } | undefined;
    if (shown === undefined) continue;
    const breaks = (breakIds.all(id) as { id: string }[])
      .map((r) => entities.get(r.id))
      .filter((b): b is Entity => b !== undefined && visible(b))
      .map((b) => ({ startedAt: value(b, 'startedAt') as number, endedAt: (value(b, 'endedAt') ?? null) as number | null }))
      .sort((x, y) => x.startedAt - y.startedAt);
    running.push({
      sessionID: id,
      deviceID: String(value(e, 'device')),
      activity: { activityID: shown.id, activityName: shown.name },
      startedAt: value(e, 'startedAt') as number,
      note: (value(e, 'note') ?? null) as string | null,
      breaks,
    });
  }
  return running.sort((x, y) => x.startedAt - y.startedAt || x.sessionID.localeCompare(y.sessionID));
}
