/**
 * The shape of a message catalog (docs/i18n.md "Adding a string"): English is the source, an
 * object of ICU MessageFormat strings declared `as const`; every other language's catalog
 * `satisfies Catalog<typeof en>`, so a key missing there, or one English no longer has, fails
 * the type check.
 */
import type { Language } from './languages.ts';

/** A catalog with exactly the keys of `Source`, each an ICU message. */
export type Catalog<Source> = { readonly [Key in keyof Source]: string };

/** One package's catalogs, one per language. */
export type Catalogs<Source> = { readonly [L in Language]: Catalog<Source> };

/** The values a message's arguments take. */
export type MessageValues = Readonly<Record<string, string | number | Date>>;
