/**
 * The extension's messages (docs/i18n.md): in VS Code's display language
 * (`vscode.env.language`: `de`, `pt-br`, `zh-cn`, …) when Tock speaks it, else English.
 */
import { type Catalogs, createMessages, isLanguage, type Locale, type Messages } from '@tock/i18n';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { ja } from './ja.ts';

/** The extension's catalogs, one per language. */
export const EXTENSION_CATALOGS: Catalogs<typeof en> = { en, de, fr, es, ja };

/** One key of the extension's catalogs. */
export type ExtensionKey = keyof typeof en;

/** The extension's messages in one locale. */
export type ExtensionMessages = Messages<ExtensionKey>;

/** The locale for VS Code's display language `language` (`de`, `fr-ca`, `en-XA` in tests); English when Tock lacks it. */
export function extensionLocale(language: string | undefined): Locale {
  if (language === 'en-XA') return language;
  const primary = language?.split('-')[0]?.toLowerCase();
  return isLanguage(primary) ? primary : 'en';
}

const made = new Map<Locale, ExtensionMessages>();

/** The extension's messages for VS Code's display language (English when not given). */
export function extensionMessages(language?: string): ExtensionMessages {
  const locale = extensionLocale(language);
  let messages = made.get(locale);
  if (messages === undefined) {
    messages = createMessages(EXTENSION_CATALOGS, locale);
    made.set(locale, messages);
  }
  return messages;
}
