/**
 * Figure 9: cold start — from spawning `tock app --no-open` (the real command, on a home whose
 * listener switch was left on) to the listener answering a signed `GET /healthcheck` with
 * 200 — against spawning `node -e 0` until it exits: how many bare Node start-ups a Tock
 * start costs. Runs alternate between the two; medians are compared.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMPTY_BODY_SHA256 } from '@tock/protocol';
import { startAppServer } from '../lib/children.ts';
import { pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { RequestSigner } from '../lib/signing.ts';
import { median } from '../lib/stats.ts';

const TOCK = fileURLToPath(new URL('../../packages/cli/bin/tock.js', import.meta.url));
const BASE = {
  id: 'cold-start',
  title: 'cold start of `tock app` to listener answering',
  unit: 'ms',
  baselineLabel: 'node -e 0',
  target: { kind: 'report', text: 'report the ratio' } as Target,
};

/** One signed healthcheck; resolves with the status, rejects when nothing answers. */
function healthcheck(port: number, signer: RequestSigner): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = signer.headers('GET', '/healthcheck', EMPTY_BODY_SHA256, Math.floor(Date.now() / 1000));
    const req = request({ host: '127.0.0.1', port, path: '/healthcheck', headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function timeNodeNoop(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return performance.now() - started;
}

async function timeTockStart(home: string, port: number, signer: RequestSigner): Promise<{ ms: number; polls: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [TOCK, 'app', '--no-open'], {
    stdio: 'ignore',
    env: { ...process.env, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file' },
  });
  const exited = once(child, 'exit');
  let polls = 0;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`tock app exited with ${child.exitCode} before answering`);
      if (performance.now() - started > 60_000) throw new Error('tock app did not answer within 60 s');
      polls++;
      const status = await healthcheck(port, signer).catch(() => 0);
      if (status === 200) return { ms: performance.now() - started, polls };
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export async function coldStartFigure(config: BenchConfig): Promise<FigureResult> {
  // A home whose listener was switched on: the app binds it again at start.
  const home = mkdtempSync(join(tmpdir(), 'tock-bench-cold-'));
  const prepared = await startAppServer({ home });
  const { port, token } = prepared.ready;
  await prepared.stop();
  const signer = new RequestSigner(token);
  try {
    const polls: number[] = [];
    const paired = await pairedRounds(
      config.coldStarts,
      async () => ({ value: await timeNodeNoop(), detail: null }),
      async () => {
        const r = await timeTockStart(home, port, signer);
        polls.push(r.polls);
        return { value: r.ms, detail: null };
      },
    );
    const figure = pairedFigure(BASE, paired, { runs: config.coldStarts, medianPolls: median(polls) });
    figure.ratio = round((figure.value ?? 0) / (figure.baseline ?? 1), 2);
    return figure;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
