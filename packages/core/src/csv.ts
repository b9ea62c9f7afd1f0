/**
 * Writing CSV as RFC 4180 has it: fields separated by commas, records ended by CRLF, and a
 * field quoted (its quotes doubled) when it holds a comma, a quote, a CR or an LF. Used by
 * `tock export --format csv`, `tock report --csv` and the window's downloads, so every CSV
 * Tock writes opens the same way in a spreadsheet. (Reading CSV is csv-parse's job.)
 */

/** A value as it goes into a cell: text, a number, or nothing (an empty cell). */
export type CsvValue = string | number | null | undefined;

/** RFC 4180's record separator. */
export const CSV_LINE_END = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;

/** One field: empty for null/undefined, quoted only when RFC 4180 requires it. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : value;
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
