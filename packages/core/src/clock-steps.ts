/**
 * What a step of the wall clock does to the running session (docs/product.md "When the
 * clock is set"). Sessions are stored in wall-clock time. When someone (or NTP correcting a large error)
 * steps the clock while a session runs, its start was taken in the old
 * clock's frame: counted against the new clock it would run backwards (set back) or for a
 * day it never saw (set forward). The app notices the step and moves the running session, with
 * its breaks, by the step, so it keeps exactly the time that really passed, now told in the
 * new clock. Ended blocks stay where they were: they were right when they ended.
 */

import type { Store } from './store.ts';

/**
 * Moves the running session's start and all its breaks by `stepMs` (positive: the clock
 * went forward), in one transaction; returns whether a session was running. Called by the
 * app when it notices the wall clock stepped.
 */
export function followClockStep(store: Store, stepMs: number): boolean {
  const step = Math.round(stepMs);
  if (step === 0) return false;
  return store.transaction(() => {
    const running = store.statement('SELECT id FROM sessions WHERE ended_at IS NULL').get() as { id: string } | undefined;
    if (running === undefined) return false;
    store
      .statement('UPDATE breaks SET started_at = started_at + ?1, ended_at = ended_at + ?1 WHERE session_id = ?2')
      .run(step, running.id);
    store.statement('UPDATE sessions SET started_at = started_at + ?1 WHERE id = ?2').run(step, running.id);
    return true;
  });
}
