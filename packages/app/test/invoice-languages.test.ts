/**
 * Invoices in the client's language (docs/i18n.md "Invoices"): every word of the PDF and the
 * HTML comes from the invoices' catalogs, in the invoice's language, with its dates and numbers
 * by `Intl`; the reverse-charge note as EU practice words it in each language; the CSV stays
 * English machine output. PDFs are read back with `pdftotext` (Debian's poppler-utils).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { InvoiceDocument } from '@tock/core';
import { catalogProblems } from '@tock/i18n';
import { INVOICE_CATALOGS } from '../src/invoices/i18n/index.ts';
import { renderInvoice } from '../src/invoices/render.ts';

function invoiceIn(language: string, extra: Partial<InvoiceDocument> = {}): InvoiceDocument {
  return {
    number: 'INV-2026-012',
    issued: '2026-11-30',
    from: '2026-11-02',
    to: '2026-11-27',
    timeZone: 'Europe/Berlin',
    due: '2026-12-14',
    language,
    showWorked: false,
    seller: { name: 'Ana Lima Design', address: 'Rua das Flores 12\nLisboa', taxID: 'PT123456789', paymentTerms: '14' },
    client: { id: '00000000-0000-4000-8000-000000000001', name: 'ACME GmbH', address: 'Hauptstraße 1\nBerlin', taxID: 'DE811907980' },
    lines: [
      { date: '2026-11-03', activity: 'Design', note: 'Logo', tags: ['web'], workedSeconds: 6300, billedSeconds: 6300, quantity: '1.75', rate: '1200.00', currency: 'EUR', amount: '2100.00', blocks: 1 },
      { date: '2026-11-04', activity: 'Review', note: '', tags: [], workedSeconds: 3600, billedSeconds: 3600, quantity: '1.00', rate: null, currency: null, amount: null, blocks: 1 },
    ],
    workedSeconds: 9900,
    billedSeconds: 9900,
    totals: [{ currency: 'EUR', billedSeconds: 6300, amount: '2100.00', taxes: [{ rate: 19, base: '2100.00', amount: '399.00' }], gross: '2499.00' }],
    ...extra,
  } as InvoiceDocument;
}

const dir = mkdtempSync(join(tmpdir(), 'tock-invoice-languages-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The PDF's text as `pdftotext -layout` reads it, its lines trimmed, the empty ones dropped. */
async function pdfLines(doc: InvoiceDocument): Promise<string[]> {
  const file = join(dir, `${doc.language}-${doc.reverseCharge === true ? 'rc' : 'tax'}.pdf`);
  writeFileSync(file, await renderInvoice(doc, 'pdf'));
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l !== '');
}

describe('the invoices catalogs', () => {
  it('has every key in every language, each an ICU message with the arguments English has', () => {
    assert.deepEqual(catalogProblems(INVOICE_CATALOGS), []);
  });
});

describe('an invoice in German', () => {
  it('reads back from the PDF line by line in German, formal, with German dates and numbers', async () => {
    const lines = await pdfLines(invoiceIn('de'));
    assert.deepEqual(lines, [
      'Ana Lima Design',
      'Rua das Flores 12',
      'RECHNUNG',
      'Lisboa Rechnungsnummer INV-2026-012',
      'USt-IdNr.: PT123456789 Rechnungsdatum 30.11.2026',
      'Leistungszeitraum 02.11.2026 – 27.11.2026',
      'Fällig am 14.12.2026',
      'RECHNUNGSEMPFÄNGER',
      'ACME GmbH',
      'Hauptstraße 1',
      'Berlin',
      'USt-IdNr.: DE811907980',
      'Datum Tätigkeit Notiz Schlagwörter Stunden Stundensatz Betrag',
      '03.11.2026 Design Logo web 1,75 1.200,00 EUR/Std. 2.100,00 EUR',
      '04.11.2026 Review 1,00 — —',
      'Stunden 2,75',
      'Nettobetrag EUR 2.100,00 EUR',
      'USt. 19 % 399,00 EUR',
      'Gesamtbetrag EUR 2.499,00 EUR',
      'Mit — markierte Positionen haben keinen Stundensatz und sind in den Summen nicht enthalten.',
      'Zahlungsbedingungen',
      '14',
      'INV-2026-012 · Ana Lima Design Seite 1 von 1',
    ]);
  });
});

describe('an invoice in Japanese', () => {
  const doc = invoiceIn('ja', {
    timeZone: 'Asia/Tokyo',
    client: { id: '00000000-0000-4000-8000-000000000002', name: '東京スタジオ株式会社', address: '東京都千代田区1-1', taxID: '' },
    lines: [{ date: '2026-11-03', activity: 'デザイン', note: 'ロゴ', tags: ['web'], workedSeconds: 6300, billedSeconds: 6300, quantity: '1.75', rate: '9000', currency: 'JPY', amount: '15750', blocks: 1 }],
    totals: [{ currency: 'JPY', billedSeconds: 6300, amount: '15750', taxes: [{ rate: 10, base: '15750', amount: '1575' }], gross: '17325' }],
  });

  it('reads back from the PDF line by line in Japanese, drawn in the embedded font', async () => {
    assert.deepEqual(await pdfLines(doc), [
      'Ana Lima Design',
      'Rua das Flores 12',
      '請求書',
      'Lisboa 請求書番号 INV-2026-012',
      '登録番号：PT123456789 請求日 2026/11/30',
      '取引期間 2026/11/02 – 2026/11/27',
      'お支払期限 2026/12/14',
      '請求先',
      '東京スタジオ株式会社',
      '東京都千代田区1-1',
      '日付 アクティビティ メモ タグ 時間 時間単価 金額',
      // The rate on one line: its column as wide as `9,000 JPY/時間` needs.
      '2026/11/03 デザイン ロゴ web 1.75 9,000 JPY/時間 15,750 JPY',
      '時間 1.75',
      '小計（税抜）JPY 15,750 JPY',
      '消費税 10% 1,575 JPY',
      '合計 JPY 17,325 JPY',
      'お支払条件',
      '14',
      'INV-2026-012 · Ana Lima Design 1 / 1 ページ',
    ]);
  });

  it('embeds the font subset to what it draws: the file stays small, and the same document gives the same bytes', async () => {
    const first = await renderInvoice(doc, 'pdf');
    const again = await renderInvoice(doc, 'pdf');
    assert.ok(first.byteLength < 100 * 1024, `${first.byteLength} bytes; the whole font is 4.5 MB`);
    assert.deepEqual(Buffer.from(again), Buffer.from(first));
  });
});

describe('the reverse-charge note', () => {
  const notes = {
    en: 'Reverse charge: VAT to be accounted for by the recipient',
    de: 'Steuerschuldnerschaft des Leistungsempfängers',
    fr: 'Autoliquidation',
    es: 'Inversión del sujeto pasivo',
    ja: 'リバースチャージ方式：消費税は役務の提供を受けた事業者が納付します',
  } as const;
  for (const [language, note] of Object.entries(notes)) {
    it(`is "${note}" in ${language}, in the PDF and the HTML, and English in the CSV`, async () => {
      const doc = invoiceIn(language, { reverseCharge: true, totals: [{ currency: 'EUR', billedSeconds: 6300, amount: '2100.00' }] });
      const lines = await pdfLines(doc);
      assert.ok(lines.includes(note), `${language}: ${JSON.stringify(lines)}`);
      const html = new TextDecoder().decode(await renderInvoice(doc, 'html'));
      assert.ok(html.includes(`<strong>${note}</strong>`), language);
      assert.match(html, new RegExp(`<html lang="${language}">`));
      const csv = new TextDecoder().decode(await renderInvoice(doc, 'csv'));
      assert.ok(csv.includes(notes.en), 'the CSV is machine output: English');
    });
  }

  it('names the tax in each language: VAT, USt., TVA, IVA, 消費税', async () => {
    const taxes = { en: 'VAT 19%', de: 'USt. 19 %', fr: 'TVA 19 %', es: 'IVA 19 %', ja: '消費税 19%' } as const;
    for (const [language, label] of Object.entries(taxes)) {
      const html = new TextDecoder().decode(await renderInvoice(invoiceIn(language), 'html'));
      const cells = [...html.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => (m[1] as string).replace(/[\u00a0\u202f]/g, ' '));
      assert.ok(cells.includes(label), `${language}: ${JSON.stringify(cells)}`);
    }
  });

  it('writes a VAT ID after its label as the language punctuates: no space after a full-width colon', async () => {
    const ids = { en: 'VAT ID: DE811907980', fr: 'N° TVA : DE811907980', ja: '登録番号：DE811907980' } as const;
    for (const [language, line] of Object.entries(ids)) {
      const html = new TextDecoder().decode(await renderInvoice(invoiceIn(language), 'html'));
      const text = html.replace(/<[^>]+>/g, '').replace(/[\u00a0\u202f]/g, ' ');
      assert.ok(text.includes(line), `${language}: ${line}`);
    }
  });
});

describe('the CSV', () => {
  it('is the same bytes in every language and en-XA: English headers, ISO dates, `.` decimals', async () => {
    const csv = async (language: string): Promise<string> => new TextDecoder().decode(await renderInvoice(invoiceIn(language, { showWorked: true }), 'csv'));
    const english = await csv('en');
    assert.equal(english.split('\r\n')[0], 'invoice,date,activity,note,tags,worked_seconds,billed_seconds,quantity_hours,rate,currency,amount');
    assert.ok(english.includes('INV-2026-012,2026-11-03,Design,Logo,web,6300,6300,1.75,1200.00,EUR,2100.00'), english);
    for (const language of ['de', 'fr', 'es', 'ja', 'en-XA']) assert.equal(await csv(language), english, language);
  });
});

describe('the tags of a line', () => {
  it('are a list in the invoice’s language in the PDF and HTML (a unit list), the CSV keeping its commas', async () => {
    const tagged = (language: string) =>
      invoiceIn(language, { lines: [{ ...invoiceIn(language).lines[0], tags: ['web', 'ui', 'qa'] }] as InvoiceDocument['lines'] });
    const cells = { en: 'web, ui, qa', de: 'web, ui und qa', es: 'web, ui, qa', ja: 'web ui qa' } as const;
    for (const [language, cell] of Object.entries(cells)) {
      const html = new TextDecoder().decode(await renderInvoice(tagged(language), 'html'));
      assert.ok(html.includes(`<td>${cell}</td>`), `${language}: ${html}`);
      const csv = new TextDecoder().decode(await renderInvoice(tagged(language), 'csv'));
      assert.ok(csv.includes(',"web, ui, qa",'), `${language}: ${csv}`);
    }
    const pdf = await pdfLines(tagged('de'));
    assert.ok(pdf.some((l) => l.includes('web, ui und qa')), JSON.stringify(pdf));
  });
});

describe('the pseudo-locale en-XA', () => {
  it('shows every word of the HTML invoice from the catalog: each text is bracketed or data', async () => {
    const doc = invoiceIn('en-XA', { showWorked: true, reverseCharge: true });
    const html = new TextDecoder().decode(await renderInvoice(doc, 'html'));
    const body = html.slice(html.indexOf('<body>'));
    const data = new Set(['Ana Lima Design', 'Rua das Flores 12', 'Lisboa', 'PT123456789', 'ACME GmbH', 'Hauptstraße 1', 'Berlin', 'DE811907980', 'Design', 'Logo', 'web', 'Review', '14', 'INV-2026-012', '—']);
    const texts = body
      .split(/<[^>]+>/)
      .map((t) => t.trim())
      .filter((t) => t !== '');
    const plain = texts.filter((t) => !t.startsWith('[') && !data.has(t) && !/^[\d.,: –-]+$/.test(t) && !/^[\d.,]+ EUR$/.test(t));
    assert.deepEqual(plain, []);
    assert.ok(texts.filter((t) => t.startsWith('[')).length >= 20, 'the words are there, bracketed');
    const title = html.match(/<title>([^<]*)<\/title>/)?.[1] ?? '';
    assert.ok(title.startsWith('['), title);
  });
});
