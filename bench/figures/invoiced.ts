/**
 * Figure 25c (issue 38, docs/data.md "Invoices"): what the invoiced-block guard — the store's
 * triggers that refuse a change to a block on an invoice (packages/core/src/invoiced.ts) — costs
 * the writes that pass it.
 *  - invoiced-edits: the CPU per durable edit (each a group-committed `updateEntry`, as the
 *    listener and the window write: store.durably, synchronous=FULL, 4 in flight) of blocks on
 *    no invoice, in a store where 2 000 other blocks are on an invoice, with the guard against
 *    the same store and writes without it (its triggers dropped). Target ≤ 1.05× (≤ 5 %).
 *  - invoiced-logs: the same for durable `logEntry` (what `POST /entries` does). Target ≤ 1.05×.
 * Rounds alternate (pairedRounds), a fresh store each side and round. The figure is the use
 * case's CPU µs per write (this process's user + system time over 20 000 writes, 500 to a
 * transaction): the guard's cost is in the statements, and a durable write is that plus a commit
 * and an fsync that are the same on both sides, so the ratio here bounds the one a durable write
 * sees from above. Durable writes/s and their CPU each are measured too, in the details: the
 * disk's fsync and how many writes share a commit swing them by 2–3× between rounds on a shared
 * machine (a first run gave round ratios from 0.54 to 2.4, even for logEntry, which no trigger
 * touches), far more than the few µs looked for.
 * Runs alone too: `node bench/figures/invoiced.ts [--rounds N]` prints the figures as JSON.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addClient, createTracker, draftInvoice, issueInvoice, openStore, setActivityLedger } from '@tock/core';
import { pairedFigure, pairedRounds, round, type BenchConfig, type FigureResult } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';

const DAY = 86_400_000;
/** Noon of a fixed day: the blocks lie in the year before it. */
const NOON = Date.parse('2026-11-23T12:00:00Z');

/** What one side of a round measured. */
interface Side {
  /** CPU µs per write of the use case alone: 20 000 writes, 500 to a transaction. */
  cpuUsPerWrite: number;
  /** Durable writes/s (group-committed, 4 in flight) and their CPU µs each. */
  rate: number;
  durableCpuUsPerWrite: number;
  writes: number;
}

/** One side: the guard `on` or dropped; `edit` edits free blocks, else logs new ones. */
async function writeRate(on: boolean, edit: boolean, ms: number): Promise<Side> {
  const root = mkdtempSync(join(tmpdir(), 'tock-bench-invoiced-'));
  const store = openStore(join(root, 'tock.db'));
  let n = 0;
  const tracker = createTracker({ store, timeZone: 'UTC', clock: () => NOON, newId: () => crypto.randomUUID() });
  try {
    // 2 000 invoiced blocks of ACME (one a day and a bit), and 2 000 free ones of another activity.
    store.transaction(() => {
      addClient(store, { name: 'ACME', rate: '80', currency: 'EUR' }, NOON, () => crypto.randomUUID());
      for (let i = 0; i < 2000; i++) tracker.logEntry({ name: 'Billed', createIfMissing: true, durationMinutes: 30, endedAt: new Date(NOON - 300 * DAY + i * 3 * 3_600_000).toISOString() });
      setActivityLedger(store, 'Billed', { client: 'ACME', billable: true });
    });
    const input = { client: 'ACME', from: '2026-01-01', to: '2026-11-22' };
    store.transaction(() => issueInvoice(store, draftInvoice(store, input, NOON, 'UTC'), input, NOON, 'UTC', () => crypto.randomUUID()));
    const free: string[] = [];
    store.transaction(() => {
      for (let i = 0; i < 2000; i++) free.push(tracker.logEntry({ name: 'Free', createIfMissing: true, durationMinutes: 30, endedAt: new Date(NOON - 300 * DAY + i * 3 * 3_600_000 + 3_600_000).toISOString() }).entryID);
    });
    if (!on) for (const { name } of store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'invoiced%'").all() as { name: string }[]) store.db.exec(`DROP TRIGGER ${name}`);
    const triggers = (store.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'invoiced%'").get() as { n: number }).n;
    if ((triggers > 0) !== on) throw new Error(`invoiced guard ${on ? 'on' : 'off'} but ${triggers} triggers`);
    const write = (): void => {
      const k = n++;
      if (edit) tracker.updateEntry(free[k % free.length] as string, { note: `edit ${k}` });
      else tracker.logEntry({ name: 'Free', durationMinutes: 1, note: 'bench' });
    };
    // The use case alone: what the guard adds is in its statements, not in the commit's fsync.
    const batches = 40;
    const cpuAlone = process.cpuUsage();
    for (let b = 0; b < batches; b++) store.transaction(() => {
      for (let i = 0; i < 500; i++) write();
    });
    const alone = process.cpuUsage(cpuAlone);
    // Durable, as the listener and the window write: one group commit per turn, 4 in flight.
    let writes = 0;
    const end = performance.now() + ms;
    const worker = async (): Promise<void> => {
      while (performance.now() < end) {
        await store.durably(write);
        writes++;
      }
    };
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all([worker(), worker(), worker(), worker()]);
    const rate = writes / ((performance.now() - started) / 1000);
    const used = process.cpuUsage(cpu);
    return { cpuUsPerWrite: (alone.user + alone.system) / (batches * 500), rate, durableCpuUsPerWrite: (used.user + used.system) / writes, writes };
  } finally {
    store.close();
    rmSync(root, { recursive: true, force: true });
  }
}

async function guardFigure(config: Pick<BenchConfig, 'smoke' | 'rounds'>, edit: boolean): Promise<FigureResult> {
  // A smoke run only shows the harness works: one short round.
  const ms = config.smoke ? 250 : 3000;
  const paired = await pairedRounds(
    config.smoke ? 1 : Math.max(4, config.rounds),
    async () => {
      const r = await writeRate(false, edit, ms);
      return { value: r.cpuUsPerWrite, detail: r };
    },
    async () => {
      const r = await writeRate(true, edit, ms);
      return { value: r.cpuUsPerWrite, detail: r };
    },
  );
  const rateOn = median(paired.subjectDetails.map((d) => d.rate));
  const rateOff = median(paired.baselineDetails.map((d) => d.rate));
  const durableOn = median(paired.subjectDetails.map((d) => d.durableCpuUsPerWrite));
  const durableOff = median(paired.baselineDetails.map((d) => d.durableCpuUsPerWrite));
  const figure = pairedFigure(
    edit
      ? { id: 'invoiced-edits', title: 'CPU per durable edit of a block, invoiced-block guard on', unit: 'µs/write', baselineLabel: 'the same edits without the guard', target: { kind: 'max', ratio: 1.05 } }
      : { id: 'invoiced-logs', title: 'CPU per durable logEntry (POST /entries), invoiced-block guard on', unit: 'µs/write', baselineLabel: 'the same writes without the guard', target: { kind: 'max', ratio: 1.05 } },
    paired,
    {
      durableWritesPerSecondOn: round(rateOn, 1),
      durableWritesPerSecondOff: round(rateOff, 1),
      durableRateRoundRatios: paired.subjectDetails.map((d, i) => round(d.rate / (paired.baselineDetails[i]?.rate ?? 1), 3)),
      durableCpuUsPerWriteOn: round(durableOn, 1),
      durableCpuUsPerWriteOff: round(durableOff, 1),
    },
  );
  figure.note = `durable: ${round(rateOn, 0)} vs ${round(rateOff, 0)} writes/s, ${round(durableOn, 1)} vs ${round(durableOff, 1)} CPU µs each (medians; the disk's fsync and the group size set them)`;
  return figure;
}

/** Figure 25c: the invoiced-block guard's cost to edits and to new blocks. */
export async function invoicedFigures(config: Pick<BenchConfig, 'smoke' | 'rounds' | 'log'>): Promise<FigureResult[]> {
  const edits = await guardFigure(config, true);
  config.log(`invoiced-edits: ${round(edits.ratio ?? 0, 3)}×`);
  const logs = await guardFigure(config, false);
  config.log(`invoiced-logs: ${round(logs.ratio ?? 0, 3)}×`);
  return [edits, logs];
}

if (import.meta.main) {
  const roundsAt = process.argv.indexOf('--rounds');
  const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 4;
  const figures = await invoicedFigures({ smoke: process.argv.includes('--smoke'), rounds, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
