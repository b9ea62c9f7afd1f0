/**
 * Figures 11 and 12, reports and imports (docs/data.md "Import", docs/protocol.md "Reports"):
 *
 * - `import-toggl`: `tock import` of a 100 k-row Toggl Track CSV into a running app (the
 *   admin request the command makes: the app reads, parses, checks and writes the file in one
 *   transaction), in rows/s, against a plain node:sqlite loop inserting the same rows as
 *   entries in one transaction into a store of the same schema. Target ≥ 0.25. The app's peak
 *   RSS during the import, over its RSS before (Linux `VmHWM`), must stay under 100 MB.
 * - `report-month`: the admin request of `tock report month` against an app whose store holds
 *   1 M sessions before this month, and against one with 1 k; both hold the same blocks this
 *   month (20 sessions with a break a day). Median latency of the request. Target ≤ 1.5×: the
 *   report reads the month, not the history.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminRequest, homePaths } from '@tock/app';
import { nameKey, openStore, reportPeriod, searchKey, systemTimeZone, wordKey } from '@tock/core';
import { startAppServer } from '../lib/children.ts';
import { count } from './history.ts';
import { pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';
import { RequestSigner, sha256Hex } from '../lib/signing.ts';
import { request } from 'node:http';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const TOGGL_HEADER = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (USD)';

/** One Toggl row as both sides see it: the CSV line, and the values the baseline inserts. */
interface Row {
  project: string;
  description: string;
  start: number;
  end: number;
}

/** `rows` Toggl rows in UTC, 45 minutes each, every hour from 2020 on, in 40 projects. */
function togglRows(rows: number): Row[] {
  const out: Row[] = [];
  const base = Date.parse('2020-01-01T00:00:00Z');
  for (let i = 0; i < rows; i++) {
    const start = base + i * HOUR_MS;
    out.push({ project: `Projekt ${i % 40}, Kunde`, description: `Aufgabe ${i % 997} “${i}”`, start, end: start + 45 * MINUTE_MS });
  }
  return out;
}

function togglCsv(rows: Row[]): string {
  const cell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const date = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  const time = (ms: number): string => new Date(ms).toISOString().slice(11, 19);
  const lines = [TOGGL_HEADER];
  for (const r of rows) {
    lines.push(['Ada', 'ada@example.com', '', cell(r.project), '', cell(r.description), 'No', date(r.start), time(r.start), date(r.end), time(r.end), '00:45:00', '', '0'].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The baseline: the same rows inserted as entries by a plain loop in one transaction, rows/s. */
function plainLoopRowsPerSecond(rows: Row[]): number {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-import-plain-'));
  const store = openStore(join(dir, 'tock.db'));
  try {
    const db = store.db;
    const activities = new Map<string, string>();
    const insertActivity = db.prepare('INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insertEntry = db.prepare('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const started = performance.now();
    db.exec('BEGIN IMMEDIATE');
    for (const r of rows) {
      let activityID = activities.get(r.project);
      if (activityID === undefined) {
        activityID = crypto.randomUUID();
        insertActivity.run(activityID, r.project, nameKey(r.project), searchKey(r.project), wordKey(r.project), r.start, r.start);
        activities.set(r.project, activityID);
      }
      insertEntry.run(crypto.randomUUID(), activityID, r.start, r.end, r.description, 0);
    }
    db.exec('COMMIT');
    return rows.length / ((performance.now() - started) / 1000);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resets a process's peak RSS (`VmHWM`) to its RSS now, so the peak measured is the import's. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Resident set size now and at its peak (`VmRSS`, `VmHWM` of /proc/PID/status), bytes. */
function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Figure 11 (see the file's comment). */
export async function importFigure(config: BenchConfig): Promise<FigureResult> {
  const rowsCount = config.smoke ? 10_000 : 100_000;
  const base = {
    id: 'import-toggl',
    title: `tock import of ${count(rowsCount)} Toggl rows (rows/s)`,
    unit: 'rows/s',
    baselineLabel: 'a plain node:sqlite loop inserting the same rows in one transaction',
    target: { kind: 'min', ratio: 0.25 } as Target,
  };
  const rows = togglRows(rowsCount);
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-import-'));
  const file = join(dir, 'toggl.csv');
  writeFileSync(file, togglCsv(rows));
  const growths: number[] = [];
  try {
    const paired = await pairedRounds(
      config.rounds,
      async () => ({ value: plainLoopRowsPerSecond(rows), detail: null }),
      async () => {
        // A fresh app each round: a second import of the same file would skip every row.
        const app = await startAppServer({}, { execArgv: config.serverArgs('import') });
        try {
          resetPeak(app.ready.pid);
          const before = rssOf(app.ready.pid);
          const started = performance.now();
          const counts = (await adminRequest(homePaths(app.ready.home).adminSocket, 'POST', '/import', { path: file, tz: 'UTC' }, { timeoutMs: 600_000 })) as {
            imported: number;
          };
          const seconds = (performance.now() - started) / 1000;
          if (counts.imported !== rowsCount) throw new Error(`imported ${counts.imported} of ${rowsCount} rows`);
          growths.push(rssOf(app.ready.pid).peak - before.rss);
          return { value: rowsCount / seconds, detail: null };
        } finally {
          await app.stop();
        }
      },
    );
    const growthMb = median(growths) / 1e6;
    const worstMb = Math.max(...growths) / 1e6;
    const figure = pairedFigure(base, paired, { rows: rowsCount, fileBytes: readFileSync(file).length, rssGrowthMb: growths.map((g) => round(g / 1e6, 1)) });
    figure.note = `app peak RSS +${round(growthMb, 1)} MB (worst +${round(worstMb, 1)}; must stay < 100 MB)`;
    if (worstMb >= 100) figure.pass = false;
    return figure;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A home whose store holds `history` sessions before this month and the same 20 a day this month. */
function seededHome(history: number, now: number): string {
  const home = mkdtempSync(join(tmpdir(), 'tock-bench-report-'));
  const store = openStore(join(home, 'tock.db'));
  const db = store.db;
  db.exec('PRAGMA cache_size = -262144');
  const insertActivity = db.prepare('INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertSession = db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const insertBreak = db.prepare('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const today = new Date(now);
  const monthStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1) - 2 * DAY_MS; // before the month in any zone
  store.transaction(() => {
    const owners: string[] = [];
    for (let i = 0; i < 20; i++) {
      const name = `Report project ${i}`;
      const id = crypto.randomUUID();
      insertActivity.run(id, name, nameKey(name), searchKey(name), wordKey(name), monthStart - 400 * DAY_MS, now);
      owners.push(id);
    }
    // History: 4 minutes every 5 minutes, back from before the month.
    for (let i = history - 1; i >= 0; i--) {
      const end = monthStart - i * 5 * MINUTE_MS;
      insertSession.run(crypto.randomUUID(), owners[i % 20] as string, end - 4 * MINUTE_MS, end);
    }
    // This month: 20 sessions of 20 minutes with a 3-minute break, every day up to now.
    for (let day = monthStart + 2 * DAY_MS; day + DAY_MS <= now; day += DAY_MS) {
      for (let i = 0; i < 20; i++) {
        const start = day + i * 30 * MINUTE_MS;
        const id = crypto.randomUUID();
        insertSession.run(id, owners[i] as string, start, start + 20 * MINUTE_MS);
        insertBreak.run(crypto.randomUUID(), id, start + 5 * MINUTE_MS, start + 8 * MINUTE_MS);
      }
    }
  });
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  store.close();
  return home;
}

/** Median latency (ms) of `calls` admin report requests for this month. */
async function reportMs(home: string, calls: number): Promise<number> {
  const socket = homePaths(home).adminSocket;
  const one = async (): Promise<number> => {
    const started = performance.now();
    await adminRequest(socket, 'GET', '/report', { period: 'month' });
    return performance.now() - started;
  };
  for (let i = 0; i < 5; i++) await one();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push(await one());
  return median(times);
}

/**
 * A month's report with `large` sessions of history before the month against the same with
 * `small` (figures 12 and 14): two seeded homes, an app on each, `measure` on both in paired
 * rounds. Only how one report is asked for differs between the figures.
 */
async function monthReportFigure(
  config: BenchConfig,
  figure: { id: string; title: string; serverTag: string; per: string },
  measure: (server: { home: string; port: number; token: string }, calls: number) => Promise<number>,
): Promise<FigureResult> {
  const { small, large } = config.sessions;
  const calls = config.smoke ? 20 : 200;
  const base = {
    id: figure.id,
    title: figure.title,
    unit: 'ms',
    baselineLabel: `the same with ${count(small)} sessions`,
    target: { kind: 'max', ratio: 1.5 } as Target,
  };
  const now = Date.now();
  config.log(`  seeding ${count(small)} and ${count(large)} sessions before this month, the same month in both`);
  const homes = { small: seededHome(small, now), large: seededHome(large, now) };
  const [few, many] = await Promise.all([
    startAppServer({ home: homes.small }, { execArgv: config.serverArgs(`${figure.serverTag}-small`) }),
    startAppServer({ home: homes.large }, { execArgv: config.serverArgs(`${figure.serverTag}-large`), timeoutMs: 300_000 }),
  ]);
  try {
    const paired = await pairedRounds(
      config.rounds,
      async () => ({ value: await measure({ home: homes.small, port: few.ready.port, token: few.ready.token }, calls), detail: null }),
      async () => ({ value: await measure({ home: homes.large, port: many.ready.port, token: many.ready.token }, calls), detail: null }),
    );
    const result = pairedFigure(base, paired, { sessions: { subject: large, baseline: small }, callsPerRound: calls });
    result.note = `${round(result.value ?? 0, 3)} ms vs ${round(result.baseline ?? 0, 3)} ms per ${figure.per}`;
    return result;
  } finally {
    await Promise.all([few.stop(), many.stop()]);
    for (const home of Object.values(homes)) rmSync(home, { recursive: true, force: true });
  }
}

/** Figure 12 (see the file's comment). */
export function reportFigure(config: BenchConfig): Promise<FigureResult> {
  const fig = { id: 'report-month', title: `tock report month, ${count(config.sessions.large)} sessions`, serverTag: 'report', per: 'report (admin request)' };
  return monthReportFigure(config, fig, (server, calls) => reportMs(server.home, calls));
}

/** One signed `GET target` to the listener; resolves with the time it took, ms. */
function signedGetMs(port: number, signer: RequestSigner, target: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: target, headers: { host: `127.0.0.1:${port}`, ...signer.headers('GET', target, sha256Hex('')) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`GET ${target} answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Median time of a signed `GET /report?by=day` for this month over the listener, ms. */
async function listenerReportMs(port: number, token: string, calls: number): Promise<number> {
  const signer = new RequestSigner(token);
  const { from, to } = reportPeriod('month', Date.now(), systemTimeZone());
  const target = `/report?from=${from}&to=${to}&by=day`;
  for (let i = 0; i < 5; i++) await signedGetMs(port, signer, target);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push(await signedGetMs(port, signer, target));
  return median(times);
}

/**
 * `report-by-day-listener`: a signed `GET /report?by=day` for this month over the listener
 * (docs/protocol.md "GET /report"), with `large` sessions of history before the month against
 * the same with `small`. Target ≤ 1.5×: a month's report reads the month, not the history.
 */
export function listenerReportFigure(config: BenchConfig): Promise<FigureResult> {
  const fig = { id: 'report-by-day-listener', title: `GET /report?by=day month, ${count(config.sessions.large)} sessions`, serverTag: 'report-day', per: 'signed request' };
  return monthReportFigure(config, fig, (server, calls) => listenerReportMs(server.port, server.token, calls));
}
