/** Test support for the sync tests that run two real apps: the injected "now", waits, exports. */
import { exported as exportedStore } from '../../../core/test/support/sync-peer.ts';
import type { RunningApp } from '../../src/app.ts';

/**
 * The injected "now" of the sync tests: noon of a fixed day (2026-11-23) in the zone the run is
 * in (ZONE). A block that ends now then lies inside today in every zone the runner may pick
 * (scripts/noon-zone.sh); a fixed UTC hour is midnight somewhere, and there today's total of a
 * block that just ended is 0 (a CI run once waited on it until its time limit).
 */
export const NOON = new Date(2026, 10, 23, 12).getTime();

/** The zone the run is in (TZ), for reports asked for NOON's day. */
export const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Resolves once `check` holds, looking again every 20 ms. Rejects after `seconds`, or as soon as
 * `abort` names a reason to stop waiting, saying what it waited for: the test fails and its
 * `finally` stops the apps (a promise left pending would keep them, and the test process, alive).
 */
export async function until(what: string, check: () => boolean, { seconds = 20, abort }: { seconds?: number; abort?: () => string | null } = {}): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  while (!check()) {
    const reason = abort?.();
    if (reason) throw new Error(`${reason} while waiting for ${what}`);
    if (performance.now() > deadline) throw new Error(`still waiting for ${what} after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The app's `tock export` (JSON, all time) without its time of export: equal on two devices in step. */
export function exported(app: RunningApp): unknown {
  return exportedStore(app.services.store);
}
