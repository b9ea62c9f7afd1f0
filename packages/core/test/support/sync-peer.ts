/** Test support: another device's log lines — one activity, then entries of a minute each. */

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
