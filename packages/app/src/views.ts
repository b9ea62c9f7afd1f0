/**
 * What the app shows the window, `tock` and the admin channel, as types only. The views the app
 * builds for the window — the status with its clock, the license, the listener switch and its
 * token, branch prompts, editors — are declared once, on the window's side of its contract
 * (`@tock/window/contract`, packages/window/src/contract/views.ts), and the app's modules build
 * values of those types; the desktop part is @tock/desktop's view.ts, sync's is sync/status.ts.
 */
export type { EditorActivity, LicenseInfo, ListenerStatus, PendingPrompt, PromptView, StatusView, StoreSwitch, TokenView } from '@tock/window/contract';
export type { DesktopSettings, DesktopView, IdleQuestion, IdleSourceHint, WorkingHours } from '@tock/desktop/view';
export type { SyncDeviceStatus, SyncStatus } from '@tock/sync/status';
