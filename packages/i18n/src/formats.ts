/**
 * Numbers, dates, times, money, lists, relative times and durations for a locale, all through
 * `Intl` (docs/i18n.md "Formats"). Machine output (`--json`, CSV, the API) never goes through
 * these: it keeps ISO dates and `.` decimals whatever the language.
 */
import { type Locale, SUPPORTED_LANGUAGES } from './languages.ts';
import { intlLocale } from './messages.ts';

/**
 * Which clock times of day are written on: the 24-hour one, the 12-hour one, or `'system'`,
 * the chosen language's own (`en` 12 hours; `de`, `fr`, `es`, `ja` 24) — the values of the
 * desktop setting `clockFormat`.
 */
export type ClockChoice = '24h' | '12h' | 'system';

/** A time of day: hours 0–23, minutes and, for the request list, seconds. */
export interface ClockTime {
  readonly hours: number;
  readonly minutes: number;
  readonly seconds?: number | undefined;
}

/** Whether the locale writes times of day on a 12-hour clock (`en`: yes; `de`, `fr`, `es`, `ja`: no). */
export function localeUses12Hour(locale: Locale): boolean {
  const cycle = new Intl.DateTimeFormat(intlLocale(locale), { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h11' || cycle === 'h12';
}

/** Whether `clock` puts times of day in `locale` on the 12-hour clock (`'system'`: the locale's own). */
export function usesTwelveHours(locale: Locale, clock: ClockChoice): boolean {
  return clock === 'system' ? localeUses12Hour(locale) : clock === '12h';
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

/** The `Intl` formatter of times of day in `locale`, on the 12- or 24-hour clock, with or without seconds, in `timeZone`. */
function clockFormatter(locale: Locale, twelve: boolean, seconds: boolean, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale}|${twelve}|${seconds}|${timeZone}`;
  let formatter = clockFormatters.get(key);
  if (formatter === undefined) {
    // `hour12: true` takes the locale's own 12-hour cycle and its words for the half of the day
    // and where they go (`3:05 PM`, `3:05 p. m.`, `午後3:05`); `h23` with two-digit hours is
    // Tock's 24-hour clock in every language (`09:05`).
    const cycle: Intl.DateTimeFormatOptions = twelve ? { hour: 'numeric', hour12: true } : { hour: '2-digit', hourCycle: 'h23' };
    formatter = new Intl.DateTimeFormat(intlLocale(locale), { timeZone, ...cycle, minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) });
    clockFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * The locale's no-break spaces (U+00A0, U+202F; some ICU versions put them in `2:05 PM` and
 * `p. m.`) as the space a person types: a time shown in a field reads back, a time printed by
 * the CLI is found by `grep`.
 */
const typedSpaces = (text: string): string => text.replace(/[\u00a0\u202f]/g, ' ');

/**
 * A time of day as `locale` writes it on `clock`: `14:05` on the 24-hour clock in every
 * language; on the 12-hour one `2:05 PM`, `2:05 p. m.`, `午後2:05` (`Intl`'s words for the half
 * of the day and their place). With `seconds`, `14:05:09`.
 */
export function formatClockTime(locale: Locale, time: ClockTime, clock: ClockChoice): string {
  const at = Date.UTC(2000, 0, 1, time.hours, time.minutes, time.seconds ?? 0);
  return typedSpaces(clockFormatter(locale, usesTwelveHours(locale, clock), time.seconds !== undefined, 'UTC').format(at));
}

/** The time of day of the instant `ms` in `timeZone`, as {@link formatClockTime} writes it. */
export function formatTimeOfDay(locale: Locale, ms: number, timeZone: string, clock: ClockChoice = 'system'): string {
  return typedSpaces(clockFormatter(locale, usesTwelveHours(locale, clock), false, timeZone).format(ms));
}

/** Longer than any time of day a person types (`12:05 p. m.` is 11): refused before it is read. */
export const MAX_TYPED_TIME = 32;

let dayPeriodWords: ReadonlyMap<string, 0 | 12> | undefined;

/** A day-period word compacted for comparing: lower case, without spaces and dots (`p. m.` → `pm`). */
const compactWord = (word: string): string => word.normalize('NFKC').toLowerCase().replace(/[\s.]/g, '');

/**
 * The words every language Tock speaks writes for the two halves of the day, compacted, with
 * the hours they add: `am`/`pm` (English, German, French, and Spanish's `a. m.`/`p. m.`),
 * `午前`/`午後` — from `Intl`, so they are the words {@link formatClockTime} writes.
 */
function dayPeriods(): ReadonlyMap<string, 0 | 12> {
  if (dayPeriodWords === undefined) {
    const words = new Map<string, 0 | 12>([
      ['am', 0],
      ['pm', 12],
    ]);
    for (const language of SUPPORTED_LANGUAGES) {
      const formatter = clockFormatter(language, true, false, 'UTC');
      for (const [hour, adds] of [[1, 0], [13, 12]] as const) {
        const word = formatter.formatToParts(Date.UTC(2000, 0, 1, hour)).find((part) => part.type === 'dayPeriod')?.value;
        if (word !== undefined) words.set(compactWord(word), adds);
      }
    }
    dayPeriodWords = words;
  }
  return dayPeriodWords;
}

/**
 * Minutes after midnight of a typed time of day, or null when it holds none. Lenient: the
 * 24-hour clock (`15:05`, `9:30`, `0930`, `9.30`, `15h05`, `15時05分`) in any language, and the
 * 12-hour clock with any supported language's words before or after (`3:05 PM`, `3:05 p. m.`,
 * `3pm`, `午後3:05`, `午後3時`), full-width digits and no-break spaces as typed by an input
 * method; so every time {@link formatClockTime} writes reads back. Bounded: text longer than
 * {@link MAX_TYPED_TIME} is refused unread, and the one pattern it is matched against is
 * linear.
 */
export function readClockTime(typed: string): number | null {
  if (typed.length > MAX_TYPED_TIME) return null;
  const text = typed.normalize('NFKC').toLowerCase().trim();
  if (text.length > MAX_TYPED_TIME) return null;
  const m = /^(\D*?)\s*(\d{1,2})(?:[:.h時]?(\d{2})分?|時)?\s*(\D*)$/.exec(text);
  if (m === null) return null;
  const before = compactWord(m[1] as string);
  const after = compactWord(m[4] as string);
  let hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (minutes >= 60 || (before !== '' && after !== '')) return null;
  const word = before || after;
  if (word !== '') {
    const adds = dayPeriods().get(word);
    if (adds === undefined || hours < 1 || hours > 12) return null;
    hours = (hours % 12) + adds;
  }
  return hours < 24 ? hours * 60 + minutes : null;
}

/** A calendar date in `timeZone` in the locale's order and words (`style` as `Intl`'s `dateStyle`). */
export function formatDate(locale: Locale, ms: number, timeZone: string, style: 'full' | 'long' | 'medium' | 'short' = 'medium'): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { timeZone, dateStyle: style }).format(ms);
}

/** A number with the locale's digits, grouping and decimal mark. */
export function formatNumber(locale: Locale, value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlLocale(locale), options).format(value);
}

/** An amount of money in `currency` (ISO 4217, `EUR`), written as the locale writes it. */
export function formatCurrency(locale: Locale, amount: number, currency: string): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency }).format(amount);
}

/**
 * `a, b and c` in the locale's words (`a、b、c`); `disjunction` is `a, b or c`; `unit` is a list
 * of things side by side, without the last item's `and` where the language leaves it out (tags:
 * `a, b, c`, Japanese `a b c`), its short style; `open` is the first items of a longer list, each
 * after the language's separator and no `and` (`EUR, USD, GBP`, `EUR、USD、GBP`), for a message
 * that goes on with `, …` (docs/i18n.md "Formats").
 */
export function formatList(locale: Locale, items: readonly string[], type: 'conjunction' | 'disjunction' | 'unit' | 'open' = 'conjunction'): string {
  if (type === 'open') return items.join(listSeparator(locale));
  return new Intl.ListFormat(intlLocale(locale), { style: type === 'unit' ? 'short' : 'long', type }).format(items);
}

/** The separator between the first items of a list in `locale` (CLDR's `start` pattern): `, `, `、`. */
function listSeparator(locale: Locale): string {
  const parts = new Intl.ListFormat(intlLocale(locale), { type: 'conjunction' }).formatToParts(['a', 'b', 'c']);
  return parts.find((p) => p.type === 'literal')?.value ?? ', ';
}

/** `in 5 minutes`, `3 days ago`, `yesterday` in the locale's words. */
export function formatRelativeTime(locale: Locale, value: number, unit: Intl.RelativeTimeFormatUnit): string {
  return new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'auto' }).format(value, unit);
}

/** `Intl.DurationFormat` (Node 23 and later), typed here until TypeScript's lib has it. */
interface DurationFormatter {
  format(duration: { hours?: number; minutes?: number }): string;
}
type DurationFormatConstructor = new (locale: string, options: { style: 'long' | 'short' | 'narrow'; minutesDisplay?: 'always' | 'auto' }) => DurationFormatter;

/**
 * Seconds as hours and minutes in words (`2 hr, 10 min`, `2 Std., 10 Min.`, `2 時間 10 分`),
 * floored to the minute like every duration Tock shows; zero hours are left out, zero minutes
 * alone are `0 min`.
 */
export function formatDurationWords(locale: Locale, seconds: number, style: 'long' | 'short' | 'narrow' = 'short'): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  const duration = { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
  const DurationFormat = (Intl as unknown as { DurationFormat?: DurationFormatConstructor }).DurationFormat;
  if (DurationFormat === undefined) {
    const unit = (value: number, name: 'hour' | 'minute'): string => new Intl.NumberFormat(intlLocale(locale), { style: 'unit', unit: name, unitDisplay: style }).format(value);
    return duration.hours > 0 ? `${unit(duration.hours, 'hour')} ${unit(duration.minutes, 'minute')}` : unit(duration.minutes, 'minute');
  }
  const shown = duration.hours > 0 ? (duration.minutes > 0 ? duration : { hours: duration.hours }) : { minutes: duration.minutes };
  // Zero minutes would be left out as well, leaving nothing: shown as `0 Min.`.
  return new DurationFormat(intlLocale(locale), duration.hours > 0 ? { style } : { style, minutesDisplay: 'always' }).format(shown);
}
