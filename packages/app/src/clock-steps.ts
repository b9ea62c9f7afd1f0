/**
 * Notices steps of the wall clock (docs/product.md "When the clock is set", docs/decisions.md
 * "Clock steps"). The wall clock minus a clock that counts real time since boot stays constant
 * until someone sets the wall clock; the change is the step. Cheap on every read: the
 * monotonic clock (performance.now) flags a change, and only then is the boot-time clock read
 * to tell a step from a sleep (the monotonic clock stops while the machine sleeps; the
 * boot-time clock, os.uptime, does not, and neither moves when the wall clock is set).
 */
import { uptime } from 'node:os';

/** Offsets that move by less than this are drift or rounding, not a step (os.uptime has 10 ms steps). */
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

/** The real clocks of this machine. */
const SYSTEM_CLOCKS: ClockSources = {
  wall: Date.now,
  monotonic: () => performance.now(),
  sinceBoot: () => uptime() * 1000,
};

/**
 * A wall clock that tells `onStep` how far the wall clock was set (ms, positive forward)
 * before it returns the first reading after the step. Sleep is not a step. When `onStep`
 * throws (the store is busy), the step is offered again, added to any later one, at the
 * next reading: a step is followed once, never lost.
 */
export function steppedClock(onStep: (stepMs: number) => void, sources: ClockSources = SYSTEM_CLOCKS): () => number {
  const wall0 = sources.wall();
  let monotonicOffset = wall0 - sources.monotonic();
  let bootOffset = wall0 - sources.sinceBoot();
  let pending = 0;
  return () => {
    const wall = sources.wall();
    const offset = wall - sources.monotonic();
    if (Math.abs(offset - monotonicOffset) > CLOCK_STEP_TOLERANCE_MS) {
      monotonicOffset = offset;
      const boot = wall - sources.sinceBoot();
      const step = boot - bootOffset;
      bootOffset = boot;
      if (Math.abs(step) > CLOCK_STEP_TOLERANCE_MS) pending += step;
    }
    if (pending !== 0) {
      try {
        onStep(pending);
        pending = 0;
      } catch {
        // Offered again at the next reading.
      }
    }
    return wall;
  };
}
