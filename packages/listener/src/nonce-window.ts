/**
 * The nonces seen in the last 180 s (docs/protocol.md "Order of checks on the server" step 6), bounded in memory. At the bound it
 * fails closed: expired nonces are dropped, and if the window is still full the request is
 * refused (the caller answers 429) rather than forgetting a nonce that could then be replayed.
 *
 * A window holds up to a million nonces. Kept as strings in Maps, every one of them was a few
 * heap objects that each major garbage collection traced, and the tail latency at high request
 * rates grew with the window. Here nothing per nonce lives on the JavaScript heap:
 *
 * - A nonce is kept as a 128-bit fingerprint: the first 16 bytes of SHA-256 over a secret
 *   drawn at start and the nonce. Two different nonces share one with probability 2^-128 per
 *   pair (about 10^-26 for a full window), and nobody outside can choose nonces that collide.
 * - Fingerprints live in open-addressing hash tables in typed arrays (linear probing,
 *   deletion by backward shift, so no tombstones), 64 shards that each grow on their own:
 *   doubling a shard copies 1/64 of the window, never the whole of it at once.
 * - A first-in-first-out queue of (fingerprint, expiry), in fixed-size typed-array chunks,
 *   drops expired nonces in order, amortized O(1) per request.
 *
 * 24 bytes per nonce in a table (at a load between 3/8 and 3/4) and 24 in the queue.
 */
import { createHash, hash, randomBytes } from 'node:crypto';

const SHARDS = 64;
const SHARD_INITIAL_SLOTS = 64;
/** A shard doubles before it is more than three quarters full. */
const MAX_LOAD = 0.75;
/** Entries per queue chunk. */
const CHUNK = 4096;

const oneShotHash = typeof hash === 'function';

/** Int32 words per slot: the four of the key, then the expiry as one float64 (words 4 and 5). */
const SLOT_WORDS = 6;
/** Float64 index of slot i's expiry is i * SLOT_DOUBLES + 2. */
const SLOT_DOUBLES = 3;

/**
 * One shard: slot i holds key words 6i…6i+3 and, right after them in the same 24 bytes, its
 * expiry (0: empty). Key and expiry side by side, so that a probe reads one cache line, not
 * one in a key array and another in an expiry array: with a few hundred thousand live nonces
 * the tables are far larger than the caches, and every request probes them (has + add 2.1 µs
 * with 1 000 live nonces, 3.6–4.3 µs with 100 000–1 000 000, when they were apart).
 */
class Shard {
  /** The slots as int32 words (keys). */
  words: Int32Array;
  /** The same slots as float64s (expiries, at i * 3 + 2). */
  doubles: Float64Array;
  mask: number;
  count = 0;

  constructor(slots: number) {
    const buffer = new ArrayBuffer(slots * SLOT_WORDS * 4);
    this.words = new Int32Array(buffer);
    this.doubles = new Float64Array(buffer);
    this.mask = slots - 1;
  }

  /** The expiry held in `slot` (0: empty). */
  expiryAt(slot: number): number {
    return this.doubles[slot * SLOT_DOUBLES + 2]!;
  }

  /** The slot holding the key, or -1. */
  find(a: number, b: number, c: number, d: number): number {
    const { words, doubles, mask } = this;
    for (let i = a & mask; ; i = (i + 1) & mask) {
      if (doubles[i * SLOT_DOUBLES + 2] === 0) return -1;
      const k = i * SLOT_WORDS;
      if (words[k] === a && words[k + 1] === b && words[k + 2] === c && words[k + 3] === d) return i;
    }
  }

  /** Adds a key that is not in the shard. */
  insert(a: number, b: number, c: number, d: number, expiry: number): void {
    if (this.count + 1 > (this.mask + 1) * MAX_LOAD) this.#grow();
    const { words, doubles, mask } = this;
    let i = a & mask;
    while (doubles[i * SLOT_DOUBLES + 2] !== 0) i = (i + 1) & mask;
    const k = i * SLOT_WORDS;
    words[k] = a;
    words[k + 1] = b;
    words[k + 2] = c;
    words[k + 3] = d;
    doubles[i * SLOT_DOUBLES + 2] = expiry;
    this.count++;
  }

  /** Empties slot `hole`, moving later entries of its probe run back so that lookups still find them. */
  removeAt(hole: number): void {
    const { words, doubles, mask } = this;
    for (let j = (hole + 1) & mask; doubles[j * SLOT_DOUBLES + 2] !== 0; j = (j + 1) & mask) {
      const home = words[j * SLOT_WORDS]! & mask;
      // The entry at j may fill the hole unless its home lies cyclically after the hole.
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        words.copyWithin(hole * SLOT_WORDS, j * SLOT_WORDS, (j + 1) * SLOT_WORDS); // key and expiry
        hole = j;
      }
    }
    doubles[hole * SLOT_DOUBLES + 2] = 0;
    this.count--;
  }

  #grow(): void {
    const { words, doubles } = this;
    const slots = (this.mask + 1) * 2;
    const buffer = new ArrayBuffer(slots * SLOT_WORDS * 4);
    this.words = new Int32Array(buffer);
    this.doubles = new Float64Array(buffer);
    this.mask = slots - 1;
    this.count = 0;
    for (let i = 0; i < slots / 2; i++) {
      const expiry = doubles[i * SLOT_DOUBLES + 2]!;
      const k = i * SLOT_WORDS;
      if (expiry !== 0) this.insert(words[k]!, words[k + 1]!, words[k + 2]!, words[k + 3]!, expiry);
    }
  }
}

/** The nonce fingerprints in the order they were added, with the expiry they were added with. */
class Queue {
  readonly #keys: Int32Array[] = [];
  readonly #expiries: Float64Array[] = [];
  /** Index of the first entry within the first chunk, and the number of entries. */
  #head = 0;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(a: number, b: number, c: number, d: number, expiry: number): void {
    const at = this.#head + this.#length;
    const chunk = Math.floor(at / CHUNK);
    if (chunk === this.#keys.length) {
      this.#keys.push(new Int32Array(CHUNK * 4));
      this.#expiries.push(new Float64Array(CHUNK));
    }
    const i = at % CHUNK;
    const keys = this.#keys[chunk]!;
    keys[i * 4] = a;
    keys[i * 4 + 1] = b;
    keys[i * 4 + 2] = c;
    keys[i * 4 + 3] = d;
    this.#expiries[chunk]![i] = expiry;
    this.#length++;
  }

  /** The expiry of the entry `n` places from the front. */
  expiryAt(n: number): number {
    const at = this.#head + n;
    return this.#expiries[Math.floor(at / CHUNK)]![at % CHUNK]!;
  }

  /** The key words of the entry `n` places from the front, and the array they are in at `offset`. */
  keyAt(n: number): { words: Int32Array; offset: number } {
    const at = this.#head + n;
    return { words: this.#keys[Math.floor(at / CHUNK)]!, offset: (at % CHUNK) * 4 };
  }

  shift(): void {
    this.#length--;
    if (++this.#head === CHUNK) {
      this.#head = 0;
      this.#keys.shift();
      this.#expiries.shift();
    }
  }
}

/** The set of nonces used in the last 180 s, with a hard bound on its size. */
export class NonceWindow {
  readonly #shards: Shard[] = Array.from({ length: SHARDS }, () => new Shard(SHARD_INITIAL_SLOTS));
  readonly #queue = new Queue();
  readonly #secret = randomBytes(16).toString('base64url');
  #count = 0;
  readonly #max: number;
  /** Largest expiry added so far: entries added at or above it keep the queue sorted by expiry. */
  #maxExpiry = Number.NEGATIVE_INFINITY;
  /**
   * Earliest expiry among entries added out of order (loaded at start, or a clock that went
   * back). Only those can hide expired entries behind live ones, out of reach of the queue;
   * +Infinity when there are none.
   */
  #earliestUnordered = Number.POSITIVE_INFINITY;
  /** The fingerprint of the last nonce looked at (`has` and then `add` see the same one). */
  #lastNonce = '';
  readonly #fp = new Int32Array(4);

  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#count;
  }

  /** True when the nonce was seen and its window has not ended. */
  has(nonce: string, nowMs: number): boolean {
    const fp = this.#fingerprint(nonce);
    const shard = this.#shards[fp[1]! & (SHARDS - 1)]!;
    const slot = shard.find(fp[0]!, fp[1]!, fp[2]!, fp[3]!);
    return slot >= 0 && shard.expiryAt(slot) > nowMs;
  }

  /**
   * Remembers a nonce (that {@link has} just said is not live) until `expiresAtMs`; false when
   * the window is full of live nonces.
   */
  add(nonce: string, expiresAtMs: number, nowMs: number): boolean {
    this.#dropExpired(nowMs);
    const fp = this.#fingerprint(nonce);
    const a = fp[0]!;
    const b = fp[1]!;
    const c = fp[2]!;
    const d = fp[3]!;
    const shard = this.#shards[b & (SHARDS - 1)]!;
    const slot = shard.find(a, b, c, d);
    if (slot >= 0) {
      // An expired earlier use: its queue entry is now stale.
      shard.removeAt(slot);
      this.#count--;
    }
    if (this.#count >= this.#max) {
      if (nowMs >= this.#earliestUnordered) this.#sweep(nowMs);
      if (this.#count >= this.#max) return false;
    }
    shard.insert(a, b, c, d, expiresAtMs);
    this.#count++;
    this.#queue.push(a, b, c, d, expiresAtMs);
    if (expiresAtMs >= this.#maxExpiry) this.#maxExpiry = expiresAtMs;
    else if (expiresAtMs < this.#earliestUnordered) this.#earliestUnordered = expiresAtMs;
    return true;
  }

  /** Milliseconds until room is made in a full window (at least one nonce expires). */
  msUntilRoom(nowMs: number): number {
    const front = this.#queue.length > 0 ? this.#queue.expiryAt(0) : nowMs;
    return Math.max(0, Math.min(front, this.#earliestUnordered) - nowMs);
  }

  #fingerprint(nonce: string): Int32Array {
    if (nonce !== this.#lastNonce) {
      const input = this.#secret + nonce;
      // The digest as a 'binary' (latin1) string, one character per byte: a Buffer out of
      // hash() costs about three times as much, on every verified request. Little-endian words.
      const digest = oneShotHash ? hash('sha256', input, 'binary') : createHash('sha256').update(input).digest('binary');
      for (let i = 0; i < 4; i++) {
        const at = i * 4;
        this.#fp[i] =
          digest.charCodeAt(at) |
          (digest.charCodeAt(at + 1) << 8) |
          (digest.charCodeAt(at + 2) << 16) |
          (digest.charCodeAt(at + 3) << 24);
      }
      this.#lastNonce = nonce;
    }
    return this.#fp;
  }

  /**
   * Forgets the queue entry `n` places from the front if the table still holds it with the
   * same expiry (else the entry is stale: its nonce was dropped or added again since).
   * Returns whether the entry was live.
   */
  #forgetIfHeld(n: number, expiry: number, drop: boolean): boolean {
    const { words, offset } = this.#queue.keyAt(n);
    const a = words[offset]!;
    const b = words[offset + 1]!;
    const shard = this.#shards[b & (SHARDS - 1)]!;
    const slot = shard.find(a, b, words[offset + 2]!, words[offset + 3]!);
    if (slot < 0 || shard.expiryAt(slot) !== expiry) return false;
    if (drop) {
      shard.removeAt(slot);
      this.#count--;
    }
    return true;
  }

  /** Amortized O(1): pops expired entries off the front of the queue. */
  #dropExpired(nowMs: number): void {
    const queue = this.#queue;
    while (queue.length > 0) {
      const expiry = queue.expiryAt(0);
      if (expiry > nowMs) break;
      this.#forgetIfHeld(0, expiry, true);
      queue.shift();
    }
  }

  /** O(n), only when an out-of-order entry may have expired: drops every expired entry. */
  #sweep(nowMs: number): void {
    let runningMax = Number.NEGATIVE_INFINITY;
    let earliestUnordered = Number.POSITIVE_INFINITY;
    for (let n = 0; n < this.#queue.length; n++) {
      const expiry = this.#queue.expiryAt(n);
      const expired = expiry <= nowMs;
      if (!this.#forgetIfHeld(n, expiry, expired) || expired) continue;
      if (expiry >= runningMax) runningMax = expiry;
      else if (expiry < earliestUnordered) earliestUnordered = expiry;
    }
    this.#earliestUnordered = earliestUnordered;
  }
}
