/**
 * What the status bar item shows for a state of the listener. Pure: the state and the time
 * in, text and tooltip out. Today's total counts on from the last report while a session runs
 * (not during a break), as docs/protocol.md "The event stream: `GET /events`" asks of clients:
 * passing time alone sends no news.
 */
import type { Status } from '@tock/client';
import { type ClockChoice, formatTimeOfDay } from '@tock/i18n';
import { formatDuration } from '@tock/protocol';
import type { Explanation } from './explain.ts';
import { type ExtensionMessages, extensionMessages } from './i18n/index.ts';

/** What the status bar knows. */
export type StatusState =
  | { kind: 'connecting' }
  | { kind: 'status'; status: Status; receivedAtMs: number }
  | { kind: 'offline'; explanation: Explanation };

/** The item's text (with codicons), its tooltip and its screen-reader label. */
export interface StatusView {
  text: string;
  tooltip: string;
  accessibilityLabel: string;
}

/** Longest activity name shown in the status bar before it is cut with "…". */
const MAX_NAME_IN_STATUS_BAR = 32;

/** Whether the total is growing: a session runs and is not on a break. */
export function isCounting(status: Status): boolean {
  return status.isTracking && !status.isOnBreak;
}

/**
 * Today's total at `nowMs`, in milliseconds: the reported `todaySeconds`, plus the time since
 * the report while a session is counting.
 */
export function todayMsAt(state: { status: Status; receivedAtMs: number }, nowMs: number): number {
  const base = state.status.todaySeconds * 1000;
  return isCounting(state.status) ? base + Math.max(0, nowMs - state.receivedAtMs) : base;
}

/**
 * The setting `tock.clockFormat` as read: `12h` or `24h` as set; anything else (unset) is
 * `system`, the clock of VS Code's display language (`en` 12-hour; `de`, `fr`, `es`, `ja` 24).
 * The listener does not tell a client the app's clock, so the editor has a setting of its own.
 */
export function clockChoice(value: unknown): ClockChoice {
  return value === '12h' || value === '24h' ? value : 'system';
}

/**
 * The wall-clock time of an ISO instant in the local zone, on `clock` in `t`'s language:
 * `09:14`, `9:14 AM`, `9:14 a. m.`, `午前9:14` (@tock/i18n, the formatter the CLI and window use).
 */
export function formatClock(iso: string, t: ExtensionMessages = extensionMessages(), clock: ClockChoice = 'system'): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return formatTimeOfDay(t.locale, at, new Intl.DateTimeFormat().resolvedOptions().timeZone, clock);
}

/**
 * `text` with `$(` escaped: the status bar and the quick pick draw `$(name)` as an icon, and an
 * activity named "$(bug) triage" should read as typed.
 */
export function escapeIcons(text: string): string {
  return text.replaceAll('$(', '\\$(');
}

/**
 * An activity name for the status bar: one line, at most `MAX_NAME_IN_STATUS_BAR` characters,
 * with `$(` escaped so a name cannot draw an icon.
 */
export function nameForStatusBar(name: string): string {
  const chars = [...name.replace(/[\s\p{Cc}]+/gu, ' ')];
  const short = chars.length > MAX_NAME_IN_STATUS_BAR ? `${chars.slice(0, MAX_NAME_IN_STATUS_BAR - 1).join('')}…` : chars.join('');
  return escapeIcons(short);
}

/** The status bar item for `state` at `nowMs`, in `t`'s language (docs/i18n.md), times of day on `clock`. */
export function viewStatus(state: StatusState, nowMs: number, t: ExtensionMessages = extensionMessages(), clock: ClockChoice = 'system'): StatusView {
  if (state.kind === 'connecting') {
    return { text: t('status.connecting.text'), tooltip: t('status.connecting.tooltip'), accessibilityLabel: t('status.connecting.label') };
  }
  if (state.kind === 'offline') {
    const reason = state.explanation.message;
    const action = t(state.explanation.remedy === 'set-token' ? 'status.offline.setToken' : 'status.offline.showMessage');
    return { text: t('status.offline.text'), tooltip: t('status.offline.tooltip', { reason, action }), accessibilityLabel: t('status.offline.label', { reason }) };
  }
  const { status } = state;
  const today = formatDuration(todayMsAt(state, nowMs) / 1000);
  const name = status.currentActivity?.activityName;
  if (!status.isTracking || name === undefined) {
    return { text: t('status.idle.text', { today }), tooltip: t('status.idle.tooltip', { today }), accessibilityLabel: t('status.idle.label', { today }) };
  }
  const values = { activity: name, today, since: status.since === null ? 'none' : formatClock(status.since, t, clock) };
  const shortName = { ...values, activity: nameForStatusBar(name) };
  const kind = status.isOnBreak ? 'break' : 'tracking';
  return { text: t(`status.${kind}.text`, shortName), tooltip: t(`status.${kind}.tooltip`, values), accessibilityLabel: t(`status.${kind}.label`, values) };
}
