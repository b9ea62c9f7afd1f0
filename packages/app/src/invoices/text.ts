/**
 * What every rendering of an invoice says the same way (docs/data.md "Invoices"): the billed
 * quantity in decimal hours (`1.75`), money as `1,234.50 EUR`, a rate as `85.00 EUR/h`, dates,
 * the column titles, the header's facts (number, invoice date, period of supply, due date),
 * both parties' VAT IDs and the totals (net, one tax line per rate, total; or the reverse-charge
 * note). Numbers and dates are written with `Intl` for the invoice's language (the client's;
 * English by default, with ISO dates), and so are its words: the invoices' catalogs
 * (i18n/, docs/i18n.md "Invoices"). The PDF and HTML renderers read the one document core made;
 * the CSV is machine output and stays English.
 */
import { quantityHundredths, quantityText, type InvoiceDocument, type InvoiceLine } from '@tock/core';
import { formatList, intlLocale, isLanguage, type Locale, PSEUDO_LOCALE } from '@tock/i18n';
import { formatDuration, LIMITS } from '@tock/protocol';
import { en } from './i18n/en.ts';
import { type InvoiceMessages, invoiceMessages } from './i18n/index.ts';

/** The invoice's words, in its language ({@link invoiceLocale}). */
export function invoiceWords(doc: Pick<InvoiceDocument, 'language'>): InvoiceMessages {
  return invoiceMessages(invoiceLocale(doc));
}

/** The reverse-charge note in English, as the CSV (machine output, English always) carries it. */
export const REVERSE_CHARGE_NOTE: string = en['invoice.reverseCharge'];

/** The reverse-charge note an invoice without tax to a reverse-charge client carries, in its language. */
export function reverseChargeNote(doc: Pick<InvoiceDocument, 'language'>): string {
  return invoiceWords(doc)('invoice.reverseCharge');
}

/** The table's columns, in order: worked time only when the invoice shows it (`--show-worked`). */
export function invoiceColumns(doc: Pick<InvoiceDocument, 'showWorked' | 'language'>): string[] {
  const t = invoiceWords(doc);
  return [
    t('invoice.column.date'),
    t('invoice.column.activity'),
    t('invoice.column.note'),
    t('invoice.column.tags'),
    ...(doc.showWorked === true ? [t('invoice.column.worked')] : []),
    t('invoice.column.hours'),
    t('invoice.column.rate'),
    t('invoice.column.amount'),
  ];
}

/** Worked time as `h:mm` (floored to the minute, as everywhere in Tock). */
export function hours(seconds: number): string {
  return formatDuration(seconds, 'clock');
}

/**
 * The locale an invoice is written in: its language (one Tock speaks, or the pseudo-locale
 * `en-XA` in tests), else English.
 */
export function invoiceLocale(doc: Pick<InvoiceDocument, 'language'>): Locale {
  if (doc.language === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  // A client's language is a BCP 47 tag of one of Tock's languages (`de`, `de-AT`): its language decides.
  const language = doc.language?.split('-')[0];
  return isLanguage(language) ? language : 'en';
}

/**
 * A decimal text (`"1234.50"`) as the locale writes it, exactly — `Intl` is given the text, not
 * a float — keeping its number of decimals: `1,234.50` (en), `1.234,50` (de).
 */
export function decimalText(text: string, language = 'en'): string {
  const locale = language === PSEUDO_LOCALE ? intlLocale(language) : language;
  const digits = text.split('.')[1]?.length ?? 0;
  const key = `${locale}/${digits}`;
  let format = decimalFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    decimalFormats.set(key, format);
  }
  // Intl.NumberFormat formats a decimal string exactly (ECMA-402 "string numeric literal").
  return format.format(text as unknown as number);
}

/** One formatter per locale and number of decimals: making one costs far more than using it. */
const decimalFormats = new Map<string, Intl.NumberFormat>();

/** A decimal amount with its thousands grouped and its currency: `1,234.50 EUR`. */
export function money(amount: string, currency: string, locale = 'en'): string {
  return `${decimalText(amount, locale)} ${currency}`;
}

/** A local day as the invoice writes it: ISO 8601 in English (`2026-11-30`), the locale's numeric date otherwise (`30.11.2026`). */
export function dateText(day: string, locale = 'en'): string {
  if (locale.split('-')[0] === 'en') return day;
  let format = dateFormats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(`${day}T12:00:00Z`));
}

/** One date format per locale: making one costs ~1 ms, and a 2 000-line invoice writes 2 000 dates. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A line's billed quantity in hours with two decimals as kept (`"1.75"`); worked out from its billed seconds on an invoice issued before quantities. */
export function quantityOf(line: Pick<InvoiceLine, 'quantity' | 'billedSeconds'>): string {
  return line.quantity ?? quantityText(quantityHundredths(line.billedSeconds));
}

/** A line's rate as `85.00 EUR/h` (`85,00 EUR/Std.`, `9,000 JPY/時間`), or an em dash without one. */
export function rateText(line: Pick<InvoiceLine, 'rate' | 'currency'>, locale: Locale = 'en'): string {
  return line.rate === null || line.currency === null
    ? '—'
    : invoiceMessages(locale)('invoice.rate', { rate: decimalText(rateDecimals(line.rate, line.currency), locale), currency: line.currency });
}

/**
 * A rate as kept, less the zeros past its currency's own decimals (`Intl`'s): `12000.00` yen is
 * `12000`, as its amounts are written, while `85.00` euros and a rate's own `12000.50` yen stay.
 */
export function rateDecimals(rate: string, currency: string): string {
  const [whole, fraction = ''] = rate.split('.');
  const own = currencyDecimals(currency);
  let kept = fraction;
  while (kept.length > own && kept.endsWith('0')) kept = kept.slice(0, -1);
  return kept === '' ? (whole as string) : `${whole}.${kept}`;
}

/** How many decimals `currency`'s amounts have (`Intl`: EUR 2, JPY 0, BHD 3); 2 for a code `Intl` refuses. */
function currencyDecimals(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A line's amount as money, or an em dash without a rate. */
export function amountText(line: Pick<InvoiceLine, 'amount' | 'currency'>, locale = 'en'): string {
  return line.amount === null || line.currency === null ? '—' : money(line.amount, line.currency, locale);
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

/** The line's cells, in {@link invoiceColumns} order, as the PDF and HTML show them. */
export function lineCells(line: InvoiceLine, doc: Pick<InvoiceDocument, 'showWorked' | 'language'>): string[] {
  const locale = invoiceLocale(doc);
  return [
    dateText(line.date, locale),
    line.activity,
    invoiceNote(line.note),
    formatList(locale, line.tags, 'unit'),
    ...(doc.showWorked === true ? [hours(line.workedSeconds)] : []),
    decimalText(quantityOf(line), locale),
    rateText(line, locale),
    amountText(line, locale),
  ];
}

/** `2026-11-01 – 2026-11-30`, or one day. */
export function periodText(doc: Pick<InvoiceDocument, 'from' | 'to' | 'language'>): string {
  const locale = invoiceLocale(doc);
  return doc.from === doc.to ? dateText(doc.from, locale) : `${dateText(doc.from, locale)} – ${dateText(doc.to, locale)}`;
}

/**
 * The facts at the head of an invoice, label and value: its number, the invoice date, the
 * period of supply (the days its work was done) and the due date when payment days are set.
 */
export function headFacts(doc: InvoiceDocument): [string, string][] {
  const locale = invoiceLocale(doc);
  const t = invoiceMessages(locale);
  const facts: [string, string][] = [
    [t('invoice.fact.number'), doc.number],
    [t('invoice.fact.issued'), dateText(doc.issued, locale)],
    [t('invoice.fact.period'), periodText(doc)],
  ];
  if (doc.due) facts.push([t('invoice.fact.due'), dateText(doc.due, locale)]);
  return facts;
}

/** A tax line's label: `VAT 19%`, `USt. 19 %`, `TVA 20 %`, `IVA 21 %`, `消費税 10%`. */
export function taxLabel(rate: number, locale: Locale = 'en'): string {
  // The rate is a percentage with at most two decimals; Intl writes the sign as the locale does.
  const percent = new Intl.NumberFormat(intlLocale(locale), { style: 'percent', maximumFractionDigits: 4 }).format(rate / 100);
  return invoiceMessages(locale)('invoice.total.tax', { rate: percent });
}

/** One row of an invoice's totals: a label, the money, and whether it is a grand total. */
export interface TotalRow {
  label: string;
  value: string;
  strong: boolean;
}

/**
 * The totals, per currency (never added across currencies): with a tax rate, the net, one
 * line per rate and the total (gross); without one (no rate set, a reverse charge, or an
 * invoice issued before taxes) the total alone. Hours billed first.
 */
export function totalRows(doc: InvoiceDocument): TotalRow[] {
  const locale = invoiceLocale(doc);
  const t = invoiceMessages(locale);
  const rows: TotalRow[] = [];
  const hundredths = doc.lines.reduce((sum, l) => sum + quantityHundredthsOf(quantityOf(l)), 0n);
  rows.push({ label: t('invoice.total.hours'), value: decimalText(quantityText(hundredths), locale), strong: false });
  if (doc.showWorked === true) rows.push({ label: t('invoice.total.worked'), value: hours(doc.workedSeconds), strong: false });
  for (const total of doc.totals) {
    const taxes = total.taxes ?? [];
    if (taxes.length > 0) {
      rows.push({ label: t('invoice.total.net', { currency: total.currency }), value: money(total.amount, total.currency, locale), strong: false });
      for (const tax of taxes) rows.push({ label: taxLabel(tax.rate, locale), value: money(tax.amount, total.currency, locale), strong: false });
    }
    rows.push({ label: t('invoice.total.gross', { currency: total.currency }), value: money(total.gross ?? total.amount, total.currency, locale), strong: true });
  }
  return rows;
}

function quantityHundredthsOf(quantity: string): bigint {
  const [whole = '0', decimals = ''] = quantity.split('.');
  return BigInt(whole) * 100n + BigInt(decimals.padEnd(2, '0').slice(0, 2));
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
