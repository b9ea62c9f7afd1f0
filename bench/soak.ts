/**
 * `npm run bench -- --soak [--soak-minutes=N]`: the app under mixed signed traffic for a long
 * time (20 minutes by default), to show that nothing grows that should not. Not part of
 * `npm test`.
 *
 * Traffic, in 30 s windows: reads (`GET /status`, `/current`, `/activities/search`) and
 * durable writes (`POST /entries` a week back, with idempotency keys) on an open-loop schedule
 * that together make half of the maximum rate measured at the start (at most
 * {@link MAX_SOAK_RATE}), plus a start/stop every two seconds so that 16 open event streams get
 * events. After each window it samples the app's RSS, heap (used after a full GC, and held),
 * buffers outside the heap, open file descriptors, the size of the WAL, the app's CPU per request and the window's p99.
 * The verdict: each is flat — in the steady state ({@link steadyFrom}), the mean of the last
 * third of the samples within 10 % of the mean of the first third (a fall is fine), so the WAL
 * is checkpointed rather than growing with the writes — every stream stayed open and got
 * events, and no request failed. Writes bench/soak.json and the plot bench/soak.svg.
 */

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TockClient } from '@tock/client';
import { drive, startAppServer } from './lib/children.ts';

/** One 30 s window's sample. */
export interface SoakSample {
  /** Minutes since the soak began. */
  minute: number;
  rssMB: number;
  /**
   * The memory the app has taken from the system to write in: its private writable mappings
   * (`rw-p` in /proc/PID/maps), MB. Everything the app allocates lives in them — V8's heap as
   * V8 commits it, the C allocator's arenas and blocks — so anything that grows grows this.
   * The RSS is the part of it (and of the files) in RAM, and rises while pages already mapped
   * are used for the first time.
   */
  mappedMB: number;
  heapMB: number;
  /** The heap V8 holds from the system (used or not): where RSS goes that the used heap does not explain. */
  heapTotalMB: number;
  /** Typed arrays and other memory outside the JS heap (the nonce window lives there). */
  buffersMB: number;
  /** Where the RSS is, from /proc/PID/smaps: which part a creep is in. */
  rssParts: RssParts;
  /** What of V8's heap is in RAM, MB: the young generation (`new_space`) and the rest. */
  v8PhysicalMB: { young: number; rest: number };
  fds: number;
  walKB: number;
  p99Ms: number;
  /** The read p99 of each read path: which of them a rise comes from. */
  p99MsByTarget: Record<string, number>;
  writeP99Ms: number;
  /** The app's CPU (user + system) over the window per request answered: whether the app itself got slower. */
  cpuUsPerRequest: number;
  requests: number;
  errors: number;
  /** Requests sent again after the server closed their idle keep-alive connection (not errors; see bench/load/driver.ts). */
  keepAliveRetries: number;
  /** What the errors were: unexpected statuses and the first network error, if any. */
  errorKinds?: string;
  events: number;
}

/**
 * The RSS by kind of mapping, MB: `mallocMain` is the C allocator's main arena (`[heap]`);
 * `anonymous` is every other private anonymous mapping — V8's heap pages, the allocator's
 * per-thread arenas and its large blocks; `files` the binary, libraries and the store's
 * memory-mapped `-shm`; `other` stacks and the rest.
 */
export interface RssParts {
  mallocMain: number;
  anonymous: number;
  files: number;
  other: number;
}

/** Sums the `Rss:` of every mapping in an smaps text by its kind. */
export function rssParts(smaps: string): RssParts {
  const kb = { mallocMain: 0, anonymous: 0, files: 0, other: 0 };
  let kind: keyof RssParts = 'other';
  for (const line of smaps.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) {
      const path = header[1] ?? '';
      kind = path === '[heap]' ? 'mallocMain' : path === '' ? 'anonymous' : path.startsWith('/') ? 'files' : 'other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb[kind] += Number(rss[1]);
  }
  const mb = (n: number) => Math.round(n / 102.4) / 10;
  return { mallocMain: mb(kb.mallocMain), anonymous: mb(kb.anonymous), files: mb(kb.files), other: mb(kb.other) };
}

/** The size of the private writable mappings in a /proc/PID/maps (or smaps) text, MB. */
export function mappedWritable(maps: string): number {
  let bytes = 0;
  for (const line of maps.split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) rw-p /.exec(line);
    if (m) bytes += Number.parseInt(m[2]!, 16) - Number.parseInt(m[1]!, 16);
  }
  return Math.round(bytes / 104857.6) / 10;
}

function v8Physical(spaces: Record<string, number>): { young: number; rest: number } {
  const young = spaces.new_space ?? 0;
  const all = Object.values(spaces).reduce((a, b) => a + b, 0);
  return { young: Math.round(young / 1e5) / 10, rest: Math.round((all - young) / 1e5) / 10 };
}

/** A metric the verdict checks for flatness, and how it is labelled in the plot. */
const METRICS = [
  { key: 'mappedMB', label: 'memory mapped for writing (MB)' },
  // Shown, not judged: it fills the mapped memory above as its pages are first used (V8 holds
  // its heap in 256 KiB pages and brings them into RAM as it uses them), and flattens at it.
  { key: 'rssMB', label: 'RSS (MB)', shown: true },
  { key: 'heapMB', label: 'heap after GC (MB)' },
  { key: 'buffersMB', label: 'buffers outside the heap (MB)' },
  { key: 'fds', label: 'open file descriptors' },
  { key: 'walKB', label: 'WAL size (KB)' },
  { key: 'cpuUsPerRequest', label: 'app CPU per request (µs)' },
  { key: 'p99Ms', label: 'read p99 (ms)' },
] as const satisfies readonly { key: keyof SoakSample; label: string; shown?: true }[];
type MetricKey = (typeof METRICS)[number]['key'];

const WINDOW_MS = 30_000;
const STREAMS = 16;
const WRITES_PER_SECOND = 20;
const FLAT_TOLERANCE = 0.1;
/**
 * The most requests per second the soak schedules. One open-loop driver process on these two
 * shared cores cannot send more without becoming the bottleneck itself: with the status
 * answered from what did not change (max ~20 k/s closed loop), half the maximum, 10 k/s, fell a
 * minute behind its schedule within three windows while the writes' p99 stayed at 25–55 ms.
 */
const MAX_SOAK_RATE = 4000;
/** What a status bar, an editor plugin and a script ask most: mostly the status. */
const READ_TARGETS = ['/status', '/status', '/status', '/current', '/activities/search?q=so'];

/** "1 request retried", "3 requests retried". */
function retried(n: number): string {
  return `${n} request${n === 1 ? '' : 's'} retried`;
}

/** Milliseconds to two decimals, as the samples keep them. */
function hundredths(ms: number): number {
  return Math.round(ms * 100) / 100;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

/**
 * When the steady state begins, minutes: the nonce window fills for its 180 s (every request
 * adds a nonce and none expires before then), and one window more lets the JIT and the
 * allocator settle. Samples before it show the app filling up to its bound, as designed.
 */
export const WARM_UP_MINUTES = 3.5;

/**
 * A step in the heap V8 holds: more than this over the sample before. V8 grows its young
 * generation when much survives a scavenge — in soaks, once, from ~83 to ~150 MB between
 * minutes 3 and 5 — and keeps it; a heap that leaks grows its used part after a full GC, which
 * is judged on its own.
 */
const HEAP_STEP = 0.1;

/** When the steady state begins, minutes: after the warm-up and after the last step of V8's heap. */
export function steadyFrom(samples: SoakSample[]): number {
  let from = WARM_UP_MINUTES;
  for (let i = 1; i < samples.length; i++) {
    const [before, after] = [samples[i - 1]!, samples[i]!];
    if (after.heapTotalMB > before.heapTotalMB * (1 + HEAP_STEP)) from = Math.max(from, after.minute);
  }
  return from;
}

/** The fewest steady samples a verdict is drawn from (a minute and a half). */
const MIN_STEADY_SAMPLES = 3;

/** The verdict on one metric: the last third of the steady samples against the first third. */
export function flatness(samples: SoakSample[], key: MetricKey): { first: number; last: number; change: number; flat: boolean } {
  const from = steadyFrom(samples);
  const steady = samples.filter((s) => s.minute >= from);
  const counted = steady.length >= MIN_STEADY_SAMPLES ? steady : samples;
  const third = Math.max(1, Math.floor(counted.length / 3));
  const first = mean(counted.slice(0, third).map((s) => s[key]));
  const last = mean(counted.slice(-third).map((s) => s[key]));
  // A metric near zero (a WAL right after a checkpoint) is compared with a floor, not divided by ~0.
  const change = first <= 1 ? last - first : (last - first) / first;
  return { first, last, change, flat: change <= FLAT_TOLERANCE };
}

/**
 * The verdict on a whole soak: a steady state long enough to judge, every judged metric flat,
 * every stream fed, no errors.
 */
export function soakVerdict(samples: SoakSample[], eventsPerStream: number[], streamProblems: string[]) {
  const verdicts = METRICS.map((m) => ({ key: m.key, label: m.label, shown: 'shown' in m, ...flatness(samples, m.key) }));
  const from = steadyFrom(samples);
  const settled = samples.filter((s) => s.minute >= from).length >= MIN_STEADY_SAMPLES;
  const everyStreamFed = eventsPerStream.every((n) => n > 0) && streamProblems.length === 0;
  const errors = samples.reduce((a, s) => a + s.errors, 0);
  return { verdicts, steadyFrom: from, settled, errors, passed: settled && verdicts.every((v) => v.shown || v.flat) && everyStreamFed && errors === 0 };
}

/** What went wrong in one driver run, or '' when nothing did: the unexpected statuses and the first network error. */
function errorKinds(run: { statuses: Record<string, number>; firstError?: string }, expected: number): string {
  const statuses = Object.entries(run.statuses)
    .filter(([status]) => Number(status) !== expected)
    .map(([status, n]) => `${n}× ${status}`);
  return [...statuses, ...(run.firstError ? [run.firstError] : [])].join(', ');
}

/** Runs the soak and prints the verdict; returns whether it passed. `appFlags`: Node flags for the app (a CPU profile). */
export async function runSoak(minutes: number, log: (line: string) => void, appFlags: string[] = []): Promise<boolean> {
  const server = await startAppServer({}, { execArgv: ['--expose-gc', ...appFlags] });
  const { port, token, pid, home } = server.ready;
  const client = new TockClient({ token, port });
  const stop = new AbortController();
  try {
    log(`soak: app pid ${pid} on 127.0.0.1:${port}; measuring the maximum rate`);
    // The maximum of the same read mix the soak sends, closed loop.
    const max = await drive({ port, token, method: 'GET', targets: READ_TARGETS, concurrency: 16, warmupMs: 1000, durationMs: 5000, expectStatus: 200 }, server);
    const halfRate = Math.min(MAX_SOAK_RATE, Math.max(2 * WRITES_PER_SECOND, Math.floor(max.rps / 2)));
    const readRate = halfRate - WRITES_PER_SECOND;
    log(`soak: max ${Math.round(max.rps)} req/s; running ${readRate} reads/s + ${WRITES_PER_SECOND} writes/s for ${minutes} min with ${STREAMS} event streams`);

    await client.startActivity('Soak', { createIfMissing: true });
    const received = new Array<number>(STREAMS).fill(0);
    const ended: string[] = [];
    const streams = received.map((_, i) =>
      (async () => {
        for await (const _event of client.events({ signal: stop.signal, reconnect: false })) received[i]! += 1;
        if (!stop.signal.aborted) ended.push(`stream ${i} ended`);
      })().catch((error: unknown) => {
        if (!stop.signal.aborted) ended.push(`stream ${i}: ${error instanceof Error ? error.message : String(error)}`);
      }),
    );
    const toggling = (async () => {
      for (let tracking = true; !stop.signal.aborted; tracking = !tracking) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        if (stop.signal.aborted) break;
        await (tracking ? client.stopActivity() : client.startActivity('Soak')).catch(() => {});
      }
    })();

    const samples: SoakSample[] = [];
    const windows = Math.max(3, Math.round((minutes * 60_000) / WINDOW_MS));
    const startedAt = Date.now();
    for (let w = 0; w < windows; w++) {
      const cpuBefore = await server.cpuUs();
      const [reads, writes] = await Promise.all([
        drive({ port, token, method: 'GET', targets: READ_TARGETS, rate: readRate, concurrency: 64, warmupMs: 0, durationMs: WINDOW_MS, expectStatus: 200, perTarget: true }),
        drive({
          port,
          token,
          method: 'POST',
          targets: ['/entries'],
          // Blocks logged a week back: the history grows as a year of use would, while today
          // keeps a person's number of blocks (today's total is summed over today's blocks;
          // 20 a second *today* makes every status read grow with the soak, which no person does).
          body: JSON.stringify({ name: 'Soak entries', durationMinutes: 1, createIfMissing: true, endedAt: new Date(Date.now() - 7 * 86_400_000).toISOString() }),
          idempotencyKeys: true,
          rate: WRITES_PER_SECOND,
          concurrency: 8,
          warmupMs: 0,
          durationMs: WINDOW_MS,
          expectStatus: 201,
        }),
      ]);
      const cpuUs = (await server.cpuUs()) - cpuBefore;
      const memory = await server.memory(true);
      // Its mapping lines are /proc/PID/maps' own, each followed by its sizes.
      const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
      let walBytes = 0;
      try {
        walBytes = statSync(join(home, 'tock.db-wal')).size;
      } catch {
        // No WAL file: checkpointed and removed, which is as flat as it gets.
      }
      const sample: SoakSample = {
        minute: Math.round((Date.now() - startedAt) / 6000) / 10,
        rssMB: Math.round(memory.rss / 1e5) / 10,
        mappedMB: mappedWritable(smaps),
        heapMB: Math.round(memory.heapUsed / 1e5) / 10,
        heapTotalMB: Math.round(memory.heapTotal / 1e5) / 10,
        buffersMB: Math.round(memory.external / 1e5) / 10, // array buffers are part of it
        rssParts: rssParts(smaps),
        v8PhysicalMB: v8Physical(memory.heapSpacesPhysical),
        fds: readdirSync(`/proc/${pid}/fd`).length,
        walKB: Math.round(walBytes / 1024),
        p99Ms: hundredths(reads.latencyMs.p99),
        p99MsByTarget: Object.fromEntries(Object.entries(reads.perTarget ?? {}).map(([target, l]) => [target, hundredths(l.p99)])),
        writeP99Ms: hundredths(writes.latencyMs.p99),
        cpuUsPerRequest: Math.round((10 * cpuUs) / Math.max(1, reads.completed + writes.completed)) / 10,
        requests: reads.completed + writes.completed,
        errors: reads.errors + writes.errors + (reads.completed - reads.ok) + (writes.completed - writes.ok),
        keepAliveRetries: reads.keepAliveRetries + writes.keepAliveRetries,
        events: received.reduce((a, b) => a + b, 0),
      };
      const kinds = [errorKinds(reads, 200), errorKinds(writes, 201)].filter(Boolean).join('; ');
      if (kinds) sample.errorKinds = kinds;
      samples.push(sample);
      log(
        `soak ${String(w + 1).padStart(2)}/${windows} @${sample.minute} min: mapped ${sample.mappedMB} MB, rss ${sample.rssMB} MB (${Object.entries(sample.rssParts).map(([k, mb]) => `${k} ${mb}`).join(', ')}), heap ${sample.heapMB} MB of ${sample.heapTotalMB} MB (in RAM: young ${sample.v8PhysicalMB.young}, rest ${sample.v8PhysicalMB.rest}), buffers ${sample.buffersMB} MB, fds ${sample.fds}, ` +
          `wal ${sample.walKB} KB, app CPU ${sample.cpuUsPerRequest} µs/request, p99 ${sample.p99Ms} ms (${Object.entries(sample.p99MsByTarget).map(([t, ms]) => `${t} ${ms}`).join(', ')}; writes ${sample.writeP99Ms} ms), ${sample.requests} requests, ${sample.errors} errors${kinds ? ` (${kinds})` : ''}, ` +
          `${sample.keepAliveRetries} keep-alive retries, ${sample.events} events`,
      );
    }
    stop.abort();
    await toggling;
    await Promise.all(streams);

    const { verdicts, steadyFrom: from, settled, errors, passed } = soakVerdict(samples, received, ended);
    const keepAliveRetries = samples.reduce((a, s) => a + s.keepAliveRetries, 0);
    const result = {
      startedAt: new Date(startedAt).toISOString(),
      minutes,
      maxRps: Math.round(max.rps),
      readRate,
      writeRate: WRITES_PER_SECOND,
      streams: STREAMS,
      eventsPerStream: received,
      streamProblems: ended,
      errors,
      keepAliveRetries,
      steadyFrom: from,
      settled,
      verdicts,
      passed,
      samples,
    };
    writeFileSync(new URL('./soak.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(new URL('./soak.svg', import.meta.url), soakSvg(samples, verdicts, result));
    log(`soak: steady from minute ${from}${settled ? '' : ' — too late to judge: V8\'s heap was still stepping up'}`);
    for (const v of verdicts) {
      log(`soak ${v.shown ? 'shown' : 'verdict'} ${v.label}: first third ${v.first.toFixed(1)}, last third ${v.last.toFixed(1)} (${(v.change * 100).toFixed(1)} %) ${v.flat ? 'flat' : 'GROWS'}`);
    }
    log(`soak: ${errors} errors, ${retried(keepAliveRetries)} after a keep-alive reset; events per stream ${Math.min(...received)}–${Math.max(...received)}${ended.length ? `; ${ended.join('; ')}` : ''}`);
    log(`soak: ${passed ? 'PASS' : 'FAIL'} — bench/soak.json, bench/soak.svg`);
    return passed;
  } finally {
    stop.abort();
    await server.stop();
  }
}

/** Small line charts, one per metric, on a shared time axis. Plain SVG, no library. */
export function soakSvg(
  samples: SoakSample[],
  verdicts: { key: string; label: string; shown: boolean; first: number; last: number; change: number; flat: boolean }[],
  run: { minutes: number; readRate: number; writeRate: number; streams: number; passed: boolean; errors: number; keepAliveRetries: number; eventsPerStream: number[]; steadyFrom: number },
): string {
  const width = 760;
  const panel = { height: 120, left: 70, right: 20, top: 28 };
  const head = 64;
  const height = head + 20 + verdicts.length * (panel.height + panel.top);
  const xMax = Math.max(...samples.map((s) => s.minute), 1);
  const x = (minute: number) => panel.left + (minute / xMax) * (width - panel.left - panel.right);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${panel.left}" y="20" font-size="14" font-weight="600">Soak: ${run.minutes} min, ${run.readRate} reads/s + ${run.writeRate} writes/s, ${run.streams} event streams — ${run.passed ? 'PASS' : 'FAIL'}</text>`,
    `<text x="${panel.left}" y="38" fill="#555">${run.errors} errors, ${retried(run.keepAliveRetries)} after a keep-alive reset, ` +
      `${Math.min(...run.eventsPerStream)}–${Math.max(...run.eventsPerStream)} events per stream</text>`,
  ];
  verdicts.forEach((v, i) => {
    const top = head + i * (panel.height + panel.top);
    const values = samples.map((s) => Number(s[v.key as keyof SoakSample]));
    const yMax = Math.max(...values, 1) * 1.15;
    const y = (value: number) => top + panel.height - (value / yMax) * panel.height;
    const points = samples.map((s, j) => `${x(s.minute).toFixed(1)},${y(values[j]!).toFixed(1)}`).join(' ');
    const colour = v.shown ? '#555' : v.flat ? '#2a7d4f' : '#b3261e';
    parts.push(
      `<text x="${panel.left}" y="${top - 6}" font-weight="600">${v.label}: ${v.first.toFixed(1)} → ${v.last.toFixed(1)} (${(v.change * 100).toFixed(1)} %, ${v.flat ? 'flat' : 'grows'}${v.shown ? '; shown, not judged' : ''})</text>`,
      `<rect x="${panel.left}" y="${top}" width="${(x(Math.min(run.steadyFrom, xMax)) - panel.left).toFixed(1)}" height="${panel.height}" fill="#eee"/>`,
      `<line x1="${panel.left}" y1="${top + panel.height}" x2="${width - panel.right}" y2="${top + panel.height}" stroke="#999"/>`,
      `<line x1="${panel.left}" y1="${top}" x2="${panel.left}" y2="${top + panel.height}" stroke="#999"/>`,
      `<text x="${panel.left - 6}" y="${top + 4}" text-anchor="end" fill="#555">${yMax.toFixed(yMax < 10 ? 1 : 0)}</text>`,
      `<text x="${panel.left - 6}" y="${top + panel.height}" text-anchor="end" fill="#555">0</text>`,
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points}"/>`,
    );
  });
  parts.push(
    `<text x="${panel.left}" y="${height - 8}" fill="#555">grey: before the steady state (the nonce window filling, V8's heap stepping up), not judged</text>`,
    `<text x="${width - panel.right}" y="${height - 8}" text-anchor="end" fill="#555">minutes → ${xMax.toFixed(0)}</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
