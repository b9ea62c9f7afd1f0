/**
 * What the tray shows, as a pure function of the tracker's status (docs/desktop.md "The
 * tray"): the state and icon, the status line (`Writing docs · 1:12 · today 3:05`, durations
 * floored to the minute like everywhere else) and the menu. The menu is never empty: the status
 * line, *Log time…*, *Open Tock* and *Quit Tock* are always there.
 */
import { formatDuration, type ActivityRef, type Status } from '@tock/protocol';
import { type DesktopMessages, desktopMessages } from '../i18n/index.ts';
import type { TrayMenuItem, TrayModel } from './tray.ts';

/** How many recent activities *Start* offers. */
export const RECENT_IN_MENU = 5;

/** What {@link trayModel} reads. */
export interface TrayFacts {
  status: Status;
  /** Worked seconds of the running session (breaks left out); null when none runs. */
  sessionSeconds: number | null;
  /** The most recently used activities, most recent first. */
  recent: readonly ActivityRef[];
  /** The activity *Continue* resumes or starts again (core's `continueCandidate`, as the window names it), or null. */
  last: ActivityRef | null;
}

/** The status line, in `t`'s language: the tooltip's text and the menu's first line. */
export function trayStatusLine({ status, sessionSeconds }: Pick<TrayFacts, 'status' | 'sessionSeconds'>, t: DesktopMessages = desktopMessages()): string {
  const today = formatDuration(status.todaySeconds);
  const activity = status.currentActivity;
  if (!status.isTracking || activity === null) return t('tray.status.idle', { today });
  const values = { activity: activity.activityName, session: formatDuration(sessionSeconds ?? 0), today };
  return t(status.isOnBreak ? 'tray.status.onBreak' : 'tray.status.tracking', values);
}

/** The tray's model for these facts, its text in `t`'s language (docs/i18n.md). */
export function trayModel(facts: TrayFacts, t: DesktopMessages = desktopMessages()): TrayModel {
  const { status, recent, last } = facts;
  const statusLine = trayStatusLine(facts, t);
  const tracking = status.isTracking && status.currentActivity !== null;
  const menu: TrayMenuItem[] = [{ kind: 'label', label: statusLine }, { kind: 'separator' }];
  if (tracking) {
    menu.push({ kind: 'action', label: t('tray.stop'), action: { kind: 'stop' } });
    menu.push(
      status.isOnBreak
        ? { kind: 'action', label: t('tray.resume'), action: { kind: 'resume' } }
        : { kind: 'action', label: t('tray.break'), action: { kind: 'break' } },
    );
  } else if (last !== null) {
    menu.push({ kind: 'action', label: t('tray.continue', { activity: last.activityName }), action: { kind: 'continue', activityID: last.activityID } });
  }
  const startable = recent.filter((activity) => activity.activityID !== status.currentActivity?.activityID).slice(0, RECENT_IN_MENU);
  if (startable.length > 0) {
    menu.push({
      kind: 'submenu',
      label: t('tray.start'),
      items: startable.map((activity) => ({ kind: 'action', label: activity.activityName, action: { kind: 'start', activityID: activity.activityID } })),
    });
  }
  menu.push(
    { kind: 'separator' },
    { kind: 'action', label: t('tray.log'), action: { kind: 'log' } },
    { kind: 'action', label: t('tray.open'), action: { kind: 'open' } },
    { kind: 'separator' },
    { kind: 'action', label: t('tray.quit'), action: { kind: 'quit' } },
  );
  return {
    status: tracking ? 'Active' : 'Passive',
    icon: !tracking ? 'tock-idle' : status.isOnBreak ? 'tock-break' : 'tock-tracking',
    statusLine,
    menu,
  };
}
