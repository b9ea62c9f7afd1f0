/**
 * Editor heartbeats through the WakaTime door (docs/protocol.md "Editors: WakaTime heartbeats"):
 *
 * - heartbeats-ingest: 100 000 heartbeats (smoke: 2 000) in bulks of 25 — what wakatime-cli
 *   sends — with 4 requests in flight, each answered once committed, against a bare
 *   node:sqlite loop inserting the same rows into the same table (the schema of `openStore`,
 *   WAL, synchronous=FULL) in transactions of 25. Rate, and the server's CPU per heartbeat.
 *   Target ≥ 0.6×.
 * - statusbar-p99: `GET …/statusbar/today` with a year of heartbeats stored, p99 of sequential
 *   requests against signed `GET /status` on the same app in the same rounds. Target ≤ 1.2×.
 */

import { request, Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { EMPTY_BODY_SHA256 } from '@tock/protocol';
import { openStore } from '@tock/core';
import { startAppServer } from '../lib/children.ts';
import { pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult } from '../lib/figure.ts';
import { RequestSigner } from '../lib/signing.ts';
import { percentileOfSorted } from '../lib/stats.ts';

const BULK = '/wakatime/api/v1/users/current/heartbeats.bulk';
const TODAY = '/wakatime/api/v1/users/current/statusbar/today';
const BULK_SIZE = 25;
const IN_FLIGHT = 4;

/** The rows both sides write: `count` heartbeats, a fresh time range per round so none is a repeat. */
function heartbeatsOf(count: number, round: number): { entity: string; time: number; project: string; language: string; is_write: boolean }[] {
  const start = Date.now() / 1000 - 3600 - round * 0.001;
  return Array.from({ length: count }, (_, i) => ({
    entity: `/home/ana/src/tock/packages/file-${i % 997}.ts`,
    time: start + i * 0.01,
    project: 'tock',
    language: 'TypeScript',
    is_write: i % 5 === 0,
  }));
}

function post(agent: Agent, port: number, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: body === '' ? 'GET' : 'POST', path, agent, headers: { host: `127.0.0.1:${port}`, ...headers, ...(body === '' ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The bare baseline: the same rows into the same table, BEGIN … 25 INSERTs … COMMIT. Heartbeats per second. */
function sqliteLoop(rows: ReturnType<typeof heartbeatsOf>): number {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-hb-'));
  try {
    openStore(join(dir, 'tock.db')).close(); // the schema, indexes included
    const db = new DatabaseSync(join(dir, 'tock.db'));
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL');
    const insert = db.prepare(
      `INSERT INTO heartbeats (id, time_ms, entity, type, is_write, category, project, branch, language, lines, lineno, cursorpos, editor, machine, received_at)
       VALUES (?, ?, ?, 'file', ?, NULL, ?, NULL, ?, NULL, NULL, NULL, 'vscode', NULL, ?) ON CONFLICT (time_ms, entity, is_write) DO NOTHING`,
    );
    const started = performance.now();
    for (let i = 0; i < rows.length; i += BULK_SIZE) {
      db.exec('BEGIN IMMEDIATE');
      for (const r of rows.slice(i, i + BULK_SIZE)) insert.run(crypto.randomUUID(), Math.round(r.time * 1000), r.entity, r.is_write ? 1 : 0, r.project, r.language, Date.now());
      db.exec('COMMIT');
    }
    const seconds = (performance.now() - started) / 1000;
    db.close();
    return rows.length / seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function heartbeatFigures(config: BenchConfig): Promise<FigureResult[]> {
  const total = config.smoke ? 2000 : 100_000;
  const yearOfHeartbeats = config.smoke ? 2000 : 100_000;
  const latencyRequests = config.smoke ? 300 : 5000;
  const app = await startAppServer({ editors: { heartbeats: yearOfHeartbeats } }, { execArgv: config.serverArgs('heartbeats'), timeoutMs: 600_000 });
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  try {
    const { port, token, editorKey } = app.ready;
    if (editorKey === undefined) throw new Error('the bench app made no editor key');
    const auth = { authorization: `Basic ${Buffer.from(editorKey).toString('base64')}`, 'user-agent': 'wakatime/v1.90.0 (linux) go1.22 vscode/1.96.0 vscode-wakatime/25.0.0' };
    let roundNo = 0;
    const cpuPerHeartbeat: number[] = [];
    const ingest = await pairedRounds(
      config.rounds,
      async () => ({ value: sqliteLoop(heartbeatsOf(total, ++roundNo)), detail: null as unknown }),
      async () => {
        const rows = heartbeatsOf(total, ++roundNo);
        const bodies: string[] = [];
        for (let i = 0; i < rows.length; i += BULK_SIZE) bodies.push(JSON.stringify(rows.slice(i, i + BULK_SIZE)));
        let next = 0;
        const cpuBefore = await app.cpuUs();
        const started = performance.now();
        const worker = async (): Promise<void> => {
          while (next < bodies.length) {
            const body = bodies[next++] as string;
            const answer = await post(agent, port, BULK, auth, body);
            if (answer.status !== 201) throw new Error(`heartbeats.bulk answered ${answer.status}: ${answer.text.slice(0, 200)}`);
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
        const seconds = (performance.now() - started) / 1000;
        cpuPerHeartbeat.push(((await app.cpuUs()) - cpuBefore) / rows.length);
        return { value: rows.length / seconds, detail: null as unknown };
      },
    );
    const ingestFigure = pairedFigure(
      {
        id: 'heartbeats-ingest',
        title: `heartbeats ingested/s (bulks of ${BULK_SIZE}, ${IN_FLIGHT} in flight)`,
        unit: 'heartbeats/s',
        baselineLabel: `node:sqlite INSERT loop, same rows and table, ${BULK_SIZE} per COMMIT, WAL, synchronous=FULL`,
        target: { kind: 'min', ratio: 0.6 },
      },
      ingest,
      { heartbeats: total, serverCpuUsPerHeartbeat: round(cpuPerHeartbeat.sort((a, b) => a - b)[Math.floor(cpuPerHeartbeat.length / 2)] ?? 0, 1) },
    );
    ingestFigure.note = `server CPU ${ingestFigure.details.serverCpuUsPerHeartbeat} µs/heartbeat`;

    const signer = new RequestSigner(token);
    const p99 = async (send: () => Promise<{ status: number }>): Promise<number> => {
      const times = new Float64Array(latencyRequests);
      for (let i = 0; i < 50; i++) await send();
      for (let i = 0; i < latencyRequests; i++) {
        const t0 = performance.now();
        const answer = await send();
        times[i] = performance.now() - t0;
        if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      }
      return percentileOfSorted(times.sort(), 99);
    };
    const latency = await pairedRounds(
      config.rounds,
      async () => ({ value: await p99(() => post(agent, port, '/status', signer.headers('GET', '/status', EMPTY_BODY_SHA256), '')), detail: null as unknown }),
      async () => ({ value: await p99(() => post(agent, port, TODAY, auth, '')), detail: null as unknown }),
    );
    const latencyFigure = pairedFigure(
      {
        id: 'statusbar-p99',
        title: 'GET statusbar/today p99, a year of heartbeats stored',
        unit: 'ms',
        baselineLabel: 'signed GET /status p99, same app, same rounds',
        target: { kind: 'max', ratio: 1.2 },
      },
      latency,
      { storedHeartbeats: yearOfHeartbeats + total * Math.ceil(config.rounds / 2), requestsPerRound: latencyRequests },
    );
    return [ingestFigure, latencyFigure];
  } finally {
    agent.destroy();
    await app.stop();
  }
}
