/**
 * The invoice figure's measurement in a fresh process (bench/figures/ledger.ts):
 *
 *   node bench/load/invoice-render.ts <blocks> <runs>
 *
 * Seeds a store with `blocks` blocks of one client over a year, with a tax rate (19 %) and
 * payment days set, then `runs` times issues the invoice as `tock invoice` does: drafts it
 * (core's `draftInvoice`), renders it to PDF (app's `renderInvoice`) and keeps it (core's
 * `issueInvoice` in one committed transaction: the draft made again and compared, numbered, its
 * blocks marked), timing each and reading the peak RSS (`VmHWM`, reset through
 * /proc/self/clear_refs just before) over the RSS before. Between runs, untimed, the invoice is
 * taken back (its blocks unmarked, its row deleted) so the next run issues the same 2 000
 * blocks. Prints one JSON line, {@link InvoiceRun}.
 */

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { draftInvoice, issueInvoice, setLedgerSetting } from '@tock/core';
import { renderInvoice } from '../../packages/app/src/invoices/render.ts';
import { type InvoiceRun, seeded, setRates, INVOICE_RANGE } from '../figures/ledger.ts';

function memory(): { rss: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

const blocks = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 5);
/** The invoice's language (`ja`: drawn in the embedded Japanese font); the client's when not given. */
const language = process.argv[4];
const { store, dir, clientIDs } = seeded(blocks, 1, 4);
setRates(store, true);
setLedgerSetting(store.settings, 'business', { name: 'Bench GmbH', address: 'Street 1\n10115 Berlin', taxID: 'DE123456789', paymentTerms: 'IBAN DE00 0000', taxRate: 19, paymentDays: 14 });
try {
  const out: InvoiceRun = { timesMs: [], cpuMs: [], renderedMs: [], growth: [], totalGrowth: 0, lines: 0, pages: 0, bytes: 0 };
  let last: Uint8Array = new Uint8Array();
  const start = memory().rss;
  let highest = 0;
  for (let i = 0; i < runs; i++) {
    writeFileSync('/proc/self/clear_refs', '5');
    const before = memory();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const request = { client: clientIDs[0], from: INVOICE_RANGE.from, to: INVOICE_RANGE.to };
    const draft = draftInvoice(store, request, INVOICE_RANGE.now, INVOICE_RANGE.zone);
    last = await renderInvoice(language === undefined ? draft.document : { ...draft.document, language }, 'pdf');
    out.renderedMs?.push(performance.now() - t0);
    const kept = store.transaction(() => issueInvoice(store, draft, request, INVOICE_RANGE.now, INVOICE_RANGE.zone, () => crypto.randomUUID()));
    out.timesMs.push(performance.now() - t0);
    const c1 = process.cpuUsage(c0);
    out.cpuMs?.push((c1.user + c1.system) / 1000);
    if ((kept.totals[0]?.taxes ?? []).length !== 1) throw new Error('the invoice has no tax line');
    // Untimed: the invoice taken back, so the next run issues the same blocks.
    store.transaction(() => {
      store.db.exec('UPDATE sessions SET invoice_id = NULL WHERE invoice_id IS NOT NULL; UPDATE entries SET invoice_id = NULL WHERE invoice_id IS NOT NULL; DELETE FROM invoices');
    });
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
