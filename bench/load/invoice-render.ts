/**
 * The invoice figure's measurement in a fresh process (bench/figures/ledger.ts):
 *
 *   node bench/load/invoice-render.ts <blocks> <runs>
 *
 * Seeds a store with `blocks` blocks of one client over a year, then `runs` times drafts the
 * invoice (core's `draftInvoice`) and renders it to PDF (app's `renderInvoice`), timing each and
 * reading the peak RSS (`VmHWM`, reset through /proc/self/clear_refs just before) over the RSS
 * before. Prints one JSON line, {@link InvoiceRun}.
 */

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { draftInvoice } from '@tock/core';
import { renderInvoice } from '../../packages/app/src/invoices/render.ts';
import { type InvoiceRun, seeded, setRates, INVOICE_RANGE } from '../figures/ledger.ts';

function memory(): { rss: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

const blocks = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 5);
const { store, dir, clientIDs } = seeded(blocks, 1, 4);
setRates(store, true);
try {
  const out: InvoiceRun = { timesMs: [], growth: [], totalGrowth: 0, lines: 0, pages: 0, bytes: 0 };
  let last: Uint8Array = new Uint8Array();
  const start = memory().rss;
  let highest = 0;
  for (let i = 0; i < runs; i++) {
    writeFileSync('/proc/self/clear_refs', '5');
    const before = memory();
    const t0 = performance.now();
    const draft = draftInvoice(store, { client: clientIDs[0], from: INVOICE_RANGE.from, to: INVOICE_RANGE.to }, INVOICE_RANGE.now, INVOICE_RANGE.zone);
    last = await renderInvoice(draft.document, 'pdf');
    out.timesMs.push(performance.now() - t0);
    const after = memory();
    out.growth.push(after.peak - before.rss);
    highest = Math.max(highest, after.peak);
    out.lines = draft.document.lines.length;
    out.bytes = last.byteLength;
    const held = draft.sessionIDs.length + draft.entryIDs.length;
    if (held !== blocks) throw new Error(`the invoice holds ${held} blocks`);
  }
  out.totalGrowth = highest - start;
  const { PDFDocument } = await import('pdf-lib');
  out.pages = (await PDFDocument.load(last)).getPageCount();
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
