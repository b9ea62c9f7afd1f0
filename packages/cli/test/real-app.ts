/**
 * Test support: the real `tock app` in a temporary home (file credential store) with its
 * listener on a free port (packages/app/test/support/real-app.ts, the one launcher), and a
 * way to run `tock` in-process with captured output.
 */
import { fileURLToPath } from 'node:url';
import { freePort, startRealApp as launch, type PendingPrompt } from '@tock/app/testing';
import { main } from '../src/main.ts';

export { freePort, type PendingPrompt };

/** `bin/tock.js` of this package. */
export const TOCK_JS = fileURLToPath(new URL('../bin/tock.js', import.meta.url));

/** What one `tock` invocation printed and returned. */
export interface TockRun {
  status: number;
  out: string;
  err: string;
}

/** Runs `tock …` in-process with `env` as its whole environment, on the wall clock. */
export async function tock(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<TockRun> {
  return tockAt(() => new Date(), env, ...argv);
}

/** Runs `tock …` in-process on the clock `now`: the one of the app it talks to, in tests that inject it. */
export async function tockAt(now: () => Date, env: NodeJS.ProcessEnv, ...argv: string[]): Promise<TockRun> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env, now });
  return { status, out: out.join('\n'), err: err.join('\n') };
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
  pendingPrompts(): Promise<PendingPrompt[]>;
  /** Stops the app process (SIGTERM) and keeps its home, for a test that starts it again. */
  stopProcess(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `tock app --no-open` in a fresh home and turns its listener on at a free port, through
 * the repository's one launcher; its set-up commands run in this process (`tock` above).
 * `prepare` runs on the empty home first (for example to write an older first run into it).
 */
export async function startRealApp(prepare?: (home: string) => void): Promise<RealApp> {
  const app = await launch({
    homePrefix: 'tock-cli-test-',
    ...(prepare ? { prepare } : {}),
    run: async (args, env) => {
      const run = await tock(env, ...args);
      return { code: run.status, stdout: run.out, stderr: run.err };
    },
  });
  const clientEnv = { ...app.env, SERVICE_TOKEN: app.token, SERVICE_PORT: String(app.port) };
  return { home: app.home, port: app.port, token: app.token, adminEnv: app.env, clientEnv, pendingPrompts: app.pendingPrompts, stopProcess: app.pause, stop: app.stop };
}
