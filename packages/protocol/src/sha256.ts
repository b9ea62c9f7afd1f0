/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in plain, synchronous JavaScript: the
 * portable implementation of hmac.ts, for runtimes without a synchronous node:crypto (a
 * browser, an older Node 20). WebCrypto would do the same work, but every `crypto.subtle` call is a round trip
 * through a thread pool and a promise: three of them per request cost a client more than the
 * HTTP exchange itself. The messages signed here are a few hundred bytes, where a handful of
 * 32-bit compression rounds in JavaScript take a few microseconds.
 *
 * Every operation is data-independent (adds, shifts, XORs; no table indexed by secret data),
 * and the HMAC key pads are compressed once per key. Tested byte for byte against the NIST
 * and RFC 4231 examples, node:crypto on arbitrary inputs, and the signing vectors in spec/signing.json.
 */

const BLOCK = 64;

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** The message schedule, reused by every compression (JavaScript runs one at a time). */
const W = new Int32Array(64);
/** The last one or two blocks of a message, with its padding and length. */
const TAIL = new Uint8Array(2 * BLOCK);
const TAIL_VIEW = new DataView(TAIL.buffer);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const encoder = new TextEncoder();

/** Folds the 64-byte block of `data` at `offset` into the hash state `h`. */
function compress(h: Int32Array, data: Uint8Array, offset: number): void {
  const w = W;
  for (let i = 0; i < 16; i++, offset += 4) {
    w[i] = (data[offset]! << 24) | (data[offset + 1]! << 16) | (data[offset + 2]! << 8) | data[offset + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}

/** The working hash state of the digest being computed. */
const H = new Int32Array(8);
/** An HMAC's inner digest, the message of its outer one. */
const INNER_DIGEST = new Uint8Array(32);
/** Room to UTF-8 encode short strings without allocating. */
const TEXT = new Uint8Array(1024);

/**
 * Writes to `out` the digest of `data` hashed on from `state` (which is left as it is), after
 * `before` bytes were already folded into it (0 from the initial state, 64 after an HMAC key pad).
 */
function digestInto(state: Int32Array, data: Uint8Array, before: number, out: Uint8Array): Uint8Array {
  H.set(state);
  const full = data.length - (data.length % BLOCK);
  for (let offset = 0; offset < full; offset += BLOCK) compress(H, data, offset);
  const rest = data.length - full;
  TAIL.fill(0);
  for (let i = 0; i < rest; i++) TAIL[i] = data[full + i]!;
  TAIL[rest] = 0x80;
  const tailLength = rest < BLOCK - 8 ? BLOCK : 2 * BLOCK;
  const bits = (before + data.length) * 8;
  TAIL_VIEW.setUint32(tailLength - 8, Math.floor(bits / 0x1_0000_0000));
  TAIL_VIEW.setUint32(tailLength - 4, bits >>> 0);
  compress(H, TAIL, 0);
  if (tailLength > BLOCK) compress(H, TAIL, BLOCK);
  for (let i = 0; i < 8; i++) {
    const word = H[i]!;
    out[i * 4] = word >>> 24;
    out[i * 4 + 1] = word >>> 16;
    out[i * 4 + 2] = word >>> 8;
    out[i * 4 + 3] = word;
  }
  return out;
}

/** The UTF-8 bytes of a string; short ones in a shared buffer, valid until the next call. */
function utf8(data: Uint8Array | string): Uint8Array {
  if (typeof data !== 'string') return data;
  if (data.length * 3 > TEXT.length) return encoder.encode(data);
  return TEXT.subarray(0, encoder.encodeInto(data, TEXT).written);
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!];
  return out;
}

/** SHA-256 of bytes (a string is taken as its UTF-8 bytes). */
export function sha256(data: Uint8Array | string): Uint8Array {
  return digestInto(INITIAL, utf8(data), 0, new Uint8Array(32));
}

/** HMAC-SHA256 with one key: the key's inner and outer pads are hashed once, here. */
export class Hmac256 {
  readonly #inner: Int32Array;
  readonly #outer: Int32Array;

  constructor(key: Uint8Array | string) {
    let bytes = typeof key === 'string' ? encoder.encode(key) : key;
    if (bytes.length > BLOCK) bytes = sha256(bytes);
    const pad = new Uint8Array(BLOCK);
    this.#inner = INITIAL.slice();
    this.#outer = INITIAL.slice();
    for (let i = 0; i < BLOCK; i++) pad[i] = (bytes[i] ?? 0) ^ 0x36;
    compress(this.#inner, pad, 0);
    for (let i = 0; i < BLOCK; i++) pad[i] = (bytes[i] ?? 0) ^ 0x5c;
    compress(this.#outer, pad, 0);
  }

  /** The MAC of bytes (a string is taken as its UTF-8 bytes). */
  mac(message: Uint8Array | string): Uint8Array {
    return digestInto(this.#outer, digestInto(this.#inner, utf8(message), BLOCK, INNER_DIGEST), BLOCK, new Uint8Array(32));
  }
}
