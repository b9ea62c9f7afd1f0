/**
 * The signing the floor stand-ins do (servers/floor-server.ts, servers/entry-floor.ts): a
 * request's HMAC checked, an answer's body hashed and signed, with the headers the listener
 * sends (docs/protocol.md "Request signing", "Response signing") — and nothing else. The HMAC
 * and SHA-256 are @tock/protocol's, the very functions the listener calls.
 */

import type { ServerResponse } from 'node:http';
import { API_VERSION, SIGNATURE_VERSION_PREFIX, type SigningKey, responseStringToSign, sha256Hex } from '@tock/protocol';

const API_VERSION_TEXT = String(API_VERSION);

/** True when `signature` is `v1=` and the HMAC of `stringToSign`, compared without an early exit. */
export function signatureMatches(key: SigningKey, stringToSign: string, signature: string): boolean {
  const expected = key.hex(stringToSign);
  const offset = SIGNATURE_VERSION_PREFIX.length;
  if (signature.length !== offset + expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(offset + i);
  return diff === 0;
}

/** Writes `body` as the answer to the request signed with `nonce`: its SHA-256 signed, the listener's headers. */
export function signedAnswer(res: ServerResponse, key: SigningKey, nonce: string, status: number, body: string): void {
  res.writeHead(status, [
    'content-type',
    'application/json; charset=utf-8',
    'x-tock-api-version',
    API_VERSION_TEXT,
    'cache-control',
    'no-store',
    'content-length',
    String(Buffer.byteLength(body)),
    'x-tock-response-signature',
    SIGNATURE_VERSION_PREFIX + key.hex(responseStringToSign(nonce, status, sha256Hex(body))),
  ]);
  res.end(body);
}
