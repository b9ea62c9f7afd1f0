/** Test support for the sync tests that run two real apps: the injected "now", exports. */
import { exported as exportedStore } from '@tock/core/testing';
import type { RunningApp } from '../../src/app.ts';

/**
 * The injected "now" of the sync tests: noon of a fixed day (2026-11-23) in the zone the run is
 * in (ZONE), the instant the tests' clock is pinned to (scripts/pinned-clock.sh). A block that
 * ends now then lies inside today in every zone; a fixed UTC hour is midnight somewhere, and
 * there today's total of a block that just ended is 0 (a CI run once waited on it until its
 * time limit).
 */
export const NOON = new Date(2026, 10, 23, 12).getTime();

/** The zone the run is in (TZ), for reports asked for NOON's day. */
export const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The app's `tock export` (JSON, all time) without its time of export: equal on two devices in step. */
export function exported(app: RunningApp): unknown {
  return exportedStore(app.services.store);
}

/**
 * Puts two apps on one sync folder — `laptop` first, `desktop` joining with its key — and
 * returns one round of sync between them: the laptop, the desktop, the laptop again (what the
 * one wrote reaches the other, and what that answered comes back).
 */
export function onOneFolder(laptop: RunningApp, desktop: RunningApp, folder: string): () => Promise<void> {
  laptop.services.sync.enable(folder, 'laptop');
  desktop.services.sync.enable(folder, 'desktop', laptop.services.sync.folderKey());
  return async () => {
    await laptop.services.sync.syncNow();
    await desktop.services.sync.syncNow();
    await laptop.services.sync.syncNow();
  };
}
