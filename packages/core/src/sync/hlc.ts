/**
 * Hybrid logical clocks (docs/sync.md "Several machines of one person"): a timestamp
 * `"<unix ms>-<counter>-<deviceID>"` that follows the wall clock but never goes back and
 * always passes every timestamp this device has seen, so an edit made after seeing another
 * device's edit is ordered after it even when that device's wall clock runs hours ahead.
 */

/** A parsed HLC. */
export interface Hlc {
  ms: number;
  counter: number;
  device: string;
}

const WIRE = /^(\d{1,15})-(\d{1,9})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Reads a wire HLC; undefined when it is not one. */
export function parseHlc(text: unknown): Hlc | undefined {
  if (typeof text !== 'string') return undefined;
  const m = WIRE.exec(text);
  if (!m) return undefined;
  return { ms: Number(m[1]), counter: Number(m[2]), device: m[3] as string };
}

/** The wire form, `"<unix ms>-<counter>-<deviceID>"`. */
export function formatHlc(hlc: Hlc): string {
  return `${hlc.ms}-${hlc.counter}-${hlc.device}`;
}

/**
 * A form that sorts as the clock does (ms, then counter, then device) under plain string
 * comparison: what the merged state stores, so SQLite and JavaScript compare alike.
 */
export function sortableHlc(hlc: Hlc): string {
  return `${String(hlc.ms).padStart(15, '0')}-${String(hlc.counter).padStart(9, '0')}-${hlc.device}`;
}

/** How far this device's hlc may run ahead of its wall clock, ms (docs/sync.md "Format 2"). */
export const HLC_MAX_AHEAD_MS = 10 * 60 * 1000;

/** The highest counter; a tick past it moves to the next ms. */
const COUNTER_MAX = 999_999;

/**
 * One device's clock: `now` is its wall clock; `last` what it ticked or saw last. It never runs
 * more than {@link HLC_MAX_AHEAD_MS} ahead of `now`: a timestamp further ahead is not taken in
 * (the reader holds such an operation back until then), and a stored reading beyond that (a
 * clock a forged line of format 1 moved to the year 33658) is dropped for the wall clock.
 */
export class HybridClock {
  private last: { ms: number; counter: number };
  readonly device: string;
  private readonly now: () => number;

  constructor(device: string, now: () => number, last: { ms: number; counter: number } = { ms: 0, counter: 0 }) {
    this.device = device;
    this.now = now;
    this.last = { ...last };
    if (this.last.ms > Math.floor(now()) + HLC_MAX_AHEAD_MS || this.last.counter > COUNTER_MAX) this.last = { ms: Math.floor(now()), counter: 0 };
  }

  /** The next timestamp for an operation of this device. */
  tick(): Hlc {
    const wall = Math.floor(this.now());
    if (wall > this.last.ms) this.last = { ms: wall, counter: 0 };
    else if (this.last.counter < COUNTER_MAX) this.last = { ms: this.last.ms, counter: this.last.counter + 1 };
    else this.last = { ms: this.last.ms + 1, counter: 0 };
    return { ...this.last, device: this.device };
  }

  /** Takes in another device's timestamp: later ticks come after it. */
  receive(seen: Hlc): void {
    if (seen.ms > Math.floor(this.now()) + HLC_MAX_AHEAD_MS || seen.counter > COUNTER_MAX) return;
    if (seen.ms > this.last.ms || (seen.ms === this.last.ms && seen.counter > this.last.counter)) {
      this.last = { ms: seen.ms, counter: seen.counter };
    }
  }

  /** What to keep across restarts. */
  state(): { ms: number; counter: number } {
    return { ...this.last };
  }
}
