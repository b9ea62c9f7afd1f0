/**
 * The few statistics the benchmarks need. Every figure is a ratio of two medians (or a
 * median of paired ratios) so that a busy machine moves both sides together.
 */

/** The median of numbers (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The `p`-th percentile (0–100) of sorted numbers, nearest rank; NaN when empty. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Latency summary in milliseconds. */
export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Summarizes latencies (ms); sorts the array in place. */
export function summarize(latencies: Float64Array): LatencySummary {
  latencies.sort();
  let sum = 0;
  for (const v of latencies) sum += v;
  return {
    count: latencies.length,
    mean: latencies.length === 0 ? Number.NaN : sum / latencies.length,
    p50: percentileOfSorted(latencies, 50),
    p90: percentileOfSorted(latencies, 90),
    p99: percentileOfSorted(latencies, 99),
    max: latencies.length === 0 ? Number.NaN : (latencies[latencies.length - 1] as number),
  };
}

/** A growable Float64Array for per-request samples (no boxing, cheap to sort). */
export class Samples {
  #data = new Float64Array(1 << 14);
  #length = 0;

  push(value: number): void {
    if (this.#length === this.#data.length) {
      const bigger = new Float64Array(this.#data.length * 2);
      bigger.set(this.#data);
      this.#data = bigger;
    }
    this.#data[this.#length++] = value;
  }

  get length(): number {
    return this.#length;
  }

  /** A copy of the samples so far. */
  toArray(): Float64Array {
    return this.#data.slice(0, this.#length);
  }
}
