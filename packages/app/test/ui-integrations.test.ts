/**
 * Settings › Integrations and License, and the branch prompt, in a real Chromium against a
 * real app whose listener answers real signed requests: the switch and its status line, the
 * request list refreshing live, token reveal and rotation (the old token gets 401), the
 * prompt arriving without a reload, and license activation.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { issueLicenseKey } from '../src/license.ts';
import { freePort, newTab, openWindow, signedRequest, windowSuite } from './ui-support/harness.ts';

const vendor = generateKeyPairSync('ed25519');
let listenerPort: number;

const ui = windowSuite({
  env: { TOCK_LICENSE_PUBLIC_KEY: vendor.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  seed: async () => {
    listenerPort = await freePort();
  },
});

const services = () => ui.services;

describe('Settings › Integrations', () => {
  it('validates the port inline and turns the listener on, showing the live status line', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/integrations');
    const status = page.getByTestId('listener-status');
    assert.equal(await status.textContent(), 'off');
    const sw = page.getByRole('switch', { name: 'Listener' });
    assert.equal(await sw.getAttribute('aria-checked'), 'false');

    const port = page.getByRole('textbox', { name: 'Port' });
    await port.fill('80');
    await page.getByText('Use a port from 1024 to 65535.').waitFor();
    assert.equal(await port.getAttribute('aria-invalid'), 'true');
    await port.fill('70000');
    await page.getByText('Use a port from 1024 to 65535.').waitFor();
    await port.fill(String(listenerPort));
    assert.equal(await port.getAttribute('aria-invalid'), null);
    await page.getByRole('button', { name: 'Save port' }).click();
    await page.waitForFunction(() => !document.querySelector('#listener-port[aria-invalid]'));
    assert.equal(services().listener.status().port, listenerPort);
    assert.equal(await status.textContent(), 'off', 'saving the port of a listener that is off does not turn it on');

    await sw.click();
    await status.filter({ hasText: `active on 127.0.0.1:${listenerPort}` }).waitFor();
    assert.equal(await sw.getAttribute('aria-checked'), 'true');
    assert.equal(services().listener.status().line, `active on 127.0.0.1:${listenerPort}`);
    await page.getByText('No token yet').waitFor({ state: 'detached' });
  });

  it('lists a signed request as soon as it arrives', async () => {
    const { page } = ui;
    const token = services().tokens.read() as string;
    const res = await signedRequest(listenerPort, token, 'GET', '/status?probe=1');
    assert.equal(res.status, 200);
    const row = page.getByTestId('requests').locator('tbody tr').first();
    await row.filter({ hasText: '/status' }).waitFor();
    assert.deepEqual(
      (await row.locator('td').allTextContents()).slice(1),
      ['GET', '/status', '200'],
      'method, path without the query string, status',
    );
  });

  it('reveals the token only when asked, and the old token gets 401 after a rotation', async () => {
    const { page } = ui;
    const old = services().tokens.read() as string;
    const field = page.getByTestId('token-value');
    assert.equal(await field.getAttribute('type'), 'password');
    assert.notEqual(await field.inputValue(), old);
    assert.ok(!(await page.content()).includes(old), 'the token is not in the page until revealed');

    await page.getByRole('button', { name: 'Reveal' }).click();
    await page.waitForFunction((tok) => (document.querySelector('[data-testid=token-value]') as HTMLInputElement).value === tok, old);
    await page.getByRole('button', { name: 'Hide' }).click();
    assert.equal(await page.getByTestId('token-value').getAttribute('type'), 'password');

    await ui.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.app.origin });
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Token copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), old);
    assert.equal(await page.getByTestId('token-value').getAttribute('type'), 'password', 'copying does not show it');

    await page.getByRole('button', { name: 'Rotate…' }).click();
    await page.getByText('Replace the token?').waitFor();
    await page.getByRole('button', { name: 'Rotate token' }).click();
    await page.getByText('New token created.').waitFor();
    const fresh = services().tokens.read() as string;
    assert.notEqual(fresh, old);
    assert.equal(fresh.length, 43);

    const refused = await signedRequest(listenerPort, old, 'GET', '/status');
    assert.equal(refused.status, 401);
    assert.equal((await signedRequest(listenerPort, fresh, 'GET', '/status')).status, 200);
    const rows = page.getByTestId('requests').locator('tbody tr');
    await rows.nth(1).filter({ hasText: '401' }).waitFor();
    await rows.nth(0).filter({ hasText: '200' }).waitFor();
  });

  it('shows which credential store holds the token and explains the file store', async () => {
    const { page } = ui;
    await page.getByTestId('token-store').filter({ hasText: 'listener-token (mode 0600)' }).waitFor();
    assert.equal(await page.getByRole('radio', { name: /File in the Tock data folder/ }).isChecked(), true);
    await page.getByText('A file only your user can read (mode 0600).').waitFor();
  });

  it('says your own tock commands need no token; the shell sample exports it for scripts only', async () => {
    const { page } = ui;
    await page.getByText('Your own tock commands reach the running app without a token.', { exact: false }).waitFor();
    await page.getByText('for your scripts and editor plugins (your own tock commands need neither it nor its token)', { exact: false }).waitFor();
    const shell = page.locator('pre.code code').filter({ hasText: 'tock git-hook install' });
    assert.equal(
      await shell.textContent(),
      [
        'tock status             # your own commands: no token needed',
        'tock git-hook install   # prompt to track on branch switches',
        '',
        '# scripts and the client libraries sign with the token:',
        'export SERVICE_TOKEN="$(tock token)"',
        `export SERVICE_PORT=${listenerPort}`,
      ].join('\n'),
    );
  });
});

describe('the branch prompt', () => {
  it('appears without a reload, offers matching activities, and "track" starts one', async () => {
    const { page } = ui;
    services().tracker.createActivity('login-page');
    services().tracker.createActivity('Billing');
    await openWindow(page, ui.app);
    const token = services().tokens.read() as string;
    const res = await signedRequest(listenerPort, token, 'POST', '/branch-changed', {
      branch: 'feature/login-page',
      repo: '/home/ana/code/shop',
      previousBranch: 'main',
    });
    assert.equal(res.status, 200);
    const prompt = page.getByTestId('branch-prompt');
    await prompt.getByRole('heading', { name: 'feature/login-page' }).waitFor();
    await prompt.getByText('/home/ana/code/shop').waitFor();
    await prompt.getByText('main', { exact: true }).waitFor();
    assert.equal(await prompt.getByRole('textbox', { name: 'New activity' }).inputValue(), 'feature/login-page');
    assert.equal(await prompt.getByRole('button', { name: 'Track Billing' }).count(), 0, 'only matching activities are offered');

    await prompt.getByRole('button', { name: 'Track login-page' }).click();
    await prompt.waitFor({ state: 'detached' });
    assert.equal(services().tracker.getStatus().currentActivity?.activityName, 'login-page');
    assert.equal(services().prompts.pending().length, 0);
    await page.getByTestId('current-activity').filter({ hasText: 'login-page' }).waitFor();
  });

  it('shows prompts that arrived while no window was open, newest first; create and dismiss', async () => {
    const token = services().tokens.read() as string;
    await signedRequest(listenerPort, token, 'POST', '/branch-changed', { branch: 'fix/old-bug' });
    await signedRequest(listenerPort, token, 'POST', '/branch-changed', { branch: 'feat/new-report', previousBranch: 'fix/old-bug' });
    const page = await newTab(ui.browser);
    try {
      await openWindow(page, ui.app);
      const prompt = page.getByTestId('branch-prompt');
      await prompt.getByRole('heading', { name: 'feat/new-report' }).waitFor();
      await prompt.getByText('1 more waiting').waitFor();
      await prompt.getByRole('textbox', { name: 'New activity' }).fill('New report');
      await prompt.getByRole('button', { name: 'Create and track' }).click();
      await prompt.getByRole('heading', { name: 'fix/old-bug' }).waitFor();
      assert.equal(services().tracker.getStatus().currentActivity?.activityName, 'New report');
      await prompt.getByRole('button', { name: 'Dismiss' }).click();
      await prompt.waitFor({ state: 'detached' });
      assert.equal(services().prompts.pending().length, 0);
      assert.equal(services().tracker.getStatus().currentActivity?.activityName, 'New report', 'dismiss changes nothing');
    } finally {
      await page.close();
    }
    services().tracker.stopActivity();
  });
});

describe('Settings › Integrations, errors and off again', () => {
  it('shows `error: port N is in use` when moved to a taken port, and recovers on a free one', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/integrations');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      await page.getByRole('textbox', { name: 'Port' }).fill(String(taken));
      await page.getByRole('button', { name: 'Save port' }).click();
      await page.getByTestId('listener-status').filter({ hasText: `error: port ${taken} is in use` }).waitFor();
      await page.getByRole('alert').filter({ hasText: `port ${taken} is in use` }).waitFor();
      assert.equal(await page.getByRole('switch', { name: 'Listener' }).getAttribute('aria-checked'), 'true', 'the switch stays on');
    } finally {
      blocker.close();
    }
    await page.getByRole('textbox', { name: 'Port' }).fill(String(listenerPort));
    await page.getByRole('button', { name: 'Save port' }).click();
    await page.getByTestId('listener-status').filter({ hasText: `active on 127.0.0.1:${listenerPort}` }).waitFor();
  });

  it('turns the listener off and the status line says so', async () => {
    const { page } = ui;
    await page.getByRole('switch', { name: 'Listener' }).click();
    await page.getByTestId('listener-status').filter({ hasText: /^off$/ }).waitFor();
    assert.equal(services().listener.status().line, 'off');
  });
});

describe('Settings › License', () => {
  it('shows the trial, refuses a bad key in one line, and activates a good one at once', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/license');
    assert.equal(await page.getByTestId('license-state').textContent(), 'Trial');
    assert.equal(await page.getByTestId('license-days').textContent(), '14 days left');

    const field = page.getByRole('textbox', { name: 'License key' });
    await field.fill('not-a-key');
    await page.getByRole('button', { name: 'Activate' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const message = (await alert.textContent()) ?? '';
    assert.match(message, /not a Tock license key/);
    assert.equal(message.split('\n').length, 1);
    assert.equal(services().license.state(), 'trial');

    const key = issueLicenseKey({ licensee: 'Ana Lima', issued: new Date().toISOString(), expires: null }, vendor.privateKey);
    await field.fill(key);
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByTestId('license-state').filter({ hasText: 'Licensed' }).waitFor();
    await page.getByText('Licensed to Ana Lima. No expiry.').waitFor();
    assert.equal(services().license.state(), 'licensed');
  });
});
