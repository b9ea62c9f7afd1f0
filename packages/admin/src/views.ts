/**
 * What the admin socket answers that is the app's own shape (not core's, sync's, the
 * listener's, the desktop's or the views it shares with the window, which the contract names
 * where they live): editors, calendars, reports with their matrix, the covering blocks and the
 * long poll's status. Types only. They are the contract's side: the app's
 * handlers are typed by them (packages/app/src/admin/server.ts `adminHandlers`), so an answer
 * the app builds that these do not allow fails the type check.
 */
import type { InvoiceDocument, Report } from '@tock/core';
import type { DailyTotal } from '@tock/core';
import type { Health, Status } from '@tock/protocol';

/** The license, the listener switch and the editors: the window shows them too, so they are declared once, in @tock/protocol. */
export type { EditorActivity, EditorKeyResult, EditorsStatus, LicenseInfo, ListenerStatus } from '@tock/protocol';

/** The desktop's views (settings, the idle question and its answer, capture's status, the GNOME extension's install) are the desktop's own, declared once there. */
export type {
  CaptureStatus,
  DesktopSettings,
  DesktopView,
  FocusSourceStatus,
  GnomeExtensionInstall,
  IdleAnswer,
  IdleChoice,
  IdleQuestion,
  IdleSourceHint,
  WorkingHours,
} from '@tock/desktop';
export type { FocusSourceID } from '@tock/desktop/view';

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
  /** One line per file refused or not understood (never more than 20), in English. */
  problems: string[];
  /** Beside each of `problems`, in its order: its code and values, which the window and `tock` word (docs/i18n.md). */
  reasons: CalendarProblemReason[];
}

/** A calendar's problem as a code (core's `CalendarProblem`'s, `problem.calendar.<code>` in the catalogs) and its values, the file as `path`. */
export interface CalendarProblemReason {
  code: string;
  values: Readonly<Record<string, string | number>>;
}

/** What setting up `.wakatime.cfg` wrote. */
export interface WakatimeSetup {
  /** The config file. */
  path: string;
  /** The copy of the file as it was before Tock first changed it; null when there was no file. */
  backup: string | null;
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
  /** The earlier invoices of the client whose periods overlap this one: the warning's facts, for a caller to word in its language. */
  overlaps?: { number: string; from: string; to: string }[];
}

/** What `GET /healthcheck` answers: the listener's health result, and the listener's port while it is on. */
export interface TrackingHealth {
  health: Health;
  /** The listener's port while it listens; null while it is off (or failed to start). */
  listenerPort: number | null;
}
