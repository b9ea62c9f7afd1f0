/**
 * The CLI's catalogs (docs/cli.md "Languages"): English is the source; each language's catalog
 * has exactly its keys (checked by `tsc`). {@link cliMessages} formats them for one locale.
 */
import { createMessages, type Catalogs, type Locale, type Messages } from '@tock/i18n';
import { de } from './de/index.ts';
import { en } from './en/index.ts';
import { es } from './es/index.ts';
import { fr } from './fr/index.ts';
import { ja } from './ja/index.ts';

/** One key of the CLI's catalogs. */
export type CliKey = Extract<keyof typeof en, string>;

/** The CLI's messages in one locale: `t('status.idle', { today })`. */
export type CliMessages = Messages<CliKey>;

/** Every language's catalog of the CLI. */
export const CLI_CATALOGS: Catalogs<typeof en> = { en, de, fr, es, ja };

/** The CLI's messages in `locale` (the pseudo-locale `en-XA` included). */
export function cliMessages(locale: Locale): CliMessages {
  return createMessages(CLI_CATALOGS, locale);
}
