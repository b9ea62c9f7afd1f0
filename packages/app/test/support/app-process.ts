/**
 * The real `tock` command as a child process, for tests that need a whole app process:
 * admin commands over its socket, SIGTERM, and `kill -9`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempDirUntilExit } from '@tock/test-support';

export const TOCK_BIN = fileURLToPath(new URL('../../../cli/bin/tock.js', import.meta.url));

/**
 * The environment of a test app: its own home (unless `extra` names one) and the file credential
 * store. The home is removed when the test process exits, after the apps that used it ended.
 */
export function appEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = extra.TOCK_HOME ?? tempDirUntilExit('tock-proc-');
  return { ...process.env, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', ...extra };
}

/** What one `tock` run printed. */
export interface TockRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `tock …` to completion. */
export function tock(args: string[], env: NodeJS.ProcessEnv): Promise<TockRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TOCK_BIN, ...args], { env, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A window session as the page gets one: a fresh launch code (`tock open --print`) traded in a
 * same-origin POST /launch. `headers` are those of a write the page sends under /api/.
 */
export async function windowSession(env: NodeJS.ProcessEnv): Promise<{ origin: string; headers: Record<string, string> }> {
  const printed = await tock(['open', '--print'], env);
  const open = /open: (http:\/\/\S+)/.exec(printed.stdout)?.[1];
  if (open === undefined) throw new Error(`tock open --print printed no address: ${printed.stdout}${printed.stderr}`);
  const url = new URL(open);
  const launch = await fetch(new URL('/launch', url), {
    method: 'POST',
    headers: { origin: url.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ code: url.searchParams.get('k') }),
  });
  const body = (await launch.json()) as { ok: boolean; result?: { session: string } };
  if (!body.ok || body.result === undefined) throw new Error(`the window refused its launch code: ${launch.status}`);
  return { origin: url.origin, headers: { origin: url.origin, 'content-type': 'application/json', 'x-tock-session': body.result.session } };
}

/** A `tock app` process. */
export interface AppProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * Starts `tock app --no-open` and resolves once it printed its listener status line, which it
 * does after everything listens (faster than polling with `tock listener status`). `wrapper`
 * runs it through another command (`unshare -n …`), which must exec it in the same process.
 */
export function spawnApp(env: NodeJS.ProcessEnv, wrapper: string[] = []): Promise<AppProcess> {
  const command = [...wrapper, process.execPath, TOCK_BIN, 'app', '--no-open'];
  const child = spawn(command[0] as string, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tock app did not start within 30 s: ${output}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/^listener: .*$/m.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`tock app exited early (${code}): ${output}`));
    });
  });
}
