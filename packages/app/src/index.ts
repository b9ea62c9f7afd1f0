/**
 * @tock/app — the Tock application. This entry is the light part that commands need to talk
 * to a running app (admin channel, home directory, shared types); `@tock/app/start` is the
 * application itself (store, listener, credential store), loaded only by `tock app`.
 */
export { adminDownload, adminRequest, AdminError, AppNotRunningError } from './admin.ts';
/** The admin socket's contract and its caller live in @tock/admin (what the CLI imports); here for the app's own tests. */
export type { AdminInput, AdminInputArgs, AdminResult, AdminRoute, AnsweredRoute, StreamedRoute, InvoiceStreamSummary } from '@tock/admin';
export { callAdmin, downloadAdmin, type AdminCallOptions } from '@tock/admin';
export { resolveHome, homePaths, type HomePaths } from './home.ts';
export type { AppOptions, AppServices, RunningApp } from './app.ts';
export type { CoveringBlock } from './covering.ts';
export type { CredentialStoreKind } from './credentials.ts';
export type { LicenseInfo, LicensePayload } from './license.ts';
export type { ListenerStatus } from './listener-control.ts';
/** One line of the listener's request list, as the admin channel's `GET /requests` answers it. */
export type { RequestRecord } from '@tock/listener';
export type { PendingPrompt } from './prompts.ts';
/** The desktop part's shapes, as the admin channel answers `tock idle`, `tock continue` and `tock open`. */
export type { DesktopView } from '@tock/desktop';
export type { IdleAnswer, IdleChoice, IdleQuestion } from '@tock/desktop';
export type { DesktopSettings } from '@tock/desktop';
/** What `tock sync status` shows (docs/sync.md). */
export type { SyncDeviceStatus, SyncEnableResult, SyncStatus } from '@tock/sync/status';
export type { EditorKeyResult, EditorsStatus } from './editors/editors.ts';
export { wakatimeConfigDir, type WakatimeSetup } from './editors/wakatime-config.ts';
export type { CaptureStatus, FocusSourceStatus } from '@tock/desktop';
export type { GnomeExtensionInstall } from '@tock/desktop';
