/**
 * A Python interpreter that can import `tock_client`, for the families that drive the app
 * from both clients at once. The repository's `.venv` (made by scripts/test-python.sh) is used
 * when it has the client; on a clean machine, where the TS tests run before the Python suite,
 * a small venv with only the client and httpx is made under `.cache/` (ignored by git).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The Python side of the campaign (writers, schemathesis, the cross-language check). */
export const PY_ATTACK_DIR = join(REPO_ROOT, 'python/tests/attack');

function canImportClient(python: string): boolean {
  if (!existsSync(python)) return false;
  try {
    execFileSync(python, ['-c', 'import tock_client, httpx'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let cached: string | undefined;

/** The path of a Python that imports `tock_client`; makes one when there is none. */
export function pythonWithClient(): string {
  if (cached) return cached;
  const repoVenv = join(REPO_ROOT, '.venv/bin/python');
  if (canImportClient(repoVenv)) return (cached = repoVenv);
  const dir = join(REPO_ROOT, '.cache/attack-venv');
  const python = join(dir, 'bin/python');
  if (!canImportClient(python)) {
    const lock = `${dir}.lock`;
    mkdirSync(join(REPO_ROOT, '.cache'), { recursive: true });
    // Two test files may get here at once: one builds, the other waits for the lock to go.
    let mine = false;
    for (let waited = 0; !mine && waited < 180_000; waited += 500) {
      try {
        mkdirSync(lock);
        mine = true;
      } catch {
        execFileSync('sleep', ['0.5']);
      }
    }
    try {
      if (!canImportClient(python)) {
        rmSync(dir, { recursive: true, force: true });
        execFileSync(process.env.PYTHON ?? 'python3', ['-m', 'venv', dir], { stdio: 'inherit' });
        execFileSync(python, ['-m', 'pip', 'install', '--quiet', '-e', join(REPO_ROOT, 'python')], {
          stdio: 'inherit',
          env: { ...process.env, PIP_CACHE_DIR: join(REPO_ROOT, '.cache/pip') },
        });
      }
    } finally {
      if (mine) rmSync(lock, { recursive: true, force: true });
    }
  }
  return (cached = python);
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
