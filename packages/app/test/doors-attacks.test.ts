/**
 * Both doors of a real app refuse the same attacks the same way (the door kit,
 * packages/app/src/door-kit): a prototype key in the body, a body not sent as JSON and a body
 * over 64 KiB, sent to `tock log`'s route on the admin socket and to the window's
 * `POST /api/entries` with a valid session. Each is refused with the same problem code before
 * anything is written; the window answers with the code's status, the socket with its frames'
 * 400.
 */
import assert from 'node:assert/strict';
import { request, type RequestOptions } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { PROBLEM_STATUS, type ProblemCode } from '@tock/protocol';
import { homePaths } from '../src/home.ts';
import { ensureWindowBuilt, startTestApp, windowSession, type TestApp } from './ui-support/harness.ts';

let t: TestApp;
let session: Record<string, string>;

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp();
  session = await windowSession(t);
});
after(async () => {
  await t.stop();
});

/** Sends `body` as `type` and reads the JSON answer (an error the client sees after the answer, from a body the server stopped reading, is ignored). */
function send(options: RequestOptions, body: string, type: string): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request({ ...options, method: 'POST', headers: { ...options.headers, 'content-type': type, 'content-length': Buffer.byteLength(body) } }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  });
}

const viaAdmin = (body: string, type: string) => send({ socketPath: homePaths(t.home).adminSocket, path: '/entries' }, body, type);
const viaWindow = (body: string, type: string) =>
  send({ host: '127.0.0.1', port: t.port, path: '/api/entries', headers: { host: `127.0.0.1:${t.port}`, origin: t.origin, ...session } }, body, type);

const entry = { name: 'Attack', createIfMissing: true, durationMinutes: 5 };

describe('both doors refuse the same attacks', () => {
  const attacks: [what: string, body: string, type: string, code: ProblemCode][] = [
    ['a __proto__ key', JSON.stringify(entry).replace(/}$/, ',"__proto__":{"polluted":true}}'), 'application/json', 'validation_failed'],
    ['a constructor key inside a field', JSON.stringify({ ...entry, note: undefined }).replace(/}$/, ',"tags":[{"constructor":{"prototype":{}}}]}'), 'application/json', 'validation_failed'],
    ['a body sent as text', JSON.stringify(entry), 'text/plain', 'unsupported_media_type'],
    ['a body sent as a form', JSON.stringify(entry), 'application/x-www-form-urlencoded', 'unsupported_media_type'],
    ['a body over 64 KiB', JSON.stringify({ ...entry, note: 'x'.repeat(65 * 1024) }), 'application/json', 'payload_too_large'],
  ];
  for (const [what, body, type, code] of attacks) {
    it(`refuses ${what} with ${code} at both doors, and writes nothing`, async () => {
      const admin = await viaAdmin(body, type);
      const window = await viaWindow(body, type);
      assert.equal(admin.json.code, code, `admin: ${JSON.stringify(admin.json)}`);
      assert.equal(window.json.code, code, `window: ${JSON.stringify(window.json)}`);
      assert.equal(admin.json.error, window.json.error, 'the same line at both doors');
      assert.equal(admin.status, 400);
      assert.equal(window.status, PROBLEM_STATUS[code]);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      const found = await send({ socketPath: homePaths(t.home).adminSocket, path: '/activities/search' }, JSON.stringify({ q: 'Attack' }), 'application/json');
      assert.deepEqual(found.json.result, [], 'nothing was written');
    });
  }

  it('takes the same entry sent as JSON at both doors', async () => {
    assert.equal((await viaAdmin(JSON.stringify(entry), 'application/json; charset=utf-8')).status, 200);
    assert.equal((await viaWindow(JSON.stringify(entry), 'application/json')).status, 200);
  });
});
