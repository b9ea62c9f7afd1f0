/**
 * A desktop with no Secret Service (docs/product.md "The application"): the session bus points
 * nowhere, as on a desktop without one. The app starts on the 0600 file store and says so once —
 * a `note:` line from `tock listener on` (a real app process) and one notice on the window's
 * Integrations screen (a real Chromium) — and choosing a store there works whatever the old
 * store's state: an old store that cannot be read is skipped and the token made anew, which
 * the window says. The token is compared, never printed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { homePaths } from '../src/home.ts';
import { appEnv, spawnApp, tock } from './support/app-process.ts';
import { ensureWindowBuilt, freePort, launchBrowser, openWindow, screenshot, signedRequest, startTestApp, type TestApp, type TestBrowser } from './ui-support/harness.ts';

// This process too: the keyring library reads the process's own environment, and `npm test`
// runs every file inside a D-Bus session with a Secret Service (scripts/with-secret-service.sh).
const nowhere = mkdtempSync(join(tmpdir(), 'tock-no-bus-'));
const NO_BUS = `unix:path=${join(nowhere, 'bus')}`;
process.env.DBUS_SESSION_BUS_ADDRESS = NO_BUS;

const cleanup: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const step of cleanup.reverse()) await step();
  rmSync(nowhere, { recursive: true, force: true });
});

/** A test app's environment with no choice of store made: neither the variable nor a saved setting. */
function noChoiceEnv(): NodeJS.ProcessEnv {
  const env = appEnv({ DBUS_SESSION_BUS_ADDRESS: NO_BUS });
  delete env.TOCK_CREDENTIAL_STORE;
  cleanup.push(() => rmSync(env.TOCK_HOME as string, { recursive: true, force: true }));
  return env;
}

describe('no Secret Service: tock listener on', () => {
  it('turns the listener on with the token in a 0600 file and says so in one note: line', async () => {
    const env = noChoiceEnv();
    const app = await spawnApp(env);
    cleanup.push(() => {
      app.child.kill('SIGKILL');
    });
    const port = await freePort();
    const on = await tock(['listener', 'on', '--port', String(port)], env);
    assert.equal(on.code, 0, on.stderr);
    assert.equal(on.stdout.trim(), `active on 127.0.0.1:${port}`);
    const tokenFile = homePaths(env.TOCK_HOME as string).tokenFile;
    const lines = on.stderr.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 1, on.stderr);
    assert.match(lines[0] as string, /^note: no Secret Service .* answers on this desktop, so the token is kept in /);
    assert.ok((lines[0] as string).includes(tokenFile), 'the note names the file');
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.ok((await tock(['token'], env)).stdout.trim() === token, 'tock token prints the token of the file');
    assert.equal((await signedRequest(port, token, 'GET', '/status')).status, 200);
    // The status says where the token is, without the note; the choice survives a restart.
    const status = await tock(['listener', 'status'], env);
    assert.equal(status.stderr, '');
    app.child.kill('SIGTERM');
    assert.equal(await app.exited, 0);
    const again = await spawnApp(env);
    cleanup.push(() => {
      again.child.kill('SIGKILL');
    });
    assert.match(again.output(), new RegExp(`listener: active on 127\\.0\\.0\\.1:${port}`));
    assert.ok((await tock(['token'], env)).stdout.trim() === token, 'the same token after a restart');
  });
});

describe('no Secret Service: Settings › Integrations in Chromium', () => {
  let b: TestBrowser;
  before(async () => {
    ensureWindowBuilt();
    b = await launchBrowser();
  });
  after(async () => {
    await b?.close();
  });

  async function appWith(env: NodeJS.ProcessEnv): Promise<TestApp> {
    const t = await startTestApp(env);
    cleanup.push(() => t.stop());
    return t;
  }

  it('a new home starts on the file store and says so once; the listener turns on; keeping the file ends the notice', async () => {
    const t = await appWith({ TOCK_CREDENTIAL_STORE: undefined });
    const { page } = b;
    const { tokenFile } = t.app.services.home;
    assert.equal(t.app.services.tokens.store.kind, 'file');
    await openWindow(page, t, '/settings/integrations');
    const notice = page.getByTestId('store-notice');
    await notice.waitFor();
    assert.equal(await page.getByText('No system credential store answers on this desktop').count(), 1, 'the notice is shown once');
    assert.equal(await page.locator('.field-error, .failure, [role=alert]').filter({ hasText: /credential|Secret Service/ }).count(), 0, 'and no error');
    await page.getByTestId('token-store').filter({ hasText: `file ${tokenFile} (mode 0600)` }).waitFor();

    const port = await freePort();
    await t.app.services.listener.setPort(port);
    await page.getByRole('switch', { name: 'Listener' }).click();
    await page.getByTestId('listener-status').filter({ hasText: `active on 127.0.0.1:${port}` }).waitFor();
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.equal((await signedRequest(port, token, 'GET', '/status')).status, 200);
    assert.equal(await page.getByText('No system credential store answers on this desktop').count(), 1, 'still once, with the listener on');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `no-keyring-integrations-${width}`);
    }
    await page.setViewportSize({ width: 1200, height: 860 });

    await page.getByRole('button', { name: 'Keep it in the file' }).click();
    await page.getByRole('status').filter({ hasText: 'The token is now kept in a file.' }).waitFor();
    await notice.waitFor({ state: 'detached' });
    assert.ok(readFileSync(tokenFile, 'utf8').trim() === token, 'the same token');
    assert.equal(t.app.services.listener.status().notice, null);
  });

  it('switches to the file store from a system store that cannot be read: the token is made anew and the window says so', async () => {
    // The person chose the system store on a day a keyring ran; today none answers.
    const t = await appWith({ TOCK_CREDENTIAL_STORE: 'os' });
    const { page } = b;
    const { tokenFile } = t.app.services.home;
    await openWindow(page, t, '/settings/integrations');
    const storeError = page.getByText(/could not read the token/);
    await storeError.first().waitFor();
    const port = await freePort();
    await t.app.services.listener.setPort(port);
    await page.getByRole('switch', { name: 'Listener' }).click();
    await page.getByTestId('listener-status').filter({ hasText: 'off' }).waitFor();
    await page.getByRole('switch', { name: 'Listener', disabled: false }).waitFor();
    assert.equal(await storeError.count(), 1, `the store that cannot be read is said once, not again at the listener: ${JSON.stringify(await storeError.allTextContents())}`);

    await page.getByRole('radio', { name: /File in the Tock data folder/ }).check();
    await page.getByRole('button', { name: 'Keep the token in a file' }).click();
    await page.getByRole('status').filter({ hasText: 'The old store could not be read, so a new token was made and is now kept in a file.' }).waitFor();
    await storeError.waitFor({ state: 'detached' });
    assert.equal(t.app.services.tokens.store.kind, 'file');
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);

    await page.getByRole('switch', { name: 'Listener' }).click();
    await page.getByTestId('listener-status').filter({ hasText: `active on 127.0.0.1:${port}` }).waitFor();
    assert.equal((await signedRequest(port, token, 'GET', '/status')).status, 200, 'the new token signs');
  });
});
