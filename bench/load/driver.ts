/**
 * The load generator, run in its own process by bench/run.ts:
 *
 *   node bench/load/driver.ts '<DriverConfig as JSON>'
 *
 * Keep-alive connections (node:http Agent), every request signed with a fresh nonce. Two
 * modes: closed loop (`concurrency` workers, each sends its next request when the last one
 * answered: maximum throughput) and open loop (`rate` requests per second on a fixed
 * schedule, latency counted from the scheduled send time, so a stalled server is not
 * hidden by the driver waiting for it). Warm-up requests are not counted. Prints one JSON
 * line: {@link DriverResult}.
 */

import { Agent, request } from 'node:http';
import { EMPTY_BODY_SHA256, HEADER } from '@tock/protocol';
import { RequestSigner, sha256Hex } from '../lib/signing.ts';
import { Samples, summarize, type LatencySummary } from '../lib/stats.ts';

/** What to send, how hard and for how long. */
export interface DriverConfig {
  port: number;
  token: string;
  method: 'GET' | 'POST';
  /** Request targets (path and query), used in turn. */
  targets: string[];
  /** JSON body sent with every request (POST). */
  body?: string;
  /** Send a fresh `Idempotency-Key` with every request. */
  idempotencyKeys?: boolean;
  /** Closed loop: this many requests in flight. Open loop: at most this many connections. */
  concurrency: number;
  /** Open loop at this many requests per second; absent: closed loop. */
  rate?: number;
  warmupMs: number;
  durationMs: number;
  /** The status every answer should have. */
  expectStatus: number;
  /** Also summarize latency per target. */
  perTarget?: boolean;
}

/** What one driver run measured (warm-up excluded). */
export interface DriverResult {
  /** Answers with the expected status per second of measurement. */
  rps: number;
  completed: number;
  ok: number;
  /** Answers with the expected status, warm-up included. */
  totalOk: number;
  seconds: number;
  statuses: Record<string, number>;
  latencyMs: LatencySummary;
  perTarget?: Record<string, LatencySummary>;
  errors: number;
  firstError?: string;
  /**
   * Requests whose reused keep-alive connection the server had just closed (ECONNRESET on a
   * reused socket), sent again once on a new one — what an HTTP client does for an idempotent
   * request (Node's `request.reusedSocket` documents the race). Not errors unless the retry fails.
   */
  keepAliveRetries: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as DriverConfig;
const signer = new RequestSigner(config.token);
const agent = new Agent({ keepAlive: true, maxSockets: config.concurrency, maxFreeSockets: config.concurrency });
const bodySha256 = config.body === undefined ? EMPTY_BODY_SHA256 : sha256Hex(config.body);
const bodyBytes = config.body === undefined ? undefined : Buffer.from(config.body, 'utf8');
const host = `127.0.0.1:${config.port}`;

let measuring = false;
let stopped = false;
const latencies = new Samples();
const byTarget = new Map<string, Samples>();
const statuses: Record<string, number> = {};
let completed = 0;
let ok = 0;
let totalOk = 0;
let errors = 0;
let firstError: string | undefined;
let keepAliveRetries = 0;
let targetIndex = 0;
let keyCounter = 0;

/** Sends one signed request; resolves when its answer has been read (never rejects). */
function send(scheduledAt: number): Promise<void> {
  const target = config.targets[targetIndex++ % config.targets.length] as string;
  const idempotencyKey = config.idempotencyKeys ? `${signer.nextNonce()}k${keyCounter++}` : undefined;
  return sendTo(target, idempotencyKey, scheduledAt, config.method === 'GET' || idempotencyKey !== undefined);
}

/**
 * Sends a freshly signed request to `target`. `mayRetry` (an idempotent request): sent once
 * more, with the same idempotency key, when a reused keep-alive connection was reset.
 */
function sendTo(target: string, idempotencyKey: string | undefined, scheduledAt: number, mayRetry: boolean): Promise<void> {
  const headers: Record<string, string | number> = { host, ...signer.headers(config.method, target, bodySha256) };
  if (bodyBytes !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = bodyBytes.length;
  }
  if (idempotencyKey !== undefined) headers[HEADER.idempotencyKey] = idempotencyKey;
  const counted = measuring;
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: config.port, method: config.method, path: target, headers, agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => {
        if (res.statusCode === config.expectStatus) totalOk++;
        if (counted) {
          const ms = performance.now() - scheduledAt;
          completed++;
          const status = res.statusCode ?? 0;
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status === config.expectStatus) ok++;
          latencies.push(ms);
          if (config.perTarget) {
            let s = byTarget.get(target);
            if (!s) {
              s = new Samples();
              byTarget.set(target, s);
            }
            s.push(ms);
          }
        }
        resolve();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (mayRetry && req.reusedSocket && error.code === 'ECONNRESET') {
        keepAliveRetries++;
        void sendTo(target, idempotencyKey, scheduledAt, false).then(resolve);
        return;
      }
      errors++;
      firstError ??= `${error.message}${req.reusedSocket ? ' on a reused connection' : ''}`;
      resolve();
    });
    req.end(bodyBytes);
  });
}

async function closedLoop(): Promise<void> {
  const worker = async (): Promise<void> => {
    while (!stopped) {
      await send(performance.now());
      if (errors > 100) return;
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, worker));
}

async function openLoop(rate: number): Promise<void> {
  const interval = 1000 / rate;
  const inFlight = new Set<Promise<void>>();
  let next = performance.now();
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      while (next <= now && !stopped) {
        const p = send(next);
        inFlight.add(p);
        void p.then(() => inFlight.delete(p));
        next += interval;
      }
      if (stopped) {
        resolve();
        return;
      }
      setTimeout(tick, Math.max(0, next - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
}

const started = performance.now();
let measureStart = started;
setTimeout(() => {
  measuring = true;
  measureStart = performance.now();
}, config.warmupMs);
let measureEnd = 0;
setTimeout(() => {
  measureEnd = performance.now();
  measuring = false;
  stopped = true;
}, config.warmupMs + config.durationMs);

await (config.rate === undefined ? closedLoop() : openLoop(config.rate));
if (measureEnd === 0) measureEnd = performance.now();
agent.destroy();

const seconds = (measureEnd - measureStart) / 1000;
const result: DriverResult = {
  rps: ok / seconds,
  completed,
  ok,
  totalOk,
  seconds,
  statuses,
  latencyMs: summarize(latencies.toArray()),
  errors,
  keepAliveRetries,
};
if (config.perTarget) {
  result.perTarget = Object.fromEntries([...byTarget].map(([t, s]) => [t, summarize(s.toArray())]));
}
if (firstError !== undefined) result.firstError = firstError;
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
