/**
 * What the admin socket answers that is the app's own shape (not core's, sync's or the
 * listener's, which the contract names where they live): the listener switch, the license,
 * the desktop part, capture, editors, calendars, reports with their matrix, the covering
 * blocks and the long poll's status. Types only. They are the contract's side: the app's
 * handlers are typed by them (packages/app/src/admin/server.ts `adminHandlers`), so an answer
 * the app builds that these do not allow fails the type check.
 */
import type { InvoiceDocument, Report } from '@tock/core';
import type { CaptureSettings, DailyTotal } from '@tock/core';
import type { ActivityRef, Health, LicenseState, Status } from '@tock/protocol';

/** What settings and `tock license` show. */
export interface LicenseInfo {
  state: LicenseState;
  licensee: string | null;
  expires: string | null;
  /** Trial: days left, rounded up; licensed with an expiry: days until it; otherwise null. */
  daysLeft: number | null;
  trialEnds: string;
}

/** The listener's switch, its port and the status line. */
export interface ListenerStatus {
  enabled: boolean;
  port: number;
  state: 'off' | 'active' | 'error';
  line: string;
  /** Why the state is `error`, for `tock` to word (`port_in_use`, `not_started`, or `failed` with the reason in English); null otherwise. */
  error?: { code: 'port_in_use' | 'not_started' | 'failed'; reason: string } | null;
  credentialStore: string;
  /** Why the token is in a store nobody chose (no Secret Service: the 0600 file), one line; null otherwise. */
  notice: string | null;
}

/** A status and the version it has: `POST /status/next`'s caller sends the version back to wait for the next one. */
export interface VersionedStatus {
  version: string;
  status: Status;
}

/** One block covering the instant asked about (`POST /blocks/covering`); times ISO, `endedAt` null while it runs. */
export interface CoveringBlock {
  kind: 'session' | 'entry';
  activityName: string;
  startedAt: string;
  endedAt: string | null;
  /** True for a session another device is running. */
  elsewhere: boolean;
}

/**
 * What `tock report --csv --matrix` needs beside the report by activity: each activity's
 * seconds per day (`cells`) and the by-day rows (`days`), over the same days.
 */
export interface MatrixReport extends Report {
  cells: DailyTotal[];
  days: { date: string; seconds: number }[];
}

/** The formats an invoice is rendered in. */
export type InvoiceFormat = 'pdf' | 'html' | 'csv';

/** A calendar as kept in the settings. */
export interface CalendarSource {
  id: string;
  name: string;
  path: string;
}

/** A calendar as `tock calendar list --json` prints it: `events` counts what was read. */
export interface CalendarListing extends CalendarSource {
  events: number;
  /** One line per file refused or not understood (never more than 20). */
  problems: string[];
}

/** One editor as `tock editors` shows it: its last heartbeat and its last refusal in the past hour. */
export interface EditorActivity {
  /** The editor its plugin names (`vim`, `vscode`), or null: a plugin that named none — `userAgent` says which. */
  editor: string | null;
  /** The User-Agent it last sent; null when none was heard or kept. */
  userAgent: string | null;
  /** The last heartbeat kept (ISO 8601); null: none. */
  lastHeartbeat: string | null;
  /** The last refusal in the past hour (ISO 8601 and the reason it was answered); null: none. */
  lastRefusal: { at: string; reason: string } | null;
}

/** What `tock editors` shows: whether a key exists, where plugins send to, and who sent last. */
export interface EditorsStatus {
  enabled: boolean;
  /** `http://127.0.0.1:<port>/wakatime/api/v1`, the listener's port. */
  apiUrl: string;
  /** Whether the listener is on: without it no plugin reaches Tock. */
  listenerOn: boolean;
  /** Each editor heard from, the latest first. */
  editors: EditorActivity[];
}

/** A key just made or read, with the two `~/.wakatime.cfg` lines that use it. */
export interface EditorKeyResult {
  key: string;
  apiUrl: string;
  lines: string[];
  listenerOn: boolean;
}

/** What setting up `.wakatime.cfg` wrote. */
export interface WakatimeSetup {
  /** The config file. */
  path: string;
  /** The copy of the file as it was before Tock first changed it; null when there was no file. */
  backup: string | null;
}

/** The question every window and `tock idle` show once the user is back. */
export interface IdleQuestion {
  questionID: string;
  sessionID: string;
  activityName: string;
  /** The idle span: from when the idleness began until the first input after it. */
  since: string;
  until: string;
  seconds: number;
}

/** What to do with idle time. */
export type IdleChoice = 'keep' | 'discard' | 'stop';

/** What an answer to the idle question did. */
export interface IdleAnswer {
  choice: IdleChoice;
  activityName: string;
  /** Whole seconds taken out of the session (0 for keep). */
  discardedSeconds: number;
}

/** Working hours: local `HH:MM` from and to, beginning on the listed weekdays (0 = Sunday). */
export interface WorkingHours {
  from: string;
  to: string;
  days: number[];
}

/** The desktop settings (docs/desktop.md "Settings"). */
export interface DesktopSettings {
  idleThresholdMinutes: number;
  reminderEnabled: boolean;
  reminderAfterMinutes: number;
  workingHours: WorkingHours;
  tray: boolean;
  clockFormat: '24h' | '12h' | 'system';
  /** Whether the person set `clockFormat` (false: it follows the locale). */
  clockFormatSet?: boolean;
}

/** One idle source tried on this desktop and what it needs to work. */
export interface IdleSourceHint {
  /** The source's id (`x11`, `mutter`, …), for `tock idle` to say it in the person's language; absent for a stand-in. */
  id?: string;
  source: string;
  hint: string;
}

/** What `tock idle`, `tock continue` and the desktop settings show. */
export interface DesktopView {
  settings: DesktopSettings;
  idleSource: { state: 'checking' | 'none' | 'found'; id?: string; name: string | null; hints: IdleSourceHint[] };
  idleQuestion: IdleQuestion | null;
  /** The activity Continue starts, or null when nothing was tracked yet. */
  continueActivity: ActivityRef | null;
  notifier: string;
  /** Which notifier (`freedesktop`, `macos`, `windows`), to name in the person's language; absent for a stand-in. */
  notifierID?: string;
  tray: 'off' | 'shown' | 'no-host' | 'unavailable';
}

/** The desktops capture can follow. */
export type FocusSourceID = 'x11' | 'sway' | 'hyprland' | 'gnome' | 'kde';

/** One focus source as the capture status shows it. */
export interface FocusSourceStatus {
  id: FocusSourceID;
  name: string;
  works: boolean;
  /** Why it does not work here; when it works, what it says beside (`gnome_extension_old`: an older extension to install again; `kwin_api`: the KWin scripting API followed); null when neither. */
  reason: string | null;
  /** The reason's code and values, for `tock capture status` to word; absent when there is no reason or it is the system's own words. */
  reasonCode?: 'not_set' | 'not_running' | 'gnome_extension' | 'gnome_extension_old' | 'kwin_api' | 'no_ewmh' | 'not_installed' | 'no_socket';
  reasonValues?: Readonly<Record<string, string>>;
}

/** What `tock capture status` shows. */
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
  /** The idle source's id, for `tock capture status` to name; absent for a stand-in. */
  idleSourceID?: string;
  /** Reports ignored since the app started because they did not come from the desktop. */
  ignoredReports: number;
}

/** What `tock capture gnome-extension install` did. */
export interface GnomeExtensionInstall {
  dir: string;
  uuid: string;
  /** The running GNOME Shell's version as read (`43.9`), or null when none was found. */
  shellVersion: string | null;
  /** The format installed: `imports` (GNOME Shell 43–44) or `module` (45 and later). */
  format: 'imports' | 'module';
  /** Whether it is in the person's `org.gnome.shell enabled-extensions` now. */
  enabled: boolean;
  next: string;
}

/** What the summary trailer of a streamed invoice says (`tock invoice`). */
export interface InvoiceStreamSummary {
  number: string;
  format: InvoiceFormat;
  fileName: string;
  client: string;
  lines: number;
  totals: InvoiceDocument['totals'];
  /** False for a preview: nothing was kept. */
  issued: boolean;
  /** What the person should know, one line each (the period overlaps an earlier invoice of the client). */
  warnings?: string[];
}

/** What `GET /healthcheck` answers: the listener's health result, and the listener's port while it is on. */
export interface TrackingHealth {
  health: Health;
  /** The listener's port while it listens; null while it is off (or failed to start). */
  listenerPort: number | null;
}
