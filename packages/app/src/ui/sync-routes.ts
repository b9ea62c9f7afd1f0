/**
 * The window's routes for Settings › Sync (docs/ui.md "Sync"): the sync status, turning sync on
 * with a folder, a device name and the folder's key when another device made it, and off, the
 * folder key shown on request, the one-timer setting, and what other devices run now. A refusal
 * comes back with the field it is about (`dir`, `name` or `key`), so the window shows it there.
 */
import type { Store } from '@tock/core';
import { devicePositions, sessionsRunningElsewhere, type RunningElsewhere } from '@tock/core/sync';
import type { RunningElsewhere as RunningElsewhereView } from '@tock/window/contract';
import type { SyncService } from '@tock/sync';
import { route, type Route } from './route.ts';

/** A session another device runs, as Today shows it: `seconds` worked so far by `now`, breaks left out. */
function runningView(r: RunningElsewhere, now: number): RunningElsewhereView {
  let breakMs = 0;
  for (const b of r.breaks) breakMs += Math.max(0, Math.min(b.endedAt ?? now, now) - Math.max(b.startedAt, r.startedAt));
  return {
    sessionID: r.sessionID,
    deviceID: r.deviceID,
    activity: r.activity,
    startedAt: new Date(r.startedAt).toISOString(),
    note: r.note,
    onBreak: r.breaks.some((b) => b.endedAt === null),
    seconds: Math.max(0, Math.floor((now - r.startedAt - breakMs) / 1000)),
  };
}

/**
 * What other devices run, read again only when their logs brought something new (the read
 * passes over every synced session; how far each log is applied is one small table).
 */
function runningElsewhere(store: Store): () => RunningElsewhere[] {
  let key = '';
  let value: RunningElsewhere[] = [];
  return () => {
    const now = devicePositions(store)
      .map((p) => `${p.deviceID}:${p.applied}`)
      .join('|');
    if (now !== key || now === '') {
      value = now === '' ? [] : sessionsRunningElsewhere(store);
      key = now;
    }
    return value;
  };
}

/** The sync routes of the window's API. */
export function syncRoutes(sync: SyncService, store: Store, clock: () => number): Route[] {
  const running = runningElsewhere(store);
  return [
    route('GET /api/sync', () => sync.status()),
    route('GET /api/sync/running', () => {
      const now = clock();
      return running().map((r) => runningView(r, now));
    }),
    // The key is read by the same parser as `tock sync enable --key` (case, `-` and spaces ignored).
    route('POST /api/sync/enable', ({ body }) => sync.enable(body.dir, body.name === '' ? undefined : body.name, body.key), ['sync', 'status', 'blocks']),
    // POST, not GET, as the token's reveal (server.ts: the Origin check applies): the folder key as `tock sync key` prints it.
    route('POST /api/sync/key', () => ({ key: sync.folderKey() })),
    route('POST /api/sync/disable', () => sync.disable(), ['sync']),
    // One timer across devices (docs/sync.md): `{on: boolean}`, answered with the sync status.
    route('POST /api/sync/one-timer', ({ body }) => sync.setOneTimer(body.on), ['sync']),
  ];
}
