/**
 * The real `tock` command as a child process, for tests that need a whole app process:
 * admin commands over its socket, SIGTERM, and `kill -9`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOCK_BIN = fileURLToPath(new URL('../../../cli/bin/tock.js', import.meta.url));

/** The environment of a test app: its own home and the file credential store. */
export function appEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, TOCK_HOME: mkdtempSync(join(tmpdir(), 'tock-proc-')), TOCK_CREDENTIAL_STORE: 'file', ...extra };
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

/** A `tock app` process. */
export interface AppProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** Starts `tock app --no-open` and waits until its admin socket answers. */
export async function spawnApp(env: NodeJS.ProcessEnv): Promise<AppProcess> {
  const child = spawn(process.execPath, [TOCK_BIN, 'app', '--no-open'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`tock app exited early: ${output}`);
    if ((await tock(['listener', 'status'], env)).code === 0) return { child, output: () => output, exited };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`tock app did not answer within 15 s: ${output}`);
}
