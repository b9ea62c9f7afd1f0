/**
 * Editor heartbeats through the WakaTime door (docs/protocol.md "Editors: WakaTime heartbeats"):
 *
 * - heartbeats-ingest: 100 000 heartbeats (smoke: 2 000) in bulks of 25 — what wakatime-cli
 *   sends — with 4 requests in flight, each answered once committed, against a bare
 *   node:sqlite loop inserting the same rows into the same table (the schema of `openStore`,
 *   WAL, synchronous=FULL) in transactions of 25. Rate: Tock ÷ bare loop, target ≥ 0.6×.
 * - heartbeats-cpu: the same rounds' CPU per heartbeat — the app child's (user + system, over
 *   IPC) against the bare loop's (`process.cpuUsage()` around it; the loop is synchronous, so
 *   nothing else of this process runs meanwhile). Shown as heartbeats per CPU second, so the
 *   ratio reads like the rate's: bare loop's CPU per heartbeat ÷ Tock's, higher is better,
 *   target ≥ 0.8× (issue 42's target 5: Tock spends at most 1.25× the bare loop's CPU on a
 *   heartbeat; it was 0.6×).
 * - heartbeats-cpu-floor: the same rounds against the floor (servers/heartbeat-floor.ts: a
 *   node:http server that parses the bulk, inserts the rows with the bare loop's statement,
 *   commits the requests that arrived together in one transaction and answers — nothing else),
 *   which runs between the bare loop and Tock in every round: the floor's heartbeats per CPU
 *   second ÷ the bare loop's, what HTTP and JSON leave of 21c for any server on node:http
 *   (report only); the note gives Tock ÷ the floor.
 * - statusbar-p99: `GET …/statusbar/today` with a year of heartbeats stored, p99 of sequential
 *   requests against signed `GET /status` on the same app in the same rounds. Target ≤ 1.2×.
 */

import { request, Agent } from 'node:http';
import { EMPTY_BODY_SHA256 } from '@tock/protocol';
import { startAppServer, startHeartbeatFloorServer, type ServerHandle } from '../lib/children.ts';
import { alternatingRounds, pairOf, pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult, type Paired } from '../lib/figure.ts';
import { RequestSigner } from '../lib/signing.ts';
import { median, percentileOfSorted } from '../lib/stats.ts';
import { heartbeatRows, sqliteHeartbeatLoop, type HeartbeatRow } from '../load/heartbeat-loop.ts';

const BULK = '/wakatime/api/v1/users/current/heartbeats.bulk';
const TODAY = '/wakatime/api/v1/users/current/statusbar/today';
const BULK_SIZE = 25;
const IN_FLIGHT = 4;

/** One side of one ingest round: heartbeats per second, and CPU µs per heartbeat. */
export interface IngestSample {
  value: number;
  detail: { cpuUsPerHeartbeat: number };
}

/**
 * The CPU comparison from the ingest rounds: each side as heartbeats per CPU second (10⁶ ÷ its
 * CPU µs per heartbeat), so a round's ratio is the bare loop's CPU per heartbeat ÷ Tock's —
 * higher is better, like the rate's. The details keep the µs per heartbeat of each side.
 */
export function cpuPaired(ingest: Paired<IngestSample['detail']>): Paired<number> {
  const perCpuSecond = (us: number): number => 1e6 / us;
  const subject = ingest.subjectDetails.map((d) => perCpuSecond(d.cpuUsPerHeartbeat));
  const baseline = ingest.baselineDetails.map((d) => perCpuSecond(d.cpuUsPerHeartbeat));
  return {
    subject,
    baseline,
    ratios: subject.map((s, i) => s / (baseline[i] as number)),
    subjectDetails: ingest.subjectDetails.map((d) => d.cpuUsPerHeartbeat),
    baselineDetails: ingest.baselineDetails.map((d) => d.cpuUsPerHeartbeat),
  };
}

/** Two sides' ingest rounds as a pair (rate ratio per round: subject ÷ baseline), each round's detail kept. */
function ingestPaired(subject: IngestSample[], baseline: IngestSample[]): Paired<IngestSample['detail']> {
  const pair = pairOf(subject, baseline, (s) => s.value);
  return { ...pair, subjectDetails: subject.map((s) => s.detail), baselineDetails: baseline.map((b) => b.detail) };
}

/** The CPU figure's line for the table: µs per heartbeat of both sides, and which way the ratio reads. */
function cpuNote(cpu: Paired<number>): string {
  const tock = round(median(cpu.subjectDetails), 1);
  const bare = round(median(cpu.baselineDetails), 1);
  return `CPU per heartbeat: Tock's server ${tock} µs, bare loop ${bare} µs; ratio = bare ÷ Tock, higher is better`;
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

/** The bare baseline (load/heartbeat-loop.ts): the same rows into the same table, BEGIN … 25 INSERTs … COMMIT. */
function sqliteLoop(rows: HeartbeatRow[]): IngestSample {
  const { perSecond, cpuUsPerHeartbeat } = sqliteHeartbeatLoop(rows, BULK_SIZE);
  return { value: perSecond, detail: { cpuUsPerHeartbeat } };
}

export async function heartbeatFigures(config: BenchConfig): Promise<FigureResult[]> {
  const total = config.smoke ? 2000 : 100_000;
  const yearOfHeartbeats = config.smoke ? 2000 : 100_000;
  const latencyRequests = config.smoke ? 300 : 5000;
  const app = await startAppServer({ editors: { heartbeats: yearOfHeartbeats } }, { execArgv: config.serverArgs('heartbeats'), timeoutMs: 600_000 });
  const floor = await startHeartbeatFloorServer({ execArgv: config.serverArgs('heartbeat-floor') });
  let agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  // The bare loop runs synchronously in this process: on a slow disk it holds this event loop
  // past the app's 5 s keep-alive timeout, the app closes the idle connections, and a request
  // sent on one before this process read the close fails ("socket hang up"). Each server's
  // round starts with fresh connections instead.
  const freshConnections = (): void => {
    agent.destroy();
    agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  };
  try {
    const { port, token, editorKey } = app.ready;
    if (editorKey === undefined) throw new Error('the bench app made no editor key');
    const authFor = (key: string): Record<string, string> => ({
      authorization: `Basic ${Buffer.from(key).toString('base64')}`,
      'user-agent': 'wakatime/v1.90.0 (linux) go1.22 vscode/1.96.0 vscode-wakatime/25.0.0',
    });
    const auth = authFor(editorKey);
    /** Sends `rows` to a server in bulks, IN_FLIGHT at a time, each answered 201. */
    const send = async (to: { port: number; editorKey: string }, rows: HeartbeatRow[]): Promise<void> => {
      const headers = authFor(to.editorKey);
      const bodies: string[] = [];
      for (let i = 0; i < rows.length; i += BULK_SIZE) bodies.push(JSON.stringify(rows.slice(i, i + BULK_SIZE)));
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < bodies.length) {
          const body = bodies[next++] as string;
          const answer = await post(agent, to.port, BULK, headers, body);
          if (answer.status !== 201) throw new Error(`heartbeats.bulk answered ${answer.status}: ${answer.text.slice(0, 200)}`);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    };
    const servers = { app: { port, editorKey }, floor: { port: floor.ready.port, editorKey: floor.ready.editorKey } };
    // One unmeasured run first, as the other figures prime their servers: the first round would
    // otherwise count the JIT compiling the door's path (the bare loop has little to compile).
    await send(servers.app, heartbeatRows(total / 10, 1000));
    await send(servers.floor, heartbeatRows(total / 10, 1001));
    let roundNo = 0;
    /** One server's round: fresh connections, a fresh time range, its CPU over IPC. */
    const serverRound = async (server: { port: number; editorKey: string }, handle: Pick<ServerHandle<unknown>, 'cpuUs'>): Promise<IngestSample> => {
      freshConnections();
      const rows = heartbeatRows(total, ++roundNo);
      const cpuBefore = await handle.cpuUs();
      const started = performance.now();
      await send(server, rows);
      const seconds = (performance.now() - started) / 1000;
      return { value: rows.length / seconds, detail: { cpuUsPerHeartbeat: ((await handle.cpuUs()) - cpuBefore) / rows.length } };
    };
    const sides = {
      bare: async () => sqliteLoop(heartbeatRows(total, ++roundNo)),
      floor: () => serverRound(servers.floor, floor),
      app: () => serverRound(servers.app, app),
    };
    // The floor runs between the other two in every round, as figure 1b's does.
    const runs = await alternatingRounds(config.rounds, ['bare', 'floor', 'app'], sides);
    const ingest = ingestPaired(runs.app, runs.bare);
    const cpu = cpuPaired(ingest);
    const ingestFigure = pairedFigure(
      {
        id: 'heartbeats-ingest',
        title: `heartbeats ingested/s (bulks of ${BULK_SIZE}, ${IN_FLIGHT} in flight)`,
        unit: 'heartbeats/s',
        baselineLabel: `node:sqlite INSERT loop, same rows and table, ${BULK_SIZE} per COMMIT, WAL, synchronous=FULL`,
        target: { kind: 'min', ratio: 0.6 },
      },
      ingest,
      { heartbeats: total },
    );
    const cpuFigure = pairedFigure(
      {
        id: 'heartbeats-cpu',
        title: `heartbeats ingested per CPU second (bulks of ${BULK_SIZE}, ${IN_FLIGHT} in flight)`,
        unit: 'heartbeats/CPU-s',
        baselineLabel: `the same node:sqlite INSERT loop's own CPU (user + system), same rounds`,
        target: { kind: 'min', ratio: 0.8 },
      },
      cpu,
      { serverCpuUsPerHeartbeat: round(median(cpu.subjectDetails), 2), baselineCpuUsPerHeartbeat: round(median(cpu.baselineDetails), 2) },
    );
    cpuFigure.note = cpuNote(cpu);
    const floorCpu = cpuPaired(ingestPaired(runs.floor, runs.bare));
    const overFloor = cpuPaired(ingestPaired(runs.app, runs.floor));
    const floorFigure = pairedFigure(
      {
        id: 'heartbeats-cpu-floor',
        title: `the floor's heartbeats per CPU second (node:http, JSON, the same inserts and group commit)`,
        unit: 'heartbeats/CPU-s',
        baselineLabel: `the bare loop's, same rounds`,
        target: { kind: 'report', text: "what 21c's target leaves on node:http" },
      },
      floorCpu,
      { floorCpuUsPerHeartbeat: round(median(floorCpu.subjectDetails), 2), tockOverFloor: round(median(overFloor.ratios), 3) },
    );
    floorFigure.note = `CPU per heartbeat: the floor ${round(median(floorCpu.subjectDetails), 1)} µs, bare loop ${round(median(floorCpu.baselineDetails), 1)} µs; Tock's heartbeats per CPU second ${round(median(overFloor.ratios), 2)} of the floor's`;

    freshConnections(); // the last round may have been the bare loop's
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
    return [ingestFigure, cpuFigure, floorFigure, latencyFigure];
  } finally {
    agent.destroy();
    await app.stop();
    await floor.stop();
  }
}
