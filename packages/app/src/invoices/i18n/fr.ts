/** The invoices' French words (formal « vous » ; terms as docs/glossary/fr.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const fr = {
  'invoice.title': 'FACTURE',
  'invoice.documentTitle': 'Facture {number}',
  'invoice.subject': 'Facture {number} à {client}',
  'invoice.sellerMissing': 'Votre entreprise (tock settings set business …)',
  'invoice.billTo': 'Facturé à',
  'invoice.taxID': 'N° TVA :',
  'invoice.fact.number': 'Numéro',
  'invoice.fact.issued': 'Date de facture',
  'invoice.fact.period': 'Période de prestation',
  'invoice.fact.due': 'Date d’échéance',
  'invoice.column.date': 'Date',
  'invoice.column.activity': 'Activité',
  'invoice.column.note': 'Note',
  'invoice.column.tags': 'Étiquettes',
  'invoice.column.worked': 'Travaillé',
  'invoice.column.hours': 'Heures',
  'invoice.column.rate': 'Taux horaire',
  'invoice.column.amount': 'Montant',
  'invoice.rate': '{rate} {currency}/h',
  'invoice.total.hours': 'Heures',
  'invoice.total.worked': 'Travaillé',
  'invoice.total.net': 'Total HT {currency}',
  'invoice.total.tax': 'TVA {rate}',
  'invoice.total.gross': 'Total {currency}',
  'invoice.unpriced': 'Les lignes marquées — n’ont pas de taux horaire et ne figurent pas dans les totaux.',
  'invoice.reverseCharge': 'Autoliquidation',
  'invoice.paymentTerms': 'Conditions de paiement',
  'invoice.page': 'Page {page} sur {pages}',
} as const satisfies Catalog<typeof en>;
