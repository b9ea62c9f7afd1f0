/**
 * Test support: one launcher of the real `tock app` in a temporary home (file credential
 * store) with its listener on a free port, for every suite that talks to a whole app process —
 * the CLI's (packages/cli/test/real-app.ts) and the VS Code extension's
 * (integrations/vscode/test/support/real-app.ts) wrap it with what they need.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '@tock/protocol';
import { faketimeOffset, pinnedClockEnv, pinnedOffsetSeconds } from '@tock/test-support';
import { spawnApp, tock as runTock, type AppProcess, type TockRun } from './app-process.ts';

export type { TockRun };

/** libfaketime (Debian `faketime`, installed by scripts/system-deps.sh). */
const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find(
  (path) => existsSync(path),
);

/** A free TCP port on 127.0.0.1 (nothing listens there once this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** A branch prompt waiting in the app, as its window reads it. */
export interface PendingPrompt {
  promptID: string;
  branch: string;
  repo: string | null;
  previousBranch: string | null;
}

/** A running app and what a client needs to reach it. */
export interface RealApp {
  home: string;
  port: number;
  token: string;
  /** `TOCK_HOME` and `TOCK_CREDENTIAL_STORE` (with PATH, HOME, TZ): what the admin commands need. */
  env: NodeJS.ProcessEnv;
  /** Runs `tock …` (an admin command such as `break`) against this app, as a child process. */
  tock(...args: string[]): Promise<TockRun>;
  /** The branch prompts waiting in the app, newest first, read as the app's window reads them. */
  pendingPrompts(): Promise<PendingPrompt[]>;
  /** Stops the app process (SIGTERM) and keeps its home (its listener comes back on the same port and token). */
  pause(): Promise<void>;
  /** Starts the app again in the same home after `pause()`. */
  resume(): Promise<void>;
  /** Stops the app and removes its home. */
  stop(): Promise<void>;
}

/** Options of {@link startRealApp}. */
export interface RealAppOptions {
  /** The temporary home's name starts with this (default `tock-real-app-`). */
  homePrefix?: string;
  /** Runs on the empty home first (for example to write an older first run into it). */
  prepare?: (home: string) => void;
  /** Make the app's first run a day older than the trial, so its license is locked. */
  trialEnded?: boolean | undefined;
  /** How the set-up's `tock listener on` and `tock token` run (default: as child processes). */
  run?: (args: string[], env: NodeJS.ProcessEnv) => Promise<TockRun>;
}

async function stopProcess(app: AppProcess): Promise<void> {
  if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGTERM');
  await app.exited;
}

/**
 * Starts `tock app --no-open` in a fresh home and turns its listener on at a free port. With
 * `trialEnded`, the app first runs once under `faketime` a day past the trial's length ago (it
 * keeps the first run it records), then starts again in the present: its license is locked.
 */
export async function startRealApp(options: RealAppOptions = {}): Promise<RealApp> {
  const home = await mkdtemp(join(tmpdir(), options.homePrefix ?? 'tock-real-app-'));
  options.prepare?.(home);
  const run = options.run ?? runTock;
  // On the tests' pinned clock (scripts/pinned-clock.sh), as the test and its clients are.
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: process.env['TZ'], TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', ...pinnedClockEnv() };
  if (options.trialEnded === true) {
    // libfaketime preloaded into the app's own process (the `faketime` command would fork it).
    if (LIBFAKETIME === undefined) throw new Error('libfaketime is not installed; scripts/system-deps.sh installs faketime');
    await stopProcess(await spawnApp({ ...env, LD_PRELOAD: LIBFAKETIME, FAKETIME: faketimeOffset(pinnedOffsetSeconds() - (LIMITS.trialDays + 1) * 86_400), DONT_FAKE_MONOTONIC: '1' }));
  }
  let app = await spawnApp(env);
  let session: { open: string; headers: Record<string, string> } | undefined;
  const stop = async (): Promise<void> => {
    await stopProcess(app);
    await rm(home, { recursive: true, force: true });
  };
  const pause = (): Promise<void> => stopProcess(app);
  const resume = async (): Promise<void> => {
    app = await spawnApp(env);
    session = undefined; // the window's address is new
  };
  try {
    const port = await freePort();
    const on = await run(['listener', 'on', '--port', String(port)], env);
    if (on.code !== 0) throw new Error(`tock listener on failed: ${on.stderr}`);
    const token = (await run(['token'], env)).stdout.trim();
    const pendingPrompts = async (): Promise<PendingPrompt[]> => {
      if (session === undefined) {
        // A fresh launch code (`tock open --print`), redeemed as the window does: a same-origin
        // POST /launch for the session secret every request under /api/ carries.
        const printed = await run(['open', '--print'], env);
        const open = /open: (http:\/\/\S+)/.exec(printed.stdout)?.[1];
        if (open === undefined) throw new Error(`tock open --print printed no window address: ${printed.stdout}${printed.stderr}`);
        const url = new URL(open);
        const landing = await fetch(new URL('/launch', url), {
          method: 'POST',
          headers: { origin: url.origin, 'content-type': 'application/json' },
          body: JSON.stringify({ code: url.searchParams.get('k') }),
        });
        const redeemed = (await landing.json()) as { ok: boolean; result?: { session: string } };
        if (!redeemed.ok || !redeemed.result) throw new Error(`the window refused its launch code: ${landing.status}`);
        session = { open, headers: { 'x-tock-session': redeemed.result.session } };
      }
      const { open, headers } = session;
      const response = await fetch(new URL('/api/prompts', open), { headers });
      const body = (await response.json()) as { ok: boolean; result: PendingPrompt[] };
      if (!body.ok) throw new Error(`the window API answered ${response.status}`);
      return body.result;
    };
    return { home, port, token, env, tock: (...args) => run(args, env), pendingPrompts, pause, resume, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
