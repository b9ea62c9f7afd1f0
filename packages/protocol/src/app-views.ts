/**
 * What the app shows through both of its doors, the window's API and the admin socket (docs/ui.md
 * "The window's API", docs/cli.md): the license, the listener switch and the editors heard
 * from. Declared once, here, the lowest package both contracts import: `@tock/window/contract`
 * and `@tock/admin` re-export them, and the app's handlers are typed by those contracts. Types
 * only.
 */
import type { ProblemReason } from './problem.ts';
import type { LicenseState } from './wire.ts';

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
  /** The file the token went to when `notice` is set: the notice's fact, for a caller to word in its language. */
  noticePath?: string;
}

/**
 * One editor as Settings › Integrations and `tock editors` show it (docs/integrations.md
 * "WakaTime plugins"): its last heartbeat and its last refusal in the past hour, with the reason.
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

/** What `tock editors` and Settings › Integrations show: whether a key exists, where plugins send to, and who sent last. */
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
