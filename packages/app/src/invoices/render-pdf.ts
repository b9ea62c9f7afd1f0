/**
 * An invoice as a PDF (docs/data.md "Invoices"), drawn with pdf-lib in Helvetica, one of the
 * PDF standard fonts: every word is text in the file (searchable, copyable, what `pdftotext`
 * reads), not an image. A4, your details and VAT ID top left, INVOICE with its number, invoice
 * date, period of supply and due date top right, the client (named once) and its VAT ID under
 * them, the table (its header again on every page), the totals per currency (net, VAT per rate,
 * total), the reverse-charge note, the payment terms, and the number and page on every page's
 * foot.
 *
 * The standard fonts draw the Windows-1252 characters only; a Japanese invoice embeds BIZ
 * UDPGothic instead (japanese-font.ts), subset to the characters drawn. Any character the font
 * lacks is drawn as `?` (the HTML and CSV keep every character). The same document gives the same bytes:
 * the file's dates are the invoice's, so a reissue is identical.
 *
 * Laying out is linear in the text's length (line-breaker.ts: each character measured once),
 * and the app gets a turn between fonts, table lines and parts of the file (docs/data.md);
 * a line whose note is taller than a page goes on over the next pages, its header again.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { InvoiceDocument } from '@tock/core';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { breakLines } from './line-breaker.ts';
import { japaneseFonts } from './japanese-font.ts';
import { dateText, headFacts, invoiceColumns, invoiceLocale, invoiceWords, lineCells, rateText, reverseChargeNote, textLines, totalRows } from './text.ts';

const PAGE: [number, number] = [595.28, 841.89]; // A4 in points
const MARGIN = 48;
const WIDTH = PAGE[0] - 2 * MARGIN;
/** Column widths (points), in invoiceColumns order, with and without worked time; each adds up to WIDTH. */
const COLUMNS_BILLED = [54, 100, 120, 66, 36, 58, 65.28] as const;
const COLUMNS_WORKED = [54, 84, 120, 46, 36, 36, 58, 65.28] as const;
const SIZE = { table: 8, body: 9.5, small: 7.5, title: 22, name: 13 } as const;
const LEADING = 1.25;
const GREY = 0.42;

/** The PDF bytes of `doc`. pdf-lib is loaded on first use (most commands never need it). */
export async function invoicePdf(doc: InvoiceDocument): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb, grayscale } = await import('pdf-lib');
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const issued = new Date(`${doc.issued}T12:00:00Z`);
  const t = invoiceWords(doc);
  pdf.setTitle(t('invoice.documentTitle', { number: doc.number }));
  pdf.setAuthor(safeText(doc.seller.name));
  pdf.setSubject(safeText(t('invoice.subject', { number: doc.number, client: doc.client.name })));
  pdf.setCreator('Tock');
  pdf.setProducer('Tock (pdf-lib)');
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);
  // pdf-lib works synchronously between its awaits (which are microtasks): the app's other
  // requests get a turn after each font (the first use of one unpacks its metrics, ~40 ms),
  // after each line of the table and while the file is written (objectsPerTick).
  const japanese = invoiceLocale(doc) === 'ja' ? await japaneseFonts() : null;
  if (japanese !== null) pdf.registerFontkit(japanese.fontkit);
  const regular = await pdf.embedFont(japanese?.regular ?? StandardFonts.Helvetica, { subset: true });
  await nextTurn();
  const bold = await pdf.embedFont(japanese?.bold ?? StandardFonts.HelveticaBold, { subset: true });
  await nextTurn();
  const drawable = new Set(regular.getCharacterSet());
  // Spaces Intl puts in numbers and dates (narrow and no-break: 1 234,50 in French) are drawn as spaces.
  const clean = (text: string): string => [...text].map((c) => (drawable.has(c.codePointAt(0) as number) ? c : /[\t\u00a0\u2009\u202f]/.test(c) ? ' ' : '?')).join('');
  const titles = invoiceColumns(doc);
  const dated = widenDate(doc.showWorked === true ? COLUMNS_WORKED : COLUMNS_BILLED, regular.widthOfTextAtSize(clean(dateText('2026-12-31', invoiceLocale(doc))), SIZE.table));
  // The rate's column as wide as its widest rate (`12,000 JPY/時間` in the Japanese font), so a rate never breaks over two lines.
  // Measured once per rate and currency: an invoice of 2 000 lines has a few.
  const rates = new Map(doc.lines.map((line) => [`${line.rate} ${line.currency}`, line]));
  const rateWidth = Math.max(0, ...[...rates.values()].map((line) => lineWidth(clean(rateText(line, invoiceLocale(doc))), regular, SIZE.table)));
  const columns = widenColumn(dated, titles.length - 2, rateWidth);
  const rightAligned = new Set(titles.map((_, i) => i).filter((i) => i >= 4));
  const ink = grayscale(0.13);
  const muted = grayscale(GREY);
  const rule = grayscale(0.8);
  const headerFill = rgb(0.93, 0.94, 0.95);

  const pages: PDFPage[] = [];
  let page = pdf.addPage(PAGE);
  pages.push(page);
  let y = PAGE[1] - MARGIN;

  const text = (p: PDFPage, value: string, x: number, top: number, size: number, font: PDFFont = regular, color = ink, align: 'left' | 'right' = 'left'): void => {
    const line = clean(value);
    // Measured as the line breaker measures (each character's width, kept): an embedded font's
    // widthOfTextAtSize lays the whole line out with fontkit, which costs more than drawing it.
    const width = align === 'right' ? lineWidth(line, font, size) : 0;
    p.drawText(line, { x: align === 'right' ? x - width : x, y: top - size, size, font, color });
  };
  const block = (p: PDFPage, lines: string[], x: number, top: number, size: number, font: PDFFont = regular, color = ink, align: 'left' | 'right' = 'left'): number => {
    let at = top;
    for (const line of lines) {
      text(p, line, x, at, size, font, color, align);
      at -= size * LEADING;
    }
    return at;
  };

  // Your details, top left; the invoice's, top right.
  const right = PAGE[0] - MARGIN;
  let left = block(page, [doc.seller.name || t('invoice.sellerMissing')], MARGIN, y, SIZE.name, bold);
  left = block(page, textLines(doc.seller.address), MARGIN, left - 2, SIZE.body);
  if (doc.seller.taxID) left = block(page, [t('invoice.taxIDLine', { label: t('invoice.taxID'), id: doc.seller.taxID })], MARGIN, left, SIZE.body, regular, muted);
  let top = block(page, [t('invoice.title')], right, y, SIZE.title, bold, ink, 'right') - 6;
  for (const [label, value] of headFacts(doc)) {
    text(page, value, right, top, SIZE.body, bold, ink, 'right');
    text(page, label, right - lineWidth(clean(value), bold, SIZE.body) - 8, top, SIZE.body, regular, muted, 'right');
    top -= SIZE.body * LEADING;
  }
  y = Math.min(left, top) - 22;

  // The client.
  y = block(page, [t('invoice.billTo').toLocaleUpperCase(doc.language ?? 'en')], MARGIN, y, SIZE.small, bold, muted) - 2;
  y = block(page, [doc.client.name], MARGIN, y, SIZE.body + 1, bold);
  y = block(page, textLines(doc.client.address), MARGIN, y, SIZE.body);
  if (doc.client.taxID) y = block(page, [t('invoice.taxIDLine', { label: t('invoice.taxID'), id: doc.client.taxID })], MARGIN, y, SIZE.body, regular, muted);
  y -= 18;

  const columnX = columns.map((_, i) => MARGIN + columns.slice(0, i).reduce((sum, w) => sum + w, 0));
  const PAD = 3;
  const tableHeader = (): void => {
    const h = SIZE.table * LEADING + 8;
    page.drawRectangle({ x: MARGIN, y: y - h, width: WIDTH, height: h, color: headerFill });
    titles.forEach((title, i) => {
      const x = rightAligned.has(i) ? (columnX[i] as number) + (columns[i] as number) - PAD : (columnX[i] as number) + PAD;
      text(page, title, x, y - 4, SIZE.table, bold, ink, rightAligned.has(i) ? 'right' : 'left');
    });
    y -= h;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + WIDTH, y }, thickness: 0.8, color: grayscale(0.55) });
  };
  const newPage = (): void => {
    page = pdf.addPage(PAGE);
    pages.push(page);
    y = PAGE[1] - MARGIN;
  };
  const FOOT = MARGIN + 16;
  const LINE = SIZE.table * LEADING;
  tableHeader();
  /** How many of a line's rows fit above the foot at `y`. */
  const room = (): number => Math.floor((y - FOOT - 6) / LINE);
  const pageRows = PAGE[1] - MARGIN - (SIZE.table * LEADING + 8);
  const freshRoom = Math.floor((pageRows - FOOT - 6) / LINE);
  for (const line of doc.lines) {
    await nextTurn();
    const cells = lineCells(line, doc).map((cell, i) => wrap(clean(cell), (columns[i] as number) - 2 * PAD, regular, SIZE.table));
    const rows = Math.max(...cells.map((c) => c.length));
    // A line that fits a page is never split; a taller one (a long note) fills the page and goes on.
    for (let first = 0; first < rows; ) {
      const rest = rows - first;
      if (rest > room() && (rest <= freshRoom || room() < 1)) {
        newPage();
        tableHeader();
        continue;
      }
      const count = Math.min(rest, room());
      cells.forEach((cellLines, i) => {
        const x = rightAligned.has(i) ? (columnX[i] as number) + (columns[i] as number) - PAD : (columnX[i] as number) + PAD;
        block(page, cellLines.slice(first, first + count), x, y - 3, SIZE.table, regular, i === 2 || i === 3 ? grayscale(0.25) : ink, rightAligned.has(i) ? 'right' : 'left');
      });
      y -= count * LINE + 6;
      first += count;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + WIDTH, y }, thickness: 0.4, color: rule });
    }
  }

  // Totals, right-aligned under the table: per currency the net, VAT per rate and the total.
  const totals = totalRows(doc).map((t): [string, string, boolean] => [t.label, t.value, t.strong]);
  const totalsHeight = totals.length * SIZE.body * LEADING * 1.3 + 16;
  if (y - totalsHeight < FOOT) newPage();
  y -= 12;
  for (const [label, value, strong] of totals) {
    const size = strong ? SIZE.body + 1.5 : SIZE.body;
    if (strong) page.drawLine({ start: { x: right - 200, y: y + 2 }, end: { x: right, y: y + 2 }, thickness: 0.6, color: grayscale(0.55) });
    text(page, value, right - PAD, y - 2, size, strong ? bold : regular, ink, 'right');
    text(page, label, right - 200, y - 2, size, strong ? bold : regular, strong ? ink : muted);
    y -= size * LEADING * 1.3;
  }
  if (doc.lines.some((l) => l.amount === null)) {
    y = block(page, wrap(clean(t('invoice.unpriced')), WIDTH, regular, SIZE.small), MARGIN, y - 4, SIZE.small, regular, muted);
  }
  if (doc.reverseCharge === true) {
    if (y - 30 < FOOT) newPage();
    y = block(page, wrap(clean(reverseChargeNote(doc)), WIDTH, bold, SIZE.body), MARGIN, y - 10, SIZE.body, bold);
  }

  // Payment terms.
  if (doc.seller.paymentTerms) {
    const terms = textLines(doc.seller.paymentTerms).flatMap((l) => wrap(clean(l), WIDTH, regular, SIZE.body));
    const needed = (terms.length + 1) * SIZE.body * LEADING + 24;
    if (y - needed < FOOT) newPage();
    y -= 20;
    y = block(page, [t('invoice.paymentTerms')], MARGIN, y, SIZE.body, bold);
    block(page, terms, MARGIN, y - 2, SIZE.body);
  }

  // Every page's foot: the number and the page.
  pages.forEach((p, i) => {
    p.drawLine({ start: { x: MARGIN, y: MARGIN + 6 }, end: { x: MARGIN + WIDTH, y: MARGIN + 6 }, thickness: 0.4, color: rule });
    text(p, `${doc.number} · ${doc.seller.name || ''}`.replace(/ · $/, ''), MARGIN, MARGIN, SIZE.small, regular, muted);
    text(p, t('invoice.page', { page: i + 1, pages: pages.length }), MARGIN + WIDTH, MARGIN, SIZE.small, regular, muted, 'right');
  });
  await nextTurn();
  return pdf.save({ useObjectStreams: true, objectsPerTick: 20 });
}

/**
 * The columns with the date's as wide as a date drawn in the invoice's font and locale needs
 * (`2026/12/31` in the Japanese font is wider than Helvetica's `2026-12-31`), the room taken
 * from the note's column, so a date never breaks over two lines.
 */
function widenDate(columns: readonly number[], dateWidth: number): number[] {
  const widened = [...columns];
  const extra = Math.max(0, Math.ceil(dateWidth + 2 * 3 + 1) - (widened[0] as number));
  widened[0] = (widened[0] as number) + extra;
  widened[2] = (widened[2] as number) - extra;
  return widened;
}

/**
 * The columns with column `index` as wide as `width` points of text need, the room taken from
 * the note's column (which keeps at least 40 points): a rate that {@link widenDate}'s sizes
 * would break (`12,000` over `JPY/時間`) stays on one line.
 */
function widenColumn(columns: readonly number[], index: number, width: number): number[] {
  const widened = [...columns];
  const extra = Math.min(Math.max(0, Math.ceil(width + 2 * 3 + 1) - (widened[index] as number)), Math.max(0, (widened[2] as number) - 40));
  widened[index] = (widened[index] as number) + extra;
  widened[2] = (widened[2] as number) - extra;
  return widened;
}

/** Text the PDF's information fields can hold (no control characters). */
function safeText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the metadata is one line
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/**
 * `value` broken into lines no wider than `width` points (line-breaker.ts). Each character's
 * width is asked of pdf-lib once per font and size (a character alone has no kerning, and
 * pdf-lib draws none), so a line is measured as it is drawn.
 */
function wrap(value: string, width: number, font: PDFFont, size: number): string[] {
  return breakLines(value, width, charWidths(font, size));
}

/** The width of `line` in `font` at `size`: its characters' widths ({@link charWidths}) added up. */
function lineWidth(line: string, font: PDFFont, size: number): number {
  const width = charWidths(font, size);
  let sum = 0;
  for (const char of line) sum += width(char);
  return sum;
}

const widthTables = new WeakMap<PDFFont, Map<number, Map<string, number>>>();

/** The width of one character in `font` at `size`, measured once and remembered. */
function charWidths(font: PDFFont, size: number): (char: string) => number {
  const bySize = widthTables.get(font) ?? new Map<number, Map<string, number>>();
  widthTables.set(font, bySize);
  const table = bySize.get(size) ?? new Map<string, number>();
  bySize.set(size, table);
  return (char) => {
    let width = table.get(char);
    if (width === undefined) {
      width = font.widthOfTextAtSize(char, size);
      table.set(char, width);
    }
    return width;
  };
}
