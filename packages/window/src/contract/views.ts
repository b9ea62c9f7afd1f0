/**
 * The views the window shows that the app and its desktop part build (docs/ui.md "The window's
 * API"): the status with its clock, the license, the listener switch and its token, branch
 * prompts, editors, and the desktop settings with the idle question. Declared here, on the
 * window's side of the contract, as types only: the server's routes are typed by the route
 * table (routes.ts), so a view the app builds that these do not allow fails the app's type
 * check instead of the window at run time. Nothing here imports Node or the app.
 */
import type { ActivityRef, ProblemReason, Status } from '@tock/protocol';

export type { SyncDeviceStatus, SyncStatus } from '@tock/sync/status';
/** The license, the listener switch and the editors: the admin socket shows them too, so they are declared once, in @tock/protocol. */
export type { EditorActivity, LicenseInfo, ListenerStatus } from '@tock/protocol';
/** The desktop's views (the settings, the idle question, Settings › Desktop) are the desktop's own, declared once there (Node-free). */
export type { ClockFormat, DesktopSettings, DesktopView, IdleQuestion, IdleSourceHint, TrayState, WorkingHours } from '@tock/desktop/view';

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
  /** `error` by its code and values (docs/i18n.md), when the store gave one; null otherwise. */
  errorBecause?: ProblemReason | null;
  /** Why the token is in a store nobody chose (no Secret Service: the 0600 file), one line; null otherwise. */
  notice: string | null;
}

/** The answer to choosing a store: where the token is now, and whether it had to be made anew. */
export interface StoreSwitch extends TokenView {
  /** The old store could not be read: a new token was made, which scripts need now. */
  renewed: boolean;
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
