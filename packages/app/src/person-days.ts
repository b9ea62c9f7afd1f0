/**
 * The person's day and week as the app's routes pass them to core (docs/data.md "Days and
 * weeks"): `dayStartsAt` in minutes after midnight, and the day a week starts on — the setting
 * `weekStart`, or with `"locale"` (the default) the week of the person's language in the
 * region of their environment. Read at each request: a changed setting holds for the next one.
 */
import { readDayStartsAt, readLanguage, readWeekStart, type SettingsStore, type WeekStartDay } from '@tock/core';
import { environmentRegion, resolveLanguage } from '@tock/i18n/languages';

/** When the person's day starts and which day their week starts on, as core's day functions take them. */
export interface PersonDays {
  /** Minutes after midnight, 0 to 360. */
  dayStartsAt: number;
  /** 1 Monday, 6 Saturday, 7 Sunday. */
  weekStart: WeekStartDay;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The locale whose week `"locale"` means: the person's language (the setting `language`,
 * `system` from the environment) in the environment's region — `en_GB.UTF-8` is `en-GB`
 * (Monday), `en_US.UTF-8` `en-US` (Sunday), `LANG=de_DE` with the language `en` is `en-DE`
 * (Monday). Without a region, English is `en-001` (world English: Monday, ISO 8601) rather
 * than `Intl`'s `en-US` (docs/decisions.md "A week without a region starts on Monday"); the
 * other languages are their own (de, fr, es: Monday; ja: Sunday).
 */
export function weekLocale(settings: SettingsStore, env: Env): string {
  const language = resolveLanguage(readLanguage(settings), env);
  const region = environmentRegion(env);
  if (region !== null) return `${language}-${region}`;
  return language === 'en' ? 'en-001' : language;
}

/** The person's day and week from the settings and the app's environment. */
export function personDays(settings: SettingsStore, env: Env = process.env): PersonDays {
  return { dayStartsAt: readDayStartsAt(settings), weekStart: readWeekStart(settings, weekLocale(settings, env)) };
}
