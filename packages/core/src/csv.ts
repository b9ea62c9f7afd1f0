/**
 * Writing CSV as RFC 4180 has it: fields separated by commas, records ended by CRLF, and a
 * field quoted (its quotes doubled) when it holds a comma, a quote, a CR or an LF. Used by
 * `tock export --format csv`, `tock report --csv` and the window's downloads, so every CSV
 * Tock writes opens the same way in a spreadsheet. (Reading CSV is csv-parse's job.)
 *
 * Every text cell also goes through {@link neutralizeCsvText}: a spreadsheet reads a cell that
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula (docs/security.md
 * "CSV"), so such a cell gets a leading `'`. Numbers are written as numbers, never prefixed.
 */

/** A value as it goes into a cell: text, a number, or nothing (an empty cell). */
export type CsvValue = string | number | null | undefined;

/** RFC 4180's record separator. */
export const CSV_LINE_END = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;

/** The first characters that make a spreadsheet (Excel, LibreOffice, Sheets) read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell as a spreadsheet will show it and never run it: `'` before a text that begins
 * with `=`, `+`, `-`, `@`, a tab or a CR (OWASP's "CSV injection" advice); any other text as is.
 * Tock never reads its own CSV back (`tock import` reads Tock's JSON), so nothing strips it.
 */
export function neutralizeCsvText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * One field: empty for null/undefined, a number as its digits (never prefixed: `-5` stays a
 * number), text neutralized ({@link neutralizeCsvText}) and quoted only when RFC 4180 requires it.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : neutralizeCsvText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, with its CRLF: the fields joined by commas. */
export function csvRow(values: readonly CsvValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    line += csvField(values[i]);
  }
  return line + CSV_LINE_END;
}
