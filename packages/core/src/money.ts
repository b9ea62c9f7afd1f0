/**
 * Money for the ledger (docs/data.md "The ledger"): rates are decimal strings per hour
 * (`"85.00"`), currencies ISO 4217 codes, amounts decimal strings in the currency's minor unit
 * (`"106.25"`). Never a binary float: a rate is read into an exact integer of
 * {@link RATE_SCALE}ths, an amount is worked out in BigInt (seconds × rate) and rounded once,
 * half-up, to the currency's minor unit. Amounts of different currencies are never added.
 */

import { type FieldRule, ruleMessage, ruleProblem, validationProblem } from '@tock/protocol';

/**
 * ISO 4217 codes Tock knows, with their minor units (digits after the decimal point). A code
 * not listed is refused (docs/decisions.md "The ledger"): a typo such as `EURO` must not bill
 * in a currency nobody has.
 */
export const CURRENCY_MINOR_UNITS: Readonly<Record<string, number>> = Object.freeze({
  AED: 2, ARS: 2, AUD: 2, BGN: 2, BHD: 3, BRL: 2, CAD: 2, CHF: 2, CLP: 0, CNY: 2, COP: 2, CZK: 2,
  DKK: 2, EGP: 2, EUR: 2, GBP: 2, HKD: 2, HUF: 2, IDR: 2, ILS: 2, INR: 2, ISK: 0, JOD: 3, JPY: 0,
  KES: 2, KRW: 0, KWD: 3, MAD: 2, MXN: 2, MYR: 2, NGN: 2, NOK: 2, NZD: 2, OMR: 3, PEN: 2, PHP: 2,
  PKR: 2, PLN: 2, QAR: 2, RON: 2, RSD: 2, RUB: 2, SAR: 2, SEK: 2, SGD: 2, THB: 2, TND: 3, TRY: 2,
  TWD: 2, UAH: 2, USD: 2, UYU: 2, VND: 0, ZAR: 2,
});

/** A rate is kept to this many decimal places at most (`"85.1234"`). */
export const RATE_DECIMALS = 4;
/** A rate as an integer is this many times the rate per hour. */
export const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
/** The largest rate per hour accepted (a typo guard, not a judgement). */
export const RATE_MAX_DIGITS = 9;

const RATE = new RegExp(`^(\\d{1,${RATE_MAX_DIGITS}})(?:\\.(\\d{1,${RATE_DECIMALS}}))?$`);

/** The rate rule `text` breaks (its code and values, @tock/protocol's `FieldRule`), or undefined when it is a rate. */
export function rateRule(text: unknown): FieldRule | undefined {
  if (typeof text !== 'string') return { rule: 'rateText' };
  if (!RATE.test(text.trim())) return { rule: 'rate', values: { decimals: RATE_DECIMALS, sent: text } };
  return undefined;
}

/** Why `text` is not a rate ({@link rateRule} in English), or undefined when it is one. */
export function rateError(text: unknown): string | undefined {
  return englishOf(rateRule(text));
}

/** A rule's English, or undefined for none. */
function englishOf(rule: FieldRule | undefined): string | undefined {
  return rule === undefined ? undefined : ruleMessage(rule);
}

/**
 * A rate as typed (`"85"`, `"85.5"`, `" 85.50 "`) in its stored form: trimmed, at least two
 * decimals (`"85.00"`, `"85.50"`, `"85.125"`). Throws `validation_failed` about `field`.
 */
export function cleanRate(text: unknown, field = 'rate'): string {
  const broken = rateRule(text);
  if (broken !== undefined) throw validationProblem([ruleProblem(field, broken)]);
  const [, whole, decimals = ''] = RATE.exec((text as string).trim()) as RegExpExecArray;
  return `${BigInt(whole as string).toString()}.${decimals.padEnd(2, '0')}`;
}

/** A stored rate as an integer of {@link RATE_SCALE}ths of the rate per hour. */
export function rateUnits(rate: string): bigint {
  const [, whole, decimals = ''] = RATE.exec(rate) as RegExpExecArray;
  return BigInt(whole as string) * RATE_SCALE + BigInt(decimals.padEnd(RATE_DECIMALS, '0'));
}

/** The currency rule `code` breaks (its code and values), or undefined when it is a currency Tock bills in. */
export function currencyRule(code: unknown): FieldRule | undefined {
  if (typeof code !== 'string' || !/^[A-Za-z]{3}$/.test(code.trim())) return { rule: 'currencyCode', values: { sent: String(code) } };
  if (CURRENCY_MINOR_UNITS[code.trim().toUpperCase()] === undefined) {
    return { rule: 'currencyUnknown', values: { code: code.trim(), known: Object.keys(CURRENCY_MINOR_UNITS).slice(0, 8).join(', ') } };
  }
  return undefined;
}

/** Why `code` is not a currency Tock bills in ({@link currencyRule} in English), or undefined when it is one. */
export function currencyError(code: unknown): string | undefined {
  return englishOf(currencyRule(code));
}

/** A currency code as stored (upper case); throws `validation_failed` about `field`. */
export function cleanCurrency(code: unknown, field = 'currency'): string {
  const broken = currencyRule(code);
  if (broken !== undefined) throw validationProblem([ruleProblem(field, broken)]);
  return (code as string).trim().toUpperCase();
}

/** Digits after the decimal point of `currency`'s minor unit (2 for a code Tock does not know). */
export function minorUnits(currency: string): number {
  return CURRENCY_MINOR_UNITS[currency] ?? 2;
}

/**
 * The exact value of `seconds` billed at `rate` (a stored rate), as a fraction over
 * {@link EXACT_DENOMINATOR}: seconds × rate units. Sum these, then round once with
 * {@link roundAmount}; summing rounded amounts would drift.
 */
export function exactAmount(seconds: number, rate: string): bigint {
  return BigInt(seconds) * rateUnits(rate);
}

/** What an {@link exactAmount} is divided by to give an amount in the currency: seconds per hour × the rate's scale. */
export const EXACT_DENOMINATOR = 3600n * RATE_SCALE;

/**
 * An exact amount (see {@link exactAmount}) rounded half-up to `currency`'s minor unit, as a
 * decimal string with exactly that many decimals (`"106.25"`, `"12"` for JPY). Amounts are
 * never negative, so half-up is away from zero.
 */
export function roundAmount(exact: bigint, currency: string): string {
  const digits = minorUnits(currency);
  const scale = 10n ** BigInt(digits);
  const minor = (exact * scale * 2n + EXACT_DENOMINATOR) / (EXACT_DENOMINATOR * 2n);
  return formatMinor(minor, digits);
}

/** An amount in minor units (an integer) as a decimal string with `digits` decimals. */
export function formatMinor(minor: bigint, digits: number): string {
  if (digits === 0) return minor.toString();
  const text = minor.toString().padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** A decimal amount string (as {@link roundAmount} makes) in minor units. */
export function amountMinor(amount: string): bigint {
  const [whole, decimals = ''] = amount.split('.');
  return BigInt(`${whole}${decimals}`);
}

/** The sum of amounts of one currency, as a decimal string of that currency. */
export function sumAmounts(amounts: readonly string[], currency: string): string {
  let minor = 0n;
  for (const a of amounts) minor += amountMinor(a);
  return formatMinor(minor, minorUnits(currency));
}

/**
 * Billed seconds as the quantity an invoice line shows: hours with two decimals, half-up, in
 * hundredths of an hour (5 400 s → 150n, `"1.50"`). The line's amount is worked out from this
 * quantity, so the line multiplies out as printed (docs/data.md "Invoices").
 */
export function quantityHundredths(seconds: number): bigint {
  // seconds / 36 hundredths, half-up: (2s + 36) / 72.
  return (BigInt(Math.max(0, seconds)) * 2n + 36n) / 72n;
}

/** Hundredths of an hour as the text a line shows: `"1.50"`. */
export function quantityText(hundredths: bigint): string {
  return formatMinor(hundredths, 2);
}

/**
 * A line's amount: `hundredths` hours × `rate`, half-up to `currency`'s minor unit, in minor
 * units — exactly what the printed quantity times the printed rate comes to.
 */
export function lineAmountMinor(hundredths: bigint, rate: string, currency: string): bigint {
  const scale = 10n ** BigInt(minorUnits(currency));
  const denominator = 100n * RATE_SCALE;
  return (hundredths * rateUnits(rate) * scale * 2n + denominator) / (denominator * 2n);
}

/** A tax rate in percent is kept to this many decimals (`"7.7"`, `"8.10"`). */
export const TAX_RATE_DECIMALS = 2;

/** The tax rate rule `value` breaks (percent, 0–100, at most two decimals; `sent` as JSON), or undefined. */
export function taxRateRule(value: unknown): FieldRule | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,3}(?:\.\d{1,2})?$/.test(text.trim()) || Number(text) > 100) {
    return { rule: 'taxRate', values: { decimals: TAX_RATE_DECIMALS, sent: String(JSON.stringify(value)) } };
  }
  return undefined;
}

/** Why `value` is not a tax rate ({@link taxRateRule} in English), or undefined. */
export function taxRateError(value: unknown): string | undefined {
  return englishOf(taxRateRule(value));
}

/** A tax rate as stored: a number of percent (`19`, `7.7`); throws `validation_failed` about `field`. */
export function cleanTaxRate(value: unknown, field = 'taxRate'): number {
  const broken = taxRateRule(value);
  if (broken !== undefined) throw validationProblem([ruleProblem(field, broken)]);
  return Number(String(value).trim());
}

/** A tax rate in hundredths of a percent (19 → 1 900n, 7.7 → 770n), exactly. */
export function taxRateBasisPoints(percent: number): bigint {
  const [whole, decimals = ''] = String(percent).split('.');
  return BigInt(whole as string) * 100n + BigInt(decimals.padEnd(2, '0').slice(0, 2));
}

/** The tax on `netMinor` (minor units) at `percent`, half-up to the minor unit. */
export function taxMinor(netMinor: bigint, percent: number): bigint {
  return (netMinor * taxRateBasisPoints(percent) * 2n + 10_000n) / 20_000n;
}
