/**
 * The nonces seen in the last 180 s (SPEC §6 step 6), bounded in memory. At the bound it
 * fails closed: expired nonces are dropped, and if the window is still full the request is
 * refused (the caller answers 429) rather than forgetting a nonce that could then be replayed.
 */

export class NonceWindow {
  /** nonce → time (ms) from which it may be used again. Insertion order ≈ expiry order. */
  readonly #expiries = new Map<string, number>();
  readonly #max: number;

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

  /** Remembers a nonce until `expiresAtMs`; false when the window is full of live nonces. */
  add(nonce: string, expiresAtMs: number, nowMs: number): boolean {
    this.#dropExpiredFromFront(nowMs);
    const known = this.#expiries.get(nonce);
    if (known !== undefined) {
      this.#expiries.delete(nonce);
      if (known > expiresAtMs) expiresAtMs = known;
    }
    if (this.#expiries.size >= this.#max) {
      this.#dropAllExpired(nowMs);
      if (this.#expiries.size >= this.#max) return false;
    }
    this.#expiries.set(nonce, expiresAtMs);
    return true;
  }

  /** Milliseconds until the first live nonce expires (when the window is full, the wait for room). */
  msUntilRoom(nowMs: number): number {
    let first = Number.POSITIVE_INFINITY;
    for (const expiry of this.#expiries.values()) if (expiry < first) first = expiry;
    return first === Number.POSITIVE_INFINITY ? 0 : Math.max(0, first - nowMs);
  }

  /** Cheap, amortized O(1): stops at the first live entry. */
  #dropExpiredFromFront(nowMs: number): void {
    for (const [nonce, expiry] of this.#expiries) {
      if (expiry > nowMs) return;
      this.#expiries.delete(nonce);
    }
  }

  /** O(n), only when the window is full: entries loaded out of order may hide behind live ones. */
  #dropAllExpired(nowMs: number): void {
    for (const [nonce, expiry] of this.#expiries) if (expiry <= nowMs) this.#expiries.delete(nonce);
  }
}
