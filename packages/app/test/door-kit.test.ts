/**
 * The door kit (packages/app/src/door-kit): one failure mapper, one input checker and one body
 * reader for the admin socket and the window's API. Pure parts tested here; the doors' own
 * tests (admin-door.test.ts, the window's) play the attacker over a socket.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { Problem, validationProblem } from '@tock/protocol';
import { checkInput, failureOf, readJsonBody, refuseForbiddenKeys, standardRefusals } from '../src/door-kit/index.ts';
import { windowInput } from '../src/ui/window-input.ts';

class SourceGone extends Error {
  override name = 'SourceGone' as const;
}

test('a problem is answered with its code’s status, field and details; a named error as refused; anything else as a bug', () => {
  assert.deepEqual(failureOf(new Problem('session_not_found', 'no such session')), { status: 404, message: 'no such session', code: 'session_not_found', unexpected: false });
  const refused = failureOf(validationProblem([{ field: 'from', message: 'is required' }]));
  assert.equal(refused.status, 400);
  assert.equal(refused.field, 'from');
  assert.deepEqual(refused.details, [{ field: 'from', message: 'is required' }]);
  assert.deepEqual(failureOf(new SourceGone('GNOME Shell does not answer')), { status: 400, message: 'GNOME Shell does not answer', code: 'refused', unexpected: false });
  for (const bug of [new TypeError('x is undefined'), new Error('plain'), 'a string']) {
    const failure = failureOf(bug);
    assert.equal(failure.status, 500);
    assert.equal(failure.code, 'internal_error');
    assert.equal(failure.unexpected, true);
  }
});

test('an input is checked by its fields, refused in the route’s own words, the rest dropped', () => {
  const schema = { properties: { port: { type: 'integer', minimum: 1024, maximum: 65535, description: 'A port.' } }, required: [] } as const;
  assert.deepEqual(checkInput(schema, { port: 8080, other: 1 }), { port: 8080 });
  assert.throws(() => checkInput(schema, { port: 80 }), (error: unknown) => error instanceof Problem && error.code === 'validation_failed' && error.field === 'port');
  const worded = { ...schema, refusals: { port: (sent: unknown) => ({ rule: 'portRange' as const, values: { min: 1024, max: 65535, sent: String(sent) } }) } };
  assert.throws(
    () => checkInput(worded, { port: 80 }),
    (error: unknown) =>
      error instanceof Problem && error.message === 'port must be a whole number from 1024 to 65535, not 80' && error.details?.[0]?.line?.rule === 'portRange' && error.details[0].rule === 'numberRange',
  );
  assert.throws(() => checkInput(schema, { __proto__: null, constructor: 1 } as Record<string, unknown>), (error: unknown) => error instanceof Problem && error.field === 'constructor');
});

/** A request of `body` with `headers`, as the reader sees one. */
function fakeRequest(body: string, headers: Record<string, string>): IncomingMessage {
  const stream = Readable.from(body === '' ? [] : [Buffer.from(body)]) as unknown as IncomingMessage;
  (stream as { headers: Record<string, string> }).headers = headers;
  return stream;
}

test('a body is read as a JSON object within its limit, sent as JSON, without prototype keys', async () => {
  const rules = { limit: 32, refusals: standardRefusals(32 * 1024) };
  const json = { 'content-type': 'application/json' };
  assert.deepEqual(await readJsonBody(fakeRequest('{"a":1}', json), rules), { a: 1 });
  assert.deepEqual(await readJsonBody(fakeRequest('', { 'content-type': 'text/plain' }), rules), {});
  const code = async (body: string, headers: Record<string, string>): Promise<string> => {
    try {
      await readJsonBody(fakeRequest(body, headers), rules);
      return 'read';
    } catch (error) {
      return error instanceof Problem ? error.code : String(error);
    }
  };
  assert.equal(await code('{"a":"' + 'x'.repeat(40) + '"}', json), 'payload_too_large');
  assert.equal(await code('{}', { ...json, 'content-length': '33' }), 'payload_too_large');
  assert.equal(await code('{"a":1}', { 'content-type': 'text/plain' }), 'unsupported_media_type');
  assert.equal(await code('{"a":1}', {}), 'unsupported_media_type');
  assert.equal(await code('{a:1}', json), 'invalid_json');
  assert.equal(await code('[1]', json), 'validation_failed');
  assert.equal(await code('{"__proto__":{"x":1}}', json), 'validation_failed');
});

test('a prototype key is refused by the kit’s one check, the same through the reader and the window’s input', async () => {
  const problemOf = async (call: () => unknown): Promise<unknown> => {
    try {
      await call();
      return undefined;
    } catch (error) {
      return error instanceof Problem ? { code: error.code, message: error.message, details: error.details } : error;
    }
  };
  const sent = '{"match":{"constructor":"x"},"activity":"Docs"}';
  const read = await problemOf(() => readJsonBody(fakeRequest(sent, { 'content-type': 'application/json' }), { limit: 1024, refusals: standardRefusals(1024) }));
  assert.deepEqual(read, await problemOf(() => refuseForbiddenKeys(JSON.parse(sent))));
  assert.deepEqual(read, await problemOf(() => windowInput('POST /api/rules', JSON.parse(sent) as Record<string, unknown>, new URLSearchParams(), 0)));
  assert.deepEqual(read, { code: 'validation_failed', message: 'constructor: is not allowed as a field name', details: [{ field: 'constructor', message: 'is not allowed as a field name', rule: 'notAllowedName' }] });
});
