/**
 * Request signing for the load generators, on node:crypto with the key imported once. The
 * signed string comes from @tock/protocol, so the driver signs exactly what the listener
 * checks. Nonces are a random per-process prefix plus a counter: fresh for every request,
 * 22 characters like the clients' 16 random bytes in base64url, and far cheaper to make at
 * tens of thousands of requests per second than a CSPRNG call each.
 */

import { createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { HEADER, SIGNATURE_VERSION_PREFIX, requestStringToSign } from '@tock/protocol';

/** Lowercase hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Signs requests with one token. */
export class RequestSigner {
  readonly #key: KeyObject;
  readonly #prefix = randomBytes(8).toString('base64url').slice(0, 10);
  #counter = 0;

  constructor(token: string) {
    this.#key = createSecretKey(Buffer.from(token, 'utf8'));
  }

  /** A nonce never used before by any signer (random prefix, counter). */
  nextNonce(): string {
    return this.#prefix + (this.#counter++).toString(36).padStart(12, '0');
  }

  /**
   * The three auth headers for a request; `bodySha256` is the hex SHA-256 of its body,
   * `timestampSec` defaults to now (rounded down).
   */
  headers(method: string, target: string, bodySha256: string, timestampSec = Math.floor(Date.now() / 1000)): Record<string, string> {
    const timestamp = String(timestampSec);
    const nonce = this.nextNonce();
    const mac = createHmac('sha256', this.#key)
      .update(requestStringToSign({ timestamp, nonce, method, target, bodySha256 }), 'utf8')
      .digest('hex');
    return {
      [HEADER.timestamp]: timestamp,
      [HEADER.nonce]: nonce,
      [HEADER.signature]: SIGNATURE_VERSION_PREFIX + mac,
    };
  }
}
