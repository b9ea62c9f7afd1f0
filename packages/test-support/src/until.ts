/**
 * The one wait of the tests: look at a condition until it holds, with a deadline.
 *
 * A deadline is not a timing assertion: it is generous (30 s by default) so that a loaded CI
 * machine passes, and it only turns a hang into a failure that says what it waited for. A test
 * waits for a state or an event this way, never by sleeping for a guessed time.
 */

/** A started process (a `ChildProcess`): its exit ends a wait for something it was to do. */
export interface Watched {
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly spawnfile?: string;
  once?(event: 'exit', listener: () => void): unknown;
  off?(event: 'exit', listener: () => void): unknown;
}

export interface UntilOptions {
  /** How long to wait before failing: 30 s by default. */
  seconds?: number;
  /** Processes whose exit ends the wait at once ("<file> exited … while waiting for X"). */
  watch?: Watched | readonly Watched[];
  /** Another reason to stop waiting at once: a sentence, or null/undefined to go on. */
  abort?: () => string | null | undefined;
  /**
   * Subscribes to the event that may make the condition hold: `wake` looks again at once. Returns
   * the unsubscribe. Without it (and between events) the condition is looked at every `everyMs`.
   */
  wake?: (wake: () => void) => () => void;
  /** Milliseconds between looks: 20 by default. */
  everyMs?: number;
}

type Pending = undefined | null | false;

/**
 * Resolves with the probe's first value that is not undefined, null or false (for a boolean
 * check: true). Rejects with "timed out waiting for <what> (N s)" at the deadline, or as soon as
 * a watched process exits or `abort` names a reason. A probe that throws fails the wait.
 */
export async function until<T>(what: string, probe: () => T | Pending | Promise<T | Pending>, options: UntilOptions = {}): Promise<T> {
  const { seconds = 30, abort, wake, everyMs = 20 } = options;
  const watched = options.watch === undefined ? [] : Array.isArray(options.watch) ? (options.watch as readonly Watched[]) : [options.watch as Watched];
  const deadline = performance.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value as T;
    for (const process of watched) {
      if (process.exitCode !== null || process.signalCode !== null) {
        const how = process.signalCode === null ? `with code ${process.exitCode}` : `on ${process.signalCode}`;
        throw new Error(`${process.spawnfile ?? 'a watched process'} exited ${how} while waiting for ${what}`);
      }
    }
    const reason = abort?.();
    if (reason) throw new Error(`${reason} while waiting for ${what}`);
    const left = deadline - performance.now();
    if (left <= 0) throw new Error(`timed out waiting for ${what} (${seconds} s)`);
    await new Promise<void>((resolve) => {
      let finished = false;
      let unsubscribe: (() => void) | undefined;
      const done = (): void => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        unsubscribe?.();
        for (const process of watched) process.off?.('exit', done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(everyMs, left));
      for (const process of watched) process.once?.('exit', done);
      unsubscribe = wake?.(done);
      if (finished) unsubscribe?.(); // woken while subscribing
    });
  }
}
