/**
 * Test support: the real `tock app` in a temporary home (file credential store) with its
 * listener on a free port, and a way to run `tock` in-process with captured output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/main.ts';

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

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
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
  stop(): Promise<void>;
}

/** Starts `tock app --no-open` in a fresh home and turns its listener on at a free port. */
export async function startRealApp(): Promise<RealApp> {
  const home = await mkdtemp(join(tmpdir(), 'tock-cli-test-'));
  const adminEnv: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: process.env['TZ'], TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file' };
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [TOCK_JS, 'app', '--no-open'], { env: adminEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(home, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 30_000;
    while ((await tock(adminEnv, 'listener', 'status')).status !== 0) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`tock app did not come up: ${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const port = await freePort();
    const on = await tock(adminEnv, 'listener', 'on', '--port', String(port));
    if (on.status !== 0) throw new Error(`tock listener on failed: ${on.err}`);
    const token = (await tock(adminEnv, 'token')).out.trim();
    const clientEnv = { ...adminEnv, SERVICE_TOKEN: token, SERVICE_PORT: String(port) };
    const pendingPrompts = async (): Promise<PendingPromptView[]> => {
      // The window's URL carries a one-time key that the UI server trades for a session cookie.
      const open = /open: (http:\/\/\S+)/.exec(log)?.[1];
      if (open === undefined) throw new Error(`tock app printed no window address: ${log}`);
      const landing = await fetch(open, { redirect: 'manual' });
      const cookie = landing.headers.get('set-cookie')?.split(';')[0] ?? '';
      const response = await fetch(new URL('/api/prompts', open), { headers: { cookie } });
      const body = (await response.json()) as { ok: boolean; result: PendingPromptView[] };
      if (!body.ok) throw new Error(`the window API answered ${response.status}`);
      return body.result;
    };
    return { home, port, token, adminEnv, clientEnv, pendingPrompts, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
