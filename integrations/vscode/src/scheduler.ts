/**
 * The clock and the timers of the extension, in one injectable object: the status bar counts
 * the running session's minutes from it, the status source polls on it, the activity picker
 * waits on it before searching. Tests pass a manual one and move time themselves.
 */

/** Current time and one-shot timers. */
export interface Scheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds; the returned function cancels it. */
  setTimeout(fn: () => void, ms: number): () => void;
}

/** The real clock and `setTimeout`. */
export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};
