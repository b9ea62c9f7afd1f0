/**
 * HMAC-SHA256 for the listener on node:crypto. The signed strings themselves come from
 * @tock/protocol. On the hot path each request costs one HMAC to verify and one hash plus one
 * HMAC to sign the answer, so the HMAC is computed from two one-shot SHA-256 calls over
 * precomputed key pads (RFC 2104) instead of a `createHmac` object per call: about three times
 * faster, and the same bytes (tested against `createHmac`).
 */

import { createHash, createHmac, createSecretKey, hash, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SIGNATURE_VERSION_PREFIX, requestStringToSign, responseStringToSign } from '@tock/protocol';
import type { AuthHeaders } from './checks.ts';

const BLOCK_BYTES = 64;
const DIGEST_BYTES = 32;
const ASCII = /^[\x00-\x7f]*$/;
const oneShotHash = typeof hash === 'function';

/** Lowercase hex SHA-256 of bytes or of a string's UTF-8 bytes. */
export function sha256Hex(data: Uint8Array | string): string {
  return oneShotHash ? hash('sha256', data, 'hex') : createHash('sha256').update(data).digest('hex');
}

/** An HMAC-SHA256 key made from a token (its UTF-8 bytes). */
export class HmacKey {
  readonly #key: KeyObject;
  /** Inner pad as a string: the token is ASCII, so the pad's UTF-8 bytes are the pad itself. */
  readonly #innerPad: string | null = null;
  /** Outer pad, followed by room for the inner digest. */
  readonly #outer: Buffer | null = null;

  constructor(token: string) {
    const bytes = Buffer.from(token, 'utf8');
    this.#key = createSecretKey(bytes);
    if (oneShotHash && bytes.length <= BLOCK_BYTES && ASCII.test(token)) {
      let innerPad = '';
      const outer = Buffer.alloc(BLOCK_BYTES + DIGEST_BYTES);
      for (let i = 0; i < BLOCK_BYTES; i++) {
        const b = i < bytes.length ? (bytes[i] as number) : 0;
        innerPad += String.fromCharCode(b ^ 0x36);
        outer[i] = b ^ 0x5c;
      }
      this.#innerPad = innerPad;
      this.#outer = outer;
    }
  }

  /** The MAC of a string's UTF-8 bytes, lowercase hex. */
  hex(text: string): string {
    if (this.#innerPad === null || this.#outer === null) return createHmac('sha256', this.#key).update(text, 'utf8').digest('hex');
    // A latin1 ('binary') string digest: a Buffer result costs several times more.
    this.#outer.write(hash('sha256', this.#innerPad + text, 'binary'), BLOCK_BYTES, 'latin1');
    return hash('sha256', this.#outer, 'hex');
  }
}

/** The HMAC key of the current token, derived once per token value. */
export class TokenKeys {
  #token: string | null = null;
  #key: HmacKey | null = null;

  forToken(token: string): HmacKey {
    if (token !== this.#token || this.#key === null) {
      this.#key = new HmacKey(token);
      this.#token = token;
    }
    return this.#key;
  }
}

/** Constant-time check of a well-formed `v1=<hex>` request signature (docs/protocol.md "Request signing"). */
export function requestSignatureMatches(
  key: HmacKey,
  auth: AuthHeaders,
  method: string,
  target: string,
  bodySha256: string,
): boolean {
  const expected = key.hex(requestStringToSign({ timestamp: auth.timestamp, nonce: auth.nonce, method, target, bodySha256 }));
  // Both are 64 lowercase hex characters (the header was checked against SIGNATURE_PATTERN),
  // so comparing their ASCII bytes in constant time compares the MACs in constant time.
  const given = auth.signature.slice(SIGNATURE_VERSION_PREFIX.length);
  return given.length === expected.length && timingSafeEqual(Buffer.from(expected, 'latin1'), Buffer.from(given, 'latin1'));
}

let lastBody = '';
let lastBodySha256 = sha256Hex('');

/**
 * Hex SHA-256 of a response body. Polling clients get the same body again and again (the
 * same status, the same search), so the last one is remembered: comparing a few hundred
 * characters is cheaper than hashing them.
 */
function responseBodySha256(body: string): string {
  if (body !== lastBody) {
    lastBodySha256 = sha256Hex(body);
    lastBody = body;
  }
  return lastBodySha256;
}

/** `v1=<hex>` over the response string of docs/protocol.md "Request signing". */
export function responseSignature(key: HmacKey, nonce: string, status: number, body: string): string {
  return SIGNATURE_VERSION_PREFIX + key.hex(responseStringToSign(nonce, status, responseBodySha256(body)));
}
