/**
 * Figure 15b, pushed changes (issue 42 target 1): a change made over the admin socket — what
 * `tock start` does — reaching each of 16 open `GET /events` streams of a real app, ms from
 * the admin request sent to the `status` event's arrival on each stream, median and p99.
 * Before the change bus (packages/app/src/change-bus.ts) the app looked for such changes once
 * a second (624 ms median, 941 ms worst); now the store's write notice pushes them.
 *
 * Baseline in the same run: the bare node:http server of figure 15 (servers/sse-server.ts),
 * which answers a POST and pushes the same JSON to 16 SSE streams, measured the same way from
 * the request sent. Target: ≤ 100 ms median and ≤ 250 ms p99 (absolute: the person's wait).
 */
import { adminRequest, homePaths } from '@tock/app';
import { pairedRounds, round, unmeasured, type BenchConfig, type FigureResult } from '../lib/figure.ts';
import { startAppServer, startSseServer } from '../lib/children.ts';
import { RequestSigner, sha256Hex } from '../lib/signing.ts';
import { median, percentileOfSorted } from '../lib/stats.ts';
import { OpenStream, post } from './events.ts';

const STREAMS = 16;

const FIGURE = {
  id: 'pushed-changes',
  title: 'admin change → 16 GET /events streams, median',
  unit: 'ms',
  baselineLabel: 'bare node:http POST → SSE push to 16 streams',
  target: { kind: 'report', text: '≤ 100 ms median, ≤ 250 ms p99' } as const,
};

interface RoundDetail {
  p50: number;
  p99: number;
  max: number;
}

/** `changes` changes, each from its send to its event on every stream. */
async function measure(port: number, streamHeaders: () => Record<string, string>, change: (i: number) => Promise<unknown>, changes: number): Promise<{ value: number; detail: RoundDetail }> {
  const streams = await Promise.all(Array.from({ length: STREAMS }, () => OpenStream.open(port, streamHeaders())));
  try {
    const latencies = new Float64Array(changes * STREAMS);
    let k = 0;
    for (let i = 0; i < changes; i++) {
      const before = streams.map((s) => s.arrivals.length);
      const sentAt = performance.now();
      await change(i);
      await Promise.all(streams.map((s, j) => s.until((before[j] as number) + 1)));
      for (const [j, s] of streams.entries()) latencies[k++] = (s.arrivals[before[j] as number] as number) - sentAt;
    }
    latencies.sort();
    const p50 = percentileOfSorted(latencies, 50);
    return { value: p50, detail: { p50: round(p50, 3), p99: round(percentileOfSorted(latencies, 99), 3), max: round(latencies[latencies.length - 1] ?? 0, 3) } };
  } finally {
    for (const s of streams) s.close();
  }
}

/** Figure 15b; see the module comment. */
export async function pushedChangesFigure(config: BenchConfig): Promise<FigureResult> {
  const changes = config.smoke ? 10 : 100;
  try {
    const paired = await pairedRounds(
      config.rounds,
      async () => {
        const server = await startSseServer({ execArgv: config.serverArgs('pushed-bare') });
        try {
          const { port } = server.ready;
          const push = () => post(port, '/push', '{}', {});
          await measure(port, () => ({}), push, 4);
          return await measure(port, () => ({}), push, changes);
        } finally {
          await server.stop();
        }
      },
      async () => {
        const app = await startAppServer({}, { execArgv: config.serverArgs('pushed-app') });
        try {
          const { port, token, home } = app.ready;
          const signer = new RequestSigner(token);
          const socket = homePaths(home).adminSocket;
          // Alternating between two activities: every start is a switch, so a status event.
          const start = (i: number) => adminRequest(socket, 'POST', '/activities/start', { name: `Bench pushed ${i % 2}`, createIfMissing: true });
          const headers = () => signer.headers('GET', '/events', sha256Hex(''));
          await measure(port, headers, start, 4); // even: the measured first start is a switch
          return await measure(port, headers, start, changes);
        } finally {
          await app.stop();
        }
      },
    );
    const p50 = median(paired.subject);
    const p99 = median(paired.subjectDetails.map((d) => d.p99));
    const ratio = median(paired.ratios);
    return {
      ...FIGURE,
      value: round(p50, 3),
      baseline: round(median(paired.baseline), 3),
      ratio: round(ratio, 3),
      pass: p50 <= 100 && p99 <= 250,
      status: 'measured',
      note: `median ${round(p50, 2)} ms, p99 ${round(p99, 2)} ms (before the bus: 624 ms median, 941 ms worst); the bare push ${round(median(paired.baseline), 2)} ms median, p99 ${round(median(paired.baselineDetails.map((d) => d.p99)), 2)} ms`,
      details: {
        streams: STREAMS,
        changesPerRound: changes,
        rounds: paired.ratios.length,
        roundRatios: paired.ratios.map((r) => round(r, 3)),
        p99,
        subject: paired.subjectDetails,
        baseline: paired.baselineDetails,
      },
    };
  } catch (error) {
    return unmeasured(FIGURE, 'error', error instanceof Error ? error.message : String(error));
  }
}
