/**
 * How the Reports screen writes days and hours: in the app's time zone (which decides the
 * days) and the window's language, with `Intl`'s own range formatting ("Nov 16 – 22, 2026"
 * in English, "16.–22. Nov. 2026" in German).
 */
import { formatLocale } from './i18n/index.ts';
import { daySpan, timeZone } from './time.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

/** A formatter in the app's time zone (which decides the days), in the window's language. */
function format(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = formatLocale();
  const key = `${locale}|${timeZone()}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: timeZone() });
    formats.set(key, f);
  }
  return f;
}

/** An instant inside a local day, to format the day from. */
function within(day: string): number {
  const { start, end } = daySpan(day);
  return Math.floor((start + end) / 2);
}

/** `Wednesday, November 18, 2026`; `Nov 16 – 22, 2026`; `Dec 28, 2026 – Jan 3, 2027` (the window's language). */
export function rangeLabel(from: string, to: string): string {
  if (from === to) return format({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(within(from));
  return format({ day: 'numeric', month: 'short', year: 'numeric' }).formatRange(within(from), within(to));
}

/**
 * An invoice's period, short and with its year, each part once: `Nov 1 – 18, 2026`,
 * `1.–18. Nov. 2026`, one day as `Nov 29, 2026` (never `Nov 29 – Nov 29`).
 */
export function periodLabel(from: string, to: string): string {
  return format({ day: 'numeric', month: 'short', year: 'numeric' }).formatRange(within(from), within(to));
}

/** `Mon, Nov 16` */
export function tableDay(day: string): string {
  return format({ weekday: 'short', day: 'numeric', month: 'short' }).format(within(day));
}

/** Under a bar: `Mon` in a week, `Nov 16` in a longer range. */
export function axisDay(day: string, weekOrLess: boolean): string {
  return (weekOrLess ? format({ weekday: 'short' }) : format({ day: 'numeric', month: 'short' })).format(within(day));
}

/**
 * An amount (a decimal string in the currency's minor units, as the app computes it) as
 * `tock report` writes it: in English (and the pseudo-locale) the decimal and the code,
 * `190.00 EUR` (docs/data.md "The ledger"); in another language as its locale writes money,
 * `1.234,50 €`; `–` where no rate applies.
 */
export function money(amount: string | null, currency: string | null): string {
  if (amount === null || currency === null) return '–';
  if (formatLocale() === 'en') return `${amount} ${currency}`;
  const digits = amount.includes('.') ? (amount.split('.')[1] as string).length : 0;
  try {
    return new Intl.NumberFormat(formatLocale(), { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * What a row or a report is worth in each of its currencies, never added together:
 * `190.00 EUR + 240.00 USD`; `–` only where no rate applies (docs/data.md "The ledger").
 */
export function moneyList(amounts: readonly { amount: string; currency: string }[]): string {
  return amounts.length === 0 ? '–' : amounts.map((a) => money(a.amount, a.currency)).join(' + ');
}

/**
 * Decimal hours as the CLI writes them (`16.67`, `−0.25`, `@tock/protocol`'s digits) in
 * English, with the locale's decimal sign in another language (`16,67`): the same figure.
 */
export function localHours(text: string): string {
  const locale = formatLocale();
  if (locale === 'en') return text;
  const negative = text.startsWith('−');
  const figure = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(negative ? text.slice(1) : text));
  return negative ? `−${figure}` : figure;
}
