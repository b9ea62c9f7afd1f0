/**
 * The one-line status for status bars (docs/integrations.md): `tock status --format` and
 * `tock watch` render a `GET /status` result through a template, or as waybar's JSON. Pure:
 * the status, when it was received and the time to render for are passed in.
 */
import type { Status } from '@tock/client';
import { formatList, type Locale } from '@tock/i18n';
import { formatDuration } from '@tock/protocol';
import { cliMessages, type CliMessages } from './i18n/index.ts';
import { terminalText } from './terminal-text.ts';

let english: CliMessages | undefined;
/** English, for callers that pass no language (tests, scripts). */
function inEnglish(): CliMessages {
  english ??= cliMessages('en');
  return english;
}

/** `{state}`: what a status bar styles on (waybar's `class`). */
export type BarState = 'tracking' | 'break' | 'idle' | 'offline';

/** The placeholders a template may use, and the default template. */
const PLACEHOLDERS = ['state', 'activity', 'break', 'elapsed', 'today', 'todaySeconds'] as const;
export const DEFAULT_TEMPLATE = '{activity} {break} {elapsed} · {today}';

/** Separators a template puts between its parts: `·`, `|`, `–`, `—`, `/`. */
const SEPARATOR = '[·|–—/]';
/**
 * A spaced separator with nothing before it or after it, at the start or the end of the line
 * (`· 3:20`). One written against a placeholder (`{state}|{activity}`, a field list for a
 * script) is the template's own and stays.
 */
const DANGLING_SEPARATORS = new RegExp(`^(?:${SEPARATOR}\\s+)+|(?:\\s+${SEPARATOR})+$`, 'g');
/** A line of nothing but separators (`·` of the default template when nothing answers). */
const ONLY_SEPARATORS = new RegExp(`^${SEPARATOR}(?:\\s*${SEPARATOR})*$`);
/** Two spaced separators with nothing between them (`a · · b`), said once. */
const SEPARATOR_RUNS = new RegExp(`(\\s${SEPARATOR})(?:\\s+${SEPARATOR}(?=\\s))+`, 'g');

/** A status as received: `receivedAt` lets later lines count on without a new request. */
export interface ReceivedStatus {
  status: Status;
  receivedAt: Date;
}

/** The values of the placeholders at `now`; `null` status means the listener is unreachable. */
function barValues(received: ReceivedStatus | null, now: Date, t: CliMessages): Record<(typeof PLACEHOLDERS)[number], string> {
  if (received === null) return { state: 'offline', activity: '', break: '', elapsed: '', today: '', todaySeconds: '' };
  const { status, receivedAt } = received;
  const state = barState(received);
  // Passing time sends no event: the running session's seconds are added here, from `since`.
  const counting = state === 'tracking' ? Math.max(0, (now.getTime() - receivedAt.getTime()) / 1000) : 0;
  // Never more than the day has had (docs/product.md "The application"): counting on past
  // midnight, or over time another block already covers, must not run ahead of the clock.
  const midnight = new Date(now.getTime());
  midnight.setHours(0, 0, 0, 0);
  const todaySeconds = Math.floor(Math.min(status.todaySeconds + counting, Math.max(status.todaySeconds, (now.getTime() - midnight.getTime()) / 1000)));
  const elapsed = status.isTracking && status.since !== null ? formatDuration((now.getTime() - Date.parse(status.since)) / 1000) : '';
  return {
    state,
    activity: terminalText(status.currentActivity?.activityName ?? ''),
    // A bar without {state} still shows the break (the default template does); a person reads
    // it, so it is in their language, while {state} stays the machine word (docs/decisions.md).
    break: state === 'break' ? t('bar.break') : '',
    elapsed,
    today: formatDuration(todaySeconds),
    todaySeconds: String(todaySeconds),
  };
}

/** `{state}` of a status as received (`offline` for none). */
export function barState(received: ReceivedStatus | null): BarState {
  if (received === null) return 'offline';
  return !received.status.isTracking ? 'idle' : received.status.isOnBreak ? 'break' : 'tracking';
}

/**
 * Fills `template`. Unknown placeholders are refused up front by `checkTemplate`, so a typo
 * shows once, not as a bar that silently prints `{activty}` forever.
 */
export function renderStatusLine(template: string, received: ReceivedStatus | null, now: Date, t: CliMessages = inEnglish()): string {
  const values = barValues(received, now, t);
  const line = template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? values[name as keyof typeof values] : whole));
  // Empty placeholders leave doubled or trailing spaces ("  · 0:00"), and a separator with
  // nothing on one side ("· 3:20" when nothing runs); a bar shows them, so both go.
  const tidy = line
    .replace(/ {2,}/g, ' ')
    .trim()
    .replace(SEPARATOR_RUNS, '$1')
    .replace(DANGLING_SEPARATORS, '')
    .trim()
    .replace(ONLY_SEPARATORS, '');
  return tidy || values.state;
}

/** The first unknown placeholder of a template and the ones it may use (`{state}, … or {today}` in `locale`), or `null` when it is fine. */
export function checkTemplate(template: string, locale: Locale = 'en'): { placeholder: string; allowed: string } | null {
  const unknown = [...template.matchAll(/\{(\w*)\}/g)].map((m) => m[1]!).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length === 0) return null;
  return { placeholder: `{${unknown[0]}}`, allowed: formatList(locale, PLACEHOLDERS.map((p) => `{${p}}`), 'disjunction') };
}

/** waybar's custom-module JSON: `{"text","tooltip","class"}`, `class` = `{state}`. */
export function waybarLine(template: string, received: ReceivedStatus | null, now: Date, offlineReason?: string, t: CliMessages = inEnglish()): string {
  const values = barValues(received, now, t);
  const tooltip =
    values.state === 'offline'
      ? t('bar.offline', { reason: offlineReason ?? t('bar.noAnswer') })
      : values.state === 'idle'
        ? t('bar.idle', { today: values.today })
        : t(values.state === 'break' ? 'bar.onBreak' : 'bar.tracking', { activity: values.activity, elapsed: values.elapsed, today: values.today });
  // `text` and `tooltip` are read by a person (their language); `class` is what a bar styles on.
  return JSON.stringify({ text: renderStatusLine(template, received, now, t), tooltip, class: values.state });
}
