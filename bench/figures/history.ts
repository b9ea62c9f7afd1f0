/**
 * Figure 3: `GET /status` latency with a long history (1 M past sessions, one in ten with a
 * break) against the same app with a short one (1 k), both with the same blocks today and a
 * running session. One request at a time, so the figure is the latency of one call, and
 * anything that reads the history instead of today shows up in it.
 */

import { drive, startAppServer, type ServerHandle } from '../lib/children.ts';
import type { AppServerReady } from '../servers/app-server.ts';
import { cpuComparison, pairedFigure, pairedRounds, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { assertAllOk, medianOf } from './throughput.ts';

export async function historyFigure(config: BenchConfig): Promise<FigureResult> {
  const { small, large } = config.sessions;
  const base = {
    id: 'status-latency-history',
    title: `GET /status p50 latency, ${count(large)} past sessions`,
    unit: 'ms',
    baselineLabel: `the same with ${count(small)} past sessions`,
    target: { kind: 'max', ratio: 1.2 } as Target,
  };
  config.log(`  seeding ${count(small)} and ${count(large)} past sessions`);
  const [short, long] = await Promise.all([
    startAppServer({ seed: { pastSessions: small, today: true } }, { execArgv: config.serverArgs('history-small') }),
    startAppServer({ seed: { pastSessions: large, today: true } }, { execArgv: config.serverArgs('history-large'), timeoutMs: 300_000 }),
  ]);
  try {
    const measure = async (server: ServerHandle<AppServerReady>, what: string) => {
      const { port, token } = server.ready;
      const r = await drive({
        port,
        token,
        method: 'GET',
        targets: ['/status'],
        concurrency: 1,
        warmupMs: config.warmupMs,
        durationMs: config.latencyMs,
        expectStatus: 200,
      }, server);
      assertAllOk(r, what);
      return { value: r.latencyMs.p50, detail: r };
    };
    const paired = await pairedRounds(
      config.rounds,
      () => measure(short, `GET /status, ${small} sessions`),
      () => measure(long, `GET /status, ${large} sessions`),
    );
    const cpu = cpuComparison(paired.subjectDetails, paired.baselineDetails);
    const figure = pairedFigure(base, paired, {
      serverCpuPerRequest: cpu,
      sessions: { subject: large, baseline: small },
      seedMs: { subject: Math.round(long.ready.seed?.ms ?? 0), baseline: Math.round(short.ready.seed?.ms ?? 0) },
      p99Ms: { subject: medianOf(paired.subjectDetails, (d) => d.latencyMs.p99), baseline: medianOf(paired.baselineDetails, (d) => d.latencyMs.p99) },
      meanMs: { subject: medianOf(paired.subjectDetails, (d) => d.latencyMs.mean), baseline: medianOf(paired.baselineDetails, (d) => d.latencyMs.mean) },
    });
    figure.note = `server CPU/request ${cpu.subjectUs} µs vs ${cpu.baselineUs} µs (${cpu.ratio}×)`;
    return figure;
  } finally {
    await Promise.all([short.stop(), long.stop()]);
  }
}

/** 1000 → "1 k", 1000000 → "1 M". */
export function count(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000} M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000} k`;
  return String(n);
}
