/**
 * Test support: an app started in this process (no desktop, no capture timers, no focus source)
 * in a fresh home, and `tock` run in-process against it — for the tests that write into its
 * store themselves (captured spans, heartbeats, ledger settings) or pin its clock to an instant
 * (invoices). The child-process launcher is real-app.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, type RunningApp } from '@tock/app/start';
import { pinnedClockEnv } from '@tock/test-support';
import { freePort, type TockRun, tockAt } from './real-app.ts';

/** Where and when {@link startInProcessApp} starts the app. */
export interface InProcessAppOptions {
  /** A fresh temporary home is named after this (default `tock-cli-app-`)… */
  homePrefix?: string;
  /** …unless the home is given: a folder made here if missing, removed by `stop()`. */
  home?: string;
  /** Runs on the empty home before the app starts. */
  prepare?: (home: string) => void;
  /** The one instant of the app's clock and of the commands' (default: the run's pinned clock, running). */
  now?: number;
}

/** An app of this process, in its home, and how `tock` and `tock mcp` reach it. */
export interface InProcessApp {
  app: RunningApp;
  home: string;
  /** The home, the file credential store and the run's pinned clock: what `tock` runs with. */
  env: NodeJS.ProcessEnv;
  /** Runs `tock …` in-process against the app, on its clock. */
  run(...argv: string[]): Promise<TockRun>;
  /** Runs `tock …` in-process against the app; asserts it succeeded and returns its output. */
  tock(...argv: string[]): Promise<string>;
  /** Turns the listener on at a free port: the environment `tock mcp` is started with. */
  listen(): Promise<NodeJS.ProcessEnv>;
  /** Stops the app and removes its home. */
  stop(): Promise<void>;
}

/** Starts an app in this process as {@link InProcessAppOptions} say. */
export async function startInProcessApp(options: InProcessAppOptions = {}): Promise<InProcessApp> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), options.homePrefix ?? 'tock-cli-app-'));
  mkdirSync(home, { recursive: true });
  // The app's clock is the run's (pinned) one unless an instant is given; `tock mcp` signs with it too.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', ...(process.env.TZ ? { TZ: process.env.TZ } : {}), ...pinnedClockEnv() };
  options.prepare?.(home);
  const { now } = options;
  const app = await startApp({
    home,
    env,
    ...(now === undefined ? {} : { clock: () => now }),
    desktop: { timers: false, notifier: { name: 'none', notify: async () => {} }, idleSources: () => [] },
    capture: { timers: false, focusSources: () => [] },
  });
  const run = (...argv: string[]): Promise<TockRun> => tockAt(() => new Date(now ?? Date.now()), env, ...argv);
  const tock = async (...argv: string[]): Promise<string> => {
    const done = await run(...argv);
    assert.equal(done.status, 0, `tock ${argv.join(' ')}: ${done.err}`);
    return done.out;
  };
  return {
    app,
    home,
    env,
    run,
    tock,
    async listen() {
      const port = await freePort();
      await tock('listener', 'on', '--port', String(port));
      const token = (await tock('token')).trim();
      return { ...env, SERVICE_TOKEN: token, SERVICE_PORT: String(port) };
    },
    async stop() {
      await app.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The local day `days` before `now` in the run's zone (`YYYY-MM-DD`), and that instant. */
export function dayBefore(now: number, days: number): { day: string; endedAt: string } {
  const at = new Date(now - days * 86_400_000);
  const day = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  return { day, endedAt: at.toISOString() };
}
