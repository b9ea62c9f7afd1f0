/**
 * The ledger's settings (docs/data.md "The ledger"): `rounding` (how worked seconds become
 * billed seconds), `targets` (hours a day of the week should have) and `business` (the
 * details an invoice carries). Each is one JSON value in the store's settings, checked whole
 * as it is set: an invalid value is refused with one line and changes nothing.
 */

import { isLanguageSetting, LANGUAGE_SETTINGS, type LanguageSetting } from '@tock/i18n/languages'; // not the formatter: core loads no intl-messageformat
import { ruleProblem, validationProblem, type FieldRule } from '@tock/protocol';
import { DAY_STARTS_AT_MAX, type WeekStartDay } from './day.ts';
import { cleanCurrency, cleanTaxRate, taxRateRule } from './money.ts';
import { codePointLength } from './names.ts';
import { LEDGER_SETTING_KEYS, WEEKDAYS, type Business, type LedgerSettingKey, type Rounding, type Targets, type Weekday } from './shapes/ledger.ts';
import type { SettingsStore } from './store.ts';

/** The steps a rounding may take, in minutes. */
export const ROUNDING_MINUTES = [1, 5, 6, 10, 15, 30, 60] as const;

/** No rounding: billed time is worked time. */
export const NO_ROUNDING: Readonly<Rounding> = Object.freeze({ mode: 'none', minutes: 1, per: 'block' });

/** Longest business field, in characters (an address of a few lines). */
const BUSINESS_TEXT_MAX = 2000;

/** Refuses `key` by a @tock/protocol rule (its English from `ruleMessage`, its code beside it). */
function refuseBy(key: string, rule: FieldRule): never {
  throw validationProblem([ruleProblem(key, rule)]);
}

/** Refuses the field `name` inside the setting `key` (`"taxRate" must be …`): the field's own rule in `item`. */
function refuseInside(key: string, name: string, item: FieldRule): never {
  return refuseBy(key, { rule: 'subField', values: { name }, item });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Checks a rounding value; throws `validation_failed` naming `rounding`. */
export function checkRounding(value: unknown): Rounding {
  const shape: FieldRule = { rule: 'roundingShape' };
  if (!isObject(value)) refuseBy('rounding', shape);
  for (const field of Object.keys(value)) if (!['mode', 'minutes', 'per', 'minimumMinutes'].includes(field)) refuseBy('rounding', { rule: 'noFieldShape', values: { name: field }, item: shape });
  const mode = value.mode ?? 'none';
  if (mode !== 'none' && mode !== 'up' && mode !== 'down' && mode !== 'nearest') refuseInside('rounding', 'mode', { rule: 'roundingMode' });
  const minutes = value.minutes ?? 1;
  if (!(ROUNDING_MINUTES as readonly unknown[]).includes(minutes)) refuseInside('rounding', 'minutes', { rule: 'oneOf', values: { options: ROUNDING_MINUTES.join(', ') } });
  const per = value.per ?? 'block';
  if (per !== 'block' && per !== 'day') refuseInside('rounding', 'per', { rule: 'roundingPer' });
  const minimum = value.minimumMinutes;
  if (minimum === undefined) return { mode, minutes: minutes as number, per };
  if (typeof minimum !== 'number' || !Number.isInteger(minimum) || minimum < 0 || minimum > 60) {
    refuseInside('rounding', 'minimumMinutes', { rule: 'wholeUnits', values: { unit: 'minutes', min: 0, max: 60 } });
  }
  return { mode, minutes: minutes as number, per, minimumMinutes: minimum };
}

/** The working days a weekly target is spread over when `days` is not set. */
export const DEFAULT_WORKING_DAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

/**
 * Checks a targets value; throws `validation_failed` naming `targets`. Either hours per day
 * (`{"mon":H,…}`) or the week's hours (`{"week":H}`, with `days` the working days it is spread
 * over) — not both, so no day's target is ambiguous.
 */
export function checkTargets(value: unknown): Targets {
  if (!isObject(value)) refuseBy('targets', { rule: 'targetsShape' });
  const targets: Targets = {};
  for (const [day, hours] of Object.entries(value)) {
    if (day === 'week') {
      if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0 || hours > 168) refuseInside('targets', 'week', { rule: 'hoursRange', values: { min: 0, max: 168 } });
      targets.week = hours;
      continue;
    }
    if (day === 'days') {
      if (!Array.isArray(hours) || hours.length === 0 || hours.some((d) => !(WEEKDAYS as readonly unknown[]).includes(d))) {
        refuseInside('targets', 'days', { rule: 'workingDays', values: { days: WEEKDAYS.join(', ') } });
      }
      targets.days = WEEKDAYS.filter((d) => (hours as unknown[]).includes(d));
      continue;
    }
    if (!(WEEKDAYS as readonly string[]).includes(day)) refuseBy('targets', { rule: 'notADay', values: { name: day, days: WEEKDAYS.join(', ') } });
    if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0 || hours > 24) refuseInside('targets', day, { rule: 'hoursRange', values: { min: 0, max: 24 } });
    // Whole seconds a day: a target of 7.7 h is 27 720 s.
    targets[day as Weekday] = hours;
  }
  const perDay = WEEKDAYS.some((d) => targets[d] !== undefined);
  if (targets.week !== undefined && perDay) refuseBy('targets', { rule: 'dayOrWeek' });
  if (targets.days !== undefined && targets.week === undefined) refuseBy('targets', { rule: 'daysWithWeek' });
  return targets;
}

/**
 * A day's target in hours under `targets`: its own hours, or the week's hours divided by the
 * number of working days when it is one of them (docs/data.md "The ledger").
 */
export function dayTargetHours(targets: Targets, weekday: Weekday): number {
  if (targets.week === undefined) return targets[weekday] ?? 0;
  const days = targets.days ?? DEFAULT_WORKING_DAYS;
  return days.includes(weekday) ? targets.week / days.length : 0;
}

/** The shortest session kept when it stops, when `minSessionSeconds` is not set. */
export const DEFAULT_MIN_SESSION_SECONDS = 60;

/** Checks a `minSessionSeconds` value: whole seconds from 0 (keep every session) to 3600. */
export function checkMinSessionSeconds(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 3600) {
    refuseBy('minSessionSeconds', { rule: 'keepSeconds', values: { max: 3600 } });
  }
  return value;
}

/** The shortest session kept when it stops, in seconds (docs/product.md "No crumbs"). */
export function readMinSessionSeconds(settings: SettingsStore): number {
  try {
    const stored = settings.get('minSessionSeconds');
    return stored === undefined || stored === null ? DEFAULT_MIN_SESSION_SECONDS : checkMinSessionSeconds(stored);
  } catch {
    return DEFAULT_MIN_SESSION_SECONDS;
  }
}

/** Checks a `language` value (docs/i18n.md "Choosing the language"): `"system"` or a language Tock speaks. */
export function checkLanguage(value: unknown): LanguageSetting {
  if (!isLanguageSetting(value)) refuseBy('language', { rule: 'oneOf', values: { options: LANGUAGE_SETTINGS.map((v) => `"${v}"`).join(', ') } });
  return value;
}

/** Checks a `dayStartsAt` value (docs/data.md "Days and weeks"): `"HH:MM"` from `"00:00"` to `"06:00"`. */
export function checkDayStartsAt(value: unknown): string {
  const m = typeof value === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value) : null;
  if (m === null || Number(m[1]) * 60 + Number(m[2]) > DAY_STARTS_AT_MAX) refuseBy('dayStartsAt', { rule: 'timeOfDayRange', values: { min: '"00:00"', max: '"06:00"', example: '"04:00"' } });
  return value as string;
}

/** The setting `dayStartsAt` as minutes after midnight (0 when not set or unreadable): what core's day functions take. */
export function readDayStartsAt(settings: SettingsStore): number {
  try {
    const stored = settings.get('dayStartsAt');
    if (stored === undefined || stored === null) return 0;
    const [hours, minutes] = checkDayStartsAt(stored).split(':');
    return Number(hours) * 60 + Number(minutes);
  } catch {
    return 0;
  }
}

/** The values of `weekStart`: the language's locale, or Monday, Sunday, Saturday. */
export const WEEK_STARTS = ['locale', 'mon', 'sun', 'sat'] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];

/** Checks a `weekStart` value (docs/data.md "Days and weeks"). */
export function checkWeekStart(value: unknown): WeekStart {
  if (!(WEEK_STARTS as readonly unknown[]).includes(value)) refuseBy('weekStart', { rule: 'oneOf', values: { options: WEEK_STARTS.map((v) => `"${v}"`).join(', ') } });
  return value as WeekStart;
}

/**
 * The day the person's week starts on, as {@link startOfWeek} takes it: `"mon"`, `"sun"`,
 * `"sat"`, or for `"locale"` (the default) the first day of the week of `locale` (a language:
 * the person's, docs/i18n.md) — `Intl.Locale`'s week info where the runtime has it, else the
 * table CLDR gives for Tock's languages (en and ja: Sunday; de, fr, es: Monday).
 */
export function readWeekStart(settings: SettingsStore, locale: string): WeekStartDay {
  const stored = settings.get('weekStart');
  const setting = (WEEK_STARTS as readonly unknown[]).includes(stored) ? (stored as WeekStart) : 'locale';
  if (setting === 'mon') return 1;
  if (setting === 'sun') return 7;
  if (setting === 'sat') return 6;
  return localeWeekStart(locale);
}

/** CLDR's first day of the week for Tock's languages' default regions (en is en-US: Sunday). */
const LOCALE_WEEK_STARTS: Readonly<Record<string, WeekStartDay>> = { en: 7, de: 1, fr: 1, es: 1, ja: 7 };

/** The first day of the week in `locale`: `Intl.Locale#getWeekInfo()` (or the older `weekInfo`), else the table. */
export function localeWeekStart(locale: string): WeekStartDay {
  try {
    const intl = new Intl.Locale(locale) as Intl.Locale & { getWeekInfo?: () => { firstDay: number }; weekInfo?: { firstDay: number } };
    const firstDay = intl.getWeekInfo?.().firstDay ?? intl.weekInfo?.firstDay;
    if (firstDay === 1 || firstDay === 6 || firstDay === 7) return firstDay;
  } catch {
    // an unknown locale: the table
  }
  return LOCALE_WEEK_STARTS[locale.split('-')[0] as string] ?? 1;
}

/** The setting `language`, `"system"` when not set (or unreadable). */
export function readLanguage(settings: SettingsStore): LanguageSetting {
  const stored = settings.get('language');
  return isLanguageSetting(stored) ? stored : 'system';
}

/** The fields a `business` value may have. */
const BUSINESS_FIELDS = ['name', 'address', 'taxID', 'paymentTerms', 'currency', 'taxRate', 'paymentDays'];

/** The longest payment term, in days. */
export const PAYMENT_DAYS_MAX = 365;

/** Checks a business value; throws `validation_failed` naming `business`. */
export function checkBusiness(value: unknown): Business {
  if (!isObject(value)) refuseBy('business', { rule: 'businessShape' });
  const text = (field: string): string => {
    const v = value[field] ?? '';
    if (typeof v !== 'string') refuseInside('business', field, { rule: 'mustBeText' });
    if (codePointLength(v) > BUSINESS_TEXT_MAX) refuseInside('business', field, { rule: 'atMostChars', values: { max: BUSINESS_TEXT_MAX } });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: an invoice shows lines, nothing else
    if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(v)) refuseInside('business', field, { rule: 'addressChars' });
    return v;
  };
  for (const field of Object.keys(value)) {
    if (!BUSINESS_FIELDS.includes(field)) refuseBy('business', { rule: 'noSuchField', values: { name: field, fields: BUSINESS_FIELDS.join(', ') } });
  }
  const business: Business = { name: text('name'), address: text('address'), taxID: text('taxID'), paymentTerms: text('paymentTerms') };
  if (value.currency !== undefined && value.currency !== null) business.currency = cleanCurrency(value.currency, 'business');
  if (value.taxRate !== undefined && value.taxRate !== null) {
    const broken = taxRateRule(value.taxRate);
    if (broken !== undefined) refuseInside('business', 'taxRate', broken);
    business.taxRate = cleanTaxRate(value.taxRate, 'business');
  }
  if (value.paymentDays !== undefined && value.paymentDays !== null) {
    const days = value.paymentDays;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > PAYMENT_DAYS_MAX) refuseInside('business', 'paymentDays', { rule: 'wholeUnits', values: { unit: 'days', min: 0, max: PAYMENT_DAYS_MAX } });
    business.paymentDays = days;
  }
  return business;
}

/** The rounding in force (none when not set, or stored in a shape this build does not read). */
export function readRounding(settings: SettingsStore): Rounding {
  try {
    return checkRounding(settings.get('rounding') ?? NO_ROUNDING);
  } catch {
    return { ...NO_ROUNDING };
  }
}

/** The targets, or undefined when none are set. */
export function readTargets(settings: SettingsStore): Targets | undefined {
  const stored = settings.get('targets');
  if (stored === undefined || stored === null) return undefined;
  try {
    return checkTargets(stored);
  } catch {
    return undefined;
  }
}

/** The business details (empty texts when not set). */
export function readBusiness(settings: SettingsStore): Business {
  try {
    return checkBusiness(settings.get('business') ?? {});
  } catch {
    return { name: '', address: '', taxID: '', paymentTerms: '' };
  }
}

/** Each setting's own example of JSON, for a value that is not JSON (`language` is `"de"`, not a rounding). */
const SETTING_EXAMPLES: Readonly<Record<LedgerSettingKey, string>> = {
  rounding: '{"mode":"up","minutes":15,"per":"block"}',
  targets: '{"week":40,"days":["mon","tue","wed","thu","fri"]}',
  business: '{"name":"Ana Lima","address":"Rua Augusta 1, Lisboa","taxID":"PT123456789","paymentTerms":"30 days"}',
  minSessionSeconds: '60',
  language: '"de"',
  dayStartsAt: '"04:00"',
  weekStart: '"mon"',
};

/** One ledger setting as stored (`null` when not set). */
export function getLedgerSetting(settings: SettingsStore, key: string): unknown {
  checkKey(key);
  return settings.get(key) ?? null;
}

/**
 * Sets one ledger setting to `value` (a JSON value, or JSON text as typed on the command
 * line); `null` removes it. Throws `validation_failed` with one line and changes nothing.
 */
export function setLedgerSetting(settings: SettingsStore, key: string, value: unknown): unknown {
  checkKey(key);
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      refuseBy(key, { rule: 'settingJson', values: { example: SETTING_EXAMPLES[key as LedgerSettingKey] } });
    }
  }
  if (parsed === null) {
    settings.delete(key);
    return null;
  }
  const checked =
    key === 'rounding'
      ? checkRounding(parsed)
      : key === 'targets'
        ? checkTargets(parsed)
        : key === 'minSessionSeconds'
          ? checkMinSessionSeconds(parsed)
          : key === 'language'
            ? checkLanguage(parsed)
            : key === 'dayStartsAt'
              ? checkDayStartsAt(parsed)
              : key === 'weekStart'
                ? checkWeekStart(parsed)
                : checkBusiness(parsed);
  settings.set(key, checked);
  return checked;
}

function checkKey(key: string): void {
  if (!(LEDGER_SETTING_KEYS as readonly string[]).includes(key)) {
    refuseBy('key', { rule: 'notASetting', values: { key, keys: LEDGER_SETTING_KEYS.join(', ') } });
  }
}

/**
 * Billed seconds for `seconds` of worked time under `rounding` (docs/data.md "The ledger"):
 * up, down or to the nearest step (a half step goes up). Worked time is never changed; this
 * only says what is billed for it. Zero stays zero: no block is billed a step for nothing.
 */
export function roundBilled(seconds: number, rounding: Rounding): number {
  if (rounding.mode === 'none' || seconds <= 0) return Math.max(0, seconds);
  const step = rounding.minutes * 60;
  const rest = seconds % step;
  const down = seconds - rest;
  if (rest === 0 || rounding.mode === 'down') return down;
  if (rounding.mode === 'up') return down + step;
  return rest * 2 >= step ? down + step : down;
}

/**
 * Billed seconds of one group of blocks (an activity's on a day, or a report row's) under
 * `rounding` (docs/data.md "The ledger"): `coveredSeconds` is the group's covered time and
 * `blockSeconds` each billable block's part of it. Per block, each block is rounded; per day,
 * the covered time is. `minimumMinutes` then bills every block with worked time at least that
 * long: per block each block's billed time is raised to it, otherwise each short block adds
 * what it lacks.
 */
export function billedSeconds(coveredSeconds: number, blockSeconds: Iterable<number>, rounding: Rounding): number {
  const minimum = (rounding.minimumMinutes ?? 0) * 60;
  if (rounding.mode !== 'none' && rounding.per === 'block') {
    let sum = 0;
    for (const s of blockSeconds) sum += s > 0 ? Math.max(roundBilled(s, rounding), minimum) : 0;
    return sum;
  }
  let sum = roundBilled(coveredSeconds, rounding);
  if (minimum > 0) for (const s of blockSeconds) if (s > 0 && s < minimum) sum += minimum - s;
  return sum;
}
