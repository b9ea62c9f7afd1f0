/**
 * The nonces seen in the last 180 s (SPEC §6 step 6), bounded in memory. At the bound it
 * fails closed: expired nonces are dropped, and if the window is still full the request is
 * refused (the caller answers 429) rather than forgetting a nonce that could then be replayed.
 *
 * Expiries are kept twice: in a Map for lookups, and in a first-in-first-out queue for
 * dropping them in order. (Dropping from the front of a Map while iterating it would be
 * O(deleted entries) per call in V8, whose Map keeps deleted slots until it rehashes.)
 */

const COMPACT_AFTER = 4096;

/** The set of nonces used in the last 180 s, with a hard bound on its size. */
export class NonceWindow {
  /** nonce → time (ms) from which it may be used again. */
  readonly #expiries = new Map<string, number>();
  /** Nonces in the order they were added, with the expiry they were added with. */
  #queue: string[] = [];
  #queueExpiries: number[] = [];
  #head = 0;
  readonly #max: number;
  /** Largest expiry added so far: entries added at or above it keep the queue sorted by expiry. */
  #maxExpiry = Number.NEGATIVE_INFINITY;
  /**
   * Earliest expiry among entries added out of order (loaded at start, or a clock that went
   * back). Only those can hide expired entries behind live ones, out of reach of the queue;
   * +Infinity when there are none.
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
    this.#dropExpired(nowMs);
    this.#expiries.delete(nonce); // an expired earlier use: its old queue slot is now stale
    if (this.#expiries.size >= this.#max) {
      if (nowMs >= this.#earliestUnordered) this.#sweep(nowMs);
      if (this.#expiries.size >= this.#max) return false;
    }
    this.#expiries.set(nonce, expiresAtMs);
    this.#queue.push(nonce);
    this.#queueExpiries.push(expiresAtMs);
    if (expiresAtMs >= this.#maxExpiry) this.#maxExpiry = expiresAtMs;
    else if (expiresAtMs < this.#earliestUnordered) this.#earliestUnordered = expiresAtMs;
    return true;
  }

  /** Milliseconds until room is made in a full window (at least one nonce expires). */
  msUntilRoom(nowMs: number): number {
    const front = this.#head < this.#queue.length ? (this.#queueExpiries[this.#head] as number) : nowMs;
    return Math.max(0, Math.min(front, this.#earliestUnordered) - nowMs);
  }

  /** Amortized O(1): pops expired entries off the front of the queue. */
  #dropExpired(nowMs: number): void {
    const queue = this.#queue;
    const expiries = this.#queueExpiries;
    let head = this.#head;
    while (head < queue.length && (expiries[head] as number) <= nowMs) {
      const nonce = queue[head] as string;
      if (this.#expiries.get(nonce) === expiries[head]) this.#expiries.delete(nonce);
      head++;
    }
    if (head > COMPACT_AFTER && head * 2 > queue.length) {
      this.#queue = queue.slice(head);
      this.#queueExpiries = expiries.slice(head);
      head = 0;
    }
    this.#head = head;
  }

  /** O(n), only when an out-of-order entry may have expired: drops every expired entry. */
  #sweep(nowMs: number): void {
    let runningMax = Number.NEGATIVE_INFINITY;
    let earliestUnordered = Number.POSITIVE_INFINITY;
    for (let i = this.#head; i < this.#queue.length; i++) {
      const nonce = this.#queue[i] as string;
      const expiry = this.#queueExpiries[i] as number;
      if (this.#expiries.get(nonce) !== expiry) continue; // stale slot
      if (expiry <= nowMs) this.#expiries.delete(nonce);
      else if (expiry >= runningMax) runningMax = expiry;
      else if (expiry < earliestUnordered) earliestUnordered = expiry;
    }
    this.#earliestUnordered = earliestUnordered;
  }
}
