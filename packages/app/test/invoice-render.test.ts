/**
 * The invoice's renderers on long notes (docs/data.md "Invoices", issue 35.6): the line breaker
 * measures each character once and never draws a line wider than its column or loses a
 * character; a note longer than 2 000 characters is cut to 2 000, the last `…`, in the PDF
 * (read back with `pdftotext`, Debian's poppler-utils), the HTML and the CSV alike.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { InvoiceDocument } from '@tock/core';
import fc from 'fast-check';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { breakLines } from '../src/invoices/line-breaker.ts';
import { renderInvoice } from '../src/invoices/render.ts';
import { INVOICE_NOTE_MAX, invoiceNote } from '../src/invoices/text.ts';

/** `length` characters of q, z, x and j (letters no other text of the test invoice has), reproducibly. */
function noteOf(length: number, wordLength = 0): string {
  let seed = 7;
  let text = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += wordLength > 0 && i % wordLength === wordLength - 1 ? ' ' : 'qzxj'[seed % 4];
  }
  return text;
}

function documentWith(note: string): InvoiceDocument {
  return {
    number: 'INV-2026-007',
    issued: '2026-11-20',
    from: '2026-11-01',
    to: '2026-11-20',
    timeZone: 'UTC',
    seller: { name: 'Ana Lima Design', address: 'Rua das Flores 12\nLisboa', taxID: '', paymentTerms: 'Within 30 days' },
    client: { id: '00000000-0000-4000-8000-000000000001', name: 'ACME', address: 'Main St 1' },
    lines: [{ date: '2026-11-20', activity: 'Design', note, tags: [], workedSeconds: 3600, billedSeconds: 3600, rate: '85.00', currency: 'EUR', amount: '85.00', blocks: 1 }],
    workedSeconds: 3600,
    billedSeconds: 3600,
    totals: [{ currency: 'EUR', billedSeconds: 3600, amount: '85.00' }],
  };
}

const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
/** Helvetica at the table's 8 pt, one character at a time: what the PDF draws (no kerning). */
const helvetica = (char: string): number => font.widthOfTextAtSize(char, 8);
const drawnWidth = (line: string): number => Array.from(line).reduce((sum, c) => sum + helvetica(c), 0);

describe('the invoice line breaker', () => {
  it('asks for the width of each character exactly once, whatever the length: unbroken and in words', () => {
    for (const text of [noteOf(2_000), noteOf(20_000), noteOf(200_000), noteOf(20_000, 9), `${noteOf(5_000)} ${noteOf(50, 6)}\n${noteOf(3_000)}`]) {
      let calls = 0;
      const lines = breakLines(text, 114, (char) => {
        calls++;
        return helvetica(char);
      });
      assert.equal(calls, text.replace(/\n/g, '').length, `${text.length} characters`);
      assert.ok(lines.length > 1);
    }
  });

  it('never makes a line wider than the column, and keeps every character in order, only spaces going where lines break (property)', () => {
    const alphabet = fc.constantFrom('W', 'i', 'm', '.', ' ', ' ', '\n', '…', 'é', '?');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 600 }).map((chars) => chars.join('')), fc.integer({ min: 8, max: 500 }), (text, width) => {
        const lines = breakLines(text, width, helvetica);
        for (const line of lines) assert.ok(drawnWidth(line) <= width, `${JSON.stringify(line)} is ${drawnWidth(line)} pt, wider than ${width}`);
        assert.equal(lines.join('').replace(/ /g, ''), text.replace(/[ \n]/g, ''));
        assert.ok(lines.length >= text.split('\n').length, 'a line break of the text is one of the lines');
      }),
      { numRuns: 300, seed: 35_6 },
    );
  });
});

describe('a long note on an invoice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-invoice-render-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const pdfText = (bytes: Uint8Array): string => {
    const file = join(dir, `${Math.random()}.pdf`);
    writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  };
  /** The note's characters in the PDF's text, in order: the letters only it has, and `…`. */
  const noteIn = (text: string): string => text.replace(/[^qzxj…]/g, '');

  it('cuts a note to 2 000 characters, the last one …, and leaves a shorter one whole', () => {
    const long = noteOf(200_000, 11);
    const cut = invoiceNote(long);
    assert.equal(Array.from(cut).length, INVOICE_NOTE_MAX);
    assert.equal(cut, `${long.slice(0, INVOICE_NOTE_MAX - 1)}…`);
    assert.equal(invoiceNote(noteOf(INVOICE_NOTE_MAX)), noteOf(INVOICE_NOTE_MAX));
    // Characters, not UTF-16 units: a note of emoji is never cut inside one.
    const emoji = '😀'.repeat(INVOICE_NOTE_MAX + 5);
    assert.equal(invoiceNote(emoji), `${'😀'.repeat(INVOICE_NOTE_MAX - 1)}…`);
  });

  for (const [name, note] of [
    ['a 2 000-character unbroken note', noteOf(2_000)],
    ['a 200 000-character unbroken note', noteOf(200_000)],
    ['a 200 000-character note in words', noteOf(200_000, 13)],
  ] as const) {
    it(`renders ${name} in PDF, HTML and CSV with every character of the cut note, over two pages in the PDF`, async () => {
      const shown = invoiceNote(note);
      const doc = documentWith(note);
      const pdf = pdfText(await renderInvoice(doc, 'pdf'));
      assert.equal(noteIn(pdf), shown.replace(/ /g, ''));
      assert.match(pdf, /Page 2 of 2/, 'the note goes on over the next page');
      assert.match(pdf, /85\.00 EUR/);
      const html = new TextDecoder().decode(await renderInvoice(doc, 'html'));
      assert.ok(html.includes(`<td>${shown}</td>`));
      const csv = new TextDecoder().decode(await renderInvoice(doc, 'csv'));
      assert.ok(csv.includes(`,Design,${shown},`));
      if (shown !== note) {
        assert.ok(!html.includes(note.slice(0, INVOICE_NOTE_MAX)) && !csv.includes(note.slice(0, INVOICE_NOTE_MAX)), 'cut in HTML and CSV too');
      }
    });
  }
});
