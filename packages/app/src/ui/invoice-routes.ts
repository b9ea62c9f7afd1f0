/**
 * The window's routes for invoices (docs/ui.md "Invoices"): the list, a preview of what would be
 * invoiced (the HTML the invoice would be, nothing kept), create, and a kept invoice downloaded
 * again as PDF, HTML or CSV (a reissue: rendered from the document as it was issued). The same
 * core functions and renderer as `tock invoice` (admin/invoice-routes.ts): create renders first
 * and keeps after, in one transaction that makes the draft again, so a failure numbers nothing
 * and marks no block.
 */
import { asRendered, draftInvoice, invoiceByNumber, issueInvoice, listInvoices, localDayKey, overlapWarning, type InvoiceDraft, type InvoiceRequest, type Store, systemTimeZone, voidInvoice } from '@tock/core';
import { Problem } from '@tock/protocol';
import { readInvoiceFormat, renderInvoice } from '../invoices/render.ts';
import { INVOICE_CONTENT_TYPES, invoiceFileName } from '../invoices/text.ts';
import type { WindowBodyOf } from '@tock/window/contract';
import { route, type Route } from './route.ts';
import { Download } from './download.ts';
import { bookView, claimBook, type SyncService } from '@tock/sync';

/** The field a refusal of the whole range is shown under (the From and To fields together). */
export const RANGE_FIELD = 'range';

function requestOf(body: WindowBodyOf<'POST /api/invoices'>): InvoiceRequest {
  return { client: body.client, from: body.from, to: body.to };
}

/**
 * Core's draft; its "nothing to invoice" refusal (a `validation_failed` about no one field) is
 * given the range as its field, so the window shows it at the From and To fields.
 */
function draft(store: Store, request: InvoiceRequest, now: number, timeZone: string): InvoiceDraft {
  try {
    return draftInvoice(store, request, now, timeZone);
  } catch (error) {
    if (error instanceof Problem && error.code === 'validation_failed' && !error.details?.length) {
      throw new Problem('validation_failed', error.message, { details: [{ field: RANGE_FIELD, message: error.message }] });
    }
    throw error;
  }
}

/** What the invoice routes use of the app: the store, the clock and sync (the one book of invoices). */
export interface InvoiceRouteDeps {
  readonly store: Store;
  readonly clock: () => number;
  readonly sync: SyncService;
}

/** The invoice routes of the window's API. */
export function invoiceRoutes(services: InvoiceRouteDeps): Route[] {
  const { store, clock, sync } = services;
  return [
    route('GET /api/invoices', () => listInvoices(store)),
    route('GET /api/invoices/book', () => bookView(store, sync)),
    // `{client, from, to}` → the invoice it would make as HTML (for a sandboxed frame) and its number, lines and totals.
    route('POST /api/invoices/preview', async ({ body }) => {
      const { document, overlaps } = draft(store, requestOf(body), clock(), systemTimeZone());
      const html = new TextDecoder().decode(await renderInvoice(document, 'html'));
      const warning = overlapWarning(overlaps);
      return { number: document.number, lines: document.lines.length, billedSeconds: document.billedSeconds, totals: document.totals, html, ...(warning === undefined ? {} : { warning }) };
    }),
    route(
      'POST /api/invoices',
      async ({ body }) => {
        const request = requestOf(body);
        const now = clock();
        const timeZone = systemTimeZone();
        const made = draft(store, request, now, timeZone);
        // Render first, keep after (docs/decisions.md "Budgets and invoices (issue 28)").
        await renderInvoice(made.document, 'pdf');
        const doc = store.transaction(() => {
          claimBook(store, sync, now, made.document);
          return issueInvoice(store, made, request, now, timeZone, () => crypto.randomUUID());
        });
        return listInvoices(store).find((i) => i.number === doc.number);
      },
      // Its blocks are now on an invoice (the ledger), and the list grew.
      ['ledger', 'blocks'],
    ),
    // A kept invoice again, as it was issued: GET /api/invoices/INV-2026-001/pdf (or html, csv).
    route('GET /api/invoices/:number/:format', async ({ params }) => {
      const format = readInvoiceFormat(params.format);
      const doc = invoiceByNumber(store, params.number);
      const bytes = await renderInvoice(asRendered(doc), format);
      return new Download(invoiceFileName(doc, format), INVOICE_CONTENT_TYPES[format], [bytes][Symbol.iterator]());
    }),
    route(
      'POST /api/invoices/:number/void',
      ({ params }) => {
        const doc = store.transaction(() => {
          claimBook(store, sync, clock());
          return voidInvoice(store, params.number, localDayKey(clock(), systemTimeZone()));
        });
        return listInvoices(store).find((i) => i.number === doc.number);
      },
      // Its blocks are free again (their lock goes), and the list shows it void.
      ['ledger', 'blocks'],
    ),
  ];
}
