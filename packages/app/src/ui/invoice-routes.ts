/**
 * The window's routes for invoices (docs/ui.md "Invoices"): the list, a preview of what would be
 * invoiced (the HTML the invoice would be, nothing kept), create, and a kept invoice downloaded
 * again as PDF, HTML or CSV (a reissue: rendered from the document as it was issued). Path
 * bindings over the invoices' use cases (use-cases/invoices.ts), as `tock invoice`
 * (admin/invoice-routes.ts): create renders first and keeps after, in one transaction, so a
 * failure numbers nothing and marks no block.
 */
import { overlapWarning, type InvoiceRequest, type Store } from '@tock/core';
import { Problem } from '@tock/protocol';
import { INVOICE_CONTENT_TYPES, invoiceFileName } from '../invoices/text.ts';
import type { WindowBodyOf } from '@tock/window/contract';
import { route, type Route } from './route.ts';
import { Download } from './download.ts';
import type { SyncService } from '@tock/sync';
import { invoiceUseCases, type InvoiceUseCases } from '../use-cases/invoices.ts';

/** The field a refusal of the whole range is shown under (the From and To fields together). */
export const RANGE_FIELD = 'range';

function requestOf(body: WindowBodyOf<'POST /api/invoices'>): InvoiceRequest {
  return { client: body.client, from: body.from, to: body.to };
}

/**
 * A use case that drafts an invoice; core's "nothing to invoice" refusal (a `validation_failed`
 * about no one field) is given the range as its field, so the window shows it at the From and
 * To fields.
 */
async function ranged<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
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
  readonly env: NodeJS.ProcessEnv;
}

/** The invoice routes of the window's API: each a path bound to its use case (use-cases/invoices.ts). */
export function invoiceRoutes(services: InvoiceRouteDeps, cases: InvoiceUseCases = invoiceUseCases(services)): Route[] {
  return [
    route('GET /api/invoices', () => cases.listInvoices()),
    route('GET /api/invoices/book', () => cases.book()),
    // `{client, from, to}` → the invoice it would make as HTML (for a sandboxed frame) and its number, lines and totals.
    route('POST /api/invoices/preview', async ({ body }) => {
      const { document, bytes, overlaps } = await ranged(() => cases.previewInvoice({ ...requestOf(body), format: 'html' }));
      const warning = overlapWarning(overlaps);
      // The warning in English, and the invoices it names for the window to word (docs/i18n.md "Still English").
      const overlapping = warning === undefined ? {} : { warning, overlaps: overlaps.map(({ number, from, to }) => ({ number, from, to })) };
      return { number: document.number, lines: document.lines.length, billedSeconds: document.billedSeconds, totals: document.totals, html: new TextDecoder().decode(bytes), ...overlapping };
    }),
    route(
      'POST /api/invoices',
      // Rendered as a PDF first, kept after (docs/decisions.md "Budgets and invoices (issue 28)").
      async ({ body }) => cases.invoiceSummary((await ranged(() => cases.issueInvoice({ ...requestOf(body), format: 'pdf' }))).document.number),
      // Its blocks are now on an invoice (the ledger), and the list grew.
      ['ledger', 'blocks'],
    ),
    // A kept invoice again, as it was issued: GET /api/invoices/INV-2026-001/pdf (or html, csv).
    route('GET /api/invoices/:number/:format', async ({ params }) => {
      const { document, format, bytes } = await cases.reissueInvoice({ number: params.number, format: params.format });
      return new Download(invoiceFileName(document, format), INVOICE_CONTENT_TYPES[format], [bytes][Symbol.iterator]());
    }),
    // Its blocks are free again (their lock goes), and the list shows it void.
    route('POST /api/invoices/:number/void', ({ params }) => cases.voidInvoice({ number: params.number }), ['ledger', 'blocks']),
  ];
}
