/**
 * Figure 13, `export-sessions` (docs/data.md "Your data: export, import, backup"): `tock export`
 * of a store of 1 M past sessions (one in ten with a break) — the real CLI process, streaming
 * the JSON over the admin socket into a file — in sessions/s, against a plain node:sqlite loop
 * in the bench process that reads the same sessions and breaks with one iterator and writes
 * one JSON line per session to a file stream. Report only for the speed; the target is memory:
 * the app's peak RSS during the export over its RSS before (Linux `VmHWM`, reset before each
 * export: seeding the store in the app's process leaves a high peak behind) must stay under
 * 100 MB, which it cannot if it ever holds the export (about 150 MB of JSON) in memory. The
 * CLI's own peak RSS is reported beside it.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { benchPath, startAppServer } from '../lib/children.ts';
import { pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';
import { count } from './history.ts';

/** `VmRSS` and `VmHWM` (peak) of a process, bytes; null once it is gone. */
function rssOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** The baseline: one iterator over sessions ⟕ breaks, one JSON line per session, sessions/s. */
async function plainLoop(database: string, file: string): Promise<number> {
  const db = new DatabaseSync(database, { readOnly: true });
  const out = createWriteStream(file);
  const started = performance.now();
  let sessions = 0;
  let pending = '';
  let current: { id: string; activityID: string; start: string; end: string | null; breaks: { start: string; end: string | null }[] } | null = null;
  const flush = async (): Promise<void> => {
    if (!out.write(pending)) await once(out, 'drain');
    pending = '';
  };
  const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
  for (const row of db
    .prepare(
      `SELECT s.id, s.activity_id AS activityID, s.started_at AS start, s.ended_at AS end, b.started_at AS bs, b.ended_at AS be
         FROM sessions s LEFT JOIN breaks b ON b.session_id = s.id ORDER BY s.started_at, s.id, b.started_at`,
    )
    .iterate() as Iterable<{ id: string; activityID: string; start: number; end: number | null; bs: number | null; be: number | null }>) {
    if (current === null || current.id !== row.id) {
      if (current !== null) {
        pending += `${JSON.stringify(current)},\n`;
        sessions++;
        if (pending.length > 65_536) await flush();
      }
      current = { id: row.id, activityID: row.activityID, start: iso(row.start) as string, end: iso(row.end), breaks: [] };
    }
    if (row.bs !== null) current.breaks.push({ start: iso(row.bs) as string, end: iso(row.be) });
  }
  if (current !== null) {
    pending += `${JSON.stringify(current)}\n`;
    sessions++;
  }
  await flush();
  out.end();
  await once(out, 'finish');
  db.close();
  return sessions / ((performance.now() - started) / 1000);
}

/**
 * Resets a process's peak RSS (`VmHWM`) to its current RSS (Linux: `5` to clear_refs), so the
 * peak read afterwards belongs to what happens next and not to, say, seeding the store.
 */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** `tock export --output FILE` against the app's home; sessions/s and both processes' RSS growth. */
async function tockExport(home: string, appPid: number, file: string, sessions: number): Promise<{ rate: number; appGrowth: number; cliPeak: number }> {
  if (!resetPeak(appPid)) throw new Error(`cannot reset the app's peak RSS (/proc/${appPid}/clear_refs)`);
  const before = rssOf(appPid);
  if (before === null) throw new Error('the app is not running');
  const started = performance.now();
  const child = spawn(process.execPath, [benchPath('../packages/cli/bin/tock.js'), 'export', '--output', file, '--json'], {
    env: { ...process.env, TOCK_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  // VmHWM only grows: the last reading before the CLI exits is its peak, near enough.
  let cliPeak = 0;
  const poll = setInterval(() => {
    const peak = rssOf(child.pid as number)?.peak;
    if (peak !== undefined && Number.isFinite(peak)) cliPeak = Math.max(cliPeak, peak); // NaN once it is a zombie
  }, 50);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(poll);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`tock export exited ${code}: ${err.trim()}`);
  const summary = JSON.parse(out) as { sessions: number };
  if (summary.sessions !== sessions) throw new Error(`tock export wrote ${summary.sessions} of ${sessions} sessions`);
  const after = rssOf(appPid);
  return { rate: sessions / seconds, appGrowth: (after?.peak ?? Number.NaN) - before.rss, cliPeak };
}

/** Figure 13 (see the file's comment). */
export async function exportFigure(config: BenchConfig): Promise<FigureResult> {
  const sessions = config.sessions.large;
  const base = {
    id: 'export-sessions',
    title: `tock export of ${count(sessions)} sessions (sessions/s)`,
    unit: 'sessions/s',
    baselineLabel: 'a plain node:sqlite iterator writing one JSON line per session to a file',
    target: { kind: 'report', text: 'app RSS growth < 100 MB' } as Target,
  };
  config.log(`  seeding ${count(sessions)} sessions (one in ten with a break)`);
  const app = await startAppServer({ seed: { pastSessions: sessions } }, { execArgv: config.serverArgs('export'), timeoutMs: 300_000 });
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-export-'));
  const appGrowths: number[] = [];
  const cliPeaks: number[] = [];
  let fileBytes = 0;
  try {
    const database = join(app.ready.home, 'tock.db');
    const rounds = Math.min(config.rounds, 2);
    const paired = await pairedRounds(
      rounds,
      async () => {
        const file = join(dir, 'plain.jsonl');
        const value = await plainLoop(database, file);
        rmSync(file, { force: true });
        return { value, detail: null };
      },
      async () => {
        const file = join(dir, 'export.json');
        const measured = await tockExport(app.ready.home, app.ready.pid, file, sessions);
        fileBytes = statSync(file).size;
        rmSync(file, { force: true });
        appGrowths.push(measured.appGrowth);
        cliPeaks.push(measured.cliPeak);
        return { value: measured.rate, detail: null };
      },
    );
    const worstMb = Math.max(...appGrowths) / 1e6;
    const figure = pairedFigure(base, paired, {
      sessions,
      exportBytes: fileBytes,
      appRssGrowthMb: appGrowths.map((g) => round(g / 1e6, 1)),
      cliPeakRssMb: cliPeaks.map((p) => round(p / 1e6, 1)),
    });
    figure.note = `app peak RSS +${round(median(appGrowths) / 1e6, 1)} MB (worst +${round(worstMb, 1)}; must stay < 100 MB) for ${round(fileBytes / 1e6, 0)} MB of JSON; CLI peak RSS ${round(Math.max(...cliPeaks) / 1e6, 0)} MB`;
    figure.pass = worstMb < 100;
    return figure;
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
