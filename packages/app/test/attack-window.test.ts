/**
 * Attack campaign, the window (docs/security.md "Version 3: the trust review"): each attack of issue 23 on the
 * window, done as it was done.
 *
 * - Another local user reads the arguments (and, where readable, the environment) of the
 *   browser or `xdg-open` that Tock starts: a fake browser records its own `/proc/$$/cmdline`
 *   and `/proc/$$/environ`; no launch code, session or token may be there. The launch file it
 *   gets is 0600 and is gone after 60 s (fake timers).
 * - A launch code used twice, or 5 minutes old (injected clock): refused, with a page that says
 *   so and names `tock open`.
 * - A second server on 127.0.0.1 (another port, the same site) records what real Chromium
 *   sends it after the window was opened: no cookie, no session header. A page of that origin
 *   fetching the window's API is refused (403).
 * - 1 000 idle connections to the window's server: the listener, the admin socket and the
 *   window keep answering, and the app holds at most 64 of them.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { startApp } from '@tock/app/start';
import { until } from '@tock/test-support';
import type { LaunchFileTimers } from '../src/ui/open.ts';
import { TOCK_BIN } from './support/app-process.ts';
import { appEnv, httpGet, httpPost, startTarget, tock, uiSession, type Target } from './attack-support/target.ts';
import { CHROMIUM, ensureWindowBuilt, openWindow, startTestApp, type TestApp } from './ui-support/harness.ts';

/**
 * A directory with a fake `chromium` and a fake `xdg-open`: each records, from `/proc` as any
 * local user would read it, its own command line and environment, the mode of the file it was
 * given and that file's text, under `calls/<pid>/`.
 */
function fakeBrowsers(names: string[]): { dir: string; calls(): { cmdline: string; environ: string; mode: string; page: string; file: string }[] } {
  const dir = mkdtempSync(join(tmpdir(), 'tock-fake-browser-'));
  mkdirSync(join(dir, 'calls'));
  const script = `#!/bin/sh
d="$(/usr/bin/dirname "$0")/calls/$$"
/bin/mkdir -p "$d"
/bin/cat /proc/$$/cmdline > "$d/cmdline"
/bin/cat /proc/$$/environ > "$d/environ" 2>/dev/null
for a in "$@"; do f="\${a#--app=file://}"; done
echo "$f" > "$d/file"
/usr/bin/stat -c %a "$f" > "$d/mode"
/bin/cat "$f" > "$d/page"
/usr/bin/touch "$d/done"
`;
  for (const name of names) writeFileSync(join(dir, name), script, { mode: 0o755 });
  return {
    dir,
    calls: () =>
      readdirSync(join(dir, 'calls'))
        .map((pid) => join(dir, 'calls', pid))
        .filter((d) => existsSync(join(d, 'done')))
        .map((d) => ({
          cmdline: readFileSync(join(d, 'cmdline'), 'utf8'),
          environ: readFileSync(join(d, 'environ'), 'utf8'),
          mode: readFileSync(join(d, 'mode'), 'utf8').trim(),
          page: readFileSync(join(d, 'page'), 'utf8'),
          file: readFileSync(join(d, 'file'), 'utf8').trim(),
        })),
  };
}

/** The launch code the launch file's page sends the browser on with. */
function codeIn(page: string): string {
  const code = /\?k=([A-Za-z0-9_-]+)/.exec(page)?.[1];
  assert.ok(code, `the launch file names no address with a code: ${page}`);
  return code;
}

/** Timers that fire only when the test says so, with the delay each was set for. */
class FakeTimeouts implements LaunchFileTimers {
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  #next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { callback, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Fires every timer due within `ms`. */
  advance(ms: number): void {
    for (const [id, timer] of [...this.pending]) {
      if (timer.ms > ms) continue;
      this.pending.delete(id);
      timer.callback();
    }
  }
}

describe('attack: reading the browser’s command line', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('finds no launch code, session or token in the arguments or environment of the browser `tock app` and `tock open` start', async () => {
    const token = 'c2VjcmV0LXRva2VuLW9mLWEtY2xpZW50LXVzZXItMDEy';
    // `tock app` opening its window on a desktop (a fake Chromium on PATH), with the token in
    // the shell's environment as a client user would have it.
    const browsers = fakeBrowsers(['chromium']);
    cleanups.push(() => rmSync(browsers.dir, { recursive: true, force: true }));
    const home = mkdtempSync(join(tmpdir(), 'tock-attack-window-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const env = { ...appEnv({ TOCK_HOME: home }), PATH: browsers.dir, DISPLAY: ':0', SERVICE_TOKEN: token };
    const app: ChildProcess = spawn(process.execPath, [TOCK_BIN, 'app'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (app.exitCode !== null) return resolve();
          app.once('exit', () => resolve());
          app.kill('SIGTERM');
        }),
    );
    let printed = '';
    app.stdout?.on('data', (c: Buffer) => (printed += c.toString()));
    await until('the fake Chromium to be started by `tock app`', () => browsers.calls().length === 1, { watch: app });
    await until('`tock app` to print its address', () => /open: http:\/\/127\.0\.0\.1:\d+\/\?k=/.test(printed), { watch: app });

    // `tock open` on the same desktop: the same fake Chromium.
    const opened = await tock(['open'], env);
    assert.equal(opened.code, 0, opened.stderr);
    await until('the fake Chromium to be started by `tock open`', () => browsers.calls().length === 2, { watch: app });
    // And `xdg-open` where no Chromium is installed.
    const xdg = fakeBrowsers(['xdg-open']);
    cleanups.push(() => rmSync(xdg.dir, { recursive: true, force: true }));
    assert.equal((await tock(['open'], { ...env, PATH: xdg.dir })).code, 0);
    await until('the fake xdg-open to be started', () => xdg.calls().length === 1, { watch: app });

    const printedCode = /open: http:\/\/127\.0\.0\.1:\d+\/\?k=([A-Za-z0-9_-]+)/.exec(printed)?.[1] as string;
    for (const call of [...browsers.calls(), ...xdg.calls()]) {
      const argv = call.cmdline.split('\0').filter(Boolean);
      const code = codeIn(call.page);
      for (const secret of [code, printedCode, token]) {
        assert.ok(!call.cmdline.includes(secret), `a secret is on the command line: ${argv.join(' ')}`);
        assert.ok(!call.environ.includes(secret), 'a secret is in the environment');
      }
      assert.doesNotMatch(call.cmdline, /k=|127\.0\.0\.1/, 'no address on the command line, only a file');
      assert.doesNotMatch(call.environ, /(^|\0)(SERVICE_TOKEN|TOCK_[A-Z_]*)=/, 'no Tock variable reaches the browser');
      assert.equal(call.mode, '600', 'the launch file is 0600');
      assert.match(call.file, new RegExp(`^${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/open-[A-Za-z0-9_-]+\\.html$`), 'in the Tock home');
      // argv: /bin/sh, the script, then only the file (as Chromium's --app=file://… or xdg-open's argument).
      assert.ok([`--app=file://${call.file}`, call.file].includes(argv.slice(2).join(' ')), argv.join(' '));
    }
  });

  it('writes the launch file 0600, deletes it after 60 s (fake timers) and when the app stops', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tock-attack-window-'));
    const timers = new FakeTimeouts();
    const app = await startApp({ home, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' }, launchFileTimers: timers });
    try {
      const file = app.launchFile();
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.match(readFileSync(file, 'utf8'), /location\.replace\("http:\/\/127\.0\.0\.1:\d+\/\?k=[A-Za-z0-9_-]+"\)/);
      assert.deepEqual([...timers.pending.values()].map((t) => t.ms), [60_000]);
      timers.advance(59_999);
      assert.ok(existsSync(file), 'still there before 60 s');
      timers.advance(60_000);
      assert.ok(!existsSync(file), 'gone after 60 s');
      const second = app.launchFile();
      await app.stop();
      assert.ok(!existsSync(second), 'gone when the app stops');
    } finally {
      await app.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('attack: reusing a launch code', () => {
  it('refuses a code used once already, and one 5 minutes old, with a page that says so and names `tock open` and the tray’s Open Tock', async () => {
    ensureWindowBuilt();
    const now = { ms: Date.UTC(2026, 10, 18, 12) };
    const t: TestApp = await startTestApp({}, { clock: () => now.ms });
    try {
      const redeem = (code: string) => httpPost(`${t.origin}/launch`, { origin: t.origin }, JSON.stringify({ code }));
      const page = (url: string) => httpGet(url);

      const url = t.launchUrl();
      const code = new URL(url).searchParams.get('k') as string;
      assert.equal((await page(url)).status, 200);
      assert.equal((await redeem(code)).status, 200);
      const used = await page(url);
      assert.equal(used.status, 410);
      assert.match(used.text, /already used/);
      assert.match(used.text, /<code>tock open<\/code>, or choose “Open Tock” in the tray/, 'names the tray’s item too');
      const usedAgain = await redeem(code);
      assert.equal(usedAgain.status, 410);
      assert.equal(JSON.parse(usedAgain.text).code, 'launch_code_used');

      const late = t.launchUrl();
      now.ms += 5 * 60_000 - 1;
      assert.equal((await page(late)).status, 200, 'good until 5 minutes');
      now.ms += 1;
      const expired = await page(late);
      assert.equal(expired.status, 410);
      assert.match(expired.text, /expired/);
      assert.match(expired.text, /<code>tock open<\/code>, or choose “Open Tock” in the tray/, 'names the tray’s item too');
      const lateRedeem = await redeem(new URL(late).searchParams.get('k') as string);
      assert.equal(lateRedeem.status, 410);
      assert.equal(JSON.parse(lateRedeem.text).code, 'launch_code_expired');
      assert.equal(JSON.parse(lateRedeem.text).error.includes('Run `tock open`, or choose “Open Tock” in the tray'), true);
      // The address `tock app` printed at start is as old as the app: expired too.
      assert.equal((await page(t.url)).status, 410);
    } finally {
      await t.stop();
    }
  });
});

describe('attack: a server on another port of 127.0.0.1, in real Chromium', () => {
  it('receives no cookie and no session header from the window’s browser, and its page cannot use the window’s API', async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium is required at ${CHROMIUM}`);
    ensureWindowBuilt();
    const t = await startTestApp();
    const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
    const other = createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>another user’s server</title><p>hello</p>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const profile = mkdtempSync(join(tmpdir(), 'tock-attack-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await openWindow(page, t);
      const secret = (await page.evaluate(() => sessionStorage.getItem('tock-session'))) as string;
      assert.match(secret, /^[A-Za-z0-9_-]{43}$/, 'the window keeps its session in sessionStorage');
      assert.deepEqual(await context.cookies(), [], 'the window set no cookie');
      assert.equal(page.url(), `${t.origin}/`, 'the launch code left the address bar');

      // The window's own page cannot even reach the other server (its CSP: connect-src 'self').
      const blocked = await page.evaluate(async (o) => {
        try {
          await fetch(`${o}/from-window`, { credentials: 'include', mode: 'no-cors' });
          return false;
        } catch {
          return true;
        }
      }, otherOrigin);
      assert.equal(blocked, true, 'the window could fetch another origin');
      // The window's browser goes to the other server (a link, a typed address), whose page
      // then asks its own server for more, with credentials: what reaches that server?
      await page.goto(`${otherOrigin}/navigate`);
      await page.evaluate(async (o) => {
        await fetch(`${o}/fetch`, { credentials: 'include' });
        await new Promise((resolve) => {
          const img = new Image();
          img.onload = img.onerror = resolve;
          img.src = `${o}/img`;
        });
      }, otherOrigin);
      assert.deepEqual(
        seen.map((s) => s.path).filter((path) => path !== '/favicon.ico'),
        ['/navigate', '/fetch', '/img'],
      );
      for (const { path, headers } of seen) {
        assert.equal(headers.cookie, undefined, `a cookie reached ${path}`);
        assert.equal(headers['x-tock-session'], undefined, `the session header reached ${path}`);
        assert.ok(!JSON.stringify(headers).includes(secret), `the session secret reached ${path}`);
      }

      // From that server's page: the window's API, with whatever the browser adds on its own.
      // The browser keeps these answers from the page (CORS, CORP); the DevTools protocol
      // still shows what the window's server answered.
      // (The two events of one request may arrive in either order: joined by id at the end.)
      const requests = new Map<string, string>();
      const answered = new Map<string, number>();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      cdp.on('Network.requestWillBeSent', (e) => {
        if (e.request.url.startsWith(t.origin)) requests.set(e.requestId, `${e.request.method} ${new URL(e.request.url).pathname}`);
      });
      cdp.on('Network.responseReceivedExtraInfo', (e) => void answered.set(e.requestId, e.statusCode));
      const statuses = (): Record<string, number[]> => {
        const out: Record<string, number[]> = {};
        for (const [id, what] of requests) if (answered.has(id)) (out[what] ??= []).push(answered.get(id) as number);
        return out;
      };
      const read = await page.evaluate(async (ui) => {
        const out: string[] = [];
        for (const [method, path] of [['GET', '/api/state'], ['POST', '/api/token/reveal'], ['GET', '/api/events']]) {
          try {
            const res = await fetch(`${ui}${path}`, { method, credentials: 'include' });
            out.push(`${path} ${res.status} ${await res.text()}`);
          } catch {
            // CORS: nothing readable
          }
          // Opaque, but it reaches the server, and the test sees the status it answered.
          await fetch(`${ui}${path}`, { method, credentials: 'include', mode: 'no-cors' }).catch(() => undefined);
        }
        return out;
      }, t.origin);
      assert.deepEqual(read, [], 'the page read something of the window’s API');
      await until('the window server’s answers to be seen', () => Object.values(statuses()).flat().length === 6).catch((error: Error) =>
        assert.fail(`${error.message}; seen: ${JSON.stringify(statuses())}`),
      );
      assert.deepEqual(statuses(), { 'GET /api/state': [403, 403], 'POST /api/token/reveal': [403, 403], 'GET /api/events': [403, 403] });
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      other.close();
      await t.stop();
    }
  });
});

describe('attack: 1 000 idle connections to the window’s server', () => {
  let target: Target | undefined;
  const sockets: Socket[] = [];
  after(async () => {
    for (const s of sockets) s.destroy();
    await target?.dispose();
  });

  it('leave the listener, the admin socket and the window answering, and hold at most 64 of the app’s descriptors', async () => {
    target = await startTarget();
    const t = target;
    const ui = await uiSession(t);
    const uiPort = Number(new URL(ui.origin).port);
    const fds = (): number => readdirSync(`/proc/${t.process().child.pid}/fd`).length;
    const before = fds();
    let closedByServer = 0;
    const opened: Promise<void>[] = [];
    for (let i = 0; i < 1000; i++) {
      opened.push(
        new Promise((resolve) => {
          const s = connect(uiPort, '127.0.0.1', () => resolve());
          s.on('error', () => resolve());
          s.on('close', () => {
            closedByServer++;
            resolve();
          });
          sockets.push(s);
        }),
      );
    }
    await Promise.all(opened);
    // Each connection past the 64th takes the place of the oldest idle one: 936 are closed by the app.
    await until('the app to close all but 64 idle connections', () => closedByServer >= 1000 - 64);
    assert.ok(fds() <= before + 64, `the app holds ${fds() - before} more descriptors than before (at most 64)`);

    assert.equal((await t.client().healthcheck()).status, 'ok', 'the listener answers');
    const status = await tock(['listener', 'status'], t.env);
    assert.equal(status.stdout.trim(), `active on 127.0.0.1:${t.port}`, 'the admin socket answers');
    const state = await httpGet(`${ui.origin}/api/state`, ui.headers);
    assert.equal(state.status, 200, 'the window answers');
    t.keep(state.text);
    console.log(`# window: 1000 idle connections, ${closedByServer} closed by the app, ${fds() - before} descriptors held`);
  });
});
