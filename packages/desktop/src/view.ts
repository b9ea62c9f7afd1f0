/**
 * What the desktop part shows the window, `tock idle` and Settings › Desktop (docs/desktop.md):
 * the desktop settings, the idle question, the Settings › Desktop view and capture's status. Declared once, here:
 * the window's contract (`@tock/window/contract`) and the admin contract (`@tock/admin`)
 * re-export these as types, so the window, the CLI and the desktop read one shape. Types only
 * and Node-free (the window's contract is checked with no Node types): import nothing here
 * that uses Node.
 */
import type { CaptureSettings } from '@tock/core/shapes';
import type { ActivityRef } from '@tock/protocol';
import type { TrayState } from './tray/tray.ts';

/**
 * Working hours: local `HH:MM` from and to, beginning on the listed weekdays (0 = Sunday). A
 * `to` before `from` runs over midnight (18:00–09:00: a night shift that ends the next morning).
 */
export interface WorkingHours {
  from: string;
  to: string;
  days: number[];
}

/** How the window writes a time of day: `14:05`, `2:05 PM`, or as the browser's language does. */
export type ClockFormat = '24h' | '12h' | 'system';

/** Everything the Desktop settings screen edits (docs/desktop.md "Settings"). */
export interface DesktopSettings {
  /** Minutes without input, while tracking, before Tock asks about the time; 0 = off. */
  idleThresholdMinutes: number;
  /** Whether to remind when nothing is tracked (off by default). */
  reminderEnabled: boolean;
  /** Minutes with nothing tracked, within working hours, before the reminder. */
  reminderAfterMinutes: number;
  workingHours: WorkingHours;
  /** Whether Tock shows itself in the desktop's tray (docs/desktop.md "The tray"; on by default). */
  tray: boolean;
  /**
   * The window's and the CLI's clock (docs/ui.md "Durations and times of day"): as set, or,
   * until the person sets it, the clock of their locale (settings.ts `localeClockFormat`).
   */
  clockFormat: ClockFormat;
  /**
   * Whether the person set `clockFormat` (false: it follows the locale). Absent from an older
   * app, whose clock was always as set.
   */
  clockFormatSet?: boolean;
}

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

/** Which desktop mechanism a source uses. */
export type FocusSourceID = 'x11' | 'sway' | 'hyprland' | 'gnome' | 'kde';

/** The kinds of reason the window words itself (docs/i18n.md); `other` carries the system's own words. */
export type SourceReasonCode = 'not_set' | 'not_running' | 'gnome_extension' | 'gnome_extension_old' | 'kwin_api' | 'no_ewmh' | 'not_installed' | 'no_socket' | 'other';

/** One source as the status shows it. */
export interface FocusSourceStatus {
  id: FocusSourceID;
  name: string;
  works: boolean;
  /**
   * Why it does not work here; when it works, what the source says beside it
   * (a focus source's `notice`: `gnome_extension_old`, an older extension to install again;
   * `kwin_api`, the KWin scripting API followed); null when neither.
   */
  reason: string | null;
  /** The reason's code and values for the window to word (capture/focus-source.ts `SourceReason`); absent when there is no reason or it is the system's own words. */
  reasonCode?: Exclude<SourceReasonCode, 'other'>;
  reasonValues?: Readonly<Record<string, string>>;
}

/** What `tock capture status` and Settings › Capture show. */
export interface CaptureStatus {
  settings: CaptureSettings;
  /** `off`: windows is off; `following`: a source is in use; `none`: no source works (see `sources`); `starting`. */
  state: 'off' | 'starting' | 'following' | 'none';
  /** The source in use. */
  source: { id: FocusSourceID; name: string } | null;
  /** Every source of this platform, best first. */
  sources: FocusSourceStatus[];
  /** The idle source that turns idleness into `idle` spans, or null. */
  idleSource: string | null;
  /** The idle source's id (`x11`, `mutter`, …) for the window to name; absent for a stand-in. */
  idleSourceID?: string;
  /**
   * Reports ignored since the app started because they did not come from the desktop: a focus
   * report or a screensaver's lock signal from a bus client that does not own
   * `org.gnome.Shell` / `org.kde.KWin` / the screensaver's name.
   */
  ignoredReports: number;
}

export type { TrayState } from './tray/tray.ts';
