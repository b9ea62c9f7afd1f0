/**
 * The invoices' words (docs/i18n.md "Invoices"): one catalog per language, an invoice written
 * in its own language (the client's, else the person's) whatever the app's language is.
 */
import { type Catalogs, createMessages, type Locale, type Messages } from '@tock/i18n';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { ja } from './ja.ts';

/** The invoices' catalogs, one per language. */
export const INVOICE_CATALOGS: Catalogs<typeof en> = { en, de, fr, es, ja };

/** A key of the invoices' catalogs. */
export type InvoiceMessageKey = keyof typeof en;

/** The invoices' messages in one locale. */
export type InvoiceMessages = Messages<InvoiceMessageKey>;

const made = new Map<Locale, InvoiceMessages>();

/** The invoices' messages in `locale`, compiled once per locale and kept. */
export function invoiceMessages(locale: Locale): InvoiceMessages {
  let messages = made.get(locale);
  if (messages === undefined) {
    messages = createMessages(INVOICE_CATALOGS, locale);
    made.set(locale, messages);
  }
  return messages;
}
