/**
 * Figure 8: the app's memory after N seconds at its maximum signed-request rate, against the
 * same app idle. Every verified request leaves its nonce in the listener's replay window for
 * 180 s (docs/protocol.md "Order of checks on the server" step 6), so memory grows with the rate until nonces expire; the window is
 * bounded (`maxNonces`, packages/listener/src/listener.ts) and fails closed at the bound
 * (429 until room is made, never forgetting a live nonce).
 *
 * A run shorter than 180 s forgets nothing, so every verified request is one remembered
 * nonce: the growth of heap plus array buffers (after a full GC) over them is what one costs
 * in the running app. The window at its bound is measured, not projected: a separate process
 * fills the listener's own `NonceWindow` to `maxNonces` (the tables grow in steps, so a
 * per-nonce cost taken at another size would mislead), and that is checked against the
 * bound the listener states.
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '@tock/protocol';
import { drive, runJson, startAppServer, benchPath } from '../lib/children.ts';
import { round, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import type { MemoryReport } from '../servers/app-server.ts';
import { assertAllOk } from './throughput.ts';

const MB = 1_000_000;

/** The nonce bound and the memory the listener says it costs, read from its source so they cannot drift. */
export function statedNonceBound(): { maxNonces: number; statedMB: number | null; source: string } {
  const source = fileURLToPath(new URL('../../packages/listener/src/listener.ts', import.meta.url));
  const text = readFileSync(source, 'utf8');
  const max = /DEFAULT_MAX_NONCES\s*=\s*([\d_]+)/.exec(text);
  if (!max?.[1]) throw new Error(`DEFAULT_MAX_NONCES not found in ${source}`);
  const stated = /About\s+(\d+)\s*MB of nonces/i.exec(text);
  return {
    maxNonces: Number(max[1].replace(/_/g, '')),
    statedMB: stated?.[1] ? Number(stated[1]) : null,
    source: 'packages/listener/src/listener.ts',
  };
}

export async function memoryFigure(config: BenchConfig): Promise<FigureResult> {
  const bound = statedNonceBound();
  const seconds = config.memoryMs / 1000;
  const target: Target = {
    kind: 'report',
    text: bound.statedMB === null ? 'report MB' : `nonces ≤ ${bound.statedMB} MB at bound`,
  };
  const app = await startAppServer({ seed: { today: true } }, { execArgv: ['--expose-gc', ...config.serverArgs('memory')] });
  try {
    await new Promise((r) => setTimeout(r, 500));
    const idle = await app.memory();
    config.log(`  idle: rss ${mb(idle.rss)} MB, heap ${mb(idle.heapUsed)} MB; driving GET /healthcheck for ${seconds} s`);
    let peakRss = idle.rss;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await new Promise((r) => setTimeout(r, 1000));
        if (!sampling) break;
        peakRss = Math.max(peakRss, (await app.memory(false)).rss);
      }
    })();
    const run = await drive({
      port: app.ready.port,
      token: app.ready.token,
      method: 'GET',
      targets: ['/healthcheck'],
      concurrency: config.concurrency,
      warmupMs: 0,
      durationMs: config.memoryMs,
      expectStatus: 200,
    });
    sampling = false;
    await sampler;
    assertAllOk(run, 'GET /healthcheck');
    const loaded: MemoryReport = await app.memory();
    peakRss = Math.max(peakRss, loaded.rss);

    const nonces = run.totalOk; // < 180 s: none has expired yet
    const perNonce = (used(loaded) - used(idle)) / nonces;
    const rate = run.rps;
    const steadyNonces = Math.min(bound.maxNonces, rate * LIMITS.nonceWindowSeconds);
    const fillTo = config.smoke ? 20_000 : bound.maxNonces;
    const filled = await runJson<{ bytes: number; bytesPerNonce: number; addUs: number }>(
      process.execPath,
      ['--expose-gc', benchPath('load/nonce-window-fill.ts'), JSON.stringify({ max: fillTo })],
      120_000,
    );
    const atBoundMB = (filled.bytesPerNonce * bound.maxNonces) / MB;
    const withinBound = bound.statedMB === null ? null : atBoundMB <= bound.statedMB * 1.1;
    const secondsToBound = bound.maxNonces / rate;
    const notes = [`${round(perNonce, 0)} B/nonce in the app`, `window at the bound ${round(atBoundMB, 0)} MB (filled, ${round(filled.bytesPerNonce, 0)} B/nonce)`];
    if (secondsToBound < LIMITS.nonceWindowSeconds) notes.push(`bound reached after ${Math.round(secondsToBound)} s → 429`);
    return {
      id: 'memory-nonce-window',
      title: `app RSS after ${seconds} s at max signed rate`,
      unit: 'MB',
      value: round(loaded.rss / MB, 1),
      baseline: round(idle.rss / MB, 1),
      baselineLabel: 'the app idle',
      ratio: round(loaded.rss / idle.rss, 3),
      target,
      pass: withinBound,
      status: 'measured',
      note: notes.join(', '),
      details: {
        seconds,
        rate: round(rate, 0),
        noncesRemembered: nonces,
        idleMB: { rss: round(idle.rss / MB, 1), heapUsed: round(idle.heapUsed / MB, 1), arrayBuffers: round(idle.arrayBuffers / MB, 1) },
        loadedMB: {
          rss: round(loaded.rss / MB, 1),
          heapUsed: round(loaded.heapUsed / MB, 1),
          arrayBuffers: round(loaded.arrayBuffers / MB, 1),
          peakRss: round(peakRss / MB, 1),
        },
        bytesPerNonce: round(perNonce, 1),
        rssBytesPerNonce: round((loaded.rss - idle.rss) / nonces, 1),
        fullWindowAtThisRate: { nonces: Math.round(steadyNonces), MB: round((perNonce * steadyNonces) / MB, 1) },
        atBound: {
          maxNonces: bound.maxNonces,
          filledTo: fillTo,
          MB: round(atBoundMB, 1),
          bytesPerNonce: round(filled.bytesPerNonce, 1),
          usPerAdd: round(filled.addUs, 2),
          statedMB: bound.statedMB,
          source: bound.source,
        },
        secondsToFillBoundAtThisRate: round(secondsToBound, 1),
        atTheBound: 'the listener sweeps expired nonces, then answers 429 locked_out with Retry-After until one expires',
      },
    };
  } finally {
    await app.stop();
  }
}

/** What the nonce window can occupy: the JS heap and array buffers (its typed-array tables). */
function used(m: MemoryReport): number {
  return m.heapUsed + m.arrayBuffers;
}

function mb(bytes: number): number {
  return round(bytes / MB, 1);
}
