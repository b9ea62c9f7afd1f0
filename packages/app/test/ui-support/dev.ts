/**
 * Runs a throwaway Tock app for working on the window by hand:
 * `node packages/app/test/ui-support/dev.ts [home]` prints the window's address and keeps
 * running until Ctrl-C. Uses the file credential store, so no keyring is touched.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from '@tock/app/start';

const home = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'tock-dev-'));
const app = await startApp({ home, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
const stop = (): void => {
  void app.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.stdout.write(`home: ${home}\nopen: ${app.uiUrl}\n`);
