/**
 * One invoice document in the format asked for (docs/data.md "Invoices"): PDF (the default),
 * HTML or CSV, as bytes.
 */
import type { InvoiceDocument } from '@tock/core';
import { ruleProblem, validationProblem } from '@tock/protocol';
import { invoiceCsv } from './render-csv.ts';
import { invoiceHtml } from './render-html.ts';
import { invoicePdf } from './render-pdf.ts';
import { INVOICE_FORMATS, type InvoiceFormat } from './text.ts';

/** The format asked for (absent: PDF); throws `validation_failed` naming `format`. */
export function readInvoiceFormat(value: unknown): InvoiceFormat {
  if (value === undefined || value === null) return 'pdf';
  if (typeof value === 'string' && (INVOICE_FORMATS as readonly string[]).includes(value.toLowerCase())) return value.toLowerCase() as InvoiceFormat;
  throw validationProblem([ruleProblem('format', { rule: 'invoiceFormat', values: { sent: String(JSON.stringify(value)) } })]);
}

/** `doc` rendered as `format`. */
export async function renderInvoice(doc: InvoiceDocument, format: InvoiceFormat): Promise<Uint8Array> {
  if (format === 'pdf') return invoicePdf(doc);
  return new TextEncoder().encode(format === 'html' ? invoiceHtml(doc) : invoiceCsv(doc));
}
