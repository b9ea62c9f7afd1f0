/**
 * What every rendering of an invoice says the same way (docs/data.md "Invoices"): hours as
 * `h:mm`, money as `1,234.50 EUR`, a rate as `85.00 EUR/h`, and the column titles. The PDF,
 * HTML and CSV renderers all read the one document core made.
 */
import type { InvoiceDocument, InvoiceLine } from '@tock/core';
import { formatDuration, LIMITS } from '@tock/protocol';

/** The table's columns, in order. */
export const INVOICE_COLUMNS = ['Date', 'Activity', 'Note', 'Tags', 'Worked', 'Billed', 'Rate', 'Amount'] as const;

/** Worked or billed time as `h:mm` (floored to the minute, as everywhere in Tock). */
export function hours(seconds: number): string {
  return formatDuration(seconds, 'clock');
}

/** A decimal amount with its thousands grouped and its currency: `1,234.50 EUR`. */
export function money(amount: string, currency: string): string {
  const [whole = '0', decimals] = amount.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${decimals === undefined ? grouped : `${grouped}.${decimals}`} ${currency}`;
}

/** A line's rate as `85.00 EUR/h`, or an em dash without one. */
export function rateText(line: Pick<InvoiceLine, 'rate' | 'currency'>): string {
  return line.rate === null || line.currency === null ? '—' : `${line.rate} ${line.currency}/h`;
}

/** A line's amount as money, or an em dash without a rate. */
export function amountText(line: Pick<InvoiceLine, 'amount' | 'currency'>): string {
  return line.amount === null || line.currency === null ? '—' : money(line.amount, line.currency);
}

/**
 * The most characters (code points) of a note an invoice line shows: one note's worth
 * (`LIMITS.noteMax`, 2 000). A line joins the notes of all its blocks, so it can hold far more.
 */
export const INVOICE_NOTE_MAX = LIMITS.noteMax;

/**
 * A line's note as every format shows it (PDF, HTML, CSV): longer than
 * {@link INVOICE_NOTE_MAX} characters, it is cut to that many, the last one `…`. The kept
 * document keeps the whole note, so a reissue cuts it the same way.
 */
export function invoiceNote(note: string): string {
  // Counts code points without spreading a 200 000-character note into an array.
  let kept = 0;
  for (let at = 0, count = 0; at < note.length; count++) {
    if (count === INVOICE_NOTE_MAX - 1) kept = at;
    if (count === INVOICE_NOTE_MAX) return `${note.slice(0, kept)}…`;
    at += (note.codePointAt(at) as number) > 0xffff ? 2 : 1;
  }
  return note;
}

/** The line's cells, in {@link INVOICE_COLUMNS} order, as the PDF and HTML show them. */
export function lineCells(line: InvoiceLine): string[] {
  return [line.date, line.activity, invoiceNote(line.note), line.tags.join(', '), hours(line.workedSeconds), hours(line.billedSeconds), rateText(line), amountText(line)];
}

/** `2026-11-01 – 2026-11-30`, or one day. */
export function periodText(doc: Pick<InvoiceDocument, 'from' | 'to'>): string {
  return doc.from === doc.to ? doc.from : `${doc.from} – ${doc.to}`;
}

/** The lines of a multi-line text (an address), without empty ones at the ends. */
export function textLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trimEnd()).filter((l, i, all) => l !== '' || (i > 0 && i < all.length - 1));
}

/** A file name for the invoice: `INV-2026-001.pdf`. */
export function invoiceFileName(doc: Pick<InvoiceDocument, 'number'>, format: InvoiceFormat): string {
  return `${doc.number}.${format}`;
}

/** The formats an invoice is rendered in. */
export const INVOICE_FORMATS = ['pdf', 'html', 'csv'] as const;
export type InvoiceFormat = (typeof INVOICE_FORMATS)[number];

/** The content type of each format. */
export const INVOICE_CONTENT_TYPES: Readonly<Record<InvoiceFormat, string>> = {
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};
