/**
 * Formatting a catalog's messages (docs/i18n.md): {@link createMessages} turns one package's
 * catalogs and a locale into a function from key and values to text, through FormatJS's
 * `intl-messageformat` (plurals by the locale's rules, `{n, number}`, `{d, date}` through
 * `Intl`). Each message is compiled once, on first use, and kept: a tray that redraws every
 * minute parses nothing again.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import type { Catalogs, MessageValues } from './catalog.ts';
import { isLanguage, PSEUDO_LOCALE, type Locale } from './languages.ts';
import { pseudoMessage } from './pseudo.ts';

/**
 * FormatJS finds each message's locale with `Intl.NumberFormat.supportedLocalesOf`, whose first
 * call makes V8 list every locale ICU has: ~11 ms, the largest step of `tock app`'s start before
 * the listener's first answer (bench/README.md, figure 9), for a process that may never format a
 * number. Tock formats only in its own languages ({@link intlLocale}), every one of which ICU has,
 * so their answer is known: the tag itself, as that call returns it. Any other is FormatJS's.
 */
const resolveAmongIcuLocales = IntlMessageFormat.resolveLocale;
IntlMessageFormat.resolveLocale = (locales) => (isLanguage(locales) ? new Intl.Locale(locales) : resolveAmongIcuLocales(locales));

/** A package's messages in one locale: `t('tray.stop')`, `t('reminder.body', { minutes: 5 })`. */
export interface Messages<Key extends string> {
  (key: Key, values?: MessageValues): string;
  /** The locale the messages are in. */
  readonly locale: Locale;
}

/** The `Intl` locale a {@link Locale} formats numbers, dates and plurals with. */
export function intlLocale(locale: Locale): string {
  return locale === PSEUDO_LOCALE ? 'en' : locale;
}

/**
 * The messages of `catalogs` in `locale`. `en-XA` is generated from English (pseudo.ts). The
 * compiled messages are cached per {@link createMessages} call; call it once per locale and
 * keep the result.
 */
export function createMessages<Source extends Record<string, string>>(catalogs: Catalogs<Source>, locale: Locale): Messages<Extract<keyof Source, string>> {
  const compiled = new Map<string, IntlMessageFormat>();
  const formatLocale = intlLocale(locale);
  const compile = (key: string): IntlMessageFormat => {
    let format = compiled.get(key);
    if (format === undefined) {
      const english = (catalogs.en as Record<string, string>)[key];
      if (english === undefined) throw new Error(`no message "${key}" in the catalog`);
      const source = locale === PSEUDO_LOCALE ? pseudoMessage(english) : ((catalogs[locale] as Record<string, string>)[key] ?? english);
      format = new IntlMessageFormat(source, formatLocale);
      compiled.set(key, format);
    }
    return format;
  };
  const t = (key: string, values?: MessageValues): string => {
    const text = compile(key).format(values as Record<string, string | number | Date> | undefined);
    return typeof text === 'string' ? text : String(text);
  };
  return Object.assign(t, { locale }) as Messages<Extract<keyof Source, string>>;
}
