/**
 * The one place that chooses how Tock computes SHA-256 and HMAC-SHA256 (docs/protocol.md
 * "Request signing"). Two implementations, one per runtime family, behind one small interface:
 *
 * - `node:crypto` — Node ≥ 20.16, Bun and Deno all expose a synchronous `node:crypto` through
 *   `process.getBuiltinModule` (no import, so a browser bundle never asks for it). The HMAC is
 *   two one-shot `hash()` calls over key pads prepared once per key (RFC 2104): the same bytes
 *   as `createHmac`, without an HMAC object per message.
 * - `javascript` — sha256.ts in plain JavaScript, for every runtime without it (browsers,
 *   older Node 20).
 *
 * Chosen once, when the module loads. bench/hmac-providers.ts measured the candidates on Node
 * 20 and 24, Bun and Deno (docs/decisions.md "One HMAC"); the tests replay the signing vectors
 * and RFC 4231 through both implementations and compare them with `createHmac`.
 */

import { Hmac256, sha256, toHex } from './sha256.ts';

/** SHA-256 and HMAC-SHA256 as the signing code uses them: lowercase hex out. */
export interface HashProvider {
  /** Which implementation this is. */
  readonly name: 'node:crypto' | 'javascript';
  /** Lowercase hex SHA-256 of bytes (a string is taken as its UTF-8 bytes). */
  sha256Hex(data: Uint8Array | string): string;
  /** An HMAC-SHA256 keyed with the UTF-8 bytes of `token`: message (UTF-8) → lowercase hex. */
  hmac(token: string): (message: string) => string;
}

/** The part of `node:crypto` used here (typed here: the client's published types know no Node). */
interface NodeHash {
  hash(algorithm: 'sha256', data: string | Uint8Array, outputEncoding: 'hex' | 'binary'): string;
  hash(algorithm: 'sha256', data: string | Uint8Array, outputEncoding: 'buffer'): Uint8Array;
}

const BLOCK = 64;
const DIGEST = 32;
const encoder = new TextEncoder();

/** The portable implementation: sha256.ts. */
export const javascriptHashes: HashProvider = {
  name: 'javascript',
  sha256Hex: (data) => toHex(sha256(data)),
  hmac(token) {
    const key = new Hmac256(token);
    return (message) => toHex(key.mac(message));
  },
};

/** The `node:crypto` implementation over `crypto`'s one-shot `hash()`. */
export function nodeCryptoHashes(crypto: NodeHash): HashProvider {
  return {
    name: 'node:crypto',
    sha256Hex: (data) => crypto.hash('sha256', data, 'hex'),
    hmac(token) {
      let key: Uint8Array = encoder.encode(token);
      if (key.length > BLOCK) key = crypto.hash('sha256', key, 'buffer');
      const inner = new Uint8Array(BLOCK);
      const outer = new Uint8Array(BLOCK + DIGEST); // the outer pad, then the inner digest
      for (let i = 0; i < BLOCK; i++) {
        inner[i] = (key[i] ?? 0) ^ 0x36;
        outer[i] = (key[i] ?? 0) ^ 0x5c;
      }
      // An ASCII key (every token Tock makes) gives an ASCII inner pad: then the pad and the
      // message are hashed as one string, whose UTF-8 bytes are the pad's bytes and the
      // message's, with no copy. Other keys take the byte path.
      const asciiPad = inner.every((b) => b < 0x80) ? String.fromCharCode(...inner) : null;
      // The inner digest comes back as a 32-character 'binary' (latin1) string, one character
      // per byte, and is copied into the outer block: a Buffer out of hash() costs about three
      // times a string, and the listener makes two HMACs per request (bench/README.md "What
      // limits each figure").
      return (message) => {
        let innerDigest: string;
        if (asciiPad !== null) innerDigest = crypto.hash('sha256', asciiPad + message, 'binary');
        else {
          const bytes = encoder.encode(message);
          const padded = new Uint8Array(BLOCK + bytes.length);
          padded.set(inner);
          padded.set(bytes, BLOCK);
          innerDigest = crypto.hash('sha256', padded, 'binary');
        }
        for (let i = 0; i < DIGEST; i++) outer[BLOCK + i] = innerDigest.charCodeAt(i);
        return crypto.hash('sha256', outer, 'hex');
      };
    },
  };
}

/** `node:crypto` when the runtime offers it synchronously, with a one-shot `hash()`. */
function runtimeNodeCrypto(): NodeHash | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const crypto = runtime?.getBuiltinModule?.('node:crypto') as Partial<NodeHash> | undefined;
    return typeof crypto?.hash === 'function' ? (crypto as NodeHash) : undefined;
  } catch {
    return undefined; // a sandbox that refuses the module: the portable implementation works
  }
}

const nodeCrypto = runtimeNodeCrypto();

/** The implementation this runtime uses: chosen here, once. */
export const hashes: HashProvider = nodeCrypto ? nodeCryptoHashes(nodeCrypto) : javascriptHashes;
