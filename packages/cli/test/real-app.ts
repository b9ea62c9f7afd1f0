/**
 * Test support: the real `tock app` in a temporary home (file credential store) with its
 * listener on a free port, and a way to run `tock` in-process with captured output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnApp } from '../../app/test/support/app-process.ts';
import { freePort } from '../../app/test/ui-support/harness.ts';
import { main } from '../src/main.ts';

export { freePort };

/** `bin/tock.js` of this package. */
export const TOCK_JS = fileURLToPath(new URL('../bin/tock.js', import.meta.url));

/** What one `tock` invocation printed and returned. */
export interface TockRun {
  status: number;
  out: string;
  err: string;
}

/** Runs `tock …` in-process with `env` as its whole environment. */
export async function tock(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<TockRun> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env });
  return { status, out: out.join('\n'), err: err.join('\n') };
}

/** A branch prompt as the app's window sees it. */
export interface PendingPromptView {
  promptID: string;
  branch: string;
  repo: string | null;
  previousBranch: string | null;
}

/** A running app, its home, and the environment a client needs to reach its listener. */
export interface RealApp {
  home: string;
  port: number;
  token: string;
  /** `TOCK_HOME` and `TOCK_CREDENTIAL_STORE`: what the admin commands need. */
  adminEnv: NodeJS.ProcessEnv;
  /** `adminEnv` plus `SERVICE_TOKEN` and `SERVICE_PORT`. */
  clientEnv: NodeJS.ProcessEnv;
  /** The branch prompts waiting in the app, newest first, read as the app's window reads them. */
  pendingPrompts(): Promise<PendingPromptView[]>;
  /** Stops the app process (SIGTERM) and keeps its home, for a test that starts it again. */
  stopProcess(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `tock app --no-open` in a fresh home and turns its listener on at a free port.
 * `prepare` runs on the empty home first (for example to write an older first run into it).
 */
export async function startRealApp(prepare?: (home: string) => void): Promise<RealApp> {
  const home = await mkdtemp(join(tmpdir(), 'tock-cli-test-'));
  prepare?.(home);
  const adminEnv: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: process.env['TZ'], TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file' };
  const app = await spawnApp(adminEnv);
  const stopProcess = async (): Promise<void> => {
    const { child } = app;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await app.exited;
  };
  const stop = async (): Promise<void> => {
    await stopProcess();
    await rm(home, { recursive: true, force: true });
  };
  try {
    const port = await freePort();
    const on = await tock(adminEnv, 'listener', 'on', '--port', String(port));
    if (on.status !== 0) throw new Error(`tock listener on failed: ${on.err}`);
    const token = (await tock(adminEnv, 'token')).out.trim();
    const clientEnv = { ...adminEnv, SERVICE_TOKEN: token, SERVICE_PORT: String(port) };
    const pendingPrompts = async (): Promise<PendingPromptView[]> => {
      // The window's URL carries a one-time key that the UI server trades for a session cookie.
      const open = /open: (http:\/\/\S+)/.exec(app.output())?.[1];
      if (open === undefined) throw new Error(`tock app printed no window address: ${app.output()}`);
      const landing = await fetch(open, { redirect: 'manual' });
      const cookie = landing.headers.get('set-cookie')?.split(';')[0] ?? '';
      const response = await fetch(new URL('/api/prompts', open), { headers: { cookie } });
      const body = (await response.json()) as { ok: boolean; result: PendingPromptView[] };
      if (!body.ok) throw new Error(`the window API answered ${response.status}`);
      return body.result;
    };
    return { home, port, token, adminEnv, clientEnv, pendingPrompts, stopProcess, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
