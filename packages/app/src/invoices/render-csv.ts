/**
 * An invoice as CSV (docs/data.md "Invoices"): one row per line, then per currency the `Net`,
 * one `VAT` row per tax rate (its rate in `rate`) and the `Total` (gross) — the same lines and
 * totals as the PDF and HTML — and a `Reverse charge` row with the note when there is one.
 * Machine output: ISO dates, `.` decimals, English headers, whatever the invoice's language.
 * Every text cell goes through core's `csvField`, so a note that begins with `=`, `+`, `-` or
 * `@` is shown and never run by a spreadsheet (docs/security.md); numbers are numbers (seconds,
 * hours, and amounts as their decimal text). A note is cut as on the PDF and HTML
 * (`invoiceNote`: 2 000 characters, the last `…`), so the three formats say the same.
 */
import { csvRow, type InvoiceDocument } from '@tock/core';
import { invoiceNote, quantityOf, REVERSE_CHARGE_NOTE } from './text.ts';

/** The header row's fields. */
export const INVOICE_CSV_HEADER = ['invoice', 'date', 'activity', 'note', 'tags', 'worked_seconds', 'billed_seconds', 'quantity_hours', 'rate', 'currency', 'amount'] as const;

/** The whole CSV text of `doc`. */
export function invoiceCsv(doc: InvoiceDocument): string {
  let text = csvRow(INVOICE_CSV_HEADER);
  for (const l of doc.lines) {
    text += csvRow([doc.number, l.date, l.activity, invoiceNote(l.note), l.tags.join(', '), l.workedSeconds, l.billedSeconds, quantityOf(l), l.rate, l.currency, l.amount]);
  }
  for (const t of doc.totals) {
    const taxes = t.taxes ?? [];
    if (taxes.length > 0) {
      text += csvRow([doc.number, null, 'Net', null, null, null, t.billedSeconds, null, null, t.currency, t.amount]);
      for (const tax of taxes) text += csvRow([doc.number, null, 'VAT', null, null, null, null, null, String(tax.rate), t.currency, tax.amount]);
    }
    text += csvRow([doc.number, null, 'Total', null, null, null, t.billedSeconds, null, null, t.currency, t.gross ?? t.amount]);
  }
  if (doc.reverseCharge === true) text += csvRow([doc.number, null, 'Reverse charge', REVERSE_CHARGE_NOTE, null, null, null, null, null, null, null]);
  return text;
}
