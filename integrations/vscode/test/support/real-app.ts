/**
 * Test support: the real `tock app` in a temporary home (file credential store) with its
 * listener on a free port — the app the extension talks to in these tests. The app and every
 * `tock` command run as child processes through the repository's one launcher
 * (packages/app/test/support/real-app.ts), so the extension's tests import neither the app
 * nor the CLI.
 */
import { startRealApp as launch, type RealApp } from '@tock/app/testing';

export { freePort, type PendingPrompt, type RealApp } from '@tock/app/testing';

/** Options of `startRealApp`. */
export interface StartOptions {
  /** Make the app's first run a day older than the trial, so its license is locked. */
  trialEnded?: boolean | undefined;
}

/** Starts `tock app --no-open` in a fresh home with its listener on a free port (see the launcher). */
export function startRealApp(options: StartOptions = {}): Promise<RealApp> {
  return launch({ homePrefix: 'tock-vscode-test-', trialEnded: options.trialEnded });
}
