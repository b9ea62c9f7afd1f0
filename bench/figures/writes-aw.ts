/**
 * Figure 5b (issue 42, target 3): Tock's server CPU per durable signed `POST /entries` against
 * aw-server-rust's per event write (`POST /api/0/buckets/<id>/events` with one event), and
 * beside it Tock's signed `GET /status` against its `GET /api/0/info`. Runs only when the
 * peer's binary is given (`BENCH_AW_SERVER`, bench/peers/aw-server-rust.ts); skipped otherwise,
 * with the reason in the note.
 *
 * Both servers run for the whole figure; the same driver (bench/load/driver.ts) sends to each,
 * in alternating rounds (aw, Tock; then Tock, aw), figure 5's requests to Tock (with an
 * `Idempotency-Key`, 4 in flight) and one event per request to the peer at the same
 * concurrency. Tock's CPU comes over IPC (`process.cpuUsage()`), the peer's from
 * `/proc/PID/stat`; both per answered request, warm-up included. The peer is not durable per
 * write: it acknowledges an event before committing it and commits every 100 events or 15 s
 * (WAL, `synchronous=FULL`), where Tock commits (and fsyncs) before it answers.
 *
 * Figure 5d runs in the same write rounds, between the two (aw, floor, Tock; then Tock, floor,
 * aw): the floor of a durable signed write (servers/entry-floor.ts: the HMACs, the three rows,
 * a group commit, nothing else) against the peer — what signing and an fsync before the answer
 * cost by themselves (report only); its note gives Tock ÷ the floor.
 */

import { loadavg } from 'node:os';
import { drive, startAppServer, startEntryFloorServer } from '../lib/children.ts';
import { alternatingRounds, pairOf, pairedFigure, pairedRounds, round, unmeasured, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';
import type { DriverConfig, DriverResult } from '../load/driver.ts';
import { awEventBody, awServerUnavailable, startAwServer, type AwServer } from '../peers/aw-server-rust.ts';
import { assertAllOk } from './throughput.ts';

/** The peer's side of the write figures (5b and 5d). */
const AW_EVENT_WRITE = 'aw-server-rust POST /api/0/buckets/<id>/events, 1 event (commits every 100 events)';
const WRITES = {
  id: 'entries-cpu-aw',
  title: 'POST /entries server CPU per durable write vs aw-server-rust event write',
  unit: 'µs',
  baselineLabel: AW_EVENT_WRITE,
  target: { kind: 'max', ratio: 1.5 } as Target,
};
const READS = {
  id: 'status-cpu-aw',
  title: 'signed GET /status server CPU per request vs aw-server-rust GET /api/0/info',
  unit: 'µs',
  baselineLabel: 'aw-server-rust GET /api/0/info',
  target: { kind: 'report', text: 'report (issue 42: 1.48×)' } as Target,
};
const FLOOR = {
  id: 'entries-cpu-floor-aw',
  title: "the floor's server CPU per durable signed write vs aw-server-rust event write",
  unit: 'µs',
  baselineLabel: AW_EVENT_WRITE,
  target: { kind: 'report', text: 'report: what target 3 leaves a durable signed write' } as Target,
};
const WRITE_CONCURRENCY = 4;
const BUCKET = 'tock-bench-window';

/** One driver run and what it cost the server. */
type MeasuredRun = DriverResult & { serverCpuUsPerRequest: number };

/** Runs the driver against the peer, its CPU read from /proc around the run. */
async function driveAw(aw: AwServer, load: DriverConfig): Promise<MeasuredRun> {
  const before = aw.cpuUs();
  const result = await drive(load);
  const used = aw.cpuUs() - before;
  return { ...result, serverCpuUsPerRequest: used / Math.max(1, result.totalOk) };
}

const loadNow = (): number[] => loadavg().map((l) => round(l, 2));

/** `binary`: the peer's path (default `BENCH_AW_SERVER`); null: none given. */
export async function awServerFigures(config: BenchConfig, binary: string | null = process.env.BENCH_AW_SERVER ?? null): Promise<FigureResult[]> {
  const why = awServerUnavailable(binary);
  if (why !== null || binary === null) {
    config.log(`  SKIPPED: ${why}`);
    return [unmeasured(WRITES, 'skipped', why ?? ''), unmeasured(FLOOR, 'skipped', why ?? ''), unmeasured(READS, 'skipped', why ?? '')];
  }
  const loadAverage = { start: loadNow(), end: [] as number[] };
  const app = await startAppServer({ seed: { today: true } }, { execArgv: config.serverArgs('entries-aw') });
  const floor = await startEntryFloorServer({ execArgv: config.serverArgs('entries-floor') });
  let aw: AwServer | undefined;
  try {
    aw = await startAwServer(binary);
    const peer = aw;
    await peer.createBucket(BUCKET);
    const token = app.ready.token;
    const tockLoad = (extra: Partial<DriverConfig>): DriverConfig => ({
      port: app.ready.port,
      token,
      method: 'GET',
      targets: ['/status'],
      concurrency: config.concurrency,
      warmupMs: config.warmupMs,
      durationMs: config.throughputMs,
      expectStatus: 200,
      ...extra,
    });
    // The driver signs every request; the peer ignores the three headers, as the bare server does.
    const awLoad = (extra: Partial<DriverConfig>): DriverConfig => ({ ...tockLoad(extra), port: peer.port });
    const tockWrite: Partial<DriverConfig> = {
      method: 'POST',
      targets: ['/entries'],
      body: JSON.stringify({ name: 'Bench project 0', durationMinutes: 1, note: 'bench' }),
      idempotencyKeys: true,
      concurrency: WRITE_CONCURRENCY,
      durationMs: config.writesMs,
      expectStatus: 201,
    };
    const awWrite: Partial<DriverConfig> = {
      method: 'POST',
      targets: [`/api/0/buckets/${BUCKET}/events`],
      body: awEventBody(new Date()),
      // The same headers as Tock's requests, and a reset keep-alive connection retried once.
      idempotencyKeys: true,
      concurrency: WRITE_CONCURRENCY,
      durationMs: config.writesMs,
      expectStatus: 200,
    };

    // Reads first: the writes grow both stores. One unmeasured run of each first (figure 1
    // says why: a Node server's first seconds include its JIT's work).
    const primeMs = config.warmupMs * 6;
    config.log(`  priming both servers with ${primeMs} ms of reads and ${config.warmupMs * 2} ms of writes (not measured)`);
    assertAllOk(await drive(tockLoad({ warmupMs: 0, durationMs: primeMs })), 'priming GET /status');
    assertAllOk(await drive(awLoad({ targets: ['/api/0/info'], warmupMs: 0, durationMs: primeMs })), 'priming aw GET /api/0/info');
    assertAllOk(await drive(tockLoad({ ...tockWrite, warmupMs: 0, durationMs: config.warmupMs * 2 })), 'priming POST /entries');
    assertAllOk(await drive(awLoad({ ...awWrite, warmupMs: 0, durationMs: config.warmupMs * 2 })), 'priming aw event writes');
    const floorLoad = (extra: Partial<DriverConfig>): DriverConfig => ({ ...tockLoad(extra), port: floor.ready.port, token: floor.ready.token });
    assertAllOk(await drive(floorLoad({ ...tockWrite, warmupMs: 0, durationMs: config.warmupMs * 2 })), 'priming the floor');

    config.log(`  reads: ${config.rounds} rounds of ${config.throughputMs} ms, ${config.concurrency} in flight (aw, Tock; then Tock, aw)`);
    const reads = await pairedRounds(
      config.rounds,
      async () => {
        const r = await driveAw(peer, awLoad({ targets: ['/api/0/info'] }));
        assertAllOk(r, 'aw-server-rust GET /api/0/info');
        return { value: r.serverCpuUsPerRequest, detail: r };
      },
      async () => {
        const r = (await drive(tockLoad({}), app)) as MeasuredRun;
        assertAllOk(r, 'GET /status');
        return { value: r.serverCpuUsPerRequest, detail: r };
      },
    );

    config.log(`  writes: ${config.rounds} rounds of ${config.writesMs} ms, ${WRITE_CONCURRENCY} in flight (aw, floor, Tock; then Tock, floor, aw)`);
    const sides = {
      aw: async () => {
        const r = await driveAw(peer, awLoad(awWrite));
        assertAllOk(r, 'aw-server-rust event writes');
        return r;
      },
      floor: async () => {
        const r = (await drive(floorLoad(tockWrite), floor)) as MeasuredRun;
        assertAllOk(r, 'the entry floor');
        return r;
      },
      app: async () => {
        const r = (await drive(tockLoad(tockWrite), app)) as MeasuredRun;
        assertAllOk(r, 'POST /entries');
        return r;
      },
    };
    const runs = await alternatingRounds(config.rounds, ['aw', 'floor', 'app'], sides);
    const cpuPerWrite = (d: MeasuredRun): number => d.serverCpuUsPerRequest;
    const writes = pairOf(runs.app, runs.aw, cpuPerWrite);
    const floorWrites = pairOf(runs.floor, runs.aw, cpuPerWrite);
    const overFloor = pairOf(runs.app, runs.floor, cpuPerWrite);
    loadAverage.end = loadNow();

    const rates = (p: { subjectDetails: MeasuredRun[]; baselineDetails: MeasuredRun[] }) => {
      const tock = median(p.subjectDetails.map((d) => d.rps));
      const peerRps = median(p.baselineDetails.map((d) => d.rps));
      return { tock: round(tock, 0), aw: round(peerRps, 0), ratio: round(tock / peerRps, 3) };
    };
    const common = { peer: `aw-server-rust ${peer.info.version ?? '(version unknown)'}`, loadAverage };
    const writeRates = rates(writes);
    const writeFigure = pairedFigure(WRITES, writes, {
      ...common,
      concurrency: WRITE_CONCURRENCY,
      rps: writeRates,
      p50Ms: {
        tock: round(median(writes.subjectDetails.map((d) => d.latencyMs.p50)), 3),
        aw: round(median(writes.baselineDetails.map((d) => d.latencyMs.p50)), 3),
      },
    });
    writeFigure.note =
      `Tock ${round(writeFigure.value ?? Number.NaN, 1)} µs vs aw ${round(writeFigure.baseline ?? Number.NaN, 1)} µs a write; ` +
      `${writeRates.tock} vs ${writeRates.aw} writes/s (${round(writeRates.ratio, 2)}×); load ${loadAverage.start[0]} → ${loadAverage.end[0]}`;
    const readRates = rates(reads);
    const readFigure = pairedFigure(READS, reads, { ...common, concurrency: config.concurrency, rps: readRates });
    readFigure.note =
      `Tock ${round(readFigure.value ?? Number.NaN, 1)} µs vs aw ${round(readFigure.baseline ?? Number.NaN, 1)} µs a request; ` +
      `${readRates.tock} vs ${readRates.aw} req/s`;
    const floorFigure = pairedFigure(FLOOR, floorWrites, { ...common, tockOverFloor: round(median(overFloor.ratios), 3) });
    floorFigure.note =
      `the floor ${round(floorFigure.value ?? Number.NaN, 1)} µs vs aw ${round(floorFigure.baseline ?? Number.NaN, 1)} µs a write; ` +
      `Tock ${round(median(overFloor.ratios), 2)}× the floor`;
    return [writeFigure, floorFigure, readFigure];
  } finally {
    await Promise.all([app.stop(), floor.stop(), aw?.stop()]);
  }
}
