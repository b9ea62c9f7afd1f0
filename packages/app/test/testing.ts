/**
 * `@tock/app/testing`: what other packages' tests use to run a real app — a `tock app`
 * process, its listener on a free port, signed calls — and a few internals (license keys, the
 * capture sources' types). Tests only; a package's `src/` never imports it.
 */
export { appEnv, spawnApp, tock, TOCK_BIN, type AppProcess, type TockRun } from './support/app-process.ts';
export { freePort, startRealApp, type PendingPrompt, type RealApp, type RealAppOptions } from './support/real-app.ts';
export { signed, type SignedCall } from './support/signed.ts';
export { issueLicenseKey } from '../src/license.ts';
export type { FocusedWindow, FocusSource } from '@tock/desktop/capture/sources';
