/**
 * The desktop's messages (docs/i18n.md): the tray, the reminder and the budget notifications,
 * in every language Tock speaks. {@link desktopMessages} gives them in one locale, compiled
 * once per locale and kept.
 */
import { readLanguage, type SettingsStore } from '@tock/core';
import { type Catalogs, createMessages, formatDurationWords, type Language, type Locale, type Messages, resolveLanguage } from '@tock/i18n';
import { formatDuration } from '@tock/protocol';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { ja } from './ja.ts';

/** The desktop's catalogs, one per language. */
export const DESKTOP_CATALOGS: Catalogs<typeof en> = { en, de, fr, es, ja };

/** A key of the desktop's catalogs. */
export type DesktopMessageKey = keyof typeof en;

/** The desktop's messages in one locale, with durations in that locale's words. */
export interface DesktopMessages extends Messages<DesktopMessageKey> {
  /** Seconds in words, floored to the minute: `1 h 40 min` in English, `1 Std., 40 Min.` in German. */
  durationWords(seconds: number): string;
}

const made = new Map<Locale, DesktopMessages>();

/** The desktop's messages in `locale` (English when not given). */
export function desktopMessages(locale: Locale = 'en'): DesktopMessages {
  let messages = made.get(locale);
  if (messages === undefined) {
    const t = createMessages(DESKTOP_CATALOGS, locale);
    // English keeps Tock's own short form, the one the CLI and docs use (`1 h 40 min`).
    const durationWords = (seconds: number): string => (locale === 'en' || locale === 'en-XA' ? formatDuration(seconds, 'words') : formatDurationWords(locale, seconds));
    messages = Object.assign((key: DesktopMessageKey, values?: Parameters<typeof t>[1]) => t(key, values), { locale, durationWords });
    made.set(locale, messages);
  }
  return messages;
}

/**
 * The language the person reads Tock in now: the setting `language` in `settings` (the store's),
 * `"system"` read from `env`'s `LC_ALL`, `LC_MESSAGES`, `LANG` (docs/i18n.md "Choosing the language").
 */
export function currentLanguage(settings: SettingsStore, env: Readonly<Record<string, string | undefined>> = process.env): Language {
  return resolveLanguage(readLanguage(settings), env);
}

/** The desktop's messages in the language the person reads Tock in now ({@link currentLanguage}). */
export function currentDesktopMessages(settings: SettingsStore, env?: Readonly<Record<string, string | undefined>>): DesktopMessages {
  return desktopMessages(currentLanguage(settings, env));
}
