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
import { asRendered, draftInvoice, invoiceByNumber, issueInvoice, listInvoices, localDayKey, overlapWarning, systemTimeZone, voidInvoice, type InvoiceDocument, type InvoiceSummary, type Store } from '@tock/core';
import { AdminStream } from '../admin.ts';
import { bookView, claimBook, moveBook, type BookView, type SyncService } from '@tock/sync';
import type { InvoiceStreamSummary } from '@tock/admin';
import { adminHandlers } from './server.ts';
import { readInvoiceFormat, renderInvoice } from '../invoices/render.ts';
import { INVOICE_CONTENT_TYPES, invoiceFileName, type InvoiceFormat } from '../invoices/text.ts';


function streamed(doc: InvoiceDocument, format: InvoiceFormat, bytes: Uint8Array, issued: boolean, warning?: string): AdminStream<InvoiceStreamSummary> {
  const summary: InvoiceStreamSummary = {
    number: doc.number,
    format,
    fileName: invoiceFileName(doc, format),
    client: doc.client.name,
    lines: doc.lines.length,
    totals: doc.totals,
    issued,
    warnings: warning === undefined ? [] : [warning],
  };
  // 64 KiB at a time: the channel's pace, not one write of the whole file.
  function* chunks(): Generator<Uint8Array, InvoiceStreamSummary, undefined> {
    for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
    return summary;
  }
  return new AdminStream(INVOICE_CONTENT_TYPES[format], chunks());
}

/** The invoice routes over `store`; `sync` says which device issues (../sync/book.ts). */
export function invoiceAdminRoutes(store: Store, clock: () => number, sync: SyncService) {
  const request = (input: { client: string; from: string; to: string; showWorked?: boolean }) => ({ client: input.client, from: input.from, to: input.to, showWorked: input.showWorked });
  return adminHandlers({
    'GET /invoices': () => listInvoices(store),
    'POST /invoices/preview': async (input) => {
      const format = readInvoiceFormat(input.format);
      const draft = draftInvoice(store, request(input), clock(), systemTimeZone());
      return streamed(draft.document, format, await renderInvoice(draft.document, format), false, overlapWarning(draft.overlaps));
    },
    'POST /invoices/create': async (input) => {
      const format = readInvoiceFormat(input.format);
      const now = clock();
      const timeZone = systemTimeZone();
      const draft = draftInvoice(store, request(input), now, timeZone);
      const bytes = await renderInvoice(draft.document, format);
      const doc = store.transaction(() => {
        claimBook(store, sync, now, draft.document);
        return issueInvoice(store, draft, request(input), now, timeZone, () => crypto.randomUUID());
      });
      return streamed(doc, format, bytes, true, overlapWarning(draft.overlaps));
    },
    'POST /invoices/reissue': async (input) => {
      const format = readInvoiceFormat(input.format);
      const doc = invoiceByNumber(store, input.number);
      return streamed(doc, format, await renderInvoice(asRendered(doc), format), true);
    },
    'POST /invoices/void': (input) => {
      const doc = store.transaction(() => {
        claimBook(store, sync, clock());
        return voidInvoice(store, input.number, localDayKey(clock(), systemTimeZone()));
      });
      return listInvoices(store).find((i) => i.number === doc.number) as InvoiceSummary;
    },
    'GET /invoices/book': (): BookView => bookView(store, sync),
    'POST /invoices/device': (input): BookView => {
      store.transaction(() => moveBook(store, sync, input.name, clock()));
      // Logged and written to the folder now, not at the next second's drain.
      sync.flush();
      return bookView(store, sync);
    },
  });
}
