/**
 * Capture's cost (docs/desktop.md "Capture"):
 *
 * - capture-cpu: CPU seconds per hour with the X11 source following a focus change every
 *   10 s (360 an hour; smoke: 20), against the same focus changes with capture off, in the same
 *   run, in alternating rounds. A private Xvfb with openbox and two windows; `xdotool` moves the
 *   focus on both sides (its cost cancels). The capture side counts this process (the
 *   recorder, the store) and its helpers (the `xprop -spy` processes), plus the idle reads
 *   capture makes: `xprintidle` when capture's schedule says (idle-reads.ts: the first 15 s in,
 *   then each set by what the last read, against capture's default threshold of 10 minutes;
 *   with a person at work, one about every 5 minutes). Each focus change comes with a pointer
 *   move of one pixel in the same `xdotool` call, on both sides, so the display's idle time is
 *   a person's at work. Target: at most +2 CPU s per hour. The note also gives the window
 *   helpers started per focus change and the idle reads, counts the load does not move.
 * - capture-store: the store after a simulated month (30 days of 8 h: a window span every
 *   30 s, a heartbeat every 2 min), in MB, and the p99 time to build one day's timeline.
 *   Target: p99 ≤ 20 ms.
 */

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startXDisplay, until, type XDisplay } from '@tock/test-support';
import { openStore, readCaptureSettings, recordHeartbeats, recordSpan, setCaptureSetting, timeline } from '@tock/core';
import { CaptureRecorder } from '../../packages/desktop/src/capture/recorder.ts';
import { x11FocusSource } from '../../packages/desktop/src/capture/x11.ts';
import { x11IdleSource } from '../../packages/desktop/src/idle/sources.ts';
import { CAPTURE_IDLE_POLL_MS, nextIdleReadInMs } from '../../packages/desktop/src/capture/idle-reads.ts';
import { round, unmeasured, type BenchConfig, type FigureResult } from '../lib/figure.ts';
import { captureDesktopFigures } from './capture-desktops.ts';
import { median, percentileOfSorted } from '../lib/stats.ts';

const CPU = { id: 'capture-cpu', title: 'capture on (X11, a focus change every 10 s) vs off, CPU', unit: 'CPU s/h', baselineLabel: 'capture off, same focus changes' };
const STORE = { id: 'capture-store', title: 'a simulated month of capture: timeline of a day, p99', unit: 'ms', baselineLabel: 'target 20 ms' };

/** CPU ms of this process and of its reaped children (Linux clock ticks of 10 ms). */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  const self = process.cpuUsage();
  return (self.user + self.system) / 1000 + (Number(fields[14]) + Number(fields[15])) * 10;
}

/** CPU ms of a running child (utime + stime). */
function childCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** What one round used: CPU ms, and (capture on) the window helpers (`xprop -spy -id`) the source started and the idle reads. */
interface Round {
  ms: number;
  helpers: number;
  idleReads: number;
}

/** Capture's idle threshold when none is set (capture.ts `DEFAULT_IDLE_MS`). */
const IDLE_THRESHOLD_MS = 10 * 60_000;

/** CPU ms of `changes` focus changes with capture on (or off: xdotool alone). */
async function focusRound(env: NodeJS.ProcessEnv, windows: [string, string], changes: number, on: boolean, dir: string): Promise<Round> {
  const store = openStore(join(dir, `round-${Date.now()}-${on}.db`));
  setCaptureSetting(store.settings, 'windows', true);
  let now = Date.now();
  const recorder = new CaptureRecorder({ clock: () => now, settings: () => readCaptureSettings(store.settings), write: (s) => recordSpan(store, s) });
  let reports = 0;
  let helpers = 0;
  const follower = on
    ? await x11FocusSource({ env, onHelperStart: (args) => void (args.includes('-id') && helpers++) }).follow(
        (w) => {
          reports++;
          recorder.focus(w);
        },
        () => {},
      )
    : null;
  const idle = x11IdleSource({ env });
  const rootSpy = on ? Number(execFileSync('pgrep', ['-n', '-f', `xprop -spy -root`], { encoding: 'utf8' }).trim()) : undefined;
  await new Promise((r) => setTimeout(r, 50));
  const before = cpuMs() + childCpuMs(rootSpy);
  const helpersBefore = helpers;
  let idleReads = 0;
  let nextIdleRead = now + CAPTURE_IDLE_POLL_MS;
  for (let i = 0; i < changes; i++) {
    now += 10_000;
    const seen = reports;
    // A person changing windows moves the pointer too: the display's idle time stays theirs.
    execFileSync('xdotool', ['windowactivate', '--sync', windows[i % 2] as string, 'mousemove_relative', '--', i % 2 === 0 ? '1' : '-1', '0'], { env });
    if (on) {
      await until('the focus report', () => reports > seen);
      // Capture's idle reads: each sets the next (capture.ts scheduleIdleRead), never an interval.
      if (now >= nextIdleRead) {
        const idleMs = await idle.idleMs();
        idleReads++;
        nextIdleRead = now + nextIdleReadInMs({ idleMs, thresholdMs: IDLE_THRESHOLD_MS, away: idleMs >= IDLE_THRESHOLD_MS, watched: false });
      }
    }
  }
  const used = cpuMs() + childCpuMs(rootSpy) - before;
  const started = helpers - helpersBefore;
  follower?.stop();
  recorder.pause();
  store.close();
  return { ms: used, helpers: started, idleReads };
}

/** Figure 22 alone (`capture-cpu`), in this process. */
export async function cpuFigure(config: Pick<BenchConfig, 'smoke' | 'rounds'>): Promise<FigureResult> {
  const target = { kind: 'report', text: '≤ +2 s/h' } as const;
  if (process.platform !== 'linux') return unmeasured({ ...CPU, target }, 'skipped', 'needs Linux with Xvfb, openbox, xprop and xdotool');
  let x: XDisplay | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-capture-'));
  try {
    x = await startXDisplay({ size: '320x240x24' });
    const env = { ...process.env, DISPLAY: x.display };
    const windows: [string, string] = [await x.openWindow('Alpha', 'alpha'), await x.openWindow('Bravo', 'bravo')];
    const changes = config.smoke ? 20 : 360;
    const rounds = config.smoke ? 1 : Math.max(2, config.rounds);
    const on: number[] = [];
    const off: number[] = [];
    const helpers: number[] = [];
    const idleReads: number[] = [];
    const take = (round: Round, side: number[]): void => {
      side.push(round.ms);
      if (side !== on) return;
      helpers.push(round.helpers);
      idleReads.push(round.idleReads);
    };
    for (let r = 0; r < rounds; r++) {
      // AB, BA, …: a machine getting busier moves both sides alike.
      if (r % 2 === 0) {
        take(await focusRound(env, windows, changes, true, dir), on);
        take(await focusRound(env, windows, changes, false, dir), off);
      } else {
        take(await focusRound(env, windows, changes, false, dir), off);
        take(await focusRound(env, windows, changes, true, dir), on);
      }
    }
    const perHour = (ms: number): number => (ms / changes) * 360 / 1000;
    const extra = on.map((v, i) => perHour(v - (off[i] as number)));
    const value = median(extra);
    const baseline = perHour(off.reduce((a, b) => a + b, 0) / off.length);
    // Load-independent: one window helper per focus change (figure 22's regression was 1.2).
    const helpersPerChange = helpers.reduce((a, b) => a + b, 0) / (helpers.length * changes);
    const idleReadsPerHour = (idleReads.reduce((a, b) => a + b, 0) / (idleReads.length * changes)) * 360;
    return {
      ...CPU,
      target,
      value: round(value, 2),
      baseline: round(baseline, 2),
      ratio: null,
      pass: config.smoke ? null : value <= 2,
      status: 'measured',
      note: `+${round(value, 2)} CPU s/h for capture (app + xprop helpers + ${round(idleReadsPerHour, 1)} xprintidle reads an hour, as capture schedules them), ${round(helpersPerChange, 2)} window helpers started per focus change; xdotool's own cost is on both sides`,
      details: { changes, rounds, onMs: on, offMs: off, extraSecondsPerHour: extra, windowHelpersPerChange: helpers.map((h) => h / changes), idleReadsPerHour: idleReads.map((n) => (n / changes) * 360) },
    };
  } catch (error) {
    return unmeasured({ ...CPU, target }, 'error', error instanceof Error ? error.message : String(error));
  } finally {
    x?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function storeFigure(config: BenchConfig): Promise<FigureResult> {
  const target = { kind: 'max', ratio: 1 } as const;
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-capture-store-'));
  const file = join(dir, 'tock.db');
  try {
    const store = openStore(file);
    const days = config.smoke ? 3 : 30;
    const DAY = 86_400_000;
    const start = Date.now() - days * DAY;
    const apps = ['firefox', 'Code', 'org.gnome.Terminal', 'Slack', 'thunderbird'];
    let n = 0;
    for (let d = 0; d < days; d++) {
      const dayStart = start + d * DAY + 9 * 3_600_000;
      store.transaction(() => {
        for (let t = 0; t < 8 * 3600; t += 30) {
          const at = dayStart + t * 1000;
          recordSpan(store, { startMs: at, endMs: at + 30_000, source: 'window', app: apps[(t / 30) % apps.length] as string, title: `Document ${t % 97} — a title of typical length` });
        }
      });
      const beats: { entity: string; time: number; project: string; branch: string; language: string }[] = [];
      for (let t = 0; t < 8 * 3600; t += 120) beats.push({ entity: `/home/ana/src/tock/packages/core/src/file-${t % 31}.ts`, time: (dayStart + t * 1000) / 1000, project: t % 7200 < 3600 ? 'tock' : 'web', branch: 'main', language: 'TypeScript' });
      recordHeartbeats(store, beats, { userAgent: 'wakatime/1 vscode/1.96.0 vscode-wakatime/25.0.0' }, { nowMs: Date.now(), newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
    }
    store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const mb = statSync(file).size / 1e6;
    const zone = 'UTC';
    const day = new Date(start + Math.floor(days / 2) * DAY).toISOString().slice(0, 10);
    const samples: number[] = [];
    const runs = config.smoke ? 30 : 300;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const built = timeline(store, { day, timeZone: zone, nowMs: Date.now() });
      samples.push(performance.now() - t0);
      if (built.spans.length < 900) throw new Error(`a day's timeline has ${built.spans.length} spans`);
    }
    store.close();
    samples.sort((a, b) => a - b);
    const p99 = percentileOfSorted(samples, 0.99);
    return {
      ...STORE,
      target,
      value: round(p99, 2),
      baseline: 20,
      ratio: round(p99 / 20, 3),
      pass: config.smoke ? null : p99 <= 20,
      status: 'measured',
      note: `store ${round(mb, 1)} MB after ${days} days (${days * 960} window spans, ${days * 240} heartbeats); a day is ~1 200 spans`,
      details: { days, mb, p50: percentileOfSorted(samples, 0.5), runs },
    };
  } catch (error) {
    return unmeasured({ ...STORE, target }, 'error', error instanceof Error ? error.message : String(error));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The capture figures: X11's CPU, the store, and the CPU on GNOME Shell and KWin (capture-desktops.ts). */
/**
 * Figure 22 in a process of its own, as capture runs in the app: its side counts this process's
 * CPU, and in a full run the runner has by then run every figure before it (its heap, its
 * collections). Two full runs read +5.16 and +5.67 CPU s/h where the figure alone read +1.68 and
 * +1.73 in the minutes after.
 */
function cpuFigureInChild(config: Pick<BenchConfig, 'smoke' | 'rounds'>): Promise<FigureResult> {
  return new Promise((resolve, reject) => {
    const args = [fileURLToPath(import.meta.url), '--cpu-child', String(config.rounds), ...(config.smoke ? ['--smoke'] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1) as string) as FigureResult) : reject(new Error(`capture child exited ${code}`))));
  });
}

export async function captureFigures(config: BenchConfig): Promise<FigureResult[]> {
  return [await cpuFigureInChild(config), await storeFigure(config), ...(await captureDesktopFigures(config))];
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--cpu-child') {
  const figure = await cpuFigure({ smoke: process.argv.includes('--smoke'), rounds: Number(process.argv[3]) });
  process.stdout.write(`${JSON.stringify(figure)}\n`);
}
