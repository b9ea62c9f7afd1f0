/**
 * The admin socket plays the attacker's requests through the door kit, as the window's API
 * does (docs/security.md; packages/app/src/door-kit): a key that could reach an object's
 * prototype anywhere in the body, a body that is not sent as JSON, and a body over 64 KiB are
 * each refused before any handler runs, with the problem's code on the socket's frames.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAdminServer } from '../src/admin.ts';
import { adminRouteTable } from '../src/admin/server.ts';
import type { AdminHandlers } from '../src/admin/server.ts';

interface Sent {
  body: string;
  type?: string;
  /** Send the body in chunks without a Content-Length (the limit is found while reading). */
  chunked?: boolean;
}

/** The raw answer of `POST path` on `socket`: status and parsed JSON (an error the client sees after the answer is ignored). */
function raw(socket: string, path: string, sent: Sent): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': sent.type ?? 'application/json' };
    if (!sent.chunked) headers['content-length'] = Buffer.byteLength(sent.body);
    let answered = false;
    const req = request({ socketPath: socket, method: 'POST', path, headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (sent.chunked) {
      for (let at = 0; at < sent.body.length; at += 16 * 1024) req.write(sent.body.slice(at, at + 16 * 1024));
      req.end();
    } else req.end(sent.body);
  });
}

async function adminDoor(t: { after: (fn: () => void) => void }): Promise<{ socket: string; calls: unknown[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'tock-admin-door-'));
  const socket = join(dir, 'tock.sock');
  const calls: unknown[] = [];
  // A route that takes checked fields and hands the rest on as sent: the widest door there is.
  const handlers = { 'POST /settings/set': (input: unknown) => (calls.push(input), null) } as unknown as AdminHandlers;
  const table = adminRouteTable(handlers);
  const server = await startAdminServer(socket, { 'POST /settings/set': table['POST /settings/set'] as (input: Record<string, unknown>) => unknown });
  t.after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { socket, calls };
}

test('the admin socket refuses __proto__, constructor and prototype anywhere in a body, before the handler runs', async (t) => {
  const { socket, calls } = await adminDoor(t);
  for (const [body, field] of [
    ['{"key":"rounding","__proto__":{"polluted":true}}', '__proto__'],
    ['{"key":"rounding","value":{"constructor":{"prototype":{"polluted":true}}}}', 'constructor'],
    ['{"key":"rounding","value":[{"prototype":1}]}', 'prototype'],
  ] as const) {
    const answer = await raw(socket, '/settings/set', { body });
    assert.equal(answer.status, 400, body);
    assert.equal(answer.json.ok, false);
    assert.equal(answer.json.code, 'validation_failed');
    assert.equal(answer.json.field, field);
    assert.equal(answer.json.error, `${field}: is not allowed as a field name`);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(calls, []);
});

test('the admin socket refuses a body that is not sent as JSON, and takes an empty one of any type as {}', async (t) => {
  const { socket, calls } = await adminDoor(t);
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
    const answer = await raw(socket, '/settings/set', { body: '{"key":"rounding","value":null}', type });
    assert.equal(answer.status, 400, type);
    assert.deepEqual(answer.json, { ok: false, error: 'send JSON (Content-Type: application/json)', code: 'unsupported_media_type' });
  }
  assert.deepEqual(calls, []);
  // Charset and case as browsers and clients send them are fine.
  assert.equal((await raw(socket, '/settings/set', { body: '{"key":"rounding"}', type: 'Application/JSON; charset=utf-8' })).status, 200);
  assert.deepEqual(calls, [{ key: 'rounding' }]);
  // Empty: no key, so the route's own line; not the content type's.
  const empty = await raw(socket, '/settings/set', { body: '', type: 'text/plain' });
  assert.equal(empty.json.code, 'validation_failed');
  assert.equal(empty.json.field, 'key');
});

test('the admin socket refuses a body over 64 KiB, by its length and while reading one that gave none', async (t) => {
  const { socket, calls } = await adminDoor(t);
  const big = JSON.stringify({ key: 'rounding', value: 'x'.repeat(64 * 1024) });
  for (const chunked of [false, true]) {
    const answer = await raw(socket, '/settings/set', { body: big, chunked });
    assert.equal(answer.status, 400, `chunked: ${chunked}`);
    assert.deepEqual(answer.json, { ok: false, error: 'the request is larger than 64 KiB', code: 'payload_too_large' });
  }
  assert.deepEqual(calls, []);
  // Just under the limit is read.
  const fits = JSON.stringify({ key: 'rounding', value: 'x'.repeat(64 * 1024 - 40) });
  assert.ok(Buffer.byteLength(fits) <= 64 * 1024);
  assert.equal((await raw(socket, '/settings/set', { body: fits })).status, 200);
  assert.equal(calls.length, 1);
});
