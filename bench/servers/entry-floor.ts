/**
 * The floor of a durable signed `POST /entries` (bench/README.md, figure 5d): a node:http server
 * that does only what such a write cannot go without, and nothing else — it reads the body,
 * checks the request's HMAC over its SHA-256 (docs/protocol.md "Request signing"), looks the
 * `Idempotency-Key` up, `JSON.parse`s the body, finds the activity by its name, writes the
 * three rows figure 5c's bare loops write (load/entry-writes.ts: the entry, the record of its
 * answer, the activity's recency), commits the requests that arrived together in one
 * `synchronous=FULL` transaction on the turn after the first (as Tock's group commit does), and
 * answers each once committed, its answer's SHA-256 signed. No nonce window, clock, Host or
 * browser checks, no validation of the input, no savepoint a request, no request list, no
 * change bus. Tock's server CPU per write over this one's is what Tock spends beyond them; this
 * one's over aw-server-rust's is what durability and signing cost (issue 42, target 3).
 *
 *   node bench/servers/entry-floor.ts
 *
 * Makes its own token and store (the store's migrations, WAL, `synchronous=FULL`, one activity
 * `Bench project 0`), prints one JSON line, `{"port": N, "pid": N, "token": "…"}`, answers
 * `{type: 'cpu'}` over IPC and stops as the other stand-ins do (lib/serve-child.ts). A request
 * whose signature does not match is answered 401.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS } from '@tock/core';
import { HEADER, SigningKey, requestStringToSign, sha256Hex } from '@tock/protocol';
import { signatureMatches, signedAnswer } from '../lib/floor-signing.ts';
import { serveBenchChild } from '../lib/serve-child.ts';
import { ENTRY_WRITES } from '../load/entry-writes.ts';

const token = randomBytes(32).toString('base64url');
const key = new SigningKey(token);

const dir = mkdtempSync(join(tmpdir(), 'tock-bench-entry-floor-'));
const db = new DatabaseSync(join(dir, 'tock.db'));
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL');
for (const migration of MIGRATIONS) db.exec(migration.sql);
db.prepare(
  `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at) VALUES (?, 'Bench project 0', 'bench project 0', 'bench project 0', 'bench project 0', 0, 0)`,
).run(randomUUID());
const findKey = db.prepare('SELECT status, body FROM idempotency_keys WHERE key = ?');
const findActivity = db.prepare('SELECT id, name FROM activities WHERE name_key = ?');
const entry = db.prepare(ENTRY_WRITES.entry);
const record = db.prepare(ENTRY_WRITES.record);
const recency = db.prepare(ENTRY_WRITES.recency);

/** The answers of the open group, written once it has committed. */
let group: { res: ServerResponse; nonce: string; body: string }[] | null = null;

function commitGroup(): void {
  const answered = group ?? [];
  group = null;
  db.exec('COMMIT');
  for (const { res, nonce, body } of answered) signedAnswer(res, key, nonce, 201, body);
}

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    const bytes = Buffer.concat(parts);
    const { [HEADER.timestamp]: timestamp, [HEADER.nonce]: nonce, [HEADER.signature]: signature, [HEADER.idempotencyKey]: idempotencyKey } = req.headers;
    const bodySha256 = sha256Hex(bytes);
    if (
      typeof timestamp !== 'string' ||
      typeof nonce !== 'string' ||
      typeof signature !== 'string' ||
      typeof idempotencyKey !== 'string' ||
      !signatureMatches(key, requestStringToSign({ timestamp, nonce, method: req.method ?? 'POST', target: req.url ?? '/', bodySha256 }), signature)
    ) {
      res.writeHead(401, ['content-length', '0']);
      res.end();
      return;
    }
    if (group === null) {
      group = [];
      db.exec('BEGIN IMMEDIATE');
      setImmediate(() => setImmediate(commitGroup));
    }
    const seen = findKey.get(idempotencyKey) as { status: number; body: string } | undefined;
    if (seen !== undefined) {
      signedAnswer(res, key, nonce, seen.status, seen.body);
      return;
    }
    const input = JSON.parse(bytes.toString('utf8')) as { name: string; durationMinutes: number; note: string | null };
    const activity = findActivity.get(input.name.toLowerCase()) as { id: string; name: string };
    const now = Date.now();
    const startedAt = now - input.durationMinutes * 60_000;
    const id = randomUUID();
    const body = JSON.stringify({
      ok: true,
      result: {
        entryID: id,
        activity: { activityID: activity.id, activityName: activity.name },
        created: false,
        startedAt: new Date(startedAt).toISOString(),
        endedAt: new Date(now).toISOString(),
        durationMinutes: input.durationMinutes,
        note: input.note,
      },
    });
    entry.run(id, activity.id, startedAt, now, input.note, now);
    record.run(idempotencyKey, bodySha256, body, now);
    recency.run(now, activity.id);
    group.push({ res, nonce, body });
  });
});

serveBenchChild(server, {
  ready: { token },
  beforeStop: () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  },
});
