/**
 * HMAC-SHA256 for the listener on node:crypto (faster than WebCrypto's promise round trips on
 * the hot path). The signed strings themselves come from @tock/protocol.
 */

import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SIGNATURE_VERSION_PREFIX, requestStringToSign, responseStringToSign } from '@tock/protocol';
import type { AuthHeaders } from './checks.ts';

/** Lowercase hex SHA-256 of bytes or of a string's UTF-8 bytes. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The HMAC key of the current token, imported once per token value. */
export class TokenKeys {
  #token: string | null = null;
  #key: KeyObject | null = null;

  forToken(token: string): KeyObject {
    if (token !== this.#token || this.#key === null) {
      this.#key = createSecretKey(Buffer.from(token, 'utf8'));
      this.#token = token;
    }
    return this.#key;
  }
}

/** Constant-time check of a well-formed `v1=<hex>` request signature (SPEC §5). */
export function requestSignatureMatches(
  key: KeyObject,
  auth: AuthHeaders,
  method: string,
  target: string,
  bodySha256: string,
): boolean {
  const expected = createHmac('sha256', key)
    .update(requestStringToSign({ timestamp: auth.timestamp, nonce: auth.nonce, method, target, bodySha256 }))
    .digest();
  const given = Buffer.from(auth.signature.slice(SIGNATURE_VERSION_PREFIX.length), 'hex');
  return given.length === expected.length && timingSafeEqual(expected, given);
}

/** `v1=<hex>` over the response string of SPEC §5. */
export function responseSignature(key: KeyObject, nonce: string, status: number, body: string): string {
  const mac = createHmac('sha256', key).update(responseStringToSign(nonce, status, sha256Hex(body))).digest('hex');
  return SIGNATURE_VERSION_PREFIX + mac;
}
