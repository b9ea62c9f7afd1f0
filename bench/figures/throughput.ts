/**
 * Figures 1, 1b and 2: signed `GET /status` against a bare node:http server answering a
 * constant body. The servers run in their own processes for the whole figure; the driver, in
 * another, sends exactly the same signed requests to each (the bare server ignores the
 * signature), so the only difference is what the server does with them.
 *
 * 1. Throughput: closed loop, `concurrency` requests in flight, keep-alive.
 * 1b. Server CPU per request of those same runs, Tock over the bare server; beside them the
 *    floor stand-in (servers/floor-server.ts: verify the request's HMAC, hash and sign the
 *    answer, nothing else), run in the same rounds between the two, so that the report says
 *    how much of the gap the cryptography is.
 * 2. p99 latency at half the app's measured maximum, open loop, the same rate to both.
 */

import { drive, startAppServer, startBareServer, startFloorServer } from '../lib/children.ts';
import { alternatingRounds, cpuComparison, pairOf, pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';
import type { DriverConfig, DriverResult } from '../load/driver.ts';

const THROUGHPUT = {
  id: 'status-throughput',
  title: 'signed GET /status throughput (keep-alive)',
  unit: 'req/s',
  baselineLabel: 'bare node:http, constant JSON',
  target: { kind: 'min', ratio: 0.75 } as Target,
};
const CPU = {
  id: 'status-cpu',
  title: 'signed GET /status server CPU per request',
  unit: 'µs',
  baselineLabel: 'bare node:http, constant JSON (figure 1\'s runs)',
  // Issue 42 target 2 (1.35 before).
  target: { kind: 'max', ratio: 1.25 } as Target,
};
const TAIL = {
  id: 'status-p99-half-load',
  title: 'signed GET /status p99 at half max rate',
  unit: 'ms',
  baselineLabel: 'bare node:http at the same rate',
  target: { kind: 'max', ratio: 1.5 } as Target,
};

/** Fails the figure when answers were not what they should be (a 429 would mean a lockout or a full nonce window). */
export function assertAllOk(result: DriverResult, what: string): void {
  const bad = result.completed - result.ok;
  if (result.completed === 0 || bad > 0 || result.errors > 0) {
    throw new Error(
      `${what}: ${result.ok}/${result.completed} answers as expected, statuses ${JSON.stringify(result.statuses)}, ` +
        `${result.errors} errors${result.firstError ? ` (${result.firstError})` : ''}`,
    );
  }
}

export async function throughputFigures(config: BenchConfig): Promise<FigureResult[]> {
  const app = await startAppServer({ seed: { today: true } }, { execArgv: config.serverArgs('status') });
  const bare = await startBareServer({ execArgv: config.serverArgs('bare') });
  const floor = await startFloorServer({ execArgv: config.serverArgs('floor') });
  try {
    const load = (port: number, token: string, extra: Partial<DriverConfig>): DriverConfig => ({
      port,
      token,
      method: 'GET',
      targets: ['/status'],
      concurrency: config.concurrency,
      warmupMs: config.warmupMs,
      durationMs: config.throughputMs,
      expectStatus: 200,
      ...extra,
    });
    const appToken = app.ready.token;

    // One unmeasured run per server first. A server's first seconds include its JIT compiling
    // the request path on V8's background threads and its heap finding its sizes, which
    // process.cpuUsage() counts: a cost once per start, largest for the side with the most
    // code (Tock's first round measured 54–58 µs per request against 37–45 µs in the next
    // ones; the bare server's 33–36 against 26–29), and it fell into whichever round came
    // first. 3 s of priming still left Tock's first round 8–15 µs above the rest; 6 s.
    const primeMs = config.warmupMs * 6;
    config.log(`  priming each server with ${primeMs} ms of signed requests (not measured)`);
    for (const [server, token] of [[bare, appToken], [floor, floor.ready.token], [app, appToken]] as const) {
      assertAllOk(await drive(load(server.ready.port, token, { warmupMs: 0, durationMs: primeMs })), 'priming');
    }

    config.log(
      `  throughput: ${config.rounds} rounds of ${config.throughputMs} ms (bare, floor, Tock; then Tock, floor, bare), ${config.concurrency} in flight`,
    );
    // The floor runs between the other two in every round, so that each pair of rounds gives
    // all three sides the same positions on average.
    const sides = {
      bare: async () => {
        const r = await drive(load(bare.ready.port, appToken, {}), bare);
        assertAllOk(r, 'bare server');
        return r;
      },
      floor: async () => {
        const r = await drive(load(floor.ready.port, floor.ready.token, {}), floor);
        assertAllOk(r, 'floor stand-in');
        return r;
      },
      app: async () => {
        const r = await drive(load(app.ready.port, appToken, {}), app);
        assertAllOk(r, 'GET /status');
        return r;
      },
    };
    const runs = await alternatingRounds(config.rounds, ['bare', 'floor', 'app'], sides);
    const max = pairOf(runs.app, runs.bare, (d) => d.rps);
    const cpu = cpuComparison(max.subjectDetails, max.baselineDetails);
    const throughput = pairedFigure(THROUGHPUT, max, {
      concurrency: config.concurrency,
      serverCpuPerRequest: cpu,
      cpuBoundThroughputRatio: round(1 / cpu.ratio, 3),
      p50Ms: { subject: medianOf(max.subjectDetails, (d) => d.latencyMs.p50), baseline: medianOf(max.baselineDetails, (d) => d.latencyMs.p50) },
    });

    throughput.note = `server CPU/request ${cpu.subjectUs} µs vs ${cpu.baselineUs} µs: CPU-bound ratio ${round(1 / cpu.ratio, 2)}`;

    const cpuPerRequest = (d: MeasuredRun): number => d.serverCpuUsPerRequest ?? Number.NaN;
    const cpuPaired = pairOf(runs.app, runs.bare, cpuPerRequest);
    const overFloor = pairOf(runs.app, runs.floor, cpuPerRequest);
    const floorOverBare = pairOf(runs.floor, runs.bare, cpuPerRequest);
    const floorUs = round(median(runs.floor.map(cpuPerRequest)), 1);
    const cpuFigure = pairedFigure(CPU, cpuPaired, {
      floorUs,
      floorRounds: runs.floor.map((d) => round(cpuPerRequest(d), 1)),
      floorRps: runs.floor.map((d) => round(d.rps, 0)),
      tockOverFloor: round(median(overFloor.ratios), 3),
      floorOverBare: round(median(floorOverBare.ratios), 3),
    });
    cpuFigure.note =
      `floor (request HMAC checked, answer hashed and signed, nothing else) ${floorUs} µs = ${round(median(floorOverBare.ratios), 2)}× bare; ` +
      `Tock ${round(median(overFloor.ratios), 2)}× the floor`;

    const rate = Math.max(50, Math.floor((throughput.value ?? 100) / 2));
    config.log(`  latency: open loop at ${rate} req/s (half of ${Math.round(throughput.value ?? 0)})`);
    const tail = await pairedRounds(
      config.rounds,
      async () => {
        const r = await drive(load(bare.ready.port, appToken, { rate, concurrency: 64, durationMs: config.latencyMs }), bare);
        assertAllOk(r, 'bare server');
        return { value: r.latencyMs.p99, detail: r };
      },
      async () => {
        const r = await drive(load(app.ready.port, appToken, { rate, concurrency: 64, durationMs: config.latencyMs }), app);
        assertAllOk(r, 'GET /status');
        return { value: r.latencyMs.p99, detail: r };
      },
    );
    const latency = pairedFigure(TAIL, tail, {
      rate,
      achievedRps: { subject: medianOf(tail.subjectDetails, (d) => d.rps), baseline: medianOf(tail.baselineDetails, (d) => d.rps) },
      p50Ms: { subject: medianOf(tail.subjectDetails, (d) => d.latencyMs.p50), baseline: medianOf(tail.baselineDetails, (d) => d.latencyMs.p50) },
      serverCpuPerRequest: cpuComparison(tail.subjectDetails, tail.baselineDetails),
    });
    latency.note = `at ${rate} req/s`;
    // A closed loop gives the faster server the higher rate, and a server at a higher rate
    // handles more requests per wake-up, each for less CPU: figure 2's runs, both sides at one
    // rate, are the cross-check.
    const atOneRate = cpuComparison(tail.subjectDetails, tail.baselineDetails);
    cpuFigure.details.atHalfRate = atOneRate;
    cpuFigure.note += `; at one rate (figure 2's runs) ${atOneRate.subjectUs} vs ${atOneRate.baselineUs} µs (${round(atOneRate.ratio, 2)}×)`;
    return [throughput, cpuFigure, latency];
  } finally {
    await Promise.all([app.stop(), bare.stop(), floor.stop()]);
  }
}

/** One driver run with the server CPU it cost. */
type MeasuredRun = DriverResult & { serverCpuUsPerRequest?: number };

/** The median of one number picked from each round's result, rounded for the report. */
export function medianOf<D>(details: D[], pick: (d: D) => number): number {
  return round(median(details.map(pick)), 3);
}
