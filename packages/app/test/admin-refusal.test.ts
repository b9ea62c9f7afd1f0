/**
 * The admin socket answers a refusal as the problem it is (docs/architecture.md "One problem
 * type"): beside the one line an older CLI prints (`error`), the problem's code, field and
 * details — in the JSON answer, and in a failed stream's `X-Tock-Stream-Problem` trailer — and
 * the caller turns either back into an AdminError that is a Problem with that code and field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { isProblem, Problem, validationProblem } from '@tock/protocol';
import { AdminError, AdminStream, adminDownload, adminRequest, startAdminServer } from '../src/admin.ts';

class SourceGone extends Error {
  override name = 'SourceGone' as const;
}

/** The raw answer of `POST path` with `body` on `socket`: status and parsed JSON. */
function raw(socket: string, path: string, body: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socket, method: 'POST', path, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function refused(promise: Promise<unknown>): Promise<AdminError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AdminError, String(error));
    return error;
  }
  assert.fail('the call was not refused');
}

const sink = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });

test('a refusal carries its code, field and details beside the line; the caller gets them back as a Problem', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-admin-refusal-'));
  const socket = join(dir, 'tock.sock');
  const server = await startAdminServer(socket, {
    'POST /field': () => {
      throw validationProblem([{ field: 'from', message: 'must be a date YYYY-MM-DD such as 2026-11-22' }]);
    },
    'POST /plain': () => {
      throw new Problem('nothing_to_continue', 'nothing was tracked yet; start an activity first');
    },
    'POST /named': () => {
      throw new SourceGone('GNOME Shell does not answer');
    },
    'POST /bug': () => {
      throw new TypeError('x is undefined');
    },
    'POST /stream': () => {
      function* chunks(): Generator<string, null, undefined> {
        yield 'first line\n';
        throw validationProblem([{ field: 'to', message: '2026-11-20 is before 2026-11-21' }]);
      }
      return new AdminStream('text/plain', chunks());
    },
  });
  t.after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The wire: the old fields as they were, the problem beside them.
  assert.deepEqual(await raw(socket, '/field', '{}'), {
    status: 400,
    json: { ok: false, error: 'from: must be a date YYYY-MM-DD such as 2026-11-22', code: 'validation_failed', field: 'from', details: [{ field: 'from', message: 'must be a date YYYY-MM-DD such as 2026-11-22' }] },
  });
  assert.deepEqual(await raw(socket, '/plain', '{}'), { status: 400, json: { ok: false, error: 'nothing was tracked yet; start an activity first', code: 'nothing_to_continue' } });
  assert.deepEqual(await raw(socket, '/named', '{}'), { status: 400, json: { ok: false, error: 'GNOME Shell does not answer', code: 'refused' } });
  const bug = await raw(socket, '/bug', '{}');
  assert.equal(bug.status, 500);
  assert.deepEqual(bug.json, { ok: false, error: 'internal error in the app; see its output for details', code: 'internal_error' });
  // A body that is not a JSON object: the old line, its rule beside it (docs/i18n.md).
  const notObject = 'admin request must be a JSON object';
  assert.deepEqual(await raw(socket, '/field', '{not json'), {
    status: 400,
    json: { ok: false, error: notObject, code: 'refused', field: 'body', details: [{ field: 'body', message: notObject, line: { rule: 'adminNotObject' } }] },
  });

  // The caller: a Problem with the app's code and field, the line unchanged.
  const field = await refused(adminRequest(socket, 'POST', '/field', {}));
  assert.ok(isProblem(field, 'validation_failed'));
  assert.equal(field.field, 'from');
  assert.deepEqual(field.details, [{ field: 'from', message: 'must be a date YYYY-MM-DD such as 2026-11-22' }]);
  assert.equal(field.message, 'from: must be a date YYYY-MM-DD such as 2026-11-22');
  const plain = await refused(adminRequest(socket, 'POST', '/plain', {}));
  assert.ok(isProblem(plain, 'nothing_to_continue'));
  assert.equal(plain.field, undefined);

  // A stream that fails after its first chunk: the trailer carries the problem.
  const streamed = await refused(adminDownload(socket, '/stream', {}, sink()));
  assert.ok(isProblem(streamed, 'validation_failed'));
  assert.equal(streamed.field, 'to');
  assert.equal(streamed.message, 'to: 2026-11-20 is before 2026-11-21');
  // Refused before the stream started: the JSON answer, as for any command.
  const early = await refused(adminDownload(socket, '/field', {}, sink()));
  assert.equal(early.field, 'from');
});

test('an answer without a code (an older app) is a refusal with the code refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-admin-refusal-'));
  const socket = join(dir, 'tock.sock');
  const older = createServer((_req, res) => {
    const text = JSON.stringify({ ok: false, error: 'from: must be a date YYYY-MM-DD such as 2026-11-22' });
    res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  await new Promise<void>((resolve) => older.listen(socket, resolve));
  t.after(() => {
    older.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const error = await refused(adminRequest(socket, 'POST', '/report', {}));
  assert.ok(isProblem(error, 'refused'));
  assert.equal(error.field, undefined);
  assert.equal(error.message, 'from: must be a date YYYY-MM-DD such as 2026-11-22');
});
