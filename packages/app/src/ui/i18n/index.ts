/**
 * The words of the app's own page for a window address it refuses (a launch code used, expired
 * or unknown: docs/ui.md "Security decisions"), one catalog per language, said in the person's
 * language setting — the page has no script and no session, so the app says it itself.
 */
import { type Catalogs, createMessages, type Locale, type Messages } from '@tock/i18n';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { ja } from './ja.ts';

/** The page's catalogs, one per language. */
export const PAGE_CATALOGS: Catalogs<typeof en> = { en, de, fr, es, ja };

/** The page's messages in one locale. */
export type PageMessages = Messages<keyof typeof en>;

const made = new Map<Locale, PageMessages>();

/** The page's messages in `locale`, compiled once per locale and kept. */
export function pageMessages(locale: Locale): PageMessages {
  let messages = made.get(locale);
  if (messages === undefined) {
    messages = createMessages(PAGE_CATALOGS, locale);
    made.set(locale, messages);
  }
  return messages;
}
