/**
 * The language of the CLI's human output (docs/cli.md "Languages"): the app's setting
 * `language`, asked of the app under the caller's `TOCK_HOME` once per command; `"system"`, or
 * no app that answers, reads `LC_ALL`, `LC_MESSAGES`, then `LANG` (@tock/i18n). A locale
 * variable naming the pseudo-locale (`en_XA`, `en-XA`) chooses it under `"system"`: how the
 * tests show that every line comes from a catalog. Machine output (`--json`, CSV, exit
 * statuses, codes) never depends on it.
 */
import { existsSync } from 'node:fs';
import { callAdmin, homePaths, resolveHome } from '@tock/admin';
import { isLanguageSetting, LOCALE_VARIABLES, PSEUDO_LOCALE, resolveLanguage, type LanguageSetting, type Locale } from '@tock/i18n';
import { type CliMessages, loadCliMessages } from './i18n/index.ts';

/** How long the setting is waited for before the system's language is used. */
const ASK_MS = 2000;

/**
 * The setting `language` of the app under `env`'s home, or `"system"` when none answers. A home
 * without its admin socket in the file system has no app to ask: nothing is sent. That is every
 * `tock app` start, which would otherwise load the HTTP client and fail to connect before the
 * app starts (~8 ms of a ~100 ms start: bench/README.md "A lighter idle app", figure 9). Named
 * pipes (Windows) are not files: there the app is always asked.
 */
export async function languageSetting(env: NodeJS.ProcessEnv, ask: typeof callAdmin = callAdmin): Promise<LanguageSetting> {
  const socket = homePaths(resolveHome(env)).adminSocket;
  if (process.platform !== 'win32' && !existsSync(socket)) return 'system';
  try {
    const value = await ask(socket, 'POST /settings/get', { key: 'language' }, { timeoutMs: ASK_MS });
    return isLanguageSetting(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

/** True when the first locale variable set names the pseudo-locale. */
function pseudoLocaleAsked(env: NodeJS.ProcessEnv): boolean {
  const first = LOCALE_VARIABLES.map((name) => env[name]).find((value) => value !== undefined && value !== '');
  return first !== undefined && /^en[_-]XA(?:[.@]|$)/.test(first);
}

/** The locale a setting means under `env`. */
export function localeFor(setting: LanguageSetting, env: NodeJS.ProcessEnv): Locale {
  if (setting === 'system' && pseudoLocaleAsked(env)) return PSEUDO_LOCALE;
  return resolveLanguage(setting, env);
}

/** The CLI's messages for the person under `env`: read once per command (main.ts), only that language's catalog imported. */
export async function messagesFor(env: NodeJS.ProcessEnv): Promise<CliMessages> {
  return loadCliMessages(localeFor(await languageSetting(env), env));
}
