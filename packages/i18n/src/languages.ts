/**
 * Which languages Tock speaks and how the one in use is chosen (docs/i18n.md "Choosing the
 * language"): the setting `language`, `"system"` by default, which reads the POSIX locale
 * variables in their order of precedence — `LC_ALL`, `LC_MESSAGES`, then `LANG` — and falls
 * back to English for a language Tock does not have.
 */

/** The languages Tock ships complete catalogs for; English is the source and the fallback. */
export const SUPPORTED_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;

/** One of {@link SUPPORTED_LANGUAGES}. */
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/** The pseudo-locale for tests: English accented, bracketed and 40 % longer (pseudo.ts). */
export const PSEUDO_LOCALE = 'en-XA';

/** What messages can be formatted in: a language, or the pseudo-locale. */
export type Locale = Language | typeof PSEUDO_LOCALE;

/** The setting's values: `"system"` or a language. */
export const LANGUAGE_SETTINGS = ['system', ...SUPPORTED_LANGUAGES] as const;

/** The setting `language` as stored. */
export type LanguageSetting = (typeof LANGUAGE_SETTINGS)[number];

/** The environment variables {@link systemLanguage} reads, first set wins (POSIX order). */
export const LOCALE_VARIABLES = ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const;

/** True when `value` is one of {@link SUPPORTED_LANGUAGES}. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** True when `value` is a value the setting `language` accepts. */
export function isLanguageSetting(value: unknown): value is LanguageSetting {
  return typeof value === 'string' && (LANGUAGE_SETTINGS as readonly string[]).includes(value);
}

/**
 * The language of a POSIX locale name (`de_DE.UTF-8`, `fr_CA`, `ja_JP.eucJP@x`, `es`), or
 * null for `C`, `POSIX`, an empty value or a language Tock does not have.
 */
export function languageOfLocaleName(name: string): Language | null {
  const language = /^([a-zA-Z]{2,3})(?:[_-]|\.|@|$)/.exec(name.trim())?.[1]?.toLowerCase();
  return isLanguage(language) ? language : null;
}

/**
 * The system's language: the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set and not
 * empty decides (as POSIX has it: a set `LC_ALL` overrides the rest even when Tock lacks its
 * language), English when it names none Tock has or none is set.
 */
export function systemLanguage(env: Readonly<Record<string, string | undefined>>): Language {
  for (const variable of LOCALE_VARIABLES) {
    const value = env[variable];
    if (value !== undefined && value !== '') return languageOfLocaleName(value) ?? 'en';
  }
  return 'en';
}

/** The language in use for the setting `language` (`"system"` reads `env`). */
export function resolveLanguage(setting: LanguageSetting | undefined, env: Readonly<Record<string, string | undefined>>): Language {
  return setting === undefined || setting === 'system' ? systemLanguage(env) : setting;
}

/**
 * The region of the environment's time formats: the first set of `LC_ALL`, `LC_TIME`, `LANG`
 * (POSIX's order: `LC_ALL` overrides the others), as `GB` from `en_GB.UTF-8`; null for `C`,
 * `POSIX`, `C.UTF-8` or a bare language such as `en`.
 */
export function environmentRegion(env: Readonly<Record<string, string | undefined>>): string | null {
  const name = [env['LC_ALL'], env['LC_TIME'], env['LANG']].find((v) => v !== undefined && v !== '');
  const m = name === undefined ? null : /^[a-zA-Z]{2,3}[_-]([a-zA-Z]{2}|\d{3})(?:[.@]|$)/.exec(name);
  return m ? (m[1] as string).toUpperCase() : null;
}
