/**
 * Figure 5: acknowledged-durable `POST /entries` per second against a plain node:sqlite
 * loop that commits one INSERT per transaction with the same durability settings (WAL,
 * synchronous=FULL), on the same file system. Each answered request is on disk (docs/product.md "The application"),
 * so the disk's fsync bounds both sides. The requests carry an `Idempotency-Key`, as both
 * clients send one on `logEntry`; a third arm without the key is reported in the details.
 *
 * Figure 5c (issue 42, target 3's rate), from the same rounds: the same requests against bare
 * loops "writing the same rows at the same concurrency" (load/sqlite-request-loop.ts: the
 * entry, its idempotency record and the activity's recency per transaction, 4 writers at
 * once), target ≥ 0.8.
 */

import { drive, runNodeScript, startAppServer } from '../lib/children.ts';
import { pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';
import type { DriverConfig } from '../load/driver.ts';
import { assertAllOk, medianOf } from './throughput.ts';

const BASE = {
  id: 'entries-durable-writes',
  title: 'POST /entries durable writes/s (with Idempotency-Key)',
  unit: 'writes/s',
  baselineLabel: 'node:sqlite INSERT+COMMIT loop, WAL, synchronous=FULL',
  target: { kind: 'min', ratio: 0.5 } as Target,
};

const SAME_ROWS = {
  id: 'entries-rate-same-rows',
  title: 'POST /entries durable writes/s vs the same rows at the same concurrency',
  unit: 'writes/s',
  baselineLabel: 'node:sqlite loops, entry + idempotency record + recency per COMMIT, 4 writers, WAL, synchronous=FULL',
  target: { kind: 'min', ratio: 0.8 } as Target,
};

export async function writesFigure(config: BenchConfig): Promise<FigureResult[]> {
  const app = await startAppServer({ seed: { today: true } }, { execArgv: config.serverArgs('entries') });
  try {
    const load = (idempotencyKeys: boolean): DriverConfig => ({
      port: app.ready.port,
      token: app.ready.token,
      method: 'POST',
      targets: ['/entries'],
      body: JSON.stringify({ name: 'Bench project 0', durationMinutes: 1, note: 'bench' }),
      idempotencyKeys,
      concurrency: 4,
      warmupMs: config.warmupMs,
      durationMs: config.writesMs,
      expectStatus: 201,
    });
    const withoutKey: number[] = [];
    const sameRows: number[] = [];
    const paired = await pairedRounds(
      config.rounds,
      async () => {
        const r = await runNodeScript<{ rps: number; commits: number }>('load/sqlite-commit-loop.ts', [
          JSON.stringify({ warmupMs: config.warmupMs, durationMs: config.writesMs }),
        ]);
        const same = await runNodeScript<{ rps: number }>('load/sqlite-request-loop.ts', [
          JSON.stringify({ warmupMs: config.warmupMs, durationMs: config.writesMs, writers: 4 }),
        ]);
        sameRows.push(same.rps);
        return { value: r.rps, detail: r as unknown };
      },
      async () => {
        const r = await drive(load(true));
        assertAllOk(r, 'POST /entries');
        const plain = await drive(load(false));
        assertAllOk(plain, 'POST /entries without Idempotency-Key');
        withoutKey.push(plain.rps);
        return { value: r.rps, detail: r as unknown };
      },
    );
    const figure = pairedFigure(BASE, paired, {
      concurrency: 4,
      withoutIdempotencyKey: {
        rps: round(median(withoutKey), 1),
        ratio: round(median(withoutKey) / median(paired.baseline), 3),
      },
      p50Ms: medianOf(paired.subjectDetails as { latencyMs: { p50: number } }[], (d) => d.latencyMs.p50),
    });
    figure.note = `without the key: ${round(median(withoutKey) / median(paired.baseline), 2)}`;
    // 5c: the same Tock rounds, each against the same-rows loops run beside that round's baseline.
    const same = pairedFigure(SAME_ROWS, { ...paired, baseline: sameRows, ratios: paired.subject.map((rps, i) => rps / (sameRows[i] as number)) }, { concurrency: 4 });
    same.note = `the bare loops ${round(median(sameRows), 0)} commits/s, the one-row loop of figure 5 ${round(median(paired.baseline), 0)}`;
    return [figure, same];
  } finally {
    await app.stop();
  }
}
