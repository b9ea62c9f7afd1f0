/**
 * Editors on Settings › Integrations (issue 25) in real Chromium on a clock fixed at Wednesday
 * 18 November 2026 in Europe/Berlin: editors turned on show the key once with the two
 * `~/.wakatime.cfg` lines; *Set up* writes them, keeping the person's other settings and a copy
 * of the file; a plugin's heartbeat shows as its editor's last; a new key replaces the old one;
 * the key is never in a GET, the window's state or the listener's request list.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  blur,
  ensureWindowBuilt,
  freePort,
  launchBrowser,
  openWindow,
  rawRequest,
  screenshot,
  seriousAxeViolations,
  startTestApp,
  tabTo,
  windowSession,
  type TestApp,
  type TestBrowser,
} from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z');
let t: TestApp;
let b: TestBrowser;
let wakaHome: string;
const OLD_CFG = '[settings]\ndebug = true\napi_url = https://wakatime.example/api/v1\nhide_file_names = true\n\n[git]\ndisable_submodules = true\n';

before(async () => {
  ensureWindowBuilt();
  wakaHome = mkdtempSync(join(tmpdir(), 'tock-ui-waka-'));
  writeFileSync(join(wakaHome, '.wakatime.cfg'), OLD_CFG);
  process.env.WAKATIME_HOME = wakaHome;
  t = await startTestApp({ WAKATIME_HOME: wakaHome }, { clock: () => now });
  await t.app.services.listener.setPort(await freePort());
  await t.app.services.listener.enable();
  b = await launchBrowser({ locale: 'en-US' });
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write']);
});
after(async () => {
  await b?.close();
  await t?.stop();
  rmSync(wakaHome, { recursive: true, force: true });
});

const VSCODE = 'wakatime/v1.102.1 (linux-6.1.0-amd64) go1.23.0 vscode/1.96.0 vscode-wakatime/25.0.0';
/** The legacy Python wakatime run without a plugin: a User-Agent that names no editor. */
const LEGACY = 'wakatime/13.1.0 (Linux-6.1.0-amd64-x86_64-with-glibc2.36) Python3.9.18.final.0 Unknown/0';

/** One heartbeat as VS Code's WakaTime plugin sends it; `legacy`: a bulk of one to the api_url itself, as the legacy CLI sends it. */
function heartbeat(key: string, legacy = false): Promise<number> {
  const port = t.app.services.listener.status().port;
  const one = { entity: legacy ? '/work/app/src/legacy.py' : '/work/app/src/main.ts', time: now / 1000, type: 'file', is_write: true };
  const body = JSON.stringify(legacy ? [one] : one);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: legacy ? '/wakatime/api/v1' : '/wakatime/api/v1/users/current/heartbeats',
        headers: {
          host: `127.0.0.1:${port}`,
          authorization: `Basic ${Buffer.from(key).toString('base64')}`,
          'content-type': 'application/json',
          'user-agent': legacy ? LEGACY : VSCODE,
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('Settings › Integrations: editors', () => {
  let key = '';

  it('turns editors on by keyboard and shows the key once, with the two lines and Copy', async () => {
    const { page } = b;
    await openWindow(page, t, '/settings/integrations');
    await blur(page);
    await tabTo(page, 'button', { text: 'Turn editors on' });
    await page.keyboard.press('Enter');
    const shown = page.getByTestId('editor-key');
    await shown.waitFor();
    key = await page.getByLabel('Editor key (shown once)').inputValue();
    assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const port = t.app.services.listener.status().port;
    assert.equal(await page.getByTestId('wakatime-lines').textContent(), `api_url = http://127.0.0.1:${port}/wakatime/api/v1\napi_key = ${key}`);
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await page.getByTestId('editors-message').filter({ hasText: 'Key copied to the clipboard.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    assert.deepEqual(await seriousAxeViolations(page), []);
    // Reloaded, the window no longer has the key: it is shown once.
    await openWindow(page, t, '/settings/integrations');
    await page.getByTestId('editors-status').waitFor();
    assert.equal(await page.getByTestId('editor-key').count(), 0);
  });

  it('Set up writes the two lines into .wakatime.cfg, keeping the other settings and a copy', async () => {
    const { page } = b;
    await page.getByRole('button', { name: `Set up ${wakaHome}/.wakatime.cfg` }).click();
    await page.getByTestId('editors-message').filter({ hasText: `Wrote ${wakaHome}/.wakatime.cfg; your other settings are kept` }).waitFor();
    const cfg = readFileSync(join(wakaHome, '.wakatime.cfg'), 'utf8');
    assert.match(cfg, /debug = true/);
    assert.match(cfg, /hide_file_names = true/);
    assert.match(cfg, /disable_submodules = true/);
    assert.match(cfg, new RegExp(`api_key = ${key}`));
    assert.doesNotMatch(cfg, /wakatime\.example/);
    assert.equal(readFileSync(join(wakaHome, '.wakatime.cfg.before-tock'), 'utf8'), OLD_CFG);
  });

  it('shows each editor’s last heartbeat', async () => {
    const { page } = b;
    assert.equal(await heartbeat(key), 201);
    await openWindow(page, t, '/settings/integrations');
    await page.getByTestId('editor-heartbeats').locator('tr', { hasText: 'vscode' }).filter({ hasText: 'Nov 18, 16:00' }).waitFor();
    // The legacy CLI at the api_url itself, naming no editor: listed by its User-Agent. A wrong key: refused, with the reason.
    assert.equal(await heartbeat(key, true), 201);
    assert.equal(await heartbeat('00000000-0000-4000-8000-000000000000'), 401);
    await openWindow(page, t, '/settings/integrations');
    const table = page.getByTestId('editor-heartbeats');
    await table.locator('tr', { hasText: LEGACY }).filter({ hasText: 'Nov 18, 16:00' }).waitFor();
    await table.locator('tr', { hasText: 'vscode' }).filter({ hasText: 'Nov 18, 16:00: The editor key is wrong; `tock editors key` prints the right one.' }).waitFor();
    assert.equal(await table.getByText('unnamed').count(), 0);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'integrations-editors');
    await page.setViewportSize({ width: 390, height: 860 });
    await screenshot(page, 'integrations-editors-390');
    await page.setViewportSize({ width: 1200, height: 860 });
  });

  it('a new key replaces the old one after a confirmation', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'New key…' }).click();
    await page.getByRole('button', { name: 'Make a new key' }).click();
    await page.getByTestId('editor-key').waitFor();
    const fresh = await page.getByLabel('Editor key (shown once)').inputValue();
    assert.notEqual(fresh, key);
    assert.equal(await heartbeat(key), 401, 'the old key stops working at once');
    assert.equal(await heartbeat(fresh), 201);
    key = fresh;
  });

  it('never puts the key in a GET, the window’s state or the request list', async () => {
    const session = await windowSession(t);
    const headers = { host: `127.0.0.1:${t.port}`, ...session };
    for (const path of ['/api/editors', '/api/state', '/api/requests']) {
      const res = await rawRequest(t.port, 'GET', path, headers);
      assert.equal(res.status, 200);
      assert.ok(!res.body.includes(key), `${path} holds the key`);
    }
  });

  it('turns editors off: plugins are refused', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Turn editors off' }).click();
    await page.getByRole('button', { name: 'Turn editors on' }).waitFor();
    assert.equal(await heartbeat(key), 401);
    assert.equal(t.app.services.editors.status().enabled, false);
  });
});
