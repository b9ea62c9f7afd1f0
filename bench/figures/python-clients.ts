/**
 * Figure 7: the Python client's calls per second against hand-signed httpx calls (hmac,
 * fresh random nonce, JSON parsed, response signature not checked), against the same app:
 * `Client` against `httpx.Client` (one caller), `AsyncClient` against `httpx.AsyncClient`
 * (a few tasks on one event loop). Needs the repository's virtualenv (`.venv`, made by
 * scripts/test-python.sh); without it both figures are skipped and say why.
 */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchPath, runJson, startAppServer } from '../lib/children.ts';
import { pairedFigure, pairedRounds, unmeasured, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';

const ASYNC_TASKS = 4;
/** One round fewer than the other figures: each run starts an interpreter and imports httpx (~1 s). */
const pythonRounds = (config: BenchConfig): number => Math.max(1, config.rounds - 1);

const SYNC = {
  id: 'python-client-rps',
  title: 'Python Client get_status() calls/s (1 caller)',
  unit: 'calls/s',
  baselineLabel: 'hand-signed httpx.Client',
  target: { kind: 'min', ratio: 0.8 } as Target,
};
const ASYNC = {
  id: 'python-async-client-rps',
  title: `Python AsyncClient get_status() calls/s (${ASYNC_TASKS} tasks)`,
  unit: 'calls/s',
  baselineLabel: 'hand-signed httpx.AsyncClient',
  target: { kind: 'min', ratio: 0.8 } as Target,
};

/** The interpreter of the repository's virtualenv (or BENCH_PYTHON), or null. */
export function benchPython(): string | null {
  const explicit = process.env.BENCH_PYTHON;
  if (explicit) return explicit;
  const venv = fileURLToPath(new URL('../../.venv/bin/python', import.meta.url));
  return existsSync(venv) ? venv : null;
}

export async function pythonFigures(config: BenchConfig): Promise<FigureResult[]> {
  const python = benchPython();
  let why: string | null = null;
  if (python === null) {
    why = 'no .venv/bin/python: run `bash scripts/test-python.sh` once (it creates the virtualenv) or set BENCH_PYTHON';
  } else if (spawnSync(python, ['-c', 'import httpx, tock_client'], { stdio: 'ignore' }).status !== 0) {
    why = `${python} cannot import tock_client and httpx: run \`bash scripts/test-python.sh\` (it installs them)`;
  }
  if (python === null || why !== null) {
    config.log(`  SKIPPED: ${why}`);
    return [unmeasured(SYNC, 'skipped', why ?? ''), unmeasured(ASYNC, 'skipped', why ?? '')];
  }
  const app = await startAppServer({ seed: { today: true } }, { execArgv: config.serverArgs('python') });
  try {
    const loop = async (mode: string) => {
      const r = await runJson<{ rps: number; calls: number }>(python, [
        benchPath('load/py_client_loop.py'),
        JSON.stringify({
          mode,
          port: app.ready.port,
          token: app.ready.token,
          warmup_s: config.warmupMs / 2000, // the loop is short; the interpreter start is the slow part
          duration_s: config.clientMs / 1000,
          concurrency: ASYNC_TASKS,
        }),
      ]);
      return { value: r.rps, detail: r as unknown };
    };
    const sync = pairedFigure(SYNC, await pairedRounds(pythonRounds(config), () => loop('httpx'), () => loop('client')));
    const asyncFigure = pairedFigure(
      ASYNC,
      await pairedRounds(pythonRounds(config), () => loop('async-httpx'), () => loop('async-client')),
      { tasks: ASYNC_TASKS },
    );
    return [sync, asyncFigure];
  } finally {
    await app.stop();
  }
}
