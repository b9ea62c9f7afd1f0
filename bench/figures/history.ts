/**
 * Figure 3: `GET /status` latency with a long history (1 M past sessions, one in ten with a
 * break) against the same app with a short one (1 k), both with the same blocks today and a
 * running session. One request at a time, so the figure is the latency of one call, and
 * anything that reads the history instead of today shows up in it.
 */

import { drive, startAppServer } from '../lib/children.ts';
import { pairedFigure, pairedRounds, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
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
    const measure = async (port: number, token: string, what: string) => {
      const r = await drive({
        port,
        token,
        method: 'GET',
        targets: ['/status'],
        concurrency: 1,
        warmupMs: config.warmupMs,
        durationMs: config.latencyMs,
        expectStatus: 200,
      });
      assertAllOk(r, what);
      return { value: r.latencyMs.p50, detail: r };
    };
    const paired = await pairedRounds(
      config.rounds,
      () => measure(short.ready.port, short.ready.token, `GET /status, ${small} sessions`),
      () => measure(long.ready.port, long.ready.token, `GET /status, ${large} sessions`),
    );
    return pairedFigure(base, paired, {
      sessions: { subject: large, baseline: small },
      seedMs: { subject: Math.round(long.ready.seed?.ms ?? 0), baseline: Math.round(short.ready.seed?.ms ?? 0) },
      p99Ms: { subject: medianOf(paired.subjectDetails, (d) => d.latencyMs.p99), baseline: medianOf(paired.baselineDetails, (d) => d.latencyMs.p99) },
      meanMs: { subject: medianOf(paired.subjectDetails, (d) => d.latencyMs.mean), baseline: medianOf(paired.baselineDetails, (d) => d.latencyMs.mean) },
    });
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
