/**
 * Windows survive restarts (docs/ui.md "Security decisions"): a window's session lasts until
 * its tab closes or 30 days without use, across app restarts — kept as SHA-256 hashes in a
 * 0600 file in the Tock home, never the secret. A real Chromium keeps working in the same tab
 * across a real app's stop and start on the same home and port; a tab without a session shows
 * only the line that says how to get a window.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, type RunningApp } from '@tock/app/start';
import { MAX_SESSIONS, SESSION_IDLE_LIFETIME_MS, WINDOW_SESSIONS_FILE, WindowSessions } from '../src/ui/launch.ts';
import { ensureWindowBuilt, freePort, launchBrowser, rawRequest, screenshot, type TestBrowser } from './ui-support/harness.ts';

const DAY = 24 * 3_600_000;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Sessions on a temp file with a clock the test moves; what they say is collected. */
function sessionsOnFile(file: string, start = Date.UTC(2026, 10, 1)) {
  const clock = { now: start };
  const said: string[] = [];
  const open = (): WindowSessions => new WindowSessions({ clock: () => clock.now, file, say: (line) => said.push(line) });
  return { clock, said, open };
}

describe('window sessions kept across restarts (hashed, owner-only, 30 days without use)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tock-sessions-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a session through a restart: a new WindowSessions on the same file accepts it', () => {
    const file = join(dir, 'restart.json');
    const { open } = sessionsOnFile(file);
    const secret = open().create();
    assert.equal(open().valid(secret), true);
    assert.equal(open().valid('not-a-session'), false);
  });

  it('refuses a session unused for 30 days, and forgets it; one used within 30 days lives on', () => {
    const file = join(dir, 'idle.json');
    const { clock, open } = sessionsOnFile(file);
    const sessions = open();
    const kept = sessions.create();
    const idle = sessions.create();
    clock.now += 29 * DAY;
    assert.equal(sessions.valid(kept), true, 'used on day 29');
    clock.now += 2 * DAY;
    // 31 days after `idle` was made and last used; 2 days after `kept` was last used.
    const restarted = open();
    assert.equal(restarted.valid(idle), false, 'unused for 30 days: refused after a restart');
    assert.equal(sessions.valid(idle), false, 'and in the running app');
    assert.equal(restarted.valid(kept), true, 'a use restarts the 30 days, and the file keeps the use');
    clock.now += SESSION_IDLE_LIFETIME_MS;
    assert.equal(restarted.valid(kept), false, 'exactly 30 days without use: refused');
    assert.equal(open().size, 0, 'both forgotten');
  });

  it('writes the file 0600 and holds only SHA-256 hashes, never a secret', () => {
    const file = join(dir, 'private.json');
    const { open } = sessionsOnFile(file);
    const sessions = open();
    const secrets = [sessions.create(), sessions.create()];
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, 'utf8');
    for (const secret of secrets) {
      assert.equal(text.includes(secret), false, 'no secret in the file');
      assert.equal(text.includes(sha256(secret)), true, 'its hash is');
    }
    assert.deepEqual(Object.keys(JSON.parse(text) as object).sort(), ['sessions', 'version']);
  });

  it('treats a corrupt file as empty with one line, and never crashes', () => {
    const file = join(dir, 'corrupt.json');
    const { said, open } = sessionsOnFile(file);
    for (const junk of ['{not json', '{"version":1,"sessions":[{"hash":"zz","usedAt":1}]}', 'null', '[]']) {
      writeFileSync(file, junk, { mode: 0o600 });
      said.length = 0;
      const sessions = open();
      assert.equal(sessions.size, 0, junk);
      assert.equal(said.length, 1, `one line for ${junk}`);
      assert.match(said[0] ?? '', /not a window sessions file.*`tock open`/);
      // It works from there on and writes a good file.
      const secret = sessions.create();
      assert.equal(open().valid(secret), true);
    }
  });

  it('does not read a link planted under its name (the checks the app’s other files get)', () => {
    const target = join(dir, 'planted-target.json');
    const { open: openTarget } = sessionsOnFile(target);
    const secret = openTarget().create();
    const file = join(dir, 'link.json');
    symlinkSync(target, file);
    const { said, open } = sessionsOnFile(file);
    assert.equal(open().valid(secret), false);
    assert.equal(said.length, 1);
  });

  it(`keeps at most ${MAX_SESSIONS} sessions: the least recently used is forgotten first`, () => {
    const file = join(dir, 'bound.json');
    const { clock, open } = sessionsOnFile(file);
    const sessions = open();
    const first = sessions.create();
    const second = sessions.create();
    clock.now += 1;
    assert.equal(sessions.valid(first), true, 'first used again: now the newest');
    for (let i = 0; i < MAX_SESSIONS - 1; i++) sessions.create();
    assert.equal(sessions.size, MAX_SESSIONS);
    assert.equal(sessions.valid(second), false, 'the least recently used went');
    assert.equal(sessions.valid(first), true);
    assert.equal(open().size, MAX_SESSIONS, 'the file holds the same bound');
  });
});

describe('the window in Chromium across an app restart', () => {
  let home: string;
  let port: number;
  let app: RunningApp | undefined;
  let b: TestBrowser;
  const start = async (): Promise<RunningApp> => {
    app = await startApp({ home, uiPort: port, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
    return app;
  };

  before(async () => {
    ensureWindowBuilt();
    home = mkdtempSync(join(tmpdir(), 'tock-ui-restart-'));
    port = await freePort();
    b = await launchBrowser();
  });
  after(async () => {
    await b?.close();
    await app?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('keeps working in the same tab after the app stops and starts again on the same home and port', async () => {
    const first = await start();
    assert.equal(new URL(first.uiUrl).port, String(port));
    const { page } = b;
    page.setDefaultTimeout(15_000);
    await page.goto(first.launchUrl());
    await page.locator('main h1').filter({ hasText: 'Today' }).waitFor();
    const secret = await page.evaluate(() => sessionStorage.getItem('tock-session'));
    assert.ok(secret);
    assert.equal(statSync(join(home, WINDOW_SESSIONS_FILE)).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(home, WINDOW_SESSIONS_FILE), 'utf8').includes(secret), false, 'the file holds no secret');

    await first.stop();
    app = undefined;
    const second = await start();
    assert.equal(new URL(second.uiUrl).port, String(port), 'the same port');
    second.services.tracker.startActivity({ name: 'After restart', createIfMissing: true });
    // The same tab, reloaded: no launch code in its address, only its session.
    await page.reload();
    await page.locator('main h1').filter({ hasText: 'Today' }).waitFor();
    await page.getByText('After restart').first().waitFor();
    assert.equal(await page.getByTestId('no-session').count(), 0);
    const answer = await page.evaluate(async () => (await fetch('/api/state', { headers: { 'X-Tock-Session': sessionStorage.getItem('tock-session') ?? '' } })).status);
    assert.equal(answer, 200);
  });

  it('a tab whose session is gone shows only the how-to line: no "Not tracking", no navigation', async () => {
    const running = app as RunningApp;
    const origin = new URL(running.uiUrl).origin;
    const res = await rawRequest(port, 'GET', '/api/state', { host: `127.0.0.1:${port}`, 'x-tock-session': 'a-session-from-nowhere' });
    assert.equal(res.status, 401);
    assert.equal(res.body.includes('a-session-from-nowhere'), false, 'the presented secret is not echoed');

    // A new tab: no session at all.
    const fresh = await b.context.newPage();
    fresh.setDefaultTimeout(15_000);
    await fresh.goto(`${origin}/`);
    // A tab that had one, now gone (its secret is not one the app keeps).
    const stale = await b.context.newPage();
    stale.setDefaultTimeout(15_000);
    await stale.goto(running.launchUrl());
    await stale.locator('main h1').filter({ hasText: 'Today' }).waitFor();
    await stale.evaluate(() => sessionStorage.setItem('tock-session', 'gone-session'));
    await stale.reload();
    for (const page of [fresh, stale]) {
      const line = page.getByTestId('no-session');
      await line.waitFor();
      assert.equal(
        (await line.textContent())?.trim(),
        'This tab has no Tock window session. Run tock open, or choose “Open Tock” in the tray, to open one.',
      );
      assert.equal((await page.locator('body').textContent())?.trim(), (await line.textContent())?.trim(), 'the line is all the tab shows');
      assert.equal(await page.getByText('Not tracking').count(), 0);
      assert.equal(await page.locator('nav, a[href^="#/"]').count(), 0, 'no navigation');
      if (page === fresh) {
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 700 });
          assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, `no sideways scroll at ${width} px`);
          await screenshot(page, `no-session-${width}`);
        }
      }
      await page.close();
    }
  });

  it('an open tab whose session the app no longer keeps turns into the how-to line without a reload', async () => {
    const page = await b.context.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto((app as RunningApp).launchUrl());
      await page.locator('main h1').filter({ hasText: 'Today' }).waitFor();
      // The app stops and starts again without the session (as after 30 days without use).
      await (app as RunningApp).stop();
      app = undefined;
      rmSync(join(home, WINDOW_SESSIONS_FILE), { force: true });
      await start();
      const line = page.getByTestId('no-session');
      await line.waitFor();
      assert.equal((await page.locator('body').textContent())?.trim(), (await line.textContent())?.trim(), 'the line is all the tab shows');
      assert.equal(await page.locator('nav, a[href^="#/"]').count(), 0, 'no navigation');
    } finally {
      await page.close();
    }
  });
});
