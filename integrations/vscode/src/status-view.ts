/**
 * What the status bar item shows for a state of the listener. Pure: the state and the time
 * in, text and tooltip out. Today's total counts on from the last report while a session runs
 * (not during a break), as docs/protocol.md "The event stream: `GET /events`" asks of clients:
 * passing time alone sends no news.
 */
import type { Status } from '@tock/client';
import { formatDuration } from '@tock/protocol';
import type { Explanation } from './explain.ts';

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

/** The wall-clock time of an ISO instant in the local zone, `09:14`. */
export function formatClock(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
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

/** The status bar item for `state` at `nowMs`. */
export function viewStatus(state: StatusState, nowMs: number): StatusView {
  if (state.kind === 'connecting') {
    return { text: '$(watch) Tock', tooltip: 'Tock: connecting to the listener…', accessibilityLabel: 'Tock: connecting' };
  }
  if (state.kind === 'offline') {
    const action = state.explanation.remedy === 'set-token' ? 'Click to set the token.' : 'Click for what to do.';
    return {
      text: '$(debug-disconnect) Tock: offline',
      tooltip: `Tock: offline — ${state.explanation.message}\n${action}`,
      accessibilityLabel: `Tock: offline. ${state.explanation.message}`,
    };
  }
  const { status } = state;
  const today = formatDuration(todayMsAt(state, nowMs) / 1000);
  const name = status.currentActivity?.activityName;
  if (!status.isTracking || name === undefined) {
    return {
      text: `$(watch) Not tracking · ${today}`,
      tooltip: `Tock: not tracking — ${today} today\nClick to start an activity.`,
      accessibilityLabel: `Tock: not tracking, ${today} today`,
    };
  }
  const since = status.since === null ? '' : ` since ${formatClock(status.since)}`;
  if (status.isOnBreak) {
    return {
      text: `$(debug-pause) Break: ${nameForStatusBar(name)} · ${today}`,
      tooltip: `Tock: on a break from "${name}" (tracking${since}) — ${today} today\nClick and pick "${name}" to resume, or another activity to switch.`,
      accessibilityLabel: `Tock: on a break from ${name}, ${today} today`,
    };
  }
  return {
    text: `$(watch) ${nameForStatusBar(name)} · ${today}`,
    tooltip: `Tock: tracking "${name}"${since} — ${today} today\nClick to switch activities.`,
    accessibilityLabel: `Tock: tracking ${name}, ${today} today`,
  };
}
