/**
 * The nonces seen in the last 180 s (SPEC §6 step 6), bounded in memory. At the bound it
 * fails closed: expired nonces are dropped, and if the window is still full the request is
 * refused (the caller answers 429) rather than forgetting a nonce that could then be replayed.
 */

export class NonceWindow {
  /** nonce → time (ms) from which it may be used again. Insertion order ≈ expiry order. */
  readonly #expiries = new Map<string, number>();
  readonly #max: number;
  /** Largest expiry added so far: entries added at or above it keep the Map sorted by expiry. */
  #maxExpiry = Number.NEGATIVE_INFINITY;
  /**
   * Earliest expiry among entries added out of order (loaded at start, or a clock that went
   * back). Only those can hide expired entries behind live ones, out of reach of the cheap
   * front pruning; +Infinity when there are none.
   */
  #earliestUnordered = Number.POSITIVE_INFINITY;

  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#expiries.size;
  }

  /** True when the nonce was seen and its window has not ended. */
  has(nonce: string, nowMs: number): boolean {
    const expiry = this.#expiries.get(nonce);
    return expiry !== undefined && expiry > nowMs;
  }

  /**
   * Remembers a nonce (that {@link has} just said is not live) until `expiresAtMs`; false when
   * the window is full of live nonces.
   */
  add(nonce: string, expiresAtMs: number, nowMs: number): boolean {
    this.#dropExpiredFromFront(nowMs);
    this.#expiries.delete(nonce); // an expired earlier use goes to the back with its new expiry
    if (this.#expiries.size >= this.#max) {
      if (nowMs >= this.#earliestUnordered) this.#sweep(nowMs);
      if (this.#expiries.size >= this.#max) return false;
    }
    this.#expiries.set(nonce, expiresAtMs);
    if (expiresAtMs >= this.#maxExpiry) this.#maxExpiry = expiresAtMs;
    else if (expiresAtMs < this.#earliestUnordered) this.#earliestUnordered = expiresAtMs;
    return true;
  }

  /** Milliseconds until room is made in a full window (at least one nonce expires). */
  msUntilRoom(nowMs: number): number {
    const first = this.#expiries.values().next();
    const frontExpiry = first.done ? nowMs : first.value;
    return Math.max(0, Math.min(frontExpiry, this.#earliestUnordered) - nowMs);
  }

  /** Amortized O(1): stops at the first live entry. */
  #dropExpiredFromFront(nowMs: number): void {
    for (const [nonce, expiry] of this.#expiries) {
      if (expiry > nowMs) return;
      this.#expiries.delete(nonce);
    }
  }

  /** O(n), only when an out-of-order entry may have expired: drops every expired entry. */
  #sweep(nowMs: number): void {
    let runningMax = Number.NEGATIVE_INFINITY;
    let earliestUnordered = Number.POSITIVE_INFINITY;
    for (const [nonce, expiry] of this.#expiries) {
      if (expiry <= nowMs) this.#expiries.delete(nonce);
      else if (expiry >= runningMax) runningMax = expiry;
      else if (expiry < earliestUnordered) earliestUnordered = expiry;
    }
    this.#earliestUnordered = earliestUnordered;
  }
}
