/**
 * Two commits of Tock side by side, CPU per operation in alternating rounds: the tool behind
 * bench/README.md's before/after figures when the machine is shared (issue 42). Each tree is a
 * clean copy of a commit with its own `node_modules/@tock` links (a copy made by
 * `git archive`, or a worktree); each runs its own `bench/servers/app-server.ts`, so both apps
 * are up throughout and see the same load. Rates on a loaded machine are noise; the server's
 * own CPU per operation (user + system, over IPC) barely moves with the load, so that is what
 * is compared.
 *
 *   node bench/load/ab-trees.ts --a=DIR --b=DIR --work=heartbeats|status|entries [--rounds=8]
 *        [--seconds=3] [--prime=4] [--baseline] [--in-order] [--profile=DIR]
 *
 * heartbeats: bulks of 25 to the WakaTime door, 4 in flight (figure 21's requests): each
 * worker's own rows, each bulk overlapping its last in time, or with `--in-order` figure 21's
 * rows, one list in time order taken bulk by bulk by the four workers, after 100 000
 * heartbeats stored as figure 21 does (which rows they are decides how many pages each bulk's
 * savepoint journals: bench/README.md "Target 5"); with
 * `--baseline` the bare `synchronous=FULL` loop of figure 21c runs between the two apps in each
 * round, and each tree's 21c ratio (bare ÷ Tock CPU per heartbeat) is printed too.
 * status: signed `GET /status`, 16 in flight, through bench/load/driver.ts (figure 1's); with
 * `--baseline` the floor server (figure 1b's) runs between the two, and Tock ÷ floor is printed.
 * entries: figure 5's signed `POST /entries` with an `Idempotency-Key`, 4 in flight, through the
 * driver, on a store seeded as figure 5's (no baseline).
 * Rounds alternate the order (A, base, B; then B, base, A). Prints one JSON line at the end.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { drive, startFloorServer, type ServerHandle } from '../lib/children.ts';
import { median } from '../lib/stats.ts';
import type { DriverConfig } from './driver.ts';
import { sqliteHeartbeatLoop, heartbeatRows } from './heartbeat-loop.ts';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    work: { type: 'string', default: 'heartbeats' },
    rounds: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '3' },
    prime: { type: 'string', default: '4' },
    baseline: { type: 'boolean', default: false },
    'in-order': { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
if (values.a === undefined || values.b === undefined) throw new Error('give both trees: --a=DIR --b=DIR');
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const primeSeconds = Number(values.prime);
const BULK = '/wakatime/api/v1/users/current/heartbeats.bulk';
const BULK_SIZE = 25;
const HEARTBEATS_IN_FLIGHT = 4;
const STATUS_IN_FLIGHT = 16;

interface Ready {
  port: number;
  token: string;
  pid: number;
  editorKey?: string;
}

/** A tree's app: its own bench/servers/app-server.ts, as run.ts starts the one of this tree. */
async function startTreeApp(tree: string, name: string): Promise<{ ready: Ready; child: ChildProcess; cpuUs(): Promise<number>; stop(): Promise<void> }> {
  const profile = values.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values.profile}`, `--cpu-prof-name=${name}.cpuprofile`];
  const stored = values['in-order'] ? 100_000 : 0;
  const config = values.work === 'entries' ? { seed: { today: true } } : { editors: { heartbeats: stored } };
  const child = spawn(process.execPath, [...profile, `${tree}/bench/servers/app-server.ts`, JSON.stringify(config)], {
    cwd: tree,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [null])])) as [string | null];
  if (line === null) throw new Error(`${tree}: the app exited before it was ready`);
  const exited = once(child, 'exit');
  return {
    ready: JSON.parse(line) as Ready,
    child,
    async cpuUs() {
      const reply = once(child, 'message') as Promise<[{ us: number }]>;
      child.send({ type: 'cpu' });
      return (await reply)[0].us;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

function post(agent: Agent, port: number, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: BULK,
        agent,
        headers: { host: `127.0.0.1:${port}`, ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `ms` of heartbeat bulks to one app, 4 in flight: its CPU µs per heartbeat. */
async function heartbeatsFor(app: Awaited<ReturnType<typeof startTreeApp>>, ms: number, round: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: HEARTBEATS_IN_FLIGHT });
  const auth = {
    authorization: `Basic ${Buffer.from(app.ready.editorKey ?? '').toString('base64')}`,
    'user-agent': 'wakatime/v1.90.0 (linux) go1.22 vscode/1.96.0 vscode-wakatime/25.0.0',
  };
  let sent = 0;
  // In order: enough of figure 21's rows for `ms` at 80 000 a second, made before the clock starts.
  const inOrder = values['in-order'] ? heartbeatRows(Math.round(ms * 80), round + 1) : null;
  const bodies = inOrder === null ? null : Array.from({ length: Math.ceil(inOrder.length / BULK_SIZE) }, (_, i) => JSON.stringify(inOrder.slice(i * BULK_SIZE, (i + 1) * BULK_SIZE)));
  let next = 0;
  const until = performance.now() + ms;
  const before = await app.cpuUs();
  const worker = async (w: number): Promise<void> => {
    for (let i = 0; performance.now() < until; i++) {
      if (bodies !== null && next >= bodies.length) break;
      const body = bodies === null ? JSON.stringify(heartbeatRows(BULK_SIZE, round * 1e5 + w * 1e4 + i)) : (bodies[next++] as string);
      const status = await post(agent, app.ready.port, auth, body);
      if (status !== 201) throw new Error(`heartbeats.bulk answered ${status}`);
      sent += BULK_SIZE;
    }
  };
  await Promise.all(Array.from({ length: HEARTBEATS_IN_FLIGHT }, (_, w) => worker(w)));
  const used = (await app.cpuUs()) - before;
  agent.destroy();
  return used / sent;
}

/** What the driver sends for each work it drives: figure 1's `GET /status`, figure 5's `POST /entries`. */
const DRIVEN = {
  status: { method: 'GET', targets: ['/status'], concurrency: STATUS_IN_FLIGHT, warmupMs: 1000, expectStatus: 200 },
  entries: {
    method: 'POST',
    targets: ['/entries'],
    body: JSON.stringify({ name: 'Bench project 0', durationMinutes: 1, note: 'bench' }),
    idempotencyKeys: true,
    concurrency: 4,
    warmupMs: 500,
    expectStatus: 201,
  },
} as const satisfies Record<string, Omit<DriverConfig, 'port' | 'token' | 'durationMs'>>;

/** `ms` of `work` through the driver, signed: the server's CPU µs per request. */
async function drivenFor(work: keyof typeof DRIVEN, server: Pick<ServerHandle<unknown>, 'cpuUs'>, port: number, token: string, ms: number): Promise<number> {
  const { targets, ...rest } = DRIVEN[work];
  const result = await drive({ ...rest, targets: [...targets], port, token, durationMs: ms }, server as ServerHandle<unknown>);
  return result.serverCpuUsPerRequest ?? Number.NaN;
}

const apps = [await startTreeApp(values.a, 'ab-a'), await startTreeApp(values.b, 'ab-b')] as const;
const floor = values.work === 'status' && values.baseline ? await startFloorServer() : null;
const measure = async (side: 0 | 1, ms: number, round: number): Promise<number> => {
  const app = apps[side];
  return values.work === 'status' || values.work === 'entries' ? drivenFor(values.work, app, app.ready.port, app.ready.token, ms) : heartbeatsFor(app, ms, round);
};
const measureBase = async (ms: number, round: number): Promise<number> => {
  if (floor !== null) return drivenFor('status', floor, floor.ready.port, floor.ready.token, ms);
  const rows = heartbeatRows(Math.max(BULK_SIZE, Math.round((ms / 1000) * 20_000)), 9e6 + round * 1e5);
  return sqliteHeartbeatLoop(rows, BULK_SIZE).cpuUsPerHeartbeat;
};

try {
  // Priming: each app's JIT and heap settle before anything is counted (bench/README.md, change 5).
  for (const side of [0, 1] as const) await measure(side, primeSeconds * 1000, 1000 + side);
  if (floor !== null) await measureBase(primeSeconds * 1000, 0);
  const a: number[] = [];
  const b: number[] = [];
  const base: number[] = [];
  const loads: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order: (0 | 1 | 'base')[] = r % 2 === 0 ? [0, 'base', 1] : [1, 'base', 0];
    for (const side of order) {
      if (side === 'base') {
        if (values.baseline) base.push(await measureBase(seconds * 1000, r));
      } else (side === 0 ? a : b).push(await measure(side, seconds * 1000, r));
    }
    loads.push((await import('node:os')).loadavg()[0] as number);
    const line = `round ${r + 1}: A ${a[r]?.toFixed(2)} µs, B ${b[r]?.toFixed(2)} µs, B÷A ${((b[r] as number) / (a[r] as number)).toFixed(3)}`;
    process.stderr.write(`${values.baseline ? `${line}, base ${base[r]?.toFixed(2)} µs` : line}, load ${loads[r]?.toFixed(2)}\n`);
  }
  const ratios = b.map((v, i) => v / (a[i] as number));
  const summary: Record<string, unknown> = {
    work: values.work,
    rounds,
    aUs: median(a),
    bUs: median(b),
    bOverA: median(ratios),
    ratios,
    aRounds: a,
    bRounds: b,
    load: { first: loads[0], last: loads.at(-1), max: Math.max(...loads) },
  };
  if (values.baseline) {
    summary.baseUs = median(base);
    summary.baseRounds = base;
    // 21c reads bare ÷ Tock (higher is better); 1b's floor part reads Tock ÷ floor.
    const per = (side: number[]): number => median(side.map((v, i) => (floor === null ? (base[i] as number) / v : v / (base[i] as number))));
    summary.aVsBase = per(a);
    summary.bVsBase = per(b);
  }
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} finally {
  for (const app of apps) await app.stop();
  await floor?.stop();
}
