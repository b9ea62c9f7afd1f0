/**
 * The event stream (docs/protocol.md "The event stream: `GET /events`"), two figures:
 *
 * - **event-latency-16**: from a `POST /activities/start` being answered to its `status` event
 *   arriving on each of 16 open streams, p99 — against a bare node:http server that pushes the
 *   same JSON to 16 SSE streams after answering a POST (bench/servers/sse-server.ts). Tock's side
 *   also verifies the request, writes the session durably, computes the status and signs the
 *   event once per stream. Target ≤ 2×.
 * - **events-idle-cpu**: the app's CPU while 16 streams are open and nothing changes, as a
 *   share of one core (the keep-alives, the once-a-second checks). Target ≤ 1 %.
 */

import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { EventStreamParser } from '@tock/protocol';
import { pairedFigure, pairedRounds, round, unmeasured, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { startAppServer, startSseServer, type ServerHandle } from '../lib/children.ts';
import { RequestSigner, sha256Hex } from '../lib/signing.ts';
import { median, percentileOfSorted } from '../lib/stats.ts';

const STREAMS = 16;

const LATENCY = {
  id: 'event-latency-16',
  title: 'status event latency to 16 streams, p99',
  unit: 'ms',
  baselineLabel: 'bare node:http SSE push to 16 streams',
  target: { kind: 'max', ratio: 2 } as Target,
};
const IDLE = {
  id: 'events-idle-cpu',
  title: 'app CPU with 16 idle event streams, share of one core',
  unit: '% of a core',
  baselineLabel: 'one core',
  target: { kind: 'max', ratio: 0.01 } as Target,
};

/** One open stream: when each of its status events arrived (performance.now()); also for figure 15b (pushed-changes.ts). */
export class OpenStream {
  readonly arrivals: number[] = [];
  #waiters: (() => void)[] = [];
  res!: IncomingMessage;

  static async open(port: number, headers: Record<string, string>): Promise<OpenStream> {
    const stream = new OpenStream();
    const req = request({ host: '127.0.0.1', port, path: '/events', headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false });
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    if (res.statusCode !== 200) throw new Error(`GET /events answered ${res.statusCode}`);
    stream.res = res;
    const parser = new EventStreamParser();
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      const now = performance.now();
      for (const event of parser.push(chunk)) if (event.event === 'status') stream.arrivals.push(now);
      for (const wake of stream.#waiters.splice(0)) wake();
    });
    await stream.until(1);
    return stream;
  }

  async until(count: number): Promise<void> {
    while (this.arrivals.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  close(): void {
    this.res.destroy();
  }
}

/** One side of the latency figure: how to open a stream and how to cause one event. */
interface Side {
  port: number;
  streamHeaders(): Record<string, string>;
  /** Sends the write; resolves when its answer was fully received. */
  push(i: number): Promise<void>;
}

export function post(port: number, path: string, body: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`POST ${path} answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function appSide(port: number, token: string): Side {
  const signer = new RequestSigner(token);
  return {
    port,
    streamHeaders: () => signer.headers('GET', '/events', sha256Hex('')),
    push(i) {
      // Alternating between two activities: every start is a switch, so every start is a status event.
      const body = JSON.stringify({ name: `Bench event ${i % 2}`, createIfMissing: true });
      return post(port, '/activities/start', body, signer.headers('POST', '/activities/start', sha256Hex(body)));
    },
  };
}

function bareSide(port: number): Side {
  return { port, streamHeaders: () => ({}), push: () => post(port, '/push', '{}', {}) };
}

/** What one round measured besides the figure's p99. */
interface RoundDetail {
  p50: number;
  max: number;
  /** p99 from the request being sent to the event, ms: the whole path, write included. */
  sentP99: number;
}

/**
 * p99 of the latencies from each answered push to its event on each of 16 streams, ms (0 for
 * an event that arrived before the answer: Tock sends it as the write becomes durable).
 */
async function latencyP99(side: Side, pushes: number): Promise<{ value: number; detail: RoundDetail }> {
  const streams = await Promise.all(Array.from({ length: STREAMS }, () => OpenStream.open(side.port, side.streamHeaders())));
  try {
    const latencies = new Float64Array(pushes * STREAMS);
    const fromSent = new Float64Array(pushes * STREAMS);
    let k = 0;
    for (let i = 0; i < pushes; i++) {
      const before = streams.map((s) => s.arrivals.length);
      const sentAt = performance.now();
      await side.push(i);
      const answeredAt = performance.now();
      await Promise.all(streams.map((s, j) => s.until((before[j] as number) + 1)));
      for (const [j, s] of streams.entries()) {
        const arrivedAt = s.arrivals[before[j] as number] as number;
        latencies[k] = Math.max(0, arrivedAt - answeredAt);
        fromSent[k++] = arrivedAt - sentAt;
      }
    }
    latencies.sort();
    fromSent.sort();
    return {
      value: percentileOfSorted(latencies, 99),
      detail: {
        p50: round(percentileOfSorted(latencies, 50), 3),
        max: round(latencies[latencies.length - 1] ?? 0, 3),
        sentP99: round(percentileOfSorted(fromSent, 99), 3),
      },
    };
  } finally {
    for (const s of streams) s.close();
  }
}

/**
 * One round of one side on a fresh server: a warm-up, then `pushes` measured events. Fresh,
 * because every start is a session: a day of a few hundred switches is the most a person
 * makes, and a day of thousands would measure today's total, not the stream.
 */
async function round_(
  start: () => Promise<ServerHandle<{ port: number; token?: string }>>,
  side: (ready: { port: number; token?: string }) => Side,
  pushes: number,
): Promise<{ value: number; detail: RoundDetail }> {
  const server = await start();
  try {
    const s = side(server.ready);
    await latencyP99(s, 20);
    return await latencyP99(s, pushes);
  } finally {
    await server.stop();
  }
}

/** Both event figures. */
export async function eventFigures(config: BenchConfig): Promise<FigureResult[]> {
  const pushes = config.smoke ? 20 : 150;
  let latency: FigureResult;
  try {
    const paired = await pairedRounds(
      config.rounds,
      () => round_(() => startSseServer({ execArgv: config.serverArgs('events-bare') }), (r) => bareSide(r.port), pushes),
      () =>
        round_(
          () => startAppServer({}, { execArgv: config.serverArgs('events-app') }),
          (r) => appSide(r.port, r.token ?? ''),
          pushes,
        ),
    );
    latency = pairedFigure(LATENCY, paired, {
      streams: STREAMS,
      pushesPerRound: pushes,
      subject: paired.subjectDetails,
      baseline: paired.baselineDetails,
    });
    const sent = (details: RoundDetail[]): number => median(details.map((d) => d.sentP99));
    const sentRatio = median(paired.subjectDetails.map((d, i) => d.sentP99 / (paired.baselineDetails[i]?.sentP99 ?? Number.NaN)));
    latency.note =
      `p99 ${round(latency.value ?? 0, 3)} ms vs ${round(latency.baseline ?? 0, 3)} ms (events leave as the write is durable, before its answer); ` +
      `from the request sent, write included: ${round(sent(paired.subjectDetails), 2)} vs ${round(sent(paired.baselineDetails), 2)} ms (${round(sentRatio, 2)}×)`;
  } catch (error) {
    latency = unmeasured(LATENCY, 'error', error instanceof Error ? error.message : String(error));
  }
  const app = await startAppServer({}, { execArgv: config.serverArgs('events-idle') });
  try {
    return [latency, await idleCpu(app, appSide(app.ready.port, app.ready.token), config)];
  } catch (error) {
    return [latency, unmeasured(IDLE, 'error', error instanceof Error ? error.message : String(error))];
  } finally {
    await app.stop();
  }
}

/** The app's CPU over a quiet window with 16 streams open, as a share of one core. */
async function idleCpu(app: ServerHandle<unknown>, side: Side, config: BenchConfig): Promise<FigureResult> {
  const windowMs = config.smoke ? 2_000 : 30_000;
  const streams = await Promise.all(Array.from({ length: STREAMS }, () => OpenStream.open(side.port, side.streamHeaders())));
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000)); // let the opening settle
    const before = await app.cpuUs();
    const startedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const usedMs = ((await app.cpuUs()) - before) / 1000;
    const elapsedMs = performance.now() - startedAt;
    const share = usedMs / elapsedMs;
    const extra = streams.reduce((n, s) => n + s.arrivals.length - 1, 0);
    return {
      ...IDLE,
      value: round(share * 100, 3),
      baseline: 100,
      ratio: round(share, 5),
      pass: share <= 0.01,
      status: 'measured',
      note: `${round(usedMs, 1)} ms CPU in ${round(elapsedMs / 1000, 1)} s; ${extra} events while idle (must be 0)`,
      details: { windowMs: elapsedMs, cpuMs: usedMs, eventsWhileIdle: extra },
    };
  } finally {
    for (const s of streams) s.close();
  }
}
