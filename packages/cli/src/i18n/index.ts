/**
 * The CLI's catalogs (docs/cli.md "Languages"): English is the source; each language's catalog
 * has exactly its keys (checked by `tsc`). {@link cliMessages} formats them for one locale.
 * English is part of every start; each other language is imported on first use
 * ({@link loadCliMessages}, once per command in main.ts), so a process reads and keeps only the
 * language it speaks (`tock app` idles in one: bench/README.md figure 9b).
 */
import { type Catalog, type Catalogs, createMessages, type Language, type Locale, type Messages, PSEUDO_LOCALE, SUPPORTED_LANGUAGES } from '@tock/i18n';
import { en } from './en/index.ts';

/** One key of the CLI's catalogs. */
export type CliKey = Extract<keyof typeof en, string>;

/** The CLI's messages in one locale: `t('status.idle', { today })`. */
export type CliMessages = Messages<CliKey>;

/** Each other language's catalog, a module (and a bundle chunk) of its own, imported on first use. */
const LOADERS: Readonly<Record<Exclude<Language, 'en'>, () => Promise<Catalog<typeof en>>>> = {
  de: () => import('./de/index.ts').then((m) => m.de),
  fr: () => import('./fr/index.ts').then((m) => m.fr),
  es: () => import('./es/index.ts').then((m) => m.es),
  ja: () => import('./ja/index.ts').then((m) => m.ja),
};

/** The catalogs imported so far, by language. */
const loaded = new Map<Language, Catalog<typeof en>>([['en', en]]);

/** The language whose catalog `locale` reads (English's for the pseudo-locale). */
function languageOf(locale: Locale): Language {
  return locale === PSEUDO_LOCALE ? 'en' : locale;
}

/** Imports `locale`'s catalog unless it is already; English is always there. */
async function loadCatalog(locale: Locale): Promise<void> {
  const language = languageOf(locale);
  if (language !== 'en' && !loaded.has(language)) loaded.set(language, await LOADERS[language]());
}

/** The CLI's messages in `locale`, its catalog imported first if it is not yet. */
export async function loadCliMessages(locale: Locale): Promise<CliMessages> {
  await loadCatalog(locale);
  return cliMessages(locale);
}

/** Every language's catalog of the CLI, each imported (the catalog checks read them all). */
export async function cliCatalogs(): Promise<Catalogs<typeof en>> {
  await Promise.all(SUPPORTED_LANGUAGES.map(loadCatalog));
  const of = (language: Language): Catalog<typeof en> => loaded.get(language) ?? en;
  return { en, de: of('de'), fr: of('fr'), es: of('es'), ja: of('ja') };
}

/**
 * The CLI's messages in `locale` (the pseudo-locale `en-XA` included), at once: English and
 * `en-XA` always; another language once {@link loadCliMessages} or {@link cliCatalogs} has
 * imported it — before, this throws rather than print another language's lines in English.
 */
export function cliMessages(locale: Locale): CliMessages {
  const catalog = loaded.get(languageOf(locale));
  if (catalog === undefined) throw new Error(`the CLI's "${locale}" catalog is not loaded: await loadCliMessages("${locale}") first`);
  // createMessages reads English and `locale`'s catalog only.
  return createMessages({ en, de: catalog, fr: catalog, es: catalog, ja: catalog }, locale);
}
