/** The invoices' German words (formal „Sie“; terms as docs/glossary/de.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const de = {
  'invoice.title': 'RECHNUNG',
  'invoice.documentTitle': 'Rechnung {number}',
  'invoice.subject': 'Rechnung {number} an {client}',
  'invoice.sellerMissing': 'Ihr Unternehmen (tock settings set business …)',
  'invoice.billTo': 'Rechnungsempfänger',
  'invoice.taxID': 'USt-IdNr.:',
  'invoice.fact.number': 'Rechnungsnummer',
  'invoice.fact.issued': 'Rechnungsdatum',
  'invoice.fact.period': 'Leistungszeitraum',
  'invoice.fact.due': 'Fällig am',
  'invoice.column.date': 'Datum',
  'invoice.column.activity': 'Tätigkeit',
  'invoice.column.note': 'Notiz',
  'invoice.column.tags': 'Schlagwörter',
  'invoice.column.worked': 'Gearbeitet',
  'invoice.column.hours': 'Stunden',
  'invoice.column.rate': 'Stundensatz',
  'invoice.column.amount': 'Betrag',
  'invoice.rate': '{rate} {currency}/Std.',
  'invoice.total.hours': 'Stunden',
  'invoice.total.worked': 'Gearbeitet',
  'invoice.total.net': 'Nettobetrag {currency}',
  'invoice.total.tax': 'USt. {rate}',
  'invoice.total.gross': 'Gesamtbetrag {currency}',
  'invoice.unpriced': 'Mit — markierte Positionen haben keinen Stundensatz und sind in den Summen nicht enthalten.',
  'invoice.reverseCharge': 'Steuerschuldnerschaft des Leistungsempfängers',
  'invoice.paymentTerms': 'Zahlungsbedingungen',
  'invoice.page': 'Seite {page} von {pages}',
} as const satisfies Catalog<typeof en>;
