/** The invoices' Japanese words (polite forms; terms as docs/glossary/ja.md has them). */
import type { Catalog } from '@tock/i18n';
import type { en } from './en.ts';

export const ja = {
  'invoice.title': '請求書',
  'invoice.documentTitle': '請求書 {number}',
  'invoice.subject': '{client} 様宛 請求書 {number}',
  'invoice.sellerMissing': '貴社名（tock settings set business …）',
  'invoice.billTo': '請求先',
  'invoice.taxID': '登録番号：',
  'invoice.fact.number': '請求書番号',
  'invoice.fact.issued': '請求日',
  'invoice.fact.period': '取引期間',
  'invoice.fact.due': 'お支払期限',
  'invoice.column.date': '日付',
  'invoice.column.activity': 'アクティビティ',
  'invoice.column.note': 'メモ',
  'invoice.column.tags': 'タグ',
  'invoice.column.worked': '作業時間',
  'invoice.column.hours': '時間',
  'invoice.column.rate': '時間単価',
  'invoice.column.amount': '金額',
  'invoice.rate': '{rate} {currency}/時間',
  'invoice.total.hours': '時間',
  'invoice.total.worked': '作業時間',
  'invoice.total.net': '小計（税抜）{currency}',
  'invoice.total.tax': '消費税 {rate}',
  'invoice.total.gross': '合計 {currency}',
  'invoice.unpriced': '— の行には時間単価がなく、合計に含まれておりません。',
  'invoice.reverseCharge': 'リバースチャージ方式：消費税は役務の提供を受けた事業者が納付します',
  'invoice.paymentTerms': 'お支払条件',
  'invoice.page': '{page} / {pages} ページ',
} as const satisfies Catalog<typeof en>;
