/**
 * Signatures for the listener. The HMAC and SHA-256 are @tock/protocol's (hmac.ts chooses
 * node:crypto here, the same implementation the clients use on Node, Bun and Deno); the signed
 * strings come from there too. This file adds what only the server needs: one key per token
 * value, a constant-time check of a request signature, and the signature of an answer.
 */

import { SIGNATURE_VERSION_PREFIX, SigningKey, requestStringToSign, responseStringToSign, sha256Hex } from '@tock/protocol';
import type { AuthHeaders } from './checks.ts';

/** An HMAC-SHA256 key made from a token (its UTF-8 bytes): protocol's `SigningKey`. */
export { SigningKey as HmacKey, sha256Hex };

/** The HMAC key of the current token, derived once per token value. */
export class TokenKeys {
  #token: string | null = null;
  #key: SigningKey | null = null;

  forToken(token: string): SigningKey {
    if (token !== this.#token || this.#key === null) {
      this.#key = new SigningKey(token);
      this.#token = token;
    }
    return this.#key;
  }
}

/** Constant-time check of a well-formed `v1=<hex>` request signature (docs/protocol.md "Request signing"). */
export function requestSignatureMatches(
  key: SigningKey,
  auth: AuthHeaders,
  method: string,
  target: string,
  bodySha256: string,
): boolean {
  const expected = key.hex(requestStringToSign({ timestamp: auth.timestamp, nonce: auth.nonce, method, target, bodySha256 }));
  // Both are 64 lowercase hex characters (the header was checked against SIGNATURE_PATTERN),
  // so comparing their characters in constant time compares the MACs in constant time. Every
  // character is compared, whatever differs where, as protocol's SigningKey.verify does for
  // the clients: two Buffers and timingSafeEqual cost ten times this loop on every request.
  const given = auth.signature;
  const offset = SIGNATURE_VERSION_PREFIX.length;
  if (given.length !== offset + expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(offset + i);
  return diff === 0;
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
export function responseSignature(key: SigningKey, nonce: string, status: number, body: string): string {
  return SIGNATURE_VERSION_PREFIX + key.hex(responseStringToSign(nonce, status, responseBodySha256(body)));
}
