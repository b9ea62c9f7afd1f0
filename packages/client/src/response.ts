/**
 * Pure response handling: check the response signature of docs/protocol.md "Request signing", then turn the envelope
 * into a result or into the error of the status→class table.
 */

import {
  ERROR_STATUS,
  HEADER,
  UNSIGNED_STATUSES,
  type FieldProblem,
  type SigningKey,
  responseStringToSign,
  sha256Hex,
} from '@tock/protocol';
import { AuthError, HttpError, type TockError, errorForStatus } from './errors.ts';

const MAY_BE_UNSIGNED: ReadonlySet<number> = new Set(UNSIGNED_STATUSES);

/** The message of `bad_response_signature` errors. */
export const NOT_SIGNED_BY_TOCK = 'the response was not signed by Tock';

/** The parts of a received response that matter here; `body` is the exact bytes. */
export interface ReceivedResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: Uint8Array;
}

const decoder = new TextDecoder();

/**
 * The result of a response to the request signed with `nonce`, or the error it stands for
 * (thrown). A response that should be signed and is not, or whose signature is wrong, is an
 * `AuthError` with code `bad_response_signature`, whatever its status.
 */
export function readResponse<T>(res: ReceivedResponse, key: SigningKey, nonce: string): T {
  const signature = res.headers.get(HEADER.responseSignature);
  if (signature === null) {
    if (!MAY_BE_UNSIGNED.has(res.status)) throw notSignedByTock(res.status);
  } else {
    const expected = responseStringToSign(nonce, res.status, sha256Hex(res.body));
    if (!key.verify(expected, signature)) throw notSignedByTock(res.status);
  }
  const json = parseJson(res.body);
  if (res.status >= 200 && res.status < 300) {
    if (isObject(json) && json['ok'] === true && 'result' in json) return json['result'] as T;
    throw new HttpError(`Tock answered ${res.status} with a body that is not a Tock envelope`, {
      code: 'invalid_response',
      status: res.status,
    });
  }
  throw errorFromEnvelope(res, json);
}

function notSignedByTock(status: number): AuthError {
  return new AuthError(NOT_SIGNED_BY_TOCK, { code: 'bad_response_signature', status });
}

function errorFromEnvelope(res: ReceivedResponse, json: unknown): TockError {
  const body = isObject(json) ? json : {};
  const message = typeof body['error'] === 'string' && body['error'] !== '' ? body['error'] : `HTTP ${res.status}`;
  const code = typeof body['code'] === 'string' && body['code'] !== '' ? body['code'] : defaultCode(res.status);
  return errorForStatus(res.status, message, {
    code,
    details: fieldProblems(body['details']),
    retryAfter: res.status === 429 ? retryAfterSeconds(res.headers.get('retry-after')) : undefined,
  });
}

/**
 * The code of an error body that has none: the one code of ERROR_STATUS with that status
 * (423 → `license_locked`, 431 → `headers_too_large`, …), else `http_<status>`.
 */
function defaultCode(status: number): string {
  const codes = Object.entries(ERROR_STATUS).filter(([, s]) => s === status);
  return codes.length === 1 && codes[0] ? codes[0][0] : `http_${status}`;
}

function fieldProblems(value: unknown): FieldProblem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter(isObject)
    .map((p) => ({ field: String(p['field'] ?? ''), message: String(p['message'] ?? '') }));
}

function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || !/^\s*[0-9]+\s*$/.test(header)) return undefined;
  return Number(header);
}

function parseJson(body: Uint8Array): unknown {
  if (body.byteLength === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(body));
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
