/**
 * A Python interpreter that can import `tock_client`, for the families that drive the app
 * from both clients at once: the repository's `.venv` (scripts/python-venv.sh).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The Python side of the campaign (writers, schemathesis, the cross-language check). */
export const PY_ATTACK_DIR = join(REPO_ROOT, 'python/tests/attack');

let cached: string | undefined;

/** The repository's `.venv` Python, made by scripts/python-venv.sh (as every script makes it) when missing. */
export function pythonWithClient(): string {
  if (cached) return cached;
  // npm test makes it before the TS suite; a test file run on its own may have to.
  execFileSync('bash', ['-c', 'repo=$PWD; source scripts/python-venv.sh'], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  cached = join(REPO_ROOT, '.venv/bin/python');
  return cached;
}

/** A running Python helper whose stdout lines are collected as they come. */
export interface PythonHelper {
  child: ChildProcess;
  lines: string[];
  stderr(): string;
  exited: Promise<number | null>;
}

/** Runs `python/tests/attack/<script>` with the client's environment (token and port). */
export function runPythonHelper(script: string, args: string[], env: NodeJS.ProcessEnv): PythonHelper {
  const child = spawn(pythonWithClient(), [join(PY_ATTACK_DIR, script), ...args], {
    env: { ...process.env, ...env, PYTHONUNBUFFERED: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter((l) => l !== ''));
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, stderr: () => err, exited };
}
