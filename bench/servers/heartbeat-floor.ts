/**
 * The floor of a WakaTime heartbeat bulk (bench/README.md, figure 21d): a node:http server
 * that does only what a durable bulk answered over HTTP cannot go without, and nothing else —
 * it compares the Basic editor key, reads the body, `JSON.parse`s it, inserts each heartbeat
 * with figure 21's bare loop's statement (load/heartbeat-loop.ts: one `crypto.randomUUID()` a
 * row), commits the requests that arrived together in one `synchronous=FULL` transaction
 * (one fsync for the group, as Tock's group commit does, on the turn after the group opened)
 * and answers each `{responses: [[{data: {id, time}}, 201], …]}` once committed. No checks of
 * a heartbeat's fields, no Host or browser checks, no lockout, no savepoint a request, no
 * request list, no change bus. Tock's server CPU per heartbeat over this one's is what Tock
 * spends beyond HTTP, JSON and the same inserts and commits.
 *
 *   node bench/servers/heartbeat-floor.ts
 *
 * Makes its own store (the schema of `openStore`, WAL, `synchronous=FULL`) and editor key and
 * prints one JSON line, `{"port": N, "pid": N, "token": "", "editorKey": "…"}`; answers
 * `{type: 'cpu'}` over IPC and stops as the other stand-ins do (lib/serve-child.ts).
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openStore } from '@tock/core';
import { serveBenchChild } from '../lib/serve-child.ts';
import { HEARTBEAT_INSERT } from '../load/heartbeat-loop.ts';

const dir = mkdtempSync(join(tmpdir(), 'tock-bench-hb-floor-'));
openStore(join(dir, 'tock.db')).close(); // the schema, indexes included
const db = new DatabaseSync(join(dir, 'tock.db'));
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL');
const insert = db.prepare(HEARTBEAT_INSERT);

const editorKey = `waka_${randomBytes(24).toString('hex')}`;
const expectedAuthorization = `Basic ${Buffer.from(editorKey).toString('base64')}`;

/** The requests of the open group: their answers, written once the group has committed. */
let group: { res: ServerResponse; body: string }[] | null = null;

function commitGroup(): void {
  const answered = group ?? [];
  group = null;
  db.exec('COMMIT');
  for (const { res, body } of answered) {
    res.writeHead(201, ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(body))]);
    res.end(body);
  }
}

interface Sent {
  entity: string;
  time: number;
  project?: string;
  language?: string;
  is_write?: boolean;
}

const server = createServer((req, res) => {
  if (req.headers.authorization !== expectedAuthorization) {
    req.resume();
    res.writeHead(401, ['content-length', '0']);
    res.end();
    return;
  }
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    const sent = JSON.parse(Buffer.concat(parts).toString('utf8')) as Sent[];
    if (group === null) {
      group = [];
      db.exec('BEGIN IMMEDIATE');
      setImmediate(() => setImmediate(commitGroup));
    }
    const now = Date.now();
    const responses = sent.map((hb) => {
      const id = crypto.randomUUID();
      const timeMs = Math.round(hb.time * 1000);
      insert.run(id, timeMs, hb.entity, hb.is_write ? 1 : 0, hb.project ?? null, hb.language ?? null, now);
      return [{ data: { id, time: timeMs / 1000 } }, 201];
    });
    group.push({ res, body: JSON.stringify({ responses }) });
  });
});

serveBenchChild(server, {
  ready: { token: '', editorKey },
  beforeStop: () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  },
});
