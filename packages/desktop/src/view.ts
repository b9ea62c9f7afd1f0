/**
 * What the app's desktop part shows the window and `tock idle` (docs/desktop.md): the idle
 * question and the Settings › Desktop view. Types only. The window's contract declares the
 * shape it reads (packages/window/src/contract/views.ts) and the app's window routes are
 * type-checked against it, so this view cannot drift from what the window expects.
 */
import type { ActivityRef } from '@tock/protocol';
import type { DesktopSettings } from './settings.ts';
import type { TrayState } from './tray/tray.ts';

/** The question every window shows once the user is back. */
export interface IdleQuestion {
  questionID: string;
  sessionID: string;
  activityName: string;
  /** The idle span: from when the idleness began until the first input after it. */
  since: string;
  until: string;
  seconds: number;
}

/** One idle source tried on this desktop and what it needs to work. */
export interface IdleSourceHint {
  /** The source's id (`x11`, `mutter`, …): the window says its name and need in the person's language; absent for a stand-in. */
  id?: string;
  source: string;
  hint: string;
}

/** What the window's Desktop settings and idle question show. */
export interface DesktopView {
  settings: DesktopSettings;
  /**
   * `checking`: not probed yet; `none`: no source works here; else the source's name. `hints`:
   * while none works, each source tried here and what it needs (`install xprintidle …`), best
   * first; empty otherwise.
   */
  idleSource: { state: 'checking' | 'none' | 'found'; id?: string; name: string | null; hints: IdleSourceHint[] };
  idleQuestion: IdleQuestion | null;
  /** The activity Continue starts, or null when nothing was tracked yet. */
  continueActivity: ActivityRef | null;
  notifier: string;
  /** Which notifier (`freedesktop`, `macos`, `windows`), for the window to name in the person's language; absent for a stand-in. */
  notifierID?: string;
  /**
   * The tray: `shown`; `no-host` (on, but this desktop shows no tray now — it appears when
   * one starts); `unavailable` (no session bus, or no tray on this platform); `off`.
   */
  tray: TrayState;
}

export type { DesktopSettings, WorkingHours } from './settings.ts';
export type { TrayState } from './tray/tray.ts';
