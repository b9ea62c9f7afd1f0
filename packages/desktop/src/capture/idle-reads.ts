/**
 * When capture reads idleness (docs/desktop.md "Capture"): never on an interval, each read
 * setting the next one.
 */

/** How often the idle source is read while the person is away (an `idle` span open), at most. */
export const CAPTURE_IDLE_POLL_MS = 15_000;
/** How often, with no idle reading (no source answers) or with the source's own watch set, capture looks again. */
export const CAPTURE_IDLE_QUIET_MS = 5 * 60_000;

/**
 * When capture reads idleness next (issue 42 target 1: no timer wakes the idle app more than
 * once a minute): while the person is away, every {@link CAPTURE_IDLE_POLL_MS}, so the `idle`
 * span ends within that of their return; while they are at work, when the threshold could be
 * reached at the earliest — a reading of `idleMs` cannot become `thresholdMs` sooner than
 * `thresholdMs − idleMs` later, and idleness read then starts where the last input was, so
 * nothing is lost by waiting (at most {@link CAPTURE_IDLE_QUIET_MS} ahead all the same: a
 * lowered threshold counts within that); with the source's own watch set (GNOME), the screen locked (its
 * unlock ends the span) or no reading, every {@link CAPTURE_IDLE_QUIET_MS} (a changed threshold,
 * a source that answers again).
 */
export function nextIdleReadInMs(reading: { idleMs: number | null; thresholdMs: number; away: boolean; watched: boolean }): number {
  if (reading.watched || reading.idleMs === null) return CAPTURE_IDLE_QUIET_MS;
  if (reading.away) return CAPTURE_IDLE_POLL_MS;
  return Math.min(CAPTURE_IDLE_QUIET_MS, Math.max(CAPTURE_IDLE_POLL_MS, reading.thresholdMs - reading.idleMs));
}
