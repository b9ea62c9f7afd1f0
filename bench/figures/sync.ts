/**
 * Sync figures (docs/sync.md; issue "Performance"):
 *  - sync-writes: durable writes/s (each a group-committed logEntry, as the listener makes
 *    them: store.durably, synchronous=FULL) with sync on — capture triggers in every write,
 *    the log drained into segment files every second, as the app does — against the same loop
 *    with sync off.
 *    Target ≥ 0.8×.
 *  - sync-api-writes: the same rule as a client meets it — figure 5's signed `POST /entries` with
 *    an Idempotency-Key, 4 in flight, to an app with sync on against one with it off (both
 *    running throughout, rounds alternating). Target ≥ 0.8×.
 *  - sync-apply: applying N operations of another device read from its segment files (one
 *    transaction per batch of 250), in a child process: operations/s and the RSS growth (peak reset
 *    through /proc/self/clear_refs after the files are written). Target: growth < 150 MB.
 *  - sync-arrival: from a line renamed into the folder to the status (today's total) having
 *    changed on this device, p99 over many arrivals. Target ≤ 2 s.
 *  - sync-backlog-lag: the longest the event loop waited while another device's long history
 *    was applied as the app does it (noticed by the watcher, a 50 ms slice per turn of the
 *    loop). Target ≤ 250 ms: a slice, a transaction and the folder's listing.
 * Runs alone too: `node bench/figures/sync.ts [--ops N] [--rounds N]` prints the figures as JSON.
 */

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createTracker, openStore } from '@tock/core';
import { parseSyncKey, signLine } from '@tock/core/sync';
import { SyncService, memoryKeyStore } from '@tock/sync';
import { drive, startAppServer } from '../lib/children.ts';
import { meets, pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';
import type { DriverConfig } from '../load/driver.ts';
import { assertAllOk } from './throughput.ts';

const PEER = 'fefefefe-0000-4000-8000-000000000001';
const ACTIVITY = 'fefefefe-0000-4000-8000-0000000000a1';

function idOf(n: number): string {
  return `fefefefe-0000-4000-9000-${n.toString(16).padStart(12, '0')}`;
}

/**
 * Another device's folder with `ops` operations: one activity, then entries of a minute each,
 * segments of ≤ 1 MiB. They end before now (a million minutes is nearly two years): a line
 * whose hlc is more than ten minutes ahead of the reader's clock is held (docs/sync.md), so a
 * fixed first day would stop the figure once the calendar reached its lines.
 */
function writePeerLog(dir: string, ops: number, keyText: string, day = Math.floor(Date.now() / 86_400_000) * 86_400_000 - (ops + 1440) * 60_000): void {
  const key = parseSyncKey(keyText) as Uint8Array;
  const own = join(dir, 'tock-sync-v2', PEER);
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, 'device.json'), JSON.stringify({ deviceID: PEER, name: 'peer', createdAt: '2026-01-01T00:00:00.000Z' }));
  let segment = 1;
  let bytes = 0;
  let fd = openSync(join(own, '00000001.jsonl'), 'w');
  for (let i = 0; i < ops; i++) {
    const at = day + i * 60_000;
    const op =
      i === 0
        ? JSON.stringify({ v: 1, hlc: `${day}-0-${PEER}`, op: 'activity.create', id: ACTIVITY, set: { name: 'Peer work', createdAt: day } })
        : JSON.stringify({ v: 1, hlc: `${at}-0-${PEER}`, op: 'entry.create', id: idOf(i), set: { device: PEER, activityID: ACTIVITY, startedAt: at, endedAt: at + 50_000, note: null, createdAt: at } });
    const line = signLine(key, PEER, op);
    const size = Buffer.byteLength(line) + 1;
    if (bytes > 0 && bytes + size > 1024 * 1024) {
      closeSync(fd);
      segment++;
      bytes = 0;
      fd = openSync(join(own, `${String(segment).padStart(8, '0')}.jsonl`), 'w');
    }
    writeSync(fd, `${line}\n`);
    bytes += size;
  }
  closeSync(fd);
}

/** Durable writes/s for `ms`, 4 in flight, with sync on or off, and the process's CPU µs per write. */
export async function writeRate(on: boolean, ms: number): Promise<{ rate: number; cpuUsPerWrite: number }> {
  const root = mkdtempSync(join(tmpdir(), 'tock-bench-sync-'));
  const store = openStore(join(root, 'tock.db'));
  const tracker = createTracker({ store, timeZone: 'UTC' });
  const sync = new SyncService({ store });
  try {
    if (on) {
      mkdirSync(join(root, 'folder'));
      sync.enable(join(root, 'folder'), 'bench');
    }
    tracker.logEntry({ name: 'Bench', createIfMissing: true, durationMinutes: 1 });
    let writes = 0;
    const end = performance.now() + ms;
    const worker = async (): Promise<void> => {
      while (performance.now() < end) {
        await store.durably(() => tracker.logEntry({ name: 'Bench', durationMinutes: 1, note: 'bench' }));
        writes++;
      }
    };
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all([worker(), worker(), worker(), worker()]);
    const rate = writes / ((performance.now() - started) / 1000);
    if (on) sync.flush(); // the log's last second is part of the cost
    const used = process.cpuUsage(cpu);
    const cpuUsPerWrite = (used.user + used.system) / writes;
    if (on) {
      await sync.syncNow();
      const logged = sync.status().device?.logLines ?? 0;
      if (logged < writes) throw new Error(`sync on: ${writes} writes but ${logged} log lines`);
    }
    return { rate, cpuUsPerWrite };
  } finally {
    sync.stop();
    store.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Signed durable `POST /entries` per second (figure 5's requests) to a running app with sync off and one with it on, paired. */
async function apiWriteFigure(config: Pick<BenchConfig, 'smoke' | 'rounds'>): Promise<FigureResult> {
  const off = await startAppServer({ seed: { today: true } });
  const on = await startAppServer({ seed: { today: true }, sync: true });
  try {
    const rate = async (app: typeof off): Promise<{ value: number; detail: { serverCpuUsPerRequest?: number } }> => {
      const load: DriverConfig = {
        port: app.ready.port,
        token: app.ready.token,
        method: 'POST',
        targets: ['/entries'],
        body: JSON.stringify({ name: 'Bench project 0', durationMinutes: 1, note: 'bench' }),
        idempotencyKeys: true,
        concurrency: 4,
        warmupMs: config.smoke ? 200 : 1000,
        // Whole seconds of the app's once-a-second drain fall inside the window.
        durationMs: config.smoke ? 1000 : 3000,
        expectStatus: 201,
      };
      const r = await drive(load, app);
      assertAllOk(r, `POST /entries with sync ${app === on ? 'on' : 'off'}`);
      return { value: r.rps, detail: r };
    };
    // A round's requests swing more than the store's own writes (0.76–1.17 in one 8-round run): twice the rounds.
    const paired = await pairedRounds(config.smoke ? 1 : 2 * Math.max(4, config.rounds), () => rate(off), () => rate(on));
    const cpu = (details: { serverCpuUsPerRequest?: number }[]): number => round(median(details.map((d) => d.serverCpuUsPerRequest ?? 0)), 1);
    const [cpuOn, cpuOff] = [cpu(paired.subjectDetails), cpu(paired.baselineDetails)];
    const figure = pairedFigure(
      { id: 'sync-api-writes', title: 'POST /entries durable writes/s with sync on', unit: 'writes/s', baselineLabel: 'the same requests to an app with sync off', target: { kind: 'min', ratio: 0.8 } },
      paired,
      { appCpuUsPerWriteOn: cpuOn, appCpuUsPerWriteOff: cpuOff },
    );
    figure.note = `app CPU per write ${cpuOn} µs on vs ${cpuOff} µs off`;
    return figure;
  } finally {
    await off.stop();
    await on.stop();
  }
}

/** Child: applies a prepared folder's log into a fresh store; prints ops/s and RSS growth. */
async function applyChild(ops: number): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'tock-bench-apply-'));
  try {
    mkdirSync(join(root, 'folder'));
    const store = openStore(join(root, 'tock.db'));
    const keyStore = memoryKeyStore();
    const sync = new SyncService({ store, keyStore });
    sync.enable(join(root, 'folder'), 'bench');
    const key = sync.folderKey();
    // Written after enabling (which applies what is there at once), so only the timed call applies it.
    sync.stop();
    writePeerLog(join(root, 'folder'), ops, key);
    // Only what applying adds counts: reset the peak to what the process holds now.
    (globalThis as { gc?: () => void }).gc?.();
    writeFileSync('/proc/self/clear_refs', '5');
    const rssBefore = vmKb('VmRSS');
    const started = performance.now();
    const reader = new SyncService({ store, keyStore });
    reader.start();
    await reader.syncNow(); // applies everything the folder holds
    const seconds = (performance.now() - started) / 1000;
    const applied = reader.status().devices[0]?.applied ?? 0;
    if (applied !== ops) throw new Error(`applied ${applied} of ${ops}: ${JSON.stringify(reader.status().devices[0])}`);
    const peak = vmKb('VmHWM');
    reader.stop();
    store.close();
    process.stdout.write(JSON.stringify({ ops, seconds, opsPerSecond: ops / seconds, rssGrowthMB: (peak - rssBefore) / 1024 }));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function vmKb(field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(m?.[1] ?? 0);
}

function runApplyChild(ops: number): Promise<{ ops: number; seconds: number; opsPerSecond: number; rssGrowthMB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--apply-child', String(ops)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`apply child exited ${code}`))));
  });
}

/** While `ops` operations of another device arriving are applied by slices: the event loop's longest and p99 wait, ms. */
export async function backlogLag(ops: number): Promise<{ ops: number; seconds: number; maxLagMs: number; p99LagMs: number }> {
  const root = mkdtempSync(join(tmpdir(), 'tock-bench-backlog-'));
  const store = openStore(join(root, 'tock.db'));
  const sync = new SyncService({ store });
  const alive = setInterval(() => {}, 1000);
  try {
    mkdirSync(join(root, 'folder'));
    sync.enable(join(root, 'folder'), 'bench');
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = performance.now();
    writePeerLog(join(root, 'folder'), ops, sync.folderKey()); // the watcher notices it
    const deadline = started + 600_000;
    while ((sync.status().devices[0]?.applied ?? 0) < ops) {
      if (performance.now() > deadline) throw new Error(`sync-backlog-lag: ${sync.status().devices[0]?.applied ?? 0} of ${ops} applied after 600 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    lag.disable();
    return { ops, seconds, maxLagMs: lag.max / 1e6, p99LagMs: lag.percentile(99) / 1e6 };
  } finally {
    clearInterval(alive);
    sync.stop();
    store.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Arrival-to-status latencies, ms: a line renamed into the folder until today's total changed. */
export async function arrivals(count: number): Promise<number[]> {
  const root = mkdtempSync(join(tmpdir(), 'tock-bench-arrival-'));
  const folder = join(root, 'folder');
  mkdirSync(folder);
  const store = openStore(join(root, 'tock.db'));
  // "Today" is read on a pinned noon (UTC), and the arriving blocks lie in the hour before it: on
  // the real clock, in the first hour after midnight they would lie in yesterday, today's total
  // would never change and the figure would wait forever. The sync service keeps the real clock.
  const noon = Date.parse('2026-01-01T12:00:00Z');
  const tracker = createTracker({ store, timeZone: 'UTC', clock: () => noon });
  let onApplied: () => void = () => {};
  const sync = new SyncService({ store, onApplied: () => onApplied() });
  const own = join(folder, 'tock-sync-v2', PEER);
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, 'device.json'), JSON.stringify({ deviceID: PEER, name: 'peer', createdAt: '2026-01-01T00:00:00.000Z' }));
  const now = Date.now();
  sync.enable(folder, 'bench');
  const key = parseSyncKey(sync.folderKey()) as Uint8Array;
  const lines = [JSON.stringify({ v: 1, hlc: `${now}-0-${PEER}`, op: 'activity.create', id: ACTIVITY, set: { name: 'Peer work', createdAt: now } })];
  const publish = (): void => {
    writeFileSync(join(own, '.tmp'), `${lines.map((line) => signLine(key, PEER, line)).join('\n')}\n`);
    renameSync(join(own, '.tmp'), join(own, '00000001.jsonl'));
  };
  publish();
  const latencies: number[] = [];
  // The service's timers and watcher do not hold the process open (the app's servers do): this does.
  const alive = setInterval(() => {}, 1000);
  try {
    for (let i = 1; i <= count; i++) {
      const before = tracker.getStatus().todaySeconds;
      const at = noon - 3_600_000 + i * 1000;
      lines.push(JSON.stringify({ v: 1, hlc: `${Date.now()}-${i}-${PEER}`, op: 'entry.create', id: idOf(i), set: { device: PEER, activityID: ACTIVITY, startedAt: at, endedAt: at + 1000, note: null, createdAt: at } }));
      const changed = new Promise<void>((resolve, reject) => {
        const late = setTimeout(() => reject(new Error(`sync-arrival: line ${i} not in today's total 30 s after it arrived`)), 30_000);
        onApplied = () => {
          if (tracker.getStatus().todaySeconds === before) return;
          clearTimeout(late);
          resolve();
        };
      });
      const started = performance.now();
      publish();
      await changed;
      latencies.push(performance.now() - started);
    }
    return latencies;
  } finally {
    clearInterval(alive);
    sync.stop();
    store.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The sync figures. */
export async function syncFigures(config: Pick<BenchConfig, 'smoke' | 'rounds' | 'log'> & { ops?: number }): Promise<FigureResult[]> {
  // A smoke run only shows the harness works: one short round.
  const ms = config.smoke ? 250 : 3000;
  // A round of each side first, not counted: the first 3 s with sync on cost ~10 µs a write more
  // than every later round (the drain's code still compiling), and it fell in the first pair.
  if (!config.smoke) {
    await writeRate(false, 1000);
    await writeRate(true, 1000);
  }
  const paired = await pairedRounds(
    config.smoke ? 1 : Math.max(4, config.rounds),
    async () => {
      const r = await writeRate(false, ms);
      return { value: r.rate, detail: r };
    },
    async () => {
      const r = await writeRate(true, ms);
      return { value: r.rate, detail: r };
    },
  );
  // On a shared machine the rate swings with everyone else's load; CPU per write does much less.
  const cpuOn = median(paired.subjectDetails.map((d) => d.cpuUsPerWrite));
  const cpuOff = median(paired.baselineDetails.map((d) => d.cpuUsPerWrite));
  const writes = pairedFigure(
    { id: 'sync-writes', title: 'durable writes/s with sync on', unit: 'writes/s', baselineLabel: 'the same writes with sync off', target: { kind: 'min', ratio: 0.8 } },
    paired,
    { cpuUsPerWriteOn: round(cpuOn, 1), cpuUsPerWriteOff: round(cpuOff, 1), cpuRatioOffOverOn: round(cpuOff / cpuOn, 3) },
  );
  writes.note = `CPU per write ${round(cpuOn, 1)} µs on vs ${round(cpuOff, 1)} µs off (off/on ${round(cpuOff / cpuOn, 2)})`;
  config.log(`sync-writes: ${round(writes.ratio ?? 0, 3)}×`);
  const apiWrites = await apiWriteFigure(config);
  config.log(`sync-api-writes: ${round(apiWrites.ratio ?? 0, 3)}×`);
  const ops = config.ops ?? (config.smoke ? 20_000 : 1_000_000);
  const applied = await runApplyChild(ops);
  config.log(`sync-apply: ${JSON.stringify(applied)}`);
  const apply: FigureResult = {
    id: 'sync-apply',
    title: `applying ${ops.toLocaleString('en')} operations of another device`,
    unit: 'ops/s',
    value: round(applied.opsPerSecond, 0),
    baseline: null,
    baselineLabel: 'none; the target is on the RSS growth while applying',
    ratio: null,
    target: { kind: 'report', text: 'RSS growth < 150 MB' },
    pass: applied.rssGrowthMB < 150,
    status: 'measured',
    note: `${round(applied.seconds, 1)} s, RSS +${round(applied.rssGrowthMB, 1)} MB`,
    details: applied,
  };
  const latencies = (await arrivals(config.smoke ? 30 : 200)).sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)] ?? 0;
  const arrival: FigureResult = {
    id: 'sync-arrival',
    title: 'line in the folder → status changed, p99',
    unit: 'ms',
    value: round(p99, 1),
    baseline: 2000,
    baselineLabel: 'the 2 s the contract allows',
    ratio: round(p99 / 2000, 3),
    target: { kind: 'max', ratio: 1 },
    pass: meets({ kind: 'max', ratio: 1 }, p99 / 2000),
    status: 'measured',
    note: `median ${round(latencies[latencies.length >> 1] ?? 0, 1)} ms over ${latencies.length} arrivals`,
    details: { samples: latencies.length, medianMs: latencies[latencies.length >> 1], p99Ms: p99, maxMs: latencies[latencies.length - 1] },
  };
  const backlog = await backlogLag(config.smoke ? 5_000 : 100_000);
  config.log(`sync-backlog-lag: ${JSON.stringify(backlog)}`);
  const lagTarget = { kind: 'max', ratio: 1 } as const;
  const lag: FigureResult = {
    id: 'sync-backlog-lag',
    title: `event loop's longest wait, ${backlog.ops.toLocaleString('en')} operations arriving`,
    unit: 'ms',
    value: round(backlog.maxLagMs, 1),
    baseline: 250,
    baselineLabel: 'a 50 ms slice, a transaction and the folder listing: 250 ms',
    ratio: round(backlog.maxLagMs / 250, 3),
    target: lagTarget,
    pass: meets(lagTarget, backlog.maxLagMs / 250),
    status: 'measured',
    note: `p99 ${round(backlog.p99LagMs, 1)} ms; applied in ${round(backlog.seconds, 1)} s`,
    details: backlog,
  };
  return [writes, apiWrites, apply, arrival, lag];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--apply-child') await applyChild(Number(args[1]));
  else {
    const option = (name: string): number | undefined => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : undefined);
    const figures = await syncFigures({ smoke: args.includes('--smoke'), rounds: option('--rounds') ?? 3, log: (l) => process.stderr.write(`${l}\n`), ops: option('--ops') });
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  }
}
