/**
 * Streamed admin answers (docs/decisions.md "Streaming admin answers") over a real Unix
 * socket: chunks are pulled only as the reader takes them, the trailer tells a finished stream
 * from a failed or cut one, refusals before the first byte stay JSON errors, and the stream's
 * `close` runs once however it ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Problem } from '@tock/protocol';
import { until } from '@tock/test-support';
import { adminDownload, AdminError, AdminStream, startAdminServer, type AdminHandler } from '../src/admin.ts';

/** An admin server on a socket in a fresh directory; closed and removed after the test. */
async function serve(t: { after(fn: () => unknown): void }, routes: Record<string, AdminHandler>): Promise<{ socket: string; server: Server }> {
  const dir = mkdtempSync(join(tmpdir(), 'tock-admin-stream-'));
  const socket = join(dir, 'tock.sock');
  const server = await startAdminServer(socket, routes);
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  return { socket, server };
}

/** A writable that gathers text, taking each chunk only when `release` is called (or at once). */
function sink(manual = false): { stream: Writable; text(): string; release(): void; waiting(): number } {
  const parts: string[] = [];
  const queue: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, done) {
      parts.push(chunk.toString('utf8'));
      if (manual) queue.push(done);
      else done();
    },
  });
  return { stream, text: () => parts.join(''), release: () => queue.shift()?.(), waiting: () => queue.length };
}

/** Chunks of 64 KiB, counting how many were pulled; closes counted too. */
function chunks(total: number, failAt = -1): { iterator: Iterator<string, unknown, undefined>; pulled(): number; closed: { count: number } } {
  let pulled = 0;
  const closed = { count: 0 };
  function* gen(): Generator<string, unknown, undefined> {
    for (let i = 0; i < total; i++) {
      if (i === failAt) throw new Problem('validation_failed', `chunk ${i} could not be read`);
      pulled++;
      yield `${String(i).padStart(8, '0')}${'x'.repeat(64 * 1024 - 8)}`;
    }
    return { chunks: total };
  }
  return { iterator: gen(), pulled: () => pulled, closed };
}

test('a finished stream arrives whole, with its summary; close runs once', async (t) => {
  const c = chunks(20);
  const { socket } = await serve(t, { 'POST /dump': () => new AdminStream('text/plain', c.iterator, () => c.closed.count++) });
  const out = sink();
  const summary = await adminDownload(socket, '/dump', {}, out.stream);
  assert.deepEqual(summary, { chunks: 20 });
  assert.equal(out.text().length, 20 * 64 * 1024);
  assert.equal(c.closed.count, 1);
});

test('chunks are pulled only as the reader takes them (backpressure)', async (t) => {
  const c = chunks(200);
  const { socket, server } = await serve(t, { 'POST /dump': () => new AdminStream('text/plain', c.iterator, () => c.closed.count++) });
  let answer: ServerResponse | undefined;
  server.once('request', (_request: IncomingMessage, response: ServerResponse) => {
    answer = response;
  });
  const out = sink(true);
  const done = adminDownload(socket, '/dump', {}, out.stream);
  // The pipe fills: the reader holds a chunk and the server waits for room to write (it pulls
  // nothing more until then). Socket buffers on both sides hold a few chunks, never all 200.
  await until('the reader to hold a chunk and the server to wait for room', () => out.waiting() > 0 && answer?.writableNeedDrain === true);
  const early = c.pulled();
  assert.ok(early < 60, `${early} of 200 chunks were pulled while the reader took none`);
  // Drain the rest by releasing writes as they come.
  const drain = setInterval(() => {
    while (out.waiting() > 0) out.release();
  }, 1);
  try {
    await done;
  } finally {
    clearInterval(drain);
  }
  assert.equal(c.pulled(), 200);
  assert.equal(c.closed.count, 1);
});

test('a failure after the first byte arrives as the error trailer: the download fails with its reason', async (t) => {
  const c = chunks(10, 3);
  const { socket } = await serve(t, { 'POST /dump': () => new AdminStream('text/plain', c.iterator, () => c.closed.count++) });
  await assert.rejects(adminDownload(socket, '/dump', {}, sink().stream), (error: unknown) => {
    assert.ok(error instanceof AdminError);
    assert.equal(error.message, 'chunk 3 could not be read');
    return true;
  });
  assert.equal(c.closed.count, 1);
});

test('a stream cut short (the app went away) is a failure, not a short file', async (t) => {
  const c = chunks(400);
  const { socket, server } = await serve(t, { 'POST /dump': () => new AdminStream('text/plain', c.iterator, () => c.closed.count++) });
  const out = sink(true);
  const done = adminDownload(socket, '/dump', {}, out.stream);
  await until('the reader to hold a chunk', () => out.waiting() > 0);
  server.closeAllConnections();
  const drain = setInterval(() => {
    while (out.waiting() > 0) out.release();
  }, 1);
  try {
    await assert.rejects(done, (error: unknown) => {
      assert.ok(error instanceof AdminError);
      assert.equal(error.message, 'the app stopped before it finished sending; if it is no longer running, start it with `tock app` and try again');
      // Its rule beside it, for tock to say in the person's language.
      assert.deepEqual(error.details?.[0]?.line, { rule: 'appStoppedSending' });
      return true;
    });
  } finally {
    clearInterval(drain);
  }
  // The server saw its client go: the iterator was stopped and close ran once.
  await until("the stream's close", () => c.closed.count > 0);
  assert.equal(c.closed.count, 1);
  assert.ok(c.pulled() < 400);
});

test('a refusal before the first byte is the usual one-line error', async (t) => {
  const { socket } = await serve(t, {
    'POST /dump': () => {
      throw new Problem('validation_failed', 'from: "2026-02-30" is not a day of the calendar');
    },
  });
  await assert.rejects(adminDownload(socket, '/dump', {}, sink().stream), /^AdminError: from: "2026-02-30" is not a day of the calendar$/);
  await assert.rejects(adminDownload(socket, '/nothing-here', {}, sink().stream), /unknown admin command POST \/nothing-here/);
});
