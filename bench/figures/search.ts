/**
 * Figure 4: `GET /activities/search` latency with many activities (100 k) against few (1 k).
 * One request at a time, cycling through a fixed mix of queries a user types: empty (most
 * recent), prefixes, whole words, an accent-insensitive one, two words, substrings inside
 * words, and queries that match nothing or almost nothing (these walk the whole recency
 * index). The figure is the mean over the mix of each query's median latency; every query's
 * own ratio is in the details, so a query that scales badly is named.
 */

import { drive, startAppServer, type ServerHandle } from '../lib/children.ts';
import type { AppServerReady } from '../servers/app-server.ts';
import { cpuComparison, pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';
import type { DriverResult } from '../load/driver.ts';
import { count } from './history.ts';
import { assertAllOk } from './throughput.ts';

/** The query mix, limit 20 (the default). */
export const SEARCH_QUERIES = ['', 're', 'rev', 'review', 'cafe', 'alpha beta', 'ode', 'view', 'port 12', 'zzz', 'xylophone'];

function targetOf(q: string): string {
  return `/activities/search?q=${encodeURIComponent(q)}&limit=20`;
}

export async function searchFigure(config: BenchConfig): Promise<FigureResult> {
  const { small, large } = config.activities;
  const base = {
    id: 'search-latency-activities',
    title: `GET /activities/search latency, ${count(large)} activities`,
    unit: 'ms',
    baselineLabel: `the same with ${count(small)} activities`,
    target: { kind: 'max', ratio: 3 } as Target,
  };
  config.log(`  seeding ${count(small)} and ${count(large)} activities`);
  const [few, many] = await Promise.all([
    startAppServer({ seed: { activities: small, today: true } }, { execArgv: config.serverArgs('search-small') }),
    startAppServer({ seed: { activities: large, today: true } }, { execArgv: config.serverArgs('search-large'), timeoutMs: 300_000 }),
  ]);
  const targets = SEARCH_QUERIES.map(targetOf);
  /** Mean over the mix of each query's median latency. */
  const mixMean = (r: DriverResult): number => {
    const per = targets.map((t) => r.perTarget?.[t]?.p50 ?? Number.NaN);
    return per.reduce((a, b) => a + b, 0) / per.length;
  };
  try {
    const measure = async (server: ServerHandle<AppServerReady>, what: string) => {
      const { port, token } = server.ready;
      const r = await drive({
        port,
        token,
        method: 'GET',
        targets,
        concurrency: 1,
        warmupMs: config.warmupMs,
        durationMs: config.latencyMs,
        expectStatus: 200,
        perTarget: true,
      }, server);
      assertAllOk(r, what);
      return { value: mixMean(r), detail: r };
    };
    const paired = await pairedRounds(
      config.rounds,
      () => measure(few, `search, ${small} activities`),
      () => measure(many, `search, ${large} activities`),
    );
    const perQuery: Record<string, { subjectMs: number; baselineMs: number; ratio: number }> = {};
    for (const [i, q] of SEARCH_QUERIES.entries()) {
      const t = targets[i] as string;
      const s = median(paired.subjectDetails.map((d) => d.perTarget?.[t]?.p50 ?? Number.NaN));
      const b = median(paired.baselineDetails.map((d) => d.perTarget?.[t]?.p50 ?? Number.NaN));
      perQuery[JSON.stringify(q)] = { subjectMs: round(s, 3), baselineMs: round(b, 3), ratio: round(s / b, 2) };
    }
    const worst = Object.entries(perQuery).sort((a, b) => b[1].ratio - a[1].ratio)[0];
    const cpu = cpuComparison(paired.subjectDetails, paired.baselineDetails);
    const figure = pairedFigure(base, paired, { activities: { subject: large, baseline: small }, serverCpuPerRequest: cpu, perQuery });
    figure.note = `server CPU/request ${cpu.ratio}×` + (worst ? `; worst query ${worst[0]}: ${worst[1].ratio}×` : '');
    return figure;
  } finally {
    await Promise.all([few.stop(), many.stop()]);
  }
}
