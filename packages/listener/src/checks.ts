/**
 * The checks of docs/protocol.md "Order of checks on the server", one small function each, in the order the listener runs them. They
 * look only at what they are given (headers, bytes, times), so each can be tested alone.
 */

import type { IncomingHttpHeaders } from 'node:http';
import {
  HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  LIMITS,
  authHeadersWellFormed,
} from '@tock/protocol';

/** The Host values accepted for a listener bound to `port` (step 1). */
export function allowedHostsFor(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** Step 1: a DNS-rebinding page sends its own host name, so only loopback names pass. */
export function hostAllowed(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (host === undefined) return false;
  return allowed.has(host) || allowed.has(host.toLowerCase());
}

/** Step 2: browsers add `Origin` or `Sec-Fetch-Site`; scripts and SDKs do not. */
export function isBrowserRequest(headers: IncomingHttpHeaders): boolean {
  return headers.origin !== undefined || headers['sec-fetch-site'] !== undefined;
}

/** Step 4, before reading: the declared length is already over the limit. */
export function declaredBodyTooLarge(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return length !== undefined && Number(length) > LIMITS.maxBodyBytes;
}

/** True when the request has body bytes to read (HTTP/1.1: a length above 0, or chunked). */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The three auth header values of docs/protocol.md "Request signing", each present once and well formed. */
export interface AuthHeaders {
  timestamp: string;
  nonce: string;
  signature: string;
}

/**
 * Step 5, first part: each auth header present once and well formed, else undefined
 * (`missing_auth`). Node joins a repeated `X-Tock-*` header into one value with `", "`, and
 * none of the three forms allows a comma or a space, so a repeated header never passes.
 */
export function readAuthHeaders(headers: IncomingHttpHeaders): AuthHeaders | undefined {
  const timestamp = headers[HEADER.timestamp];
  const nonce = headers[HEADER.nonce];
  const signature = headers[HEADER.signature];
  if (typeof timestamp !== 'string' || typeof nonce !== 'string' || typeof signature !== 'string') return undefined;
  return authHeadersWellFormed(timestamp, nonce, signature) ? { timestamp, nonce, signature } : undefined;
}

/** Step 5: the timestamp is more than 60 s away from the server clock (±60 s pass). */
export function timestampDrifts(timestampSec: number, nowMs: number): boolean {
  return Math.abs(timestampSec - Math.floor(nowMs / 1000)) > LIMITS.clockSkewSeconds;
}

/**
 * Step 5, restart guard (docs/protocol.md "Request signing"): for 60 s after the start, a timestamp earlier than the
 * start may belong to a request the previous run already answered, so it is refused.
 * Timestamps are whole seconds, so "earlier" means an earlier second: a client that signs in
 * the very second the app started is not refused (and does not count toward the lockout).
 */
export function signedBeforeStart(timestampSec: number, nowMs: number, startedAtMs: number): boolean {
  return nowMs < startedAtMs + LIMITS.restartGuardSeconds * 1000 && timestampSec < Math.floor(startedAtMs / 1000);
}

/** Step 9: `application/json`, with any parameters (`; charset=utf-8`). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const semicolon = value.indexOf(';');
  const media = semicolon === -1 ? value : value.slice(0, semicolon);
  return media.trim().toLowerCase() === 'application/json';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Step 9: strict UTF-8 and JSON (no `NaN`/`Infinity`); `{ ok: false }` when either fails. */
export function parseJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(utf8.decode(bytes)) };
  } catch {
    return { ok: false };
  }
}

/** A malformed `Idempotency-Key` (repeated, empty, too long, other characters). */
export const MALFORMED_KEY = Symbol('malformed idempotency key');

/** The request's `Idempotency-Key`, undefined without one, {@link MALFORMED_KEY} when malformed. */
export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined | typeof MALFORMED_KEY {
  const key = headers[HEADER.idempotencyKey];
  if (key === undefined) return undefined;
  return typeof key === 'string' && IDEMPOTENCY_KEY_PATTERN.test(key) ? key : MALFORMED_KEY;
}
