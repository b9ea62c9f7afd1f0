/**
 * The Tock application as the subject of a benchmark, in its own process:
 *
 *   node [--cpu-prof …] [--expose-gc] bench/servers/app-server.ts '<AppServerConfig as JSON>'
 *
 * Seeds the store if asked, starts the real app (`startApp`) on a temporary TOCK_HOME with
 * the file credential store, turns sync on if asked, enables the listener on a free port (or the given one) and
 * prints one JSON line, {@link AppServerReady}. Over the IPC channel it answers
 * `{type: 'memory', gc?: boolean}` (after a full GC when run with --expose-gc, unless `gc` is
 * false) and `{type: 'cpu'}` (its CPU time so far, µs); it stops on `{type: 'stop'}` (or
 * SIGTERM), removing the home unless it was given.
 */

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';
import { startApp } from '@tock/app/start';
import { openStore, recordHeartbeats, setCaptureSetting } from '@tock/core';
import { seedStore, type SeedReport, type SeedSpec } from '../lib/seed.ts';

/** How to start the subject. */
export interface AppServerConfig {
  seed?: SeedSpec;
  /** Listen here instead of a free port. */
  port?: number;
  /** Use (and keep) this home instead of a fresh temporary one. */
  home?: string;
  /** Turn sync on, to a fresh folder in the home, before the ready line. */
  sync?: boolean;
  /** Make the editor key (the WakaTime door) and seed this many heartbeats over the last year (retention set to 366 days). */
  editors?: { heartbeats: number };
  /** The desktop setting `tray` before the app starts (absent: the default, on). */
  tray?: boolean;
  /** More environment for the app (the tray figure: its private D-Bus session and display). */
  env?: Record<string, string>;
}

/** The first line the server prints. */
export interface AppServerReady {
  port: number;
  token: string;
  pid: number;
  home: string;
  seed?: SeedReport;
  /** From process start to the listener bound, ms. */
  startMs: number;
  /** With `editors`: the editor key. */
  editorKey?: string;
}

/** Memory as reported over IPC, bytes. */
export interface MemoryReport {
  type: 'memory';
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** The memory each V8 heap space has in RAM (`physical_space_size`), bytes, by space name. */
  heapSpacesPhysical: Record<string, number>;
  gc: boolean;
}

const config = JSON.parse(process.argv[2] ?? '{}') as AppServerConfig;
const home = config.home ?? mkdtempSync(join(tmpdir(), 'tock-bench-'));
const env = { ...process.env, ...config.env, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

let seed: SeedReport | undefined;
if (config.seed) seed = seedStore(join(home, 'tock.db'), config.seed, Date.now());
if (config.editors) {
  // A year of heartbeats, a bulk of 1 000 at a time (the app keeps them: retention 366 days).
  const store = openStore(join(home, 'tock.db'));
  setCaptureSetting(store.settings, 'retentionDays', 366);
  const now = Date.now();
  const step = (365 * 86_400_000) / Math.max(1, config.editors.heartbeats);
  for (let done = 0; done < config.editors.heartbeats; done += 1000) {
    const bulk = Array.from({ length: Math.min(1000, config.editors.heartbeats - done) }, (_, i) => ({
      entity: `/home/ana/src/project-${(done + i) % 7}/file-${(done + i) % 311}.ts`,
      time: (now - 365 * 86_400_000 + (done + i) * step) / 1000,
      project: `project-${(done + i) % 7}`,
      language: 'TypeScript',
    }));
    recordHeartbeats(store, bulk, { userAgent: 'vscode/1.96.0 vscode-wakatime/25.0.0' }, { nowMs: now, newId: () => crypto.randomUUID() });
  }
  store.close();
}
if (config.tray !== undefined) {
  const store = openStore(join(home, 'tock.db'));
  store.settings.set('desktop', { tray: config.tray });
  store.close();
}
const app = await startApp({ home, env });
const editorKey = config.editors ? app.services.editors.enable().key : undefined;
if (config.sync) {
  mkdirSync(join(home, 'sync-folder'));
  app.services.sync.enable(join(home, 'sync-folder'), 'bench');
}
const port = config.port ?? (await freePort());
await app.services.listener.enable(port);
const boundAtMs = performance.now();
const token = app.services.tokens.current();
if (token === null) throw new Error('the listener was enabled but there is no token');


let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await app.stop();
  if (config.home === undefined) rmSync(home, { recursive: true, force: true });
  process.exit(0); // also writes the --cpu-prof profile
}

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (message: { type?: string; gc?: boolean }) => {
  if (message.type === 'memory') {
    const collect = gc !== undefined && message.gc !== false;
    if (collect) {
      gc();
      gc();
    }
    const m = process.memoryUsage();
    const heapSpacesPhysical = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size]));
    const report: MemoryReport = { type: 'memory', ...m, heapSpacesPhysical, gc: collect };
    process.send?.(report);
  } else if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ type: 'cpu', us: user + system });
  } else if (message.type === 'stop') {
    void stop();
  }
});
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());

// Ready only once it can be stopped: the handlers above are in place before this line.
const ready: AppServerReady = { port, token, pid: process.pid, home, startMs: boundAtMs };
if (seed) ready.seed = seed;
if (editorKey !== undefined) ready.editorKey = editorKey;
process.stdout.write(`${JSON.stringify(ready)}\n`);
