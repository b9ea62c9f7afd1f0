/**
 * An invoice as CSV (docs/data.md "Invoices"): one row per line, then one `Total` row per
 * currency. Every text cell goes through core's `csvField`, so a note that begins with `=`,
 * `+`, `-` or `@` is shown and never run by a spreadsheet (docs/security.md); numbers are
 * numbers (seconds, and amounts as their decimal text). A note is cut as on the PDF and HTML
 * (`invoiceNote`: 2 000 characters, the last `…`), so the three formats say the same.
 */
import { csvRow, type InvoiceDocument } from '@tock/core';
import { invoiceNote } from './text.ts';

/** The header row's fields. */
export const INVOICE_CSV_HEADER = ['invoice', 'date', 'activity', 'note', 'tags', 'worked_seconds', 'billed_seconds', 'rate', 'currency', 'amount'] as const;

/** The whole CSV text of `doc`. */
export function invoiceCsv(doc: InvoiceDocument): string {
  let text = csvRow(INVOICE_CSV_HEADER);
  for (const l of doc.lines) {
    text += csvRow([doc.number, l.date, l.activity, invoiceNote(l.note), l.tags.join(', '), l.workedSeconds, l.billedSeconds, l.rate, l.currency, l.amount]);
  }
  for (const t of doc.totals) text += csvRow([doc.number, null, 'Total', null, null, null, t.billedSeconds, null, t.currency, t.amount]);
  return text;
}
