/**
 * `npm run bench`: Tock against the physical limit, measured side by side. Every figure is
 * a ratio of Tock to a baseline that does less work, measured in the same run in alternating
 * rounds, because on a shared machine only ratios mean anything. See bench/README.md.
 *
 *   npm run bench                      full run (a few minutes), pass/fail per target
 *   npm run bench -- --smoke           every figure for seconds with small sizes (BENCH_SMOKE=1 too)
 *   npm run bench -- --only=search,writes
 *   npm run bench -- --profile         also write CPU profiles of the server children to bench/profiles/
 *   npm run bench -- --soak            20 minutes of mixed traffic with 16 event streams: is everything flat? (bench/soak.ts;
 *                                      with --profile the app's CPU profile, to compare early and late: bench/profile-summary.ts)
 *
 * Prints a table and writes bench/results.json (a smoke run: bench/results.smoke.json). Exits non-zero only when the harness itself
 * broke (a figure could not be measured), never because a target was missed.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { coldStartFigure } from './figures/cold-start.ts';
import { coreReadsFigure } from './figures/core-reads.ts';
import { eventFigures } from './figures/events.ts';
import { pushedChangesFigure } from './figures/pushed-changes.ts';
import { exportFigure } from './figures/export.ts';
import { importFigure, listenerReportFigure, reportFigure } from './figures/data.ts';
import { historyFigure } from './figures/history.ts';
import { memoryFigure } from './figures/memory.ts';
import { pythonFigures } from './figures/python-clients.ts';
import { searchFigure } from './figures/search.ts';
import { throughputFigures } from './figures/throughput.ts';
import { tsClientFigure } from './figures/ts-client.ts';
import { writesFigure } from './figures/writes.ts';
import { awServerFigures } from './figures/writes-aw.ts';
import { idlePollingFigure } from './figures/idle-polling.ts';
import { syncFigures } from './figures/sync.ts';
import { invoicedFigures } from './figures/invoiced.ts';
import { heartbeatFigures } from './figures/heartbeats.ts';
import { captureFigures } from './figures/capture.ts';
import { suggestionsFigure } from './figures/suggestions.ts';
import { calendarFigure } from './figures/calendar.ts';
import { ledgerFigures } from './figures/ledger.ts';
import { trayFigures } from './figures/tray.ts';
import { unmeasured, type BenchConfig, type FigureResult } from './lib/figure.ts';
import { formatTable } from './lib/table.ts';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const profile = args.includes('--profile');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;
const profileDir = fileURLToPath(new URL('./profiles/', import.meta.url));

// The soak is its own run (20 minutes by default): flatness over time, not ratios.
if (args.includes('--soak')) {
  const minutes = Number(args.find((a) => a.startsWith('--soak-minutes='))?.split('=')[1] ?? 20);
  const { runSoak } = await import('./soak.ts');
  process.exit((await runSoak(minutes, log, serverArgs('soak-app'))) ? 0 : 1);
}

const config: BenchConfig = smoke
  ? {
      smoke,
      // Only proves the harness runs every figure (npm test): the least that still measures.
      rounds: 1,
      warmupMs: 100,
      throughputMs: 300,
      concurrency: 16,
      latencyMs: 250,
      sessions: { small: 1000, large: 2000 },
      activities: { small: 1000, large: 2000 },
      writesMs: 250,
      clientMs: 250,
      memoryMs: 500,
      coldStarts: 1,
      profile,
      serverArgs,
      log,
    }
  : {
      smoke,
      rounds: 4,
      warmupMs: 1000,
      throughputMs: 3000,
      concurrency: 16,
      latencyMs: 2500,
      sessions: { small: 1000, large: 1_000_000 },
      activities: { small: 1000, large: 100_000 },
      writesMs: 2000,
      clientMs: 2000,
      memoryMs: 30_000,
      coldStarts: 7,
      profile,
      serverArgs,
      log,
    };

function serverArgs(name: string): string[] {
  if (!profile) return [];
  mkdirSync(profileDir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`];
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** The figures in the order they run; each group may yield more than one line. */
const GROUPS: { name: string; ids: string[]; titles: string[]; run: (c: BenchConfig) => Promise<FigureResult | FigureResult[]> }[] = [
  { name: 'throughput', ids: ['status-throughput', 'status-cpu', 'status-p99-half-load'], titles: ['signed GET /status throughput', 'signed GET /status server CPU per request', 'signed GET /status p99 at half max rate'], run: throughputFigures },
  { name: 'history', ids: ['status-latency-history'], titles: ['GET /status latency, long history'], run: historyFigure },
  { name: 'search', ids: ['search-latency-activities'], titles: ['GET /activities/search latency, many activities'], run: searchFigure },
  { name: 'writes', ids: ['entries-durable-writes', 'entries-rate-same-rows'], titles: ['POST /entries durable writes/s', 'POST /entries durable writes/s vs the same rows at the same concurrency'], run: writesFigure },
  { name: 'writes-aw', ids: ['entries-cpu-aw', 'entries-cpu-floor-aw', 'status-cpu-aw'], titles: ['POST /entries server CPU per durable write vs aw-server-rust event write', "the floor's server CPU per durable signed write vs aw-server-rust event write", 'signed GET /status server CPU per request vs aw-server-rust GET /api/0/info'], run: awServerFigures },
  { name: 'ts-client', ids: ['ts-client-rps'], titles: ['TockClient calls/s'], run: tsClientFigure },
  { name: 'python', ids: ['python-client-rps', 'python-async-client-rps'], titles: ['Python Client calls/s', 'Python AsyncClient calls/s'], run: pythonFigures },
  { name: 'memory', ids: ['memory-nonce-window'], titles: ['app memory at max signed rate'], run: memoryFigure },
  { name: 'cold-start', ids: ['cold-start', 'idle-rss', 'cold-start-de'], titles: ['cold start to listener answering', 'idle RSS after start-up', 'cold start in German'], run: coldStartFigure },
  { name: 'idle-polling', ids: ['idle-polling'], titles: ['idle polling while tracking, share of one core'], run: idlePollingFigure },
  { name: 'core-reads', ids: ['core-reads-history'], titles: ['a week of totals + blocks, long history'], run: coreReadsFigure },
  { name: 'export', ids: ['export-sessions'], titles: ['tock export of many sessions'], run: exportFigure },
  { name: 'import', ids: ['import-toggl'], titles: ['tock import of Toggl rows'], run: importFigure },
  { name: 'report', ids: ['report-month'], titles: ['tock report month, long history'], run: reportFigure },
  { name: 'report-listener', ids: ['report-by-day-listener'], titles: ['GET /report?by=day month, long history'], run: listenerReportFigure },
  { name: 'events', ids: ['event-latency-16', 'events-idle-cpu'], titles: ['status event latency to 16 streams, p99', 'app CPU with 16 idle event streams'], run: eventFigures },
  { name: 'pushed', ids: ['pushed-changes'], titles: ['admin change → 16 GET /events streams, median'], run: pushedChangesFigure },
  { name: 'heartbeats', ids: ['heartbeats-ingest', 'heartbeats-cpu', 'heartbeats-cpu-floor', 'statusbar-p99'], titles: ['heartbeats ingested/s (bulks of 25, 4 in flight)', 'heartbeats ingested per CPU second (bulks of 25, 4 in flight)', "the floor's heartbeats per CPU second", 'GET statusbar/today p99, a year of heartbeats stored'], run: heartbeatFigures },
  { name: 'capture', ids: ['capture-cpu', 'capture-store', 'capture-cpu-gnome', 'capture-cpu-kde'], titles: ['capture on (X11, a focus change every 10 s) vs off, CPU', 'a simulated month of capture: timeline of a day, p99', 'capture on (GNOME Shell 43, a focus change every 10 s) vs off, CPU', 'capture on (KWin 5.27, a focus change every 10 s) vs off, CPU'], run: captureFigures },
  { name: 'suggestions', ids: ['suggestions'], titles: ["a day's suggestions, a year of capture and 50 rules, p99"], run: suggestionsFigure },
  { name: 'calendar', ids: ['calendar-suggestions'], titles: ["a day's suggestions with 5 years of weekly meetings and 2 000 events, p99"], run: calendarFigure },
  { name: 'tray', ids: ['tray-cpu', 'tray-rss'], titles: ['app idle with the tray on vs off, CPU', 'app idle with the tray on vs off, RSS'], run: trayFigures },
  { name: 'ledger', ids: ['ledger-report', 'invoice-pdf'], titles: ["a year's report by client with amounts, many blocks", 'an invoice of 2000 blocks with a tax line issued (draft, PDF, kept)'], run: ledgerFigures },
  { name: 'invoiced', ids: ['invoiced-edits', 'invoiced-logs'], titles: ['CPU per durable edit, invoiced-block guard on vs off', 'CPU per durable logEntry, invoiced-block guard on vs off'], run: invoicedFigures },
  { name: 'sync', ids: ['sync-writes', 'sync-api-writes', 'sync-apply', 'sync-arrival', 'sync-backlog-lag'], titles: ['durable writes/s with sync on', 'POST /entries durable writes/s with sync on', 'applying another device\'s operations', 'line in the folder → status changed, p99', 'event loop\'s longest wait, a long history arriving'], run: syncFigures },
];

const startedAt = new Date();
const load = { start: loadavg().map((l) => Math.round(l * 100) / 100), end: [] as number[] };
const cores = availableParallelism();
log(
  `Tock bench (${smoke ? 'smoke' : 'full'}): ${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load average ${load.start.join(' ')}; ` +
    'server, load generator and baselines share these cores with each other and anything else running.',
);

const figures: FigureResult[] = [];
for (const group of GROUPS) {
  if (only && !only.has(group.name)) continue;
  log(`== ${group.name}`);
  const started = performance.now();
  try {
    const result = await group.run(config);
    figures.push(...(Array.isArray(result) ? result : [result]));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`  HARNESS ERROR: ${message}`);
    for (const [i, id] of group.ids.entries()) {
      figures.push(
        unmeasured(
          { id, title: group.titles[i] ?? id, unit: '', baselineLabel: '', target: { kind: 'report', text: '—' } },
          'error',
          message.split('\n')[0] ?? message,
        ),
      );
    }
  }
  log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
load.end = loadavg().map((l) => Math.round(l * 100) / 100);

const results = {
  mode: smoke ? 'smoke' : 'full',
  startedAt: startedAt.toISOString(),
  seconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
  machine: {
    cores,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGB: Math.round(totalmem() / 1e8) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: load,
    sharing:
      'server, load generator and baseline processes all run on these cores at once, alongside whatever else the machine runs; ' +
      'compare ratios, not absolute numbers',
  },
  figures,
};
// A smoke run (npm test) must not overwrite the numbers of the last full run.
const resultsFile = smoke ? 'results.smoke.json' : 'results.json';
writeFileSync(new URL(`./${resultsFile}`, import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

process.stdout.write(formatTable(results.figures, { smoke, cores, load }));
const broken = figures.filter((f) => f.status === 'error');
const missed = figures.filter((f) => f.pass === false);
if (smoke) {
  process.stdout.write('\nsmoke run: targets are not checked (sizes and durations are too small to mean anything)\n');
} else {
  process.stdout.write(`\ntargets met: ${figures.filter((f) => f.pass === true).length}, missed: ${missed.length}` +
    `${missed.length ? ` (${missed.map((f) => f.id).join(', ')})` : ''}\n`);
}
process.stdout.write(`results: bench/${resultsFile} (${results.seconds} s)\n`);
if (broken.length > 0) {
  process.stdout.write(`HARNESS BROKE for: ${broken.map((f) => f.id).join(', ')}\n`);
  process.exitCode = 1;
}
