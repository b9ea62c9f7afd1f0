/**
 * Attack campaign, family 3 (docs/security.md): a web page in real Chromium, served from
 * another origin, fires a few hundred requests of every kind a page can make at the listener
 * and at the window's server. Afterwards: the page could read nothing, no state changed, the
 * listener is still on with the same token, and a signed client still gets 200 (no lockout).
 * A DNS-rebinding Host, which a browser cannot forge from a page, is sent over a raw socket.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { authHeaders, freshNonce } from '@tock/listener/testing';
import { startEvilSite, type PageReport } from './attack-support/evil-page.ts';
import { assertNoTokenLeak, httpGet, startTarget, tock, uiSession, type Target } from './attack-support/target.ts';

const CHROMIUM = '/usr/bin/chromium';
const ROUNDS = 12;

/** One raw HTTP/1.1 exchange: exactly the bytes given, the whole answer back. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (c) => (answer += c.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer in 5 s')));
    socket.end(bytes);
  });
}

describe('attack: a web page in Chromium', () => {
  let target: Target | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await target?.dispose();
  });

  it('reads nothing, changes nothing and locks no one out', async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium is required at ${CHROMIUM} (scripts/system-deps.sh installs it)`);
    target = await startTarget();
    const t = target;
    const ui = await uiSession(t);
    const uiPort = Number(new URL(ui.origin).port);
    const requestsBefore = JSON.parse((await tock(['requests', '--json'], t.env)).stdout) as unknown[];
    assert.ok(Array.isArray(requestsBefore));

    const site = await startEvilSite();
    cleanups.push(() => site.close());
    const profile = mkdtempSync(join(tmpdir(), 'tock-attack-chromium-'));
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    cleanups.push(() => context.close());
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(site.url);
    const report = (await page.evaluate(
      ([port, uiPortArg, rounds]) => (window as unknown as { attack(p: number, u: number, r: number): Promise<unknown> }).attack(port, uiPortArg, rounds),
      [t.port, uiPort, ROUNDS] as const,
    )) as PageReport;

    assert.deepEqual(report.readable, [], 'the page read something back');
    assert.ok(report.sent >= 250, `only ${report.sent} requests were fired`);

    // Nothing changed: no session, entry, activity or prompt; the listener is on, the token the same.
    const client = t.client();
    assert.equal((await client.healthcheck()).status, 'ok', 'no lockout: a signed request gets 200');
    const status = await client.getStatus();
    assert.equal(status.isTracking, false);
    assert.equal(status.todaySeconds, 0);
    assert.deepEqual(await client.searchActivities(''), []);
    assert.deepEqual(JSON.parse((await httpGet(`${ui.origin}/api/prompts`, ui.headers)).text).result, []);
    assert.deepEqual(JSON.parse((await httpGet(`${ui.origin}/api/activities/all`, ui.headers)).text).result, []);
    assert.equal((await tock(['listener', 'status'], t.env)).stdout.trim(), `active on 127.0.0.1:${t.port}`);
    assert.equal((await tock(['token'], t.env)).stdout.trim(), t.token);

    // The listener saw the page's requests and refused them (403 browser_request), unsigned.
    const list = JSON.parse((await tock(['requests', '--json'], t.env)).stdout) as { status: number; path: string }[];
    const fromPage = list.filter((r) => r.path !== '/healthcheck' && r.path !== '/status' && r.path !== '/activities/search');
    assert.ok(fromPage.length > 0, 'the page reached the listener');
    assert.ok(fromPage.every((r) => r.status === 403), JSON.stringify(fromPage));

    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends its own Host.
    const rebinding: string[] = [];
    for (const host of [`evil.example:${t.port}`, `127.0.0.1.evil.example:${t.port}`, `localhost.:${t.port}`, `127.0.0.1`, `[::1]:${t.port}`]) {
      const nonce = freshNonce();
      const headers = authHeaders({ method: 'GET', target: '/status', body: '', timestamp: String(Math.floor(Date.now() / 1000)), nonce, token: t.token });
      const answer = await rawExchange(
        t.port,
        `GET /status HTTP/1.1\r\nHost: ${host}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}Connection: close\r\n\r\n`,
      );
      t.keep(answer);
      assert.match(answer, /^HTTP\/1\.1 403 /, host);
      assert.match(answer, /"code":"forbidden_host"/, host);
      assert.doesNotMatch(answer, /x-tock-response-signature/i, 'refused before verification');
      rebinding.push(host);
    }
    assert.equal((await client.healthcheck()).status, 'ok');
    await assertNoTokenLeak(t);
    console.log(`# browser: ${report.sent} requests from the page (${Object.keys(report.kinds).length} kinds), 0 readable; ${rebinding.length} rebinding Hosts refused`);
  });
});
