/**
 * The window's languages (docs/ui.md "Languages"): its catalogs of ICU messages (en.ts is the
 * source; de, fr, es and ja `satisfies Catalog<typeof en>`, so a missing or stale key fails the
 * type check), formatted by `@tock/i18n`. The window follows the app's setting `language`, which
 * the snapshot carries: {@link setWindowLanguage} loads that language's catalog on demand (the
 * bundle carries English only; each other language is a chunk of its own), sets `<html lang>`
 * and redraws every component that reads its messages with {@link useT} — no reload.
 */
import { type Catalog, createMessages, intlLocale, isLanguage, type Language, type Locale, type Messages, PSEUDO_LOCALE } from '@tock/i18n';
import { useLayoutEffect, useState } from 'preact/hooks';
import { en } from './en/index.ts';

/** A key of the window's catalogs. */
export type MessageKey = keyof typeof en;

/** The window's messages in one locale: `t('nav.today')`. */
export type WindowMessages = Messages<MessageKey>;

const LOADERS: Readonly<Record<Exclude<Language, 'en'>, () => Promise<Catalog<typeof en>>>> = {
  de: () => import('./de/index.ts').then((m) => m.de),
  fr: () => import('./fr/index.ts').then((m) => m.fr),
  es: () => import('./es/index.ts').then((m) => m.es),
  ja: () => import('./ja/index.ts').then((m) => m.ja),
};

/** The messages of `locale` given its catalog (English's for `en` and the pseudo-locale). */
function messagesFor(locale: Locale, catalog: Catalog<typeof en>): WindowMessages {
  return createMessages({ en, de: catalog, fr: catalog, es: catalog, ja: catalog }, locale);
}

let current: WindowMessages = messagesFor('en', en);
let wanted = 'en';
/** The load of {@link wanted}'s catalog (settled at once for English and `en-XA`). */
let pending: Promise<void> = Promise.resolve();
const listeners = new Set<() => void>();

function use(messages: WindowMessages): void {
  current = messages;
  document.documentElement.lang = messages.locale;
  for (const listener of listeners) listener();
}

/**
 * Writes the window in `language` (the snapshot's): English and `en-XA` at once, another
 * language once its catalog has loaded ({@link windowLanguageLoaded}). An unknown value keeps
 * English.
 */
export function setWindowLanguage(language: string): void {
  if (language === wanted) return;
  wanted = language;
  if (language === PSEUDO_LOCALE) {
    use(messagesFor(PSEUDO_LOCALE, en));
    pending = Promise.resolve();
  } else if (!isLanguage(language) || language === 'en') {
    use(messagesFor('en', en));
    pending = Promise.resolve();
  } else {
    pending = LOADERS[language]().then((catalog) => {
      // A later choice wins over a catalog that arrives late.
      if (wanted === language) use(messagesFor(language, catalog));
    });
  }
}

/**
 * Settles once the language last set is the window's (its catalog loaded, or failed to: English
 * then), so the first screen can be drawn in it — a form seeded before would keep English
 * words, `9:00 AM` for `午前9:00`.
 */
export function windowLanguageLoaded(): Promise<void> {
  return pending.catch(() => {});
}

/** The window's messages now (outside components: formatting helpers). */
/**
 * The language of a tab without a session (it cannot ask the app's): the first of the browser's
 * languages Tock speaks (`de-AT` is German), `en-XA` as it is (the tests' browser), else English.
 */
export function browserLanguage(languages: readonly string[]): string {
  for (const tag of languages) {
    if (tag.toLowerCase() === PSEUDO_LOCALE.toLowerCase()) return PSEUDO_LOCALE;
    const base = tag.split('-')[0]?.toLowerCase() ?? '';
    if (isLanguage(base)) return base;
  }
  return 'en';
}

export function windowMessages(): WindowMessages {
  return current;
}

/** The locale `Intl` formats in for the window's language (`en` for the pseudo-locale). */
export function formatLocale(): string {
  return intlLocale(current.locale);
}

/** The window's messages; the component redraws when the language changes. */
export function useT(): WindowMessages {
  const [, force] = useState(0);
  const rendered = current;
  useLayoutEffect(() => {
    const listener = (): void => force((n) => n + 1);
    listeners.add(listener);
    if (current !== rendered) listener();
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return current;
}
