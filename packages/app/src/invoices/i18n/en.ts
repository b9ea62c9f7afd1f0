/**
 * The invoices' English words (docs/i18n.md "Invoices"): the source catalog. An invoice is a
 * formal document; every other language writes it in the formal register.
 */
export const en = {
  'invoice.title': 'INVOICE',
  'invoice.documentTitle': 'Invoice {number}',
  'invoice.subject': 'Invoice {number} to {client}',
  'invoice.sellerMissing': 'Your business (tock settings set business …)',
  'invoice.billTo': 'Bill to',
  'invoice.taxID': 'VAT ID:',
  'invoice.fact.number': 'Number',
  'invoice.fact.issued': 'Invoice date',
  'invoice.fact.period': 'Period of supply',
  'invoice.fact.due': 'Due date',
  'invoice.column.date': 'Date',
  'invoice.column.activity': 'Activity',
  'invoice.column.note': 'Note',
  'invoice.column.tags': 'Tags',
  'invoice.column.worked': 'Worked',
  'invoice.column.hours': 'Hours',
  'invoice.column.rate': 'Rate',
  'invoice.column.amount': 'Amount',
  'invoice.rate': '{rate} {currency}/h',
  'invoice.total.hours': 'Hours',
  'invoice.total.worked': 'Worked',
  'invoice.total.net': 'Net {currency}',
  'invoice.total.tax': 'VAT {rate}',
  'invoice.total.gross': 'Total {currency}',
  'invoice.unpriced': 'Lines marked — have no rate and are not in the totals.',
  'invoice.reverseCharge': 'Reverse charge: VAT to be accounted for by the recipient',
  'invoice.paymentTerms': 'Payment terms',
  'invoice.page': 'Page {page} of {pages}',
} as const;
