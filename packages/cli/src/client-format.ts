/** The human lines of the client commands (`--json` prints the results as they are). */
import type { ActivityRef, Entry, Health, StartResult, Status, StoppedSession } from '@tock/client';
import { formatMinutes, formatSeconds } from './duration.ts';
import { formatClock, formatSpan, type ClockFormat } from './format-time.ts';
import { terminalText } from './terminal-text.ts';

/** `Tracking "Writing docs" since 09:14 — 2h 05m today` (`9:14 AM` on the 12-hour clock), and its idle and break forms. */
export function formatStatus(status: Status, now: Date, clock: ClockFormat = '24h'): string {
  const today = `${formatSeconds(status.todaySeconds)} today`;
  const raw = status.currentActivity?.activityName;
  if (!status.isTracking || raw === undefined) return `Not tracking — ${today}`;
  const name = terminalText(raw);
  const since = status.since === null ? '' : ` since ${formatClock(status.since, now, clock)}`;
  if (status.isOnBreak) return `On a break from "${name}" (tracking${since}) — ${today}; \`tock resume\` to continue`;
  return `Tracking "${name}"${since} — ${today}`;
}

/** `Started "Review" at 09:14`, or `Switched to` / `Still tracking` forms; the note given, after a dash. */
export function formatStart(result: StartResult, previous: ActivityRef | null, now: Date, note?: string, clock: ClockFormat = '24h'): string {
  const name = `"${terminalText(result.activityName)}"`;
  const at = formatClock(result.startedAt, now, clock);
  const about = note ? ` — ${terminalText(note)}` : '';
  if (previous?.activityID === result.activityID) return `Still tracking ${name} (since ${at})${about}`;
  const what = result.created ? `new activity ${name}` : name;
  if (previous !== null) return `Switched from "${terminalText(previous.activityName)}" to ${what} at ${at}${about}`;
  return `Started ${what} at ${at}${about}`;
}

/** `Stopped "Writing docs" after 1h 12m`, or the line for when nothing ran. */
export function formatStop(session: StoppedSession | null): string {
  if (session === null) return 'Nothing was being tracked';
  return `Stopped "${terminalText(session.activityName)}" after ${formatSeconds(session.seconds)}`;
}

/** `Logged 45m to "Review" (09:00–09:45)`, with the note when there is one. */
export function formatEntry(entry: Entry, now: Date, clock: ClockFormat = '24h'): string {
  const name = terminalText(entry.activity.activityName);
  const to = entry.created ? `new activity "${name}"` : `"${name}"`;
  const note = entry.note ? ` — ${terminalText(entry.note)}` : '';
  return `Logged ${formatMinutes(entry.durationMinutes)} to ${to} (${formatSpan(entry.startedAt, entry.endedAt, now, clock)})${note}`;
}

/** One activity per line, best match first; a friendly line when there is none. */
export function formatSearch(query: string, found: ActivityRef[]): string {
  if (found.length === 0) return query === '' ? 'No activities yet; `tock start NAME --create` makes one' : `No activity matches "${terminalText(query)}"`;
  return found.map((a) => terminalText(a.activityName)).join('\n');
}

/**
 * `Tock 1.2.0 is up on 127.0.0.1:39847 (API v1, license: trial)`; with the listener off (asked
 * over the admin socket) `Tock 1.2.0 is up, its listener off (API v1, license: trial)`.
 */
export function formatHealth(health: Health, listenerPort: number | null): string {
  const license = health.license === 'locked' ? 'license: locked — see `tock license`' : `license: ${health.license}`;
  const where = listenerPort === null ? ', its listener off' : ` on 127.0.0.1:${listenerPort}`;
  return `Tock ${health.appVersion} is up${where} (API v${health.apiVersion}, ${license})`;
}

/** `Tracking "Writing docs"`, `On a break from "Writing docs"` or `Not tracking anything`. */
export function formatCurrent(status: Pick<Status, 'isTracking' | 'isOnBreak' | 'currentActivity'>): string {
  const activity = status.currentActivity;
  if (!status.isTracking || activity === null) return 'Not tracking anything';
  return `${status.isOnBreak ? 'On a break from' : 'Tracking'} "${terminalText(activity.activityName)}"`;
}
