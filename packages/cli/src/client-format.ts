/**
 * The human lines of the client commands (`--json` prints the results as they are), in the
 * person's language (docs/cli.md "Languages"): each line a catalog message, its data —
 * names, notes, times, durations — as arguments.
 */
import type { ActivityRef, Entry, Health, StartResult, Status, StoppedSession } from '@tock/client';
import { formatCurrency, formatDate, formatDurationWords, formatNumber, intlLocale } from '@tock/i18n';
import { formatDuration } from '@tock/protocol';
import { formatMinutes, formatSeconds } from './duration.ts';
import { formatClock, formatSpan, type ClockFormat } from './format-time.ts';
import type { CliMessages } from './i18n/index.ts';
import { terminalText } from './terminal-text.ts';

/**
 * Whether the lines keep Tock's English forms of data — `2h 05m`, ISO dates, `190.00 EUR` —
 * as they were before the CLI spoke other languages: in English and its pseudo-locale.
 */
export function englishForms(t: CliMessages): boolean {
  return t.locale === 'en' || t.locale === 'en-XA';
}

/**
 * Worked seconds as the locale reads them: English (and its pseudo-locale) keeps Tock's short
 * form (`2h 05m`, the one the window and the extensions show); the other languages say it with
 * `Intl.DurationFormat` in words, plurals by the locale's rules (`1 Minute`, `2 Minuten`).
 */
export function durationFor(t: CliMessages, seconds: number): string {
  if (englishForms(t)) return formatSeconds(seconds);
  // Under a minute `Intl.DurationFormat` leaves every unit out and writes nothing: say `0 Minuten`.
  if (seconds < 60) return new Intl.NumberFormat(intlLocale(t.locale), { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(0);
  return formatDurationWords(t.locale, seconds, 'long');
}

/**
 * Seconds in a table's column: English keeps `2h 05m`; the other languages `Intl.DurationFormat`'s
 * short words (`1 Std., 5 Min.`, `1 時間 5 分`), `0 Min.` under a minute.
 */
export function shortDurationFor(t: CliMessages, seconds: number): string {
  if (englishForms(t)) return formatSeconds(seconds);
  if (seconds < 60) return new Intl.NumberFormat(intlLocale(t.locale), { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(0);
  return formatDurationWords(t.locale, seconds, 'short');
}

/** A day (`YYYY-MM-DD`) as the locale writes it (`23.11.2026`, `2026/11/23`); English keeps the ISO date. */
export function dayFor(t: CliMessages, date: string): string {
  if (englishForms(t) || !/^\d{4}-\d\d-\d\d$/.test(date)) return date;
  return formatDate(t.locale, Date.parse(`${date}T12:00:00Z`), 'UTC', 'medium');
}

/** A decimal as the app sends it (`80.5`) with the locale's mark (`80,5`), its decimals kept; English as it came. */
export function decimalFor(t: CliMessages, text: string): string {
  const value = Number(text);
  if (englishForms(t) || text.trim() === '' || !Number.isFinite(value)) return text;
  const decimals = (text.split('.')[1] ?? '').length;
  return formatNumber(t.locale, value, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/**
 * An amount of money as the locale writes it (`1.234,50 €`); English keeps the decimal and the
 * code (`190.00 EUR`). Without a currency, {@link decimalFor}; a currency `Intl` does not know,
 * as it came.
 */
export function moneyFor(t: CliMessages, amount: string, currency: string | null): string {
  if (currency === null) return decimalFor(t, amount);
  const plain = `${amount} ${currency}`;
  const value = Number(amount);
  if (englishForms(t) || amount.trim() === '' || !Number.isFinite(value)) return plain;
  try {
    return formatCurrency(t.locale, value, currency);
  } catch {
    return plain;
  }
}

/** `12 min`, `1 h 5 min` in English (the window's and the tray's words), else as {@link durationFor}. */
export function durationWordsFor(t: CliMessages, seconds: number): string {
  return englishForms(t) ? formatDuration(seconds, 'words') : durationFor(t, seconds);
}

/** {@link durationFor} of whole minutes. */
function minutesFor(t: CliMessages, minutes: number): string {
  return englishForms(t) ? formatMinutes(minutes) : durationFor(t, minutes * 60);
}

/** `text — note` when a note was given. */
function withNote(t: CliMessages, text: string, note: string | null | undefined): string {
  return note ? t('note.after', { text, note: terminalText(note) }) : text;
}

/** `Tracking "Writing docs" since 09:14 — 2h 05m today` (`9:14 AM` on the 12-hour clock), and its idle and break forms. */
export function formatStatus(t: CliMessages, status: Status, now: Date, clock: ClockFormat = '24h'): string {
  const today = durationFor(t, status.todaySeconds);
  const raw = status.currentActivity?.activityName;
  if (!status.isTracking || raw === undefined) return t('status.idle', { today });
  const name = terminalText(raw);
  const since = status.since === null ? '' : formatClock(status.since, now, clock);
  return t(status.isOnBreak ? 'status.onBreak' : 'status.tracking', { name, since, today });
}

/** `Started "Review" at 09:14`, or `Switched to` / `Still tracking` forms; the note given, after a dash. */
export function formatStart(t: CliMessages, result: StartResult, previous: ActivityRef | null, now: Date, note?: string, clock: ClockFormat = '24h'): string {
  const name = terminalText(result.activityName);
  const at = formatClock(result.startedAt, now, clock);
  if (previous?.activityID === result.activityID) return withNote(t, t('start.still', { name, at }), note);
  if (previous !== null) return withNote(t, t(result.created ? 'start.switchedNew' : 'start.switched', { previous: terminalText(previous.activityName), name, at }), note);
  return withNote(t, t(result.created ? 'start.startedNew' : 'start.started', { name, at }), note);
}

/**
 * `Stopped "Writing docs" after 1h 12m`; for a session shorter than `minSessionSeconds` that
 * was not kept, the same with why and how to keep such sessions; or the line for when nothing ran.
 * `kept` typed optional as well: the client's types come from its built dist/, which may be older.
 */
export function formatStop(t: CliMessages, session: (StoppedSession & { kept?: boolean }) | null): string {
  if (session === null) return t('stop.nothing');
  const name = terminalText(session.activityName);
  if (session.kept !== false) return t('stop.stopped', { name, duration: durationFor(t, session.seconds) });
  // Under a minute the seconds themselves: "after 0m" would not say why it was too short.
  const duration = session.seconds < 60 ? t('stop.seconds', { seconds: session.seconds }) : durationFor(t, session.seconds);
  return t('stop.notKept', { name, duration });
}

/** `Logged 45m to "Review" (09:00–09:45)`, with the note when there is one. */
export function formatEntry(t: CliMessages, entry: Entry, now: Date, clock: ClockFormat = '24h'): string {
  const values = { duration: minutesFor(t, entry.durationMinutes), name: terminalText(entry.activity.activityName), span: formatSpan(entry.startedAt, entry.endedAt, now, clock) };
  return withNote(t, t(entry.created ? 'log.loggedNew' : 'log.logged', values), entry.note);
}

/** One activity per line, best match first; a friendly line when there is none. */
export function formatSearch(t: CliMessages, query: string, found: ActivityRef[]): string {
  if (found.length === 0) return query === '' ? t('search.none') : t('search.noMatch', { query: terminalText(query) });
  return found.map((a) => terminalText(a.activityName)).join('\n');
}

/**
 * `Tock 1.2.0 is up on 127.0.0.1:39847 (API v1, license: trial)`; with the listener off (asked
 * over the admin socket) `Tock 1.2.0 is up, its listener off (API v1, license: trial)`.
 */
export function formatHealth(t: CliMessages, health: Health, listenerPort: number | null): string {
  // The state's word in the language (`Lizenz: Testzeitraum`), as `tock license` says it.
  const license = health.license === 'locked' ? t('health.locked') : t('health.license', { license: health.license });
  const values = { version: health.appVersion, api: String(health.apiVersion), license };
  return listenerPort === null ? t('health.upListenerOff', values) : t('health.up', { ...values, port: String(listenerPort) });
}

/** `Tracking "Writing docs"`, `On a break from "Writing docs"` or `Not tracking anything`. */
export function formatCurrent(t: CliMessages, status: Pick<Status, 'isTracking' | 'isOnBreak' | 'currentActivity'>): string {
  const activity = status.currentActivity;
  if (!status.isTracking || activity === null) return t('current.none');
  return t(status.isOnBreak ? 'current.onBreak' : 'current.tracking', { name: terminalText(activity.activityName) });
}
