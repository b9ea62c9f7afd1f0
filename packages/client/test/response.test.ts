import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { SigningKey } from '@tock/protocol';
import { AuthError, HttpError, ReplayError, TockError, ValidationError } from '../src/errors.ts';
import { type ReceivedResponse, readResponse } from '../src/response.ts';

const TOKEN = 'response-token';
const NONCE = 'AAECAwQFBgcICQoLDA0ODw';
const key = new SigningKey(TOKEN);

/** A response as the listener would send it, signed with node:crypto (or not). */
function response(status: number, body: string, options: { sign?: string | null; headers?: Record<string, string> } = {}): ReceivedResponse {
  const bytes = new TextEncoder().encode(body);
  const headers = new Headers(options.headers);
  const signWith = options.sign === undefined ? TOKEN : options.sign;
  if (signWith !== null) {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const text = ['TOCK-HMAC-SHA256-RESPONSE', NONCE, String(status), hash].join('\n');
    headers.set('x-tock-response-signature', 'v1=' + createHmac('sha256', signWith).update(text).digest('hex'));
  }
  return { status, headers, body: bytes };
}

function failure(res: ReceivedResponse): TockError {
  try {
    readResponse(res, key, NONCE);
  } catch (error) {
    assert.ok(error instanceof TockError);
    return error;
  }
  assert.fail('expected an error');
}

describe('readResponse', () => {
  it('returns the result of a signed success envelope', () => {
    assert.deepEqual(readResponse(response(200, '{"ok":true,"result":{"promptID":"p"}}'), key, NONCE), { promptID: 'p' });
    assert.equal(readResponse(response(200, '{"ok":true,"result":null}'), key, NONCE), null);
  });

  it('checks the signature against the request nonce, the status and the exact body bytes', () => {
    const good = response(201, '{"ok":true,"result":1}');
    assert.equal((failure({ ...good, status: 200 })).code, 'bad_response_signature');
    assert.equal((failure({ ...good, body: new TextEncoder().encode('{"ok":true,"result":2}') })).code, 'bad_response_signature');
    assert.throws(() => readResponse(good, key, 'another-nonce-000000'), AuthError);
  });

  it('refuses a malformed or repeated signature header as not signed by Tock', () => {
    for (const signature of ['', 'v1=zz', 'v2=' + '0'.repeat(64), `v1=${'0'.repeat(64)}, v1=${'1'.repeat(64)}`]) {
      const error = failure(response(200, '{"ok":true,"result":1}', { sign: null, headers: { 'x-tock-response-signature': signature } }));
      assert.ok(error instanceof AuthError);
      assert.equal(error.code, 'bad_response_signature');
    }
  });

  it('accepts exactly 400, 401, 403, 408, 413, 429, 431 and 500 unsigned: what the listener answers before verification', () => {
    for (const status of [400, 401, 403, 408, 413, 429, 431, 500]) {
      const error = failure(response(status, '', { sign: null }));
      assert.notEqual(error.code, 'bad_response_signature', String(status));
      assert.equal(error.status, status);
    }
    // A slow upload: Node's parser answers 408 with this body, unsigned (the listener never read the request).
    const slow = failure(response(408, '{"ok":false,"error":"the request did not arrive in time","code":"request_timeout"}', { sign: null }));
    assert.deepEqual([slow.name, slow.code, slow.message], ['HttpError', 'request_timeout', 'the request did not arrive in time']);
    for (const status of [200, 201, 204, 301, 302, 404, 405, 409, 415, 423, 503]) {
      const error = failure(response(status, '{"ok":true,"result":1}', { sign: null }));
      assert.ok(error instanceof AuthError, String(status));
      assert.equal(error.code, 'bad_response_signature');
      assert.equal(error.status, status);
      assert.equal(error.message, 'the response was not signed by Tock');
    }
  });

  it("keeps the server's message, code and details", () => {
    const error = failure(
      response(400, '{"ok":false,"error":"durationMinutes: too long","code":"validation_failed","details":[{"field":"durationMinutes","message":"too long"}]}'),
    );
    assert.ok(error instanceof ValidationError);
    assert.equal(error.message, 'durationMinutes: too long');
    assert.deepEqual(error.details, [{ field: 'durationMinutes', message: 'too long' }]);
  });

  it('maps 409 invoiced (a block on an invoice) to ReplayError with the code and the line of docs/protocol.md', () => {
    const line = 'this block is on invoice INV-2026-001; void the invoice to change it';
    const error = failure(response(409, JSON.stringify({ ok: false, error: line, code: 'invoiced' })));
    assert.ok(error instanceof ReplayError);
    assert.deepEqual([error.name, error.status, error.code, error.message], ['ReplayError', 409, 'invoiced', line]);
    assert.equal(error.retryAfter, undefined);
  });

  it('gives a bodiless or codeless error the code of its status', () => {
    assert.equal((failure(response(423, '{"error":"license locked"}'))).code, 'license_locked');
    assert.equal((failure(response(431, '', { sign: null }))).code, 'headers_too_large');
    assert.equal((failure(response(413, '', { sign: null }))).code, 'payload_too_large');
    const bare = failure(response(401, '', { sign: null }));
    assert.equal(bare.code, 'http_401');
    assert.equal(bare.message, 'HTTP 401');
  });

  it('reads Retry-After on 429 only', () => {
    assert.equal((failure(response(429, '{"ok":false,"error":"locked","code":"locked_out"}', { sign: null, headers: { 'retry-after': '30' } }))).retryAfter, 30);
    assert.equal((failure(response(503, '{"ok":false,"error":"x","code":"not_wired"}', { headers: { 'retry-after': '30' } }))).retryAfter, undefined);
  });

  it('calls a signed 2xx that is not an envelope invalid_response', () => {
    const error = failure(response(200, 'not json'));
    assert.ok(error instanceof HttpError);
    assert.equal(error.code, 'invalid_response');
    assert.equal((failure(response(200, '{"ok":false}'))).code, 'invalid_response');
  });
});
