/**
 * Notices steps of the wall clock (docs/product.md "When the clock is set", docs/decisions.md
 * "Clock steps") and sleeps of the machine (docs/decisions.md "Sleeps of the machine"). The
 * wall clock minus a clock that counts real time since boot stays constant until someone sets
 * the wall clock; the change is the step. Cheap on every read: the monotonic clock
 * (performance.now) flags a change, and only then is the boot-time clock read to tell a step
 * from a sleep (the monotonic clock stops while the machine sleeps; the boot-time clock,
 * os.uptime, does not, and neither moves when the wall clock is set).
 */
import { uptime } from 'node:os';

/** Offsets that move by less than this are drift or rounding, not a step or a sleep (os.uptime has 10 ms steps). */
export const CLOCK_STEP_TOLERANCE_MS = 2_000;

/** The three clocks, injectable for tests. */
export interface ClockSources {
  /** Wall time, ms since the epoch. */
  wall: () => number;
  /** A monotonic clock, ms (stops while the machine sleeps). */
  monotonic: () => number;
  /** Time since boot including sleep, ms. */
  sinceBoot: () => number;
}

/** Who hears of what the clock noticed; both are told before the reading that noticed it returns. */
export interface ClockFollowers {
  /**
   * The wall clock was set by `stepMs` (positive forward). When it throws (the store is busy),
   * the step is offered again, added to any later one, at the next reading: a step is
   * followed once, never lost.
   */
  onStep: (stepMs: number) => void;
  /**
   * The machine slept from `fromMs` to `toMs` (wall times of the current clock; `toMs` is the
   * reading that noticed it, `fromMs` that minus the sleep's exact length: docs/decisions.md
   * "Sleeps of the machine"). Told once; what it throws is dropped (a reading must not fail).
   */
  onSleep?: (fromMs: number, toMs: number) => void;
}

/** The real clocks of this machine. */
const SYSTEM_CLOCKS: ClockSources = {
  wall: Date.now,
  monotonic: () => performance.now(),
  sinceBoot: () => uptime() * 1000,
};

/**
 * A wall clock that tells `follow` of steps of the wall clock and sleeps of the machine before
 * it returns the first reading after them. A sleep is not a step; a sleep shorter than
 * {@link CLOCK_STEP_TOLERANCE_MS} is not told. Callers may read the clock again from inside
 * `follow` (its state is settled first).
 */
export function steppedClock(follow: ClockFollowers, sources: ClockSources = SYSTEM_CLOCKS): () => number {
  const wall0 = sources.wall();
  let monotonicOffset = wall0 - sources.monotonic();
  let bootOffset = wall0 - sources.sinceBoot();
  let pending = 0;
  return () => {
    const wall = sources.wall();
    const offset = wall - sources.monotonic();
    let sleptMs = 0;
    if (Math.abs(offset - monotonicOffset) > CLOCK_STEP_TOLERANCE_MS) {
      // wall − monotonic moved by step + sleep, wall − boot by the step alone.
      const boot = wall - sources.sinceBoot();
      const step = boot - bootOffset;
      const slept = offset - monotonicOffset - step;
      monotonicOffset = offset;
      bootOffset = boot;
      if (Math.abs(step) > CLOCK_STEP_TOLERANCE_MS) pending += step;
      if (slept > CLOCK_STEP_TOLERANCE_MS) sleptMs = slept;
    }
    if (pending !== 0) {
      const step = pending;
      pending = 0;
      try {
        follow.onStep(step);
      } catch {
        pending += step; // offered again at the next reading
      }
    }
    if (sleptMs > 0 && follow.onSleep) {
      try {
        follow.onSleep(wall - sleptMs, wall);
      } catch {
        // Dropped: told once.
      }
    }
    return wall;
  };
}
