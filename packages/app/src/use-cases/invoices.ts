/**
 * The invoices' use cases (docs/data.md "Invoices"), declared once for `tock invoice`
 * (admin/invoice-routes.ts) and the window's Invoices (ui/invoice-routes.ts): the list, which
 * device issues (docs/sync.md "One book"), a preview, issuing, a kept invoice rendered again,
 * voiding, and moving the book. Issuing renders first and keeps after, in one transaction that
 * claims the book and numbers the invoice, so a failure numbers nothing and marks no block.
 * The doors differ only in how they answer: the socket streams the bytes, the window shows
 * HTML or offers a download.
 */
import { asRendered, draftInvoice, invoiceByNumber, invoiceSummary, issueInvoice, listInvoices, localDayKey, systemTimeZone, voidInvoice, type InvoiceDocument, type InvoiceRequest, type InvoiceSummary, type Store } from '@tock/core';
import { bookView, claimBook, moveBook, type BookView, type SyncService } from '@tock/sync';
import type { InvoiceFormat } from '../invoices/text.ts';

/** The renderers (PDF, HTML, CSV), imported on the first invoice: an idle app renders none (bench/README.md figure 9b). */
const renderers = (): Promise<typeof import('../invoices/render.ts')> => import('../invoices/render.ts');

/** What the invoices' use cases need of the app: the store, the clock, sync (the one book) and its environment. */
export interface InvoiceDeps {
  readonly store: Store;
  readonly clock: () => number;
  readonly sync: SyncService;
  /** The app's environment: an invoice to a client without a language is in the person's, `"system"` read here. */
  readonly env: NodeJS.ProcessEnv;
}

/** What an invoice is made of (core's request, which core checks: a client, a range of days, `showWorked`) and the format it is rendered in. */
export interface InvoiceInput extends InvoiceRequest {
  /** pdf (default), html or csv. */
  format?: string | null;
}

/** An invoice rendered: its document, its bytes in `format`, and the blocks other invoices already cover. */
export interface RenderedInvoice {
  document: InvoiceDocument;
  format: InvoiceFormat;
  bytes: Uint8Array;
  overlaps: ReturnType<typeof draftInvoice>['overlaps'];
}

/** The invoices' use cases over `deps`. */
export function invoiceUseCases({ store, clock, sync, env }: InvoiceDeps) {
  const requestOf = (input: InvoiceInput): InvoiceRequest => ({ client: input.client, from: input.from, to: input.to, showWorked: input.showWorked });
  const summaryOf = (number: string): InvoiceSummary => invoiceSummary(store, number) as InvoiceSummary;
  return {
    listInvoices: () => listInvoices(store),
    book: (): BookView => bookView(store, sync),
    /** What the invoice would be, rendered; nothing kept. */
    previewInvoice: async (input: InvoiceInput): Promise<RenderedInvoice> => {
      const { readInvoiceFormat, renderInvoice } = await renderers();
      const format = readInvoiceFormat(input.format);
      const draft = draftInvoice(store, requestOf(input), clock(), systemTimeZone(), env);
      return { document: draft.document, format, bytes: await renderInvoice(draft.document, format), overlaps: draft.overlaps };
    },
    /** Renders first, keeps after: the book claimed and the invoice numbered in one transaction. */
    issueInvoice: async (input: InvoiceInput): Promise<RenderedInvoice> => {
      const { readInvoiceFormat, renderInvoice } = await renderers();
      const format = readInvoiceFormat(input.format);
      const now = clock();
      const timeZone = systemTimeZone();
      const draft = draftInvoice(store, requestOf(input), now, timeZone, env);
      const bytes = await renderInvoice(draft.document, format);
      const document = store.transaction(() => {
        claimBook(store, sync, now, draft.document);
        return issueInvoice(store, draft, requestOf(input), now, timeZone, () => crypto.randomUUID(), env);
      });
      return { document, format, bytes, overlaps: draft.overlaps };
    },
    /** A kept invoice as it was issued, in `format`. */
    reissueInvoice: async ({ number, format }: { number?: unknown; format?: string | null }): Promise<Omit<RenderedInvoice, 'overlaps'>> => {
      const { readInvoiceFormat, renderInvoice } = await renderers();
      const shown = readInvoiceFormat(format);
      const document = invoiceByNumber(store, number);
      return { document, format: shown, bytes: await renderInvoice(asRendered(document), shown) };
    },
    /** The number stays taken, the invoice renders as VOID, its blocks are free again. */
    voidInvoice: ({ number }: { number?: unknown }): InvoiceSummary => {
      const document = store.transaction(() => {
        claimBook(store, sync, clock());
        return voidInvoice(store, number, localDayKey(clock(), systemTimeZone()));
      });
      return summaryOf(document.number);
    },
    /** The summary of a kept invoice, as the list shows it. */
    invoiceSummary: summaryOf,
    /** Moves the book to device `name`; logged and written to the folder now, not at the next second's drain. */
    moveBook: ({ name }: { name?: unknown }): BookView => {
      store.transaction(() => moveBook(store, sync, name, clock()));
      sync.flush();
      return bookView(store, sync);
    },
  };
}

/** The invoices' table of use cases. */
export type InvoiceUseCases = ReturnType<typeof invoiceUseCases>;
