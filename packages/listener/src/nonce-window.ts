/**
 * The nonces seen in the last 180 s (SPEC §6 step 6), bounded in memory. At the bound it
 * fails closed: expired nonces are dropped, and if the window is still full the request is
 * refused (the caller answers 429) rather than forgetting a nonce that could then be replayed.
 *
 * Expiries are kept twice: in Maps for lookups, and in a first-in-first-out queue for
 * dropping them in order. (Dropping from the front of a Map while iterating it would be
 * O(deleted entries) per call in V8, whose Map keeps deleted slots until it rehashes.)
 * The lookup Maps are 64 shards: a Map rehashes all its entries at once when it grows, which
 * at a few hundred thousand nonces stalled every request for 10–60 ms; a shard is 1/64 of that.
 */

const COMPACT_AFTER = 4096;
const SHARDS = 64;

/** A shard of the lookup Map for a nonce: cheap, and spread well for random nonces. */
function shardOf(nonce: string): number {
  return (nonce.charCodeAt(0) * 31 + nonce.charCodeAt(nonce.length >> 1)) & (SHARDS - 1);
}

/** The set of nonces used in the last 180 s, with a hard bound on its size. */
export class NonceWindow {
  /** nonce → time (ms) from which it may be used again, in {@link SHARDS} Maps. */
  readonly #shards: Map<string, number>[] = Array.from({ length: SHARDS }, () => new Map<string, number>());
  #count = 0;
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
    return this.#count;
  }

  /** True when the nonce was seen and its window has not ended. */
  has(nonce: string, nowMs: number): boolean {
    const expiry = this.#shards[shardOf(nonce)]!.get(nonce);
    return expiry !== undefined && expiry > nowMs;
  }

  /** Forgets `nonce` if it is held with exactly `expiry` (a queue slot that is not stale). */
  #forget(nonce: string, expiry: number): void {
    const shard = this.#shards[shardOf(nonce)]!;
    if (shard.get(nonce) === expiry) {
      shard.delete(nonce);
      this.#count--;
    }
  }

  /**
   * Remembers a nonce (that {@link has} just said is not live) until `expiresAtMs`; false when
   * the window is full of live nonces.
   */
  add(nonce: string, expiresAtMs: number, nowMs: number): boolean {
    this.#dropExpired(nowMs);
    const shard = this.#shards[shardOf(nonce)]!;
    if (shard.delete(nonce)) this.#count--; // an expired earlier use: its old queue slot is now stale
    if (this.#count >= this.#max) {
      if (nowMs >= this.#earliestUnordered) this.#sweep(nowMs);
      if (this.#count >= this.#max) return false;
    }
    shard.set(nonce, expiresAtMs);
    this.#count++;
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
      this.#forget(queue[head] as string, expiries[head] as number);
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
      if (this.#shards[shardOf(nonce)]!.get(nonce) !== expiry) continue; // stale slot
      if (expiry <= nowMs) this.#forget(nonce, expiry);
      else if (expiry >= runningMax) runningMax = expiry;
      else if (expiry < earliestUnordered) earliestUnordered = expiry;
    }
    this.#earliestUnordered = earliestUnordered;
  }
}
