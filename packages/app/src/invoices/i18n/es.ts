/** The invoices' Spanish words (formal «usted»; terms as docs/glossary/es.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const es = {
  'invoice.title': 'FACTURA',
  'invoice.documentTitle': 'Factura {number}',
  'invoice.subject': 'Factura {number} a {client}',
  'invoice.sellerMissing': 'Su empresa (tock settings set business …)',
  'invoice.billTo': 'Facturar a',
  'invoice.taxID': 'NIF-IVA:',
  'invoice.fact.number': 'Número',
  'invoice.fact.issued': 'Fecha de factura',
  'invoice.fact.period': 'Periodo de prestación',
  'invoice.fact.due': 'Fecha de vencimiento',
  'invoice.column.date': 'Fecha',
  'invoice.column.activity': 'Actividad',
  'invoice.column.note': 'Nota',
  'invoice.column.tags': 'Etiquetas',
  'invoice.column.worked': 'Trabajado',
  'invoice.column.hours': 'Horas',
  'invoice.column.rate': 'Tarifa por hora',
  'invoice.column.amount': 'Importe',
  'invoice.rate': '{rate} {currency}/h',
  'invoice.total.hours': 'Horas',
  'invoice.total.worked': 'Trabajado',
  'invoice.total.net': 'Base imponible {currency}',
  'invoice.total.tax': 'IVA {rate}',
  'invoice.total.gross': 'Total {currency}',
  'invoice.unpriced': 'Las líneas marcadas con — no tienen tarifa por hora y no se incluyen en los totales.',
  'invoice.reverseCharge': 'Inversión del sujeto pasivo',
  'invoice.paymentTerms': 'Condiciones de pago',
  'invoice.page': 'Página {page} de {pages}',
} as const satisfies Catalog<typeof en>;
