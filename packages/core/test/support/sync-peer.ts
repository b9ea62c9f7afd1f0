/**
 * Test support for sync: another device's log lines — one activity, then entries of a minute
 * each — and a store's export as two devices in step compare it.
 */
import { exportChunks } from '../../src/export.ts';
import type { Store } from '../../src/store.ts';

/** The other device. */
export const PEER = 'fefefefe-0000-4000-8000-000000000001';
const ACTIVITY = 'fefefefe-0000-4000-8000-0000000000a1';

/** `count` lines of PEER's log. */
export function peerLines(count: number, day = Date.parse('2026-11-22T00:00:00Z')): string[] {
  const lines = [JSON.stringify({ v: 1, hlc: `${day}-0-${PEER}`, op: 'activity.create', id: ACTIVITY, set: { name: 'Peer work', createdAt: day } })];
  for (let i = 1; i < count; i++) {
    const at = day + i * 60_000;
    const id = `fefefefe-0000-4000-9000-${i.toString(16).padStart(12, '0')}`;
    lines.push(JSON.stringify({ v: 1, hlc: `${at}-0-${PEER}`, op: 'entry.create', id, set: { device: PEER, activityID: ACTIVITY, startedAt: at, endedAt: at + 50_000, note: null, createdAt: at } }));
  }
  return lines;
}

/** The store's `tock export` (JSON, all time) without its time of export: equal on two devices in step. */
export function exported(store: Store): unknown {
  const text = [...exportChunks(store.db, { format: 'json', timeZone: 'UTC', now: Date.parse('2026-12-01T00:00:00Z') })].join('');
  const value = JSON.parse(text) as Record<string, unknown>;
  delete value.exportedAt;
  return value;
}
