/**
 * The ledger's costs (issue 28; docs/data.md "Reports" and "Invoices"):
 *
 * - ledger-report: a year's report by client with amounts (core's `buildReport`, in process)
 *   over 1 M blocks (half sessions, half entries; 50 billable activities of 10 clients, rates on
 *   the clients and on half the activities, two currencies), against the same year's report by
 *   activity without amounts (the same store with every rate cleared), in the same run, in
 *   alternating rounds. Target: ≤ 1.2×.
 * - invoice-pdf: issuing an invoice of 2 000 blocks of one client over a year with a tax line
 *   (core's `draftInvoice`, app's `renderInvoice` to PDF, core's `issueInvoice` committed, as
 *   `tock invoice` does), its time against the 2 s target on this machine, and the
 *   RSS growth of a fresh process (bench/load/invoice-render.ts: peak `VmHWM`, reset through
 *   /proc/self/clear_refs, over the RSS before), the first invoice (pdf-lib loaded) and later ones.
 */

import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReport, nameKey, openStore, searchKey, wordKey, type Store } from '@tock/core';
import { runNodeScript } from '../lib/children.ts';
import { pairedFigure, pairedRounds, round, unmeasured, type BenchConfig, type FigureResult, type Target } from '../lib/figure.ts';
import { median } from '../lib/stats.ts';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const ZONE = 'Europe/Berlin';
const FROM = '2025-11-27';
const TO = '2026-11-26';
/** The invoice's range and clock (bench/load/invoice-render.ts). */
export const INVOICE_RANGE = { from: FROM, to: TO, now: NOW, zone: ZONE };
const YEAR_START = Date.parse('2025-11-27T00:00:00.000Z');
const YEAR_MS = 365 * 86_400_000 - 86_400_000; // every block over before NOW

/** A store with `blocks` blocks over the year; every activity billable, rates as `priced`. */
export function seeded(blocks: number, clients: number, activities: number): { store: Store; dir: string; clientIDs: string[]; activityIDs: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-ledger-'));
  const store = openStore(join(dir, 'tock.db'));
  const db = store.db;
  const clientIDs: string[] = [];
  const activityIDs: string[] = [];
  const insertClient = db.prepare('INSERT INTO clients (id, name, name_key, rate, currency, address, created_at) VALUES (?, ?, ?, NULL, ?, ?, ?)');
  const insertActivity = db.prepare(
    'INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at, client_id, billable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)',
  );
  const insertSession = db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at, note, tags) VALUES (?, ?, ?, ?, ?, ?)');
  const insertEntry = db.prepare('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, tags) VALUES (?, ?, ?, ?, ?, ?, ?)');
  store.transaction(() => {
    for (let c = 0; c < clients; c++) {
      const id = crypto.randomUUID();
      clientIDs.push(id);
      insertClient.run(id, `Client ${c}`, nameKey(`Client ${c}`), c % 2 === 0 ? 'EUR' : 'USD', `Street ${c}\n10115 Berlin`, YEAR_START);
    }
    for (let a = 0; a < activities; a++) {
      const id = crypto.randomUUID();
      const name = `Project ${a} — work`;
      activityIDs.push(id);
      insertActivity.run(id, name, nameKey(name), searchKey(name), wordKey(name), YEAR_START, NOW, clientIDs[a % clients] as string);
    }
    const step = Math.floor(YEAR_MS / blocks);
    const length = Math.max(1000, step - 1000);
    for (let i = 0; i < blocks; i++) {
      const start = YEAR_START + i * step;
      const activity = activityIDs[i % activities] as string;
      const note = i % 3 === 0 ? `Ticket ${i % 500}: review and fixes` : null;
      const tags = i % 4 === 0 ? '["dev"]' : null;
      if (i % 2 === 0) insertSession.run(crypto.randomUUID(), activity, start, start + length, note, tags);
      else insertEntry.run(crypto.randomUUID(), activity, start, start + length, note, start, tags);
    }
  });
  return { store, dir, clientIDs, activityIDs };
}

/** Rates on every client and on every other activity (priced), or none. */
export function setRates(store: Store, priced: boolean): void {
  store.db.exec(priced ? "UPDATE clients SET rate = '85.00'; UPDATE activities SET rate = CASE WHEN rowid % 2 = 0 THEN '120.50' ELSE NULL END" : 'UPDATE clients SET rate = NULL; UPDATE activities SET rate = NULL');
}

/** CPU ms of one year's report (wall ms beside it): CPU time moves less than wall time on a shared machine. */
function reportMs(store: Store, by: 'client' | 'activity', runs: number): { ms: number; cpuMs: number; rows: number; amounts: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  let rows = 0;
  let amounts = 0;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const report = buildReport(store, { from: FROM, to: TO, by }, NOW, ZONE);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    rows = report.rows.length;
    amounts = report.amounts.length;
  }
  return { ms: median(wall), cpuMs: median(cpu), rows, amounts };
}

async function reportFigure(config: BenchConfig): Promise<FigureResult> {
  const blocks = config.smoke ? 10_000 : 1_000_000;
  const base = {
    id: 'ledger-report',
    title: `a year's report by client with amounts, ${blocks >= 1e6 ? `${blocks / 1e6} M` : `${blocks / 1e3} k`} blocks`,
    unit: 'CPU ms',
    baselineLabel: 'the same year by activity, no rates set',
    target: { kind: 'max', ratio: 1.2 } as Target,
  };
  config.log(`  seeding ${blocks} blocks over a year (50 billable activities, 10 clients)`);
  const t0 = performance.now();
  const { store, dir } = seeded(blocks, 10, 50);
  config.log(`  seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  try {
    const runs = config.smoke ? 1 : 3;
    // One unmeasured report of each kind: the pages in the cache, the code compiled.
    setRates(store, true);
    reportMs(store, 'client', 1);
    setRates(store, false);
    reportMs(store, 'activity', 1);
    const paired = await pairedRounds(
      config.rounds,
      async () => {
        setRates(store, false);
        const r = reportMs(store, 'activity', runs);
        if (r.amounts !== 0) throw new Error('the baseline report has amounts');
        return { value: r.cpuMs, detail: r };
      },
      async () => {
        setRates(store, true);
        const r = reportMs(store, 'client', runs);
        if (r.amounts === 0) throw new Error('the report by client has no amounts');
        return { value: r.cpuMs, detail: r };
      },
    );
    const figure = pairedFigure(base, paired, { blocks, runsPerRound: runs, subject: paired.subjectDetails, baseline: paired.baselineDetails });
    const wallRatio = median(paired.subjectDetails.map((s, i) => (s as { ms: number }).ms / (paired.baselineDetails[i] as { ms: number }).ms));
    const wall = (side: unknown[]): number => median(side.map((d) => (d as { ms: number }).ms));
    figure.note = `CPU ${round(figure.value ?? 0, 0)} ms vs ${round(figure.baseline ?? 0, 0)} ms per report (median of ${runs} a round); wall ${round(wall(paired.subjectDetails), 0)} vs ${round(wall(paired.baselineDetails), 0)} ms, ratio ${round(wallRatio, 3)}`;
    return figure;
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What bench/load/invoice-render.ts prints. */
export interface InvoiceRun {
  /** Wall ms of each issue: draft, PDF, kept. */
  timesMs: number[];
  /** CPU ms (user + system) of each issue. */
  cpuMs?: number[];
  /** Wall ms of each up to the PDF (what the figure measured before invoices were issued in it). */
  renderedMs?: number[];
  /** Peak RSS during each invoice over the RSS just before it, bytes; the first loads pdf-lib. */
  growth: number[];
  /** The highest peak over the RSS before the first invoice, bytes. */
  totalGrowth: number;
  lines: number;
  pages: number;
  bytes: number;
}

async function invoiceFigure(config: BenchConfig): Promise<FigureResult> {
  const blocks = 2000;
  const base = {
    id: 'invoice-pdf',
    title: `an invoice of ${blocks} blocks (a year, one client, a tax line) issued: drafted, rendered to PDF, kept`,
    unit: 'ms',
    baselineLabel: 'target 2 000 ms on this machine',
    target: { kind: 'max', ratio: 1 } as Target,
  };
  if (process.platform !== 'linux') return unmeasured(base, 'skipped', 'reads /proc/self/status');
  const runs = config.smoke ? 2 : Math.max(5, config.rounds * 2);
  // A fresh process: its RSS growth is the invoice's, not what earlier figures left behind.
  const r = await runNodeScript<InvoiceRun>('load/invoice-render.ts', [String(blocks), String(runs)], 300_000);
  const value = median(r.timesMs);
  const mb = (b: number): number => round(b / 1e6, 1);
  return {
    ...base,
    value: round(value, 1),
    baseline: 2000,
    ratio: round(value / 2000, 3),
    pass: config.smoke ? null : value <= 2000,
    status: 'measured',
    note: `${r.lines} lines, ${r.pages} pages, ${round(r.bytes / 1024, 0)} KiB; CPU ${round(median(r.cpuMs ?? []), 0)} ms (median); up to the PDF ${round(median(r.renderedMs ?? []), 0)} ms (median); the first (pdf-lib loaded) ${round(r.timesMs[0] ?? 0, 0)} ms, RSS +${mb(r.growth[0] ?? 0)} MB; later ones +${mb(median(r.growth.slice(1)))} MB (median); peak over the start +${mb(r.totalGrowth)} MB`,
    details: { blocks, runs, timesMs: r.timesMs.map((t) => round(t, 1)), cpuMs: (r.cpuMs ?? []).map((t) => round(t, 1)), renderedMs: (r.renderedMs ?? []).map((t) => round(t, 1)), rssGrowthMB: r.growth.map(mb), totalGrowthMB: mb(r.totalGrowth), lines: r.lines, pages: r.pages, bytes: r.bytes },
  };
}

/** Both ledger figures. */
export async function ledgerFigures(config: BenchConfig): Promise<FigureResult[]> {
  return [await reportFigure(config), await invoiceFigure(config)];
}
