/**
 * Invoices over the admin channel (docs/cli.md "tock invoice"): `GET /invoices` lists them,
 * `POST /invoices/preview {client, from, to, format?}` renders what would be invoiced without
 * keeping anything (the window's preview), `POST /invoices/create {client, from, to, format?}`
 * issues one, `POST /invoices/reissue {number, format?}` renders a kept one again (a void one
 * marked VOID) and `POST /invoices/void {number}` voids one (core's voidInvoice). The
 * document is streamed like an export (an AdminStream; the summary trailer names the invoice).
 *
 * Create renders first and keeps after: the draft is rendered, then kept in one transaction
 * that makes the draft again and refuses when anything changed meanwhile — so a renderer that
 * fails, or a refusal, numbers nothing and marks no block.
 */
import { overlapWarning, type InvoiceDocument, type InvoiceOverlap, type Store } from '@tock/core';
import { AdminStream } from '../admin.ts';
import type { SyncService } from '@tock/sync';
import type { InvoiceStreamSummary } from '@tock/admin';
import { invoiceUseCases, type InvoiceUseCases } from '../use-cases/invoices.ts';
import { adminHandlers } from './server.ts';
import { INVOICE_CONTENT_TYPES, invoiceFileName, type InvoiceFormat } from '../invoices/text.ts';


function streamed(doc: InvoiceDocument, format: InvoiceFormat, bytes: Uint8Array, issued: boolean, overlaps: readonly InvoiceOverlap[] = []): AdminStream<InvoiceStreamSummary> {
  const warning = overlapWarning(overlaps);
  const summary: InvoiceStreamSummary = {
    number: doc.number,
    format,
    fileName: invoiceFileName(doc, format),
    client: doc.client.name,
    lines: doc.lines.length,
    totals: doc.totals,
    issued,
    warnings: warning === undefined ? [] : [warning],
    ...(overlaps.length === 0 ? {} : { overlaps: overlaps.map(({ number, from, to }) => ({ number, from, to })) }),
  };
  // 64 KiB at a time: the channel's pace, not one write of the whole file.
  function* chunks(): Generator<Uint8Array, InvoiceStreamSummary, undefined> {
    for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
    return summary;
  }
  return new AdminStream(INVOICE_CONTENT_TYPES[format], chunks());
}

/** The invoice routes: each a path bound to its use case (use-cases/invoices.ts), the document streamed. */
export function invoiceAdminRoutes(store: Store, clock: () => number, sync: SyncService, env: NodeJS.ProcessEnv, cases: InvoiceUseCases = invoiceUseCases({ store, clock, sync, env })) {
  return adminHandlers({
    'GET /invoices': () => cases.listInvoices(),
    'POST /invoices/preview': async (input) => {
      const preview = await cases.previewInvoice(input);
      return streamed(preview.document, preview.format, preview.bytes, false, preview.overlaps);
    },
    'POST /invoices/create': async (input) => {
      const issued = await cases.issueInvoice(input);
      return streamed(issued.document, issued.format, issued.bytes, true, issued.overlaps);
    },
    'POST /invoices/reissue': async (input) => {
      const again = await cases.reissueInvoice(input);
      return streamed(again.document, again.format, again.bytes, true);
    },
    'POST /invoices/void': (input) => cases.voidInvoice(input),
    'GET /invoices/book': () => cases.book(),
    'POST /invoices/device': (input) => cases.moveBook(input),
  });
}
