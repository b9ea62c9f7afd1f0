/**
 * `GET /wakatime/api/v1/users/current/statusbar/today` (docs/protocol.md "Editors: WakaTime heartbeats"): Tock's today as WakaTime's
 * status-bar summary, so `wakatime-cli --today` — and with it every editor's status bar — shows
 * Tock's total. The grand total is `todaySeconds` of `GET /status`; `categories` stays empty, so
 * wakatime-cli prints `grand_total.text`. Pure: the status, the time and the zone come in.
 */

import { wakatimeDurationText, type Status, type StatusBarToday } from '@tock/protocol';
import { localDayAt } from './day.ts';
import { toIso } from './instants.ts';

/** The status-bar summary of `status` (read at `nowMs`) for the local day of `nowMs` in `timeZone`. */
export function statusBarToday(status: Status, nowMs: number, timeZone: string, dayStartsAt = 0): StatusBarToday {
  const seconds = status.todaySeconds;
  const minutesTotal = Math.floor(seconds / 60);
  const hours = Math.floor(minutesTotal / 60);
  const minutes = minutesTotal % 60;
  const duration = wakatimeDurationText(seconds);
  const activity = status.isTracking ? status.currentActivity?.activityName : undefined;
  const day = localDayAt(nowMs, timeZone, dayStartsAt);
  return {
    cached_at: toIso(nowMs),
    data: {
      grand_total: {
        decimal: (Math.floor((seconds / 3600) * 100) / 100).toFixed(2),
        digital: `${hours}:${String(minutes).padStart(2, '0')}`,
        hours,
        minutes,
        text: activity === undefined ? duration : `${activity} · ${duration}`,
        total_seconds: seconds,
      },
      categories: [],
      range: { date: day.day, start: toIso(day.start), end: toIso(day.end - 1000), text: 'Today', timezone: timeZone },
    },
  };
}
