/**
 * An invoice as one HTML page (docs/data.md "Invoices"): self-contained (its style inline, no
 * script, no outside resource), printable, every text of the document escaped — a note
 * `<script>…` is shown as written, never run.
 */
import type { InvoiceDocument } from '@tock/core';
import type { InvoiceMessages } from './i18n/index.ts';
import { amountText, headFacts, invoiceColumns, invoiceLocale, invoiceWords, lineCells, reverseChargeNote, textLines, totalRows } from './text.ts';

/** Text as HTML: `&`, `<`, `>`, `"` and `'` as entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The page's one stylesheet, inline; the window's CSP allows exactly it (by hash) for its preview frame. */
export const INVOICE_STYLE = `
body{font:10pt/1.4 Helvetica,Arial,sans-serif;color:#222;margin:2.5em auto;max-width:60em;padding:0 1.5em}
header{display:flex;justify-content:space-between;gap:2em;margin-bottom:2em}
h1{font-size:1.8em;margin:0 0 .3em;letter-spacing:.05em}
.muted{color:#666}.right{text-align:right}.num{text-align:right;white-space:nowrap}
table{border-collapse:collapse;width:100%;margin-top:1.5em}
th{background:#eef0f3;text-align:left;font-weight:600;padding:.4em .5em;border-bottom:1px solid #999}
td{padding:.35em .5em;border-bottom:1px solid #ddd;vertical-align:top}
.totals{margin-left:auto;margin-top:1em;width:auto}.totals td{border:0;padding:.2em .5em}
.totals .grand td{font-weight:700;font-size:1.1em;border-top:1px solid #999}
footer{margin-top:2.5em}
@media print{body{margin:0}}
`;

const esc = (text: string): string => escapeHtml(text);
const lines = (text: string): string => textLines(text).map(esc).join('<br>');

/**
 * A VAT ID's line as the catalog writes it (`VAT ID: DE811907980`, `登録番号：T1234567890123`, no
 * space after a full-width colon), muted as the PDF draws it.
 */
function taxIDHtml(t: InvoiceMessages, id: string): string {
  return `<span class="muted">${esc(t('invoice.taxIDLine', { label: t('invoice.taxID'), id }))}</span>`;
}

/** The whole page of `doc`. */
export function invoiceHtml(doc: InvoiceDocument): string {
  const seller = doc.seller;
  const t = invoiceWords(doc);
  const columns = invoiceColumns(doc);
  const rows = doc.lines
    .map((line) => `<tr>${lineCells(line, doc).map((cell, i) => `<td${i >= 4 ? ' class="num"' : ''}>${esc(cell)}</td>`).join('')}</tr>`)
    .join('\n');
  const totals = totalRows(doc)
    .map((t) => `<tr${t.strong ? ' class="grand"' : ''}><td>${esc(t.label)}</td><td class="num">${esc(t.value)}</td></tr>`)
    .join('\n');
  const unpriced = doc.lines.some((l) => amountText(l) === '—') ? `<p class="muted">${esc(t('invoice.unpriced'))}</p>` : '';
  const reverse = doc.reverseCharge === true ? `<p><strong>${esc(reverseChargeNote(doc))}</strong></p>` : '';
  const facts = headFacts(doc)
    .map(([label, value]) => `<div><span class="muted">${esc(label)}</span> ${esc(value)}</div>`)
    .join('\n');
  return `<!doctype html>
<html lang="${esc(invoiceLocale(doc))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(t('invoice.documentTitle', { number: doc.number }))}</title>
<style>${INVOICE_STYLE}</style>
</head>
<body>
<header>
<div>
<strong>${esc(seller.name)}</strong><br>
${lines(seller.address)}${seller.taxID ? `<br>${taxIDHtml(t, seller.taxID)}` : ''}
</div>
<div class="right">
<h1>${esc(t('invoice.title'))}</h1>
${facts}
</div>
</header>
<section>
<div class="muted">${esc(t('invoice.billTo'))}</div>
<strong>${esc(doc.client.name)}</strong><br>
${lines(doc.client.address)}${doc.client.taxID ? `<br>${taxIDHtml(t, doc.client.taxID)}` : ''}
</section>
<table>
<thead><tr>${columns.map((c, i) => `<th${i >= 4 ? ' class="num"' : ''}>${esc(c)}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
<table class="totals">
${totals}
</table>
${unpriced}
${reverse}
<footer>
${seller.paymentTerms ? `<p><strong>${esc(t('invoice.labelled', { label: t('invoice.paymentTerms') }))}</strong> ${lines(seller.paymentTerms)}</p>` : ''}
</footer>
</body>
</html>
`;
}
