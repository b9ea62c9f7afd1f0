/**
 * The signed strings of docs/protocol.md "Request signing" and a signer for them: pure string
 * building plus the HMAC of hmac.ts (node:crypto where the runtime has it, plain JavaScript
 * elsewhere), so the same code runs on Node 20+, Bun, Deno and in a browser.
 */

import {
  HEADER,
  NONCE_PATTERN,
  REQUEST_SIGNING_PREFIX,
  RESPONSE_SIGNING_PREFIX,
  SIGNATURE_PATTERN,
  SIGNATURE_VERSION_PREFIX,
  TIMESTAMP_PATTERN,
} from './constants.ts';
import { hashes } from './hmac.ts';

/** The parts of a request that its signature covers. */
export interface RequestSigningParts {
  timestamp: string;
  nonce: string;
  method: string;
  /** Path, then `?` and the query if there is one, exactly as sent on the wire. */
  target: string;
  /** Lowercase hex SHA-256 of the exact body bytes. */
  bodySha256: string;
}

/** Lowercase hex SHA-256 of the empty string: the body hash of a request without a body. */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Builds the six-line request string to sign (no trailing newline). */
export function requestStringToSign(parts: RequestSigningParts): string {
  return [
    REQUEST_SIGNING_PREFIX,
    parts.timestamp,
    parts.nonce,
    parts.method.toUpperCase(),
    parts.target,
    parts.bodySha256,
  ].join('\n');
}

/** Builds the four-line response string to sign (no trailing newline). */
export function responseStringToSign(nonce: string, status: number, bodySha256: string): string {
  return [RESPONSE_SIGNING_PREFIX, nonce, String(status), bodySha256].join('\n');
}

/** True when the three auth header values have the exact forms docs/protocol.md "Request signing" requires. */
export function authHeadersWellFormed(timestamp: string, nonce: string, signature: string): boolean {
  return TIMESTAMP_PATTERN.test(timestamp) && NONCE_PATTERN.test(nonce) && SIGNATURE_PATTERN.test(signature);
}

/** base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Lowercase hex SHA-256 of bytes (a string is taken as its UTF-8 bytes). */
export function sha256Hex(data: Uint8Array | string): string {
  return hashes.sha256Hex(data);
}

/**
 * An HMAC-SHA256 key made from a token (its UTF-8 bytes), prepared once and reused for every
 * signature made or checked with that token. Synchronous: see hmac.ts for why.
 */
export class SigningKey {
  readonly #mac: (message: string) => string;

  constructor(token: string) {
    this.#mac = hashes.hmac(token);
  }

  /** The lowercase hex HMAC of the string's UTF-8 bytes. */
  hex(stringToSign: string): string {
    return this.#mac(stringToSign);
  }

  /** `v1=` plus the lowercase hex HMAC of the string. */
  sign(stringToSign: string): string {
    return SIGNATURE_VERSION_PREFIX + this.#mac(stringToSign);
  }

  /** Checks a `v1=<hex>` signature over the string, in time that does not depend on where they differ. */
  verify(stringToSign: string, signature: string): boolean {
    if (!SIGNATURE_PATTERN.test(signature)) return false;
    const expected = this.sign(stringToSign);
    let diff = 0;
    for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
    return diff === 0;
  }
}

/** A fresh nonce: 16 random bytes, base64url (22 characters). */
export function newNonce(random: (n: number) => Uint8Array = randomBytes): string {
  return base64url(random(16));
}

/** Random bytes are drawn from the CSPRNG this many at a time: one call per 256 nonces. */
const RANDOM_POOL_BYTES = 4096;
let randomPool = new Uint8Array(0);
let randomUsed = 0;

/**
 * `n` bytes from the runtime's CSPRNG (`crypto.getRandomValues`). Small requests are served
 * from a pool refilled 4 KiB at a time, as Node does for `randomUUID`: one call into the
 * CSPRNG per request cost a client as much as signing it. Bytes are handed out once.
 */
export function randomBytes(n: number): Uint8Array {
  if (n > RANDOM_POOL_BYTES / 4) return globalThis.crypto.getRandomValues(new Uint8Array(n));
  if (randomUsed + n > randomPool.length) {
    randomPool = globalThis.crypto.getRandomValues(new Uint8Array(RANDOM_POOL_BYTES));
    randomUsed = 0;
  }
  const bytes = randomPool.slice(randomUsed, randomUsed + n);
  randomPool.fill(0, randomUsed, randomUsed + n);
  randomUsed += n;
  return bytes;
}

/** What a client needs to sign one request. */
export interface SignRequestInput {
  method: string;
  target: string;
  body: Uint8Array | string;
  /** Unix seconds. */
  timestamp: number;
  nonce: string;
}

/** The three auth headers for a request, as a plain record. */
export function signRequest(key: SigningKey, input: SignRequestInput): Record<string, string> {
  const timestamp = String(Math.floor(input.timestamp));
  const bodySha256 = sha256Hex(input.body);
  const signature = key.sign(
    requestStringToSign({ timestamp, nonce: input.nonce, method: input.method, target: input.target, bodySha256 }),
  );
  return { [HEADER.timestamp]: timestamp, [HEADER.nonce]: input.nonce, [HEADER.signature]: signature };
}
