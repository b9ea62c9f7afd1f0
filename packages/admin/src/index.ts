/**
 * @tock/admin: the admin socket's contract and its client (docs/architecture.md "The packages
 * and their arrows"). The app serves the socket (packages/app/src/admin.ts, its handlers typed
 * by this contract); the CLI asks through `callAdmin` / `downloadAdmin` (typed by route) or the
 * untyped `adminRequest` and `adminDownload`, and finds the socket by `resolveHome` and
 * `homePaths`. Node's HTTP client only; the contract's types from core, sync and the listener
 * are type imports, erased at run time.
 */
export { AdminError, STREAM_END, STREAM_ERROR, STREAM_PROBLEM, STREAM_SUMMARY, type ProblemWire } from './frames.ts';
export { AppNotRunningError, adminDownload, adminRequest } from './client.ts';
export { callAdmin, downloadAdmin, type AdminCallOptions } from './call.ts';
export {
  ADMIN_ROUTES,
  type AdminInput,
  type AdminInputArgs,
  type AdminInputSchema,
  type AdminResult,
  type AdminRoute,
  type AdminRouteSpec,
  type AnsweredRoute,
  type InputOf,
  type InvoiceStreamSummary,
  type StreamedRoute,
  type TrackingHealth,
} from './contract.ts';
export { homePaths, resolveHome, wakatimeConfigDir, type HomePaths } from './home.ts';
export type * from './views.ts';
/** What `tock sync status` shows and `tock invoice device` answers (docs/sync.md), as sync declares it. */
export type { BookView, SyncDeviceStatus, SyncEnableResult, SyncReason, SyncReasonCode, SyncStatus } from '@tock/sync/status';
