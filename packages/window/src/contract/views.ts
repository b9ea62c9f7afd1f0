/**
 * The views the window shows that the app and its desktop part build (docs/ui.md "The window's
 * API"): the status with its clock, the license, the listener switch and its token, branch
 * prompts, editors, and the desktop settings with the idle question. Declared here, on the
 * window's side of the contract, as types only: the server's routes are typed by the route
 * table (routes.ts), so a view the app builds that these do not allow fails the app's type
 * check instead of the window at run time. Nothing here imports Node or the app.
 */
import type { ActivityRef, LicenseState, ProblemReason, Status } from '@tock/protocol';

export type { SyncDeviceStatus, SyncStatus } from '@tock/sync/status';
/** The desktop's views (the settings, the idle question, Settings › Desktop) are the desktop's own, declared once there (Node-free). */
export type { ClockFormat, DesktopSettings, DesktopView, IdleQuestion, IdleSourceHint, TrayState, WorkingHours } from '@tock/desktop/view';

/** What settings and `tock license` show. */
export interface LicenseInfo {
  state: LicenseState;
  licensee: string | null;
  expires: string | null;
  /** Trial: days left, rounded up; licensed with an expiry: days until it; otherwise null. */
  daysLeft: number | null;
  trialEnds: string;
}

/** The switch, the port and the status line. */
export interface ListenerStatus {
  enabled: boolean;
  port: number;
  state: 'off' | 'active' | 'error';
  /** The status line in English (`off`, `active on 127.0.0.1:<port>`, `error: <reason>`); the window and `tock` say it in the person's language from `state`, `port` and `error`. */
  line: string;
  /**
   * Why the state is `error`, for a caller to word: `port_in_use` (the port is `port`),
   * `not_started`, or `failed` with the reason in English (data: a store's or the system's
   * words); null when the state is not `error`.
   */
  error: { code: 'port_in_use' | 'not_started' | 'failed'; reason: string } | null;
  credentialStore: string;
  /** Why the token is in a store nobody chose (no Secret Service: the 0600 file), one line; null otherwise. */
  notice: string | null;
}

/** Where the listener token is kept, and whether one exists (never the token itself). */
export interface TokenView {
  exists: boolean;
  /** The credential store's description, for the window. */
  store: string;
  kind: 'os' | 'file';
  /** The file store's path (the window words "file … (mode 0600)" around it); null for the OS store. */
  path: string | null;
  /** Why the store could not be read, one line; null when it could. */
  error: string | null;
  /** Why the token is in a store nobody chose (no Secret Service: the 0600 file), one line; null otherwise. */
  notice: string | null;
}

/** The answer to choosing a store: where the token is now, and whether it had to be made anew. */
export interface StoreSwitch extends TokenView {
  /** The old store could not be read: a new token was made, which scripts need now. */
  renewed: boolean;
}

/**
 * One editor as Settings › Integrations shows it (docs/integrations.md "WakaTime plugins"): its
 * last heartbeat and its last refusal in the past hour, with the reason.
 */
export interface EditorActivity {
  /** The editor its plugin names (`vim`, `vscode`), or null: a plugin that named none — `userAgent` says which. */
  editor: string | null;
  /** The User-Agent it last sent; null when none was heard or kept. */
  userAgent: string | null;
  /** The last heartbeat kept (ISO 8601); null: none. */
  lastHeartbeat: string | null;
  /** The last refusal in the past hour (ISO 8601 and the reason it was answered); null: none. */
  /** `because`: the reason by its code and values (docs/i18n.md), null when it has none. */
  lastRefusal: { at: string; reason: string; because?: ProblemReason | null } | null;
}

/** The status with what the window's clock needs: the running session's worked seconds. */
export interface StatusView extends Status {
  sessionSeconds: number | null;
}

/** A branch prompt waiting for the user. */
export interface PendingPrompt {
  promptID: string;
  branch: string;
  repo: string | null;
  previousBranch: string | null;
  receivedAt: string;
}

/** A branch prompt with the existing activities that best match its branch. */
export interface PromptView extends PendingPrompt {
  suggestions: ActivityRef[];
}
