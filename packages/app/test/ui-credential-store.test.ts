/**
 * Settings › Integrations, where the token is kept, in a real Chromium against a real app on
 * the system credential store (the real Secret Service of the private D-Bus session that
 * scripts/with-secret-service.sh starts): moving the token to the 0600 file and back keeps
 * the same token, which keeps signing requests, and the window says where it is now.
 * The token is compared, never printed: no assertion here shows its value.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { osCredentialStore } from '../src/credentials.ts';
import {
  ensureWindowBuilt,
  freePort,
  launchBrowser,
  openWindow,
  signedRequest,
  startTestApp,
  type TestApp,
  type TestBrowser,
} from './ui-support/harness.ts';

/** How the window names the Secret Service (`describeOsStore` on Linux). */
const OS_STORE = 'Secret Service (GNOME Keyring / KWallet)';

let t: TestApp;
let b: TestBrowser;
let listenerPort: number;

before(async () => {
  assert.ok(process.env.DBUS_SESSION_BUS_ADDRESS, 'run inside scripts/with-secret-service.sh (npm test does): the system credential store needs a D-Bus session');
  ensureWindowBuilt();
  // The harness defaults to the file store; without the variable the app takes its saved
  // choice, and a fresh home has none: the system credential store, as for a new user.
  t = await startTestApp({ TOCK_CREDENTIAL_STORE: undefined });
  assert.equal(t.app.services.tokens.store.kind, 'os', 'a fresh home starts on the system credential store');
  listenerPort = await freePort();
  await t.app.services.listener.setPort(listenerPort);
  b = await launchBrowser();
});
after(async () => {
  await b?.close();
  if (t) {
    await t.app.services.listener.disable();
    // The Secret Service outlives the home: leave no token of a deleted home behind.
    const osStore = osCredentialStore(t.app.services.home.dir);
    if (osStore.read() !== null) osStore.delete();
    await t.stop();
  }
});

/** Reveals the token in the window, reads it, and hides it again. */
async function revealedToken(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Reveal' }).click();
  const shown = page.locator('[data-testid=token-value][type=text]');
  await shown.waitFor();
  const value = await shown.inputValue();
  await page.getByRole('button', { name: 'Hide' }).click();
  await page.locator('[data-testid=token-value][type=password]').waitFor();
  return value;
}

describe('Settings › Integrations, where the token is kept', () => {
  it('moves the token from the system credential store to a 0600 file and back; it stays the same and keeps working', async () => {
    const { page } = b;
    const { tokenFile, dir } = t.app.services.home;
    const osStore = osCredentialStore(dir);
    const storeLine = page.getByTestId('token-store');
    const osChoice = page.getByRole('radio', { name: /System credential store/ });
    const fileChoice = page.getByRole('radio', { name: /File in the Tock data folder/ });

    await openWindow(page, t, '/settings/integrations');
    await storeLine.filter({ hasText: OS_STORE }).waitFor();
    assert.equal(await osChoice.isChecked(), true);

    await page.getByRole('switch', { name: 'Listener' }).click();
    await page.getByTestId('listener-status').filter({ hasText: `active on 127.0.0.1:${listenerPort}` }).waitFor();
    const token = await revealedToken(page);
    assert.ok(/^[A-Za-z0-9_-]{43}$/.test(token), 'a token of 43 base64url characters');
    assert.ok(osStore.read() === token, 'the token is in the system credential store');
    assert.equal(existsSync(tokenFile), false, 'and in no file');
    assert.equal((await signedRequest(listenerPort, token, 'GET', '/status')).status, 200);

    // To the file.
    await fileChoice.check();
    await page.getByRole('button', { name: 'Keep the token in a file' }).click();
    await page.getByRole('status').filter({ hasText: 'The token is now kept in a file.' }).waitFor();
    await storeLine.filter({ hasText: `file ${tokenFile} (mode 0600)` }).waitFor();
    assert.equal(await fileChoice.isChecked(), true);
    assert.equal(await page.getByRole('button', { name: /^Keep the token in/ }).count(), 0, 'nothing left to confirm');
    assert.equal(t.app.services.tokens.store.kind, 'file');

    assert.equal(dirname(tokenFile), t.home, 'the file is in the Tock home');
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    assert.ok(readFileSync(tokenFile, 'utf8').trim() === token, 'the file holds the same token');
    assert.equal(osStore.read(), null, 'no copy is left in the system credential store');
    assert.equal((await signedRequest(listenerPort, token, 'GET', '/status')).status, 200, 'the same token still signs');
    assert.ok((await revealedToken(page)) === token, 'the window reveals the same token');

    // And back.
    await osChoice.check();
    await page.getByRole('button', { name: 'Keep the token in the credential store' }).click();
    await page.getByRole('status').filter({ hasText: 'The token is now kept in the system credential store.' }).waitFor();
    await storeLine.filter({ hasText: OS_STORE }).waitFor();
    assert.equal(await osChoice.isChecked(), true);
    assert.equal(t.app.services.tokens.store.kind, 'os');

    assert.equal(existsSync(tokenFile), false, 'the file is gone');
    assert.ok(osStore.read() === token, 'the system credential store holds the same token again');
    assert.equal((await signedRequest(listenerPort, token, 'GET', '/status')).status, 200, 'and it still signs');
    assert.ok((await revealedToken(page)) === token, 'the window reveals the same token');
  });
});
