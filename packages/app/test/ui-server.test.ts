/**
 * The window's server at the HTTP level: launch codes and the session header, the Host,
 * Origin and Sec-Fetch-Site checks, the security headers, the token only on an explicit
 * same-origin request, and the page shown when the window was never built.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { branchSuggestions } from '../src/ui/window-views.ts';
import { startUiServer } from '../src/ui/server.ts';
import { openCommand } from '../src/ui/open.ts';
import { hostAllowed, originAllowed } from '../src/ui/security.ts';
import { ensureWindowBuilt, freePort, rawRequest, startTestApp, windowSession, type TestApp } from './ui-support/harness.ts';

let t: TestApp;
let session: Record<string, string>;

function own(extra: Record<string, string> = {}): Record<string, string> {
  return { host: `127.0.0.1:${t.port}`, ...session, ...extra };
}

/** `POST /launch` as the window sends it: same origin, JSON `{code}`. */
function redeem(code: string, extra: Record<string, string> = {}) {
  return rawRequest(t.port, 'POST', '/launch', { host: `127.0.0.1:${t.port}`, origin: t.origin, 'content-type': 'application/json', ...extra }, JSON.stringify({ code }));
}

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp();
  session = await windowSession(t);
});
after(async () => {
  await t.stop();
});

describe('the window server', () => {
  it('listens on 127.0.0.1 and prints an address with a launch code', () => {
    assert.match(t.url, /^http:\/\/127\.0\.0\.1:\d+\/\?k=[A-Za-z0-9_-]{32}$/);
  });

  it('serves the window at a launch address, and trades the code once, in a same-origin POST, for a session header — never a cookie', async () => {
    const url = new URL(t.launchUrl());
    const code = url.searchParams.get('k') as string;
    const page = await rawRequest(t.port, 'GET', url.pathname + url.search, { host: `127.0.0.1:${t.port}` });
    assert.equal(page.status, 200, 'looking at the address does not use its code');
    assert.match(page.body, /<script type="module"[^>]* src="\/assets\//);
    assert.equal(page.headers['set-cookie'], undefined);
    assert.equal((await redeem(code, { origin: 'https://evil.example' })).status, 403, 'another origin');
    assert.equal((await redeem(code, { 'sec-fetch-site': 'same-site' })).status, 403, 'another port of 127.0.0.1');
    const first = await redeem(code);
    assert.equal(first.status, 200);
    assert.equal(first.headers['set-cookie'], undefined, 'no cookie');
    const secret = JSON.parse(first.body).result.session as string;
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(secret, code);
    assert.equal((await rawRequest(t.port, 'GET', '/api/state', { host: `127.0.0.1:${t.port}`, 'x-tock-session': secret })).status, 200);
    const again = await redeem(code);
    assert.equal(again.status, 410);
    assert.equal(JSON.parse(again.body).code, 'launch_code_used');
  });

  it('refuses every request under /api/ without a valid session header (401), and one from another site (403)', async () => {
    const host = { host: `127.0.0.1:${t.port}` };
    const anonymous = await rawRequest(t.port, 'GET', '/api/state', host);
    assert.equal(anonymous.status, 401);
    assert.match(JSON.parse(anonymous.body).error, /tock open/);
    assert.equal((await rawRequest(t.port, 'GET', '/api/state', { ...host, 'x-tock-session': 'not-a-session' })).status, 401);
    assert.equal((await rawRequest(t.port, 'GET', '/api/events', host)).status, 401);
    for (const site of ['cross-site', 'same-site', 'none']) {
      assert.equal((await rawRequest(t.port, 'GET', '/api/state', own({ 'sec-fetch-site': site }))).status, 403, site);
    }
    assert.equal((await rawRequest(t.port, 'GET', '/api/state', own({ 'sec-fetch-site': 'same-origin' }))).status, 200);
    assert.equal((await rawRequest(t.port, 'GET', '/?k=not-a-code', host)).status, 403);
  });

  it('serves the window and its API to the session, as 127.0.0.1 and as localhost', async () => {
    const page = await rawRequest(t.port, 'GET', '/', own());
    assert.equal(page.status, 200);
    assert.match(page.body, /<script type="module"[^>]* src="\/assets\//);
    const state = await rawRequest(t.port, 'GET', '/api/state', own({ host: `localhost:${t.port}` }));
    assert.equal(state.status, 200);
    assert.equal(JSON.parse(state.body).result.listener.line, 'off');
  });

  it('refuses a foreign Host with 403, even with a valid session (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${t.port}`, `127.0.0.1:${t.port + 1}`, `127.0.0.1`, `0.0.0.0:${t.port}`]) {
      const res = await rawRequest(t.port, 'GET', '/api/state', own({ host }));
      assert.equal(res.status, 403, host);
    }
    const url = new URL(t.launchUrl());
    assert.equal((await rawRequest(t.port, 'GET', url.pathname + url.search, { host: `rebind.example:${t.port}` })).status, 403);
  });

  it('refuses a change from a foreign Origin or without Origin with 403, and takes it from its own origin', async () => {
    const body = JSON.stringify({ name: 'Origin check', createIfMissing: true });
    const json = { 'content-type': 'application/json' };
    for (const origin of ['https://evil.example', `http://localhost:${t.port + 1}`, 'null', `http://127.0.0.1:${t.port}.evil.example`]) {
      const res = await rawRequest(t.port, 'POST', '/api/start', own({ ...json, origin }), body);
      assert.equal(res.status, 403, origin);
    }
    assert.equal((await rawRequest(t.port, 'POST', '/api/start', own(json), body)).status, 403);
    assert.equal(
      (await rawRequest(t.port, 'POST', '/api/start', own({ ...json, origin: t.origin, 'sec-fetch-site': 'cross-site' }), body)).status,
      403,
    );
    assert.equal(t.app.services.tracker.getStatus().isTracking, false, 'nothing was started by the refused requests');
    const ok = await rawRequest(t.port, 'POST', '/api/start', own({ ...json, origin: t.origin, 'sec-fetch-site': 'same-origin' }), body);
    assert.equal(ok.status, 200);
    assert.equal(t.app.services.tracker.getStatus().currentActivity?.activityName, 'Origin check');
    await rawRequest(t.port, 'POST', '/api/stop', own({ origin: t.origin }));
  });

  it('sends a strict CSP, nosniff, no-referrer and X-Frame-Options: DENY, and never a CORS header', async () => {
    const responses = [
      await rawRequest(t.port, 'GET', '/', own()),
      await rawRequest(t.port, 'GET', '/api/state', own({ origin: 'https://evil.example' })),
      await rawRequest(t.port, 'OPTIONS', '/api/start', own({ origin: 'https://evil.example', 'access-control-request-method': 'POST' })),
      await rawRequest(t.port, 'GET', '/', { host: 'evil.example' }),
    ];
    for (const res of responses) {
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      for (const name of Object.keys(res.headers)) assert.doesNotMatch(name, /^access-control-/);
    }
    assert.equal(responses[2]?.status, 403, 'a CORS preflight is refused');
  });

  it('answers validation problems from the tracker as 400 with the message and details', async () => {
    const res = await rawRequest(
      t.port,
      'POST',
      '/api/entries',
      own({ origin: t.origin, 'content-type': 'application/json' }),
      JSON.stringify({ name: 'Docs', createIfMissing: true, durationMinutes: 0 }),
    );
    assert.equal(res.status, 400);
    const body = JSON.parse(res.body);
    assert.equal(body.code, 'validation_failed');
    assert.deepEqual(body.details.map((d: { field: string }) => d.field), ['durationMinutes']);
  });

  it('renames an activity: a bad name or body is 400 with field details, an unknown ID 404', async () => {
    const { tracker } = t.app.services;
    const docs = tracker.createActivity('Server docs');
    tracker.createActivity('Server review');
    const json = { origin: t.origin, 'content-type': 'application/json' };
    const rename = (id: string, body: string, headers: Record<string, string> = json) =>
      rawRequest(t.port, 'PATCH', `/api/activities/${encodeURIComponent(id)}`, own(headers), body);

    // Each refused field carries its rule's code beside the English (docs/i18n.md); a taken name its values too.
    for (const [body, message, rule] of [
      ['{}', 'must be a string', 'string'],
      [JSON.stringify({ name: 42 }), 'must be a string', 'string'],
      [JSON.stringify({ name: '   ' }), 'must not be empty', 'notEmpty'],
      [JSON.stringify({ name: 'server REVIEW' }), 'an activity named "Server review" already exists; choose another name, or merge the two (tock activity merge)', 'activityExists'],
    ] as const) {
      const res = await rename(docs.activityID, body);
      assert.equal(res.status, 400, body);
      const answer = JSON.parse(res.body);
      assert.equal(answer.code, 'validation_failed', body);
      assert.equal(answer.error, `name: ${message}`, body);
      const values = rule === 'activityExists' ? { values: { name: 'Server review' } } : {};
      assert.deepEqual(answer.details, [{ field: 'name', message, rule, ...values }], body);
    }
    const array = await rename(docs.activityID, '["Server handbook"]');
    assert.equal(array.status, 400);
    assert.deepEqual(JSON.parse(array.body).details.map((d: { field: string }) => d.field), ['body']);

    const unknown = await rename('no-such-activity', JSON.stringify({ name: 'Server handbook' }));
    assert.equal(unknown.status, 404);
    const missing = JSON.parse(unknown.body);
    assert.equal(missing.code, 'activity_not_found');
    assert.equal(missing.error, 'no activity with ID "no-such-activity"');
    assert.equal((await rename(docs.activityID, JSON.stringify({ name: 'Server handbook' }), { 'content-type': 'application/json' })).status, 403, 'no Origin');
    assert.equal(tracker.listActivities().find((a) => a.activityID === docs.activityID)?.activityName, 'Server docs', 'nothing changed');

    const ok = await rename(docs.activityID, JSON.stringify({ name: '  Server handbook ' }));
    assert.equal(ok.status, 200);
    assert.deepEqual(JSON.parse(ok.body).result, { activityID: docs.activityID, activityName: 'Server handbook' });
    assert.equal(tracker.listActivities().find((a) => a.activityID === docs.activityID)?.activityName, 'Server handbook');
  });

  it('searches with the protocol\'s default and bounds: 20 without a limit, a limit outside 1–100 refused', async () => {
    const { tracker } = t.app.services;
    for (let i = 0; i < 25; i++) tracker.createActivity(`Limit probe ${i}`);
    const search = async (query: string) => {
      const res = await rawRequest(t.port, 'GET', `/api/activities?q=limit%20probe${query}`, own());
      return { status: res.status, body: JSON.parse(res.body) };
    };
    assert.equal((await search('')).body.result.length, 20);
    assert.equal((await search('&limit=8')).body.result.length, 8);
    assert.equal((await search('&limit=100')).body.result.length, 25);
    for (const limit of ['0', '101', '2.5', 'many']) {
      const refused = await search(`&limit=${limit}`);
      assert.equal(refused.status, 400, limit);
      assert.equal(refused.body.code, 'validation_failed', limit);
      assert.deepEqual(refused.body.details, [{ field: 'limit', message: 'must be an integer from 1 to 100', rule: 'numberRange', values: { kind: 'integer', min: 1, max: 100 } }], limit);
    }
  });

  it('refuses a credential store other than "os" or "file" with 400 and field details', async () => {
    const res = await rawRequest(
      t.port,
      'POST',
      '/api/credential-store',
      own({ origin: t.origin, 'content-type': 'application/json' }),
      JSON.stringify({ kind: 'floppy' }),
    );
    assert.equal(res.status, 400);
    const answer = JSON.parse(res.body);
    // The listener's words for a field outside its values (the window's door checks with its validator).
    assert.equal(answer.error, 'kind: must be one of os, file');
    // Beside the English, the rule's code and values, for the window to word in its language.
    assert.deepEqual(answer.details, [{ field: 'kind', message: 'must be one of os, file', rule: 'oneOf', values: { options: 'os, file' } }]);
    assert.equal(t.app.services.tokens.store.kind, 'file', 'the store did not change');
  });

  it('gives the token only to an explicit same-origin POST, never in a page, a GET or an event', async () => {
    await t.app.services.listener.setPort(await freePort());
    await t.app.services.listener.enable();
    const token = t.app.services.tokens.read() as string;
    try {
      for (const path of ['/', '/api/state', '/api/token', '/api/listener']) {
        const res = await rawRequest(t.port, 'GET', path, own());
        assert.ok(!res.body.includes(token), path);
      }
      assert.equal((await rawRequest(t.port, 'GET', '/api/token/reveal', own())).status, 405);
      assert.equal((await rawRequest(t.port, 'POST', '/api/token/reveal', own())).status, 403);
      assert.equal((await rawRequest(t.port, 'POST', '/api/token/reveal', own({ origin: 'https://evil.example' }))).status, 403);
      const res = await rawRequest(t.port, 'POST', '/api/token/reveal', own({ origin: t.origin }));
      assert.equal(res.status, 200);
      assert.equal(JSON.parse(res.body).result.token, token);
      assert.equal(res.headers['cache-control'], 'no-store');
    } finally {
      await t.app.services.listener.disable();
    }
  });

  it('keeps at most 16 event streams, and a stream whose client went away (RST) frees its place at once', async () => {
    const streams: Socket[] = [];
    const open = (): Promise<{ socket: Socket; status: number }> =>
      new Promise((resolve) => {
        const socket = connect(t.port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nX-Tock-Session: ${session['x-tock-session']}\r\n\r\n`);
        socket.once('data', (c: Buffer) => resolve({ socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(c.toString())?.[1]) }));
      });
    try {
      for (let i = 0; i < 16; i++) {
        const opened = await open();
        streams.push(opened.socket);
        assert.equal(opened.status, 200);
      }
      const full = await open();
      full.socket.destroy();
      assert.equal(full.status, 429, 'the 17th is refused');
      (streams.shift() as Socket).resetAndDestroy();
      // The place is freed by the socket's close, not by a timer: the next turns of the event loop see it.
      let next = await open();
      for (let i = 0; next.status === 429 && i < 50; i++) {
        next.socket.destroy();
        await new Promise((resolve) => setImmediate(resolve));
        next = await open();
      }
      streams.push(next.socket);
      assert.equal(next.status, 200);
    } finally {
      for (const socket of streams) socket.destroy();
    }
  });

  it('falls back to a free port when the preferred one is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    const ui = await startUiServer(t.app.services, { port: taken });
    try {
      assert.notEqual(ui.port, taken);
      assert.ok(ui.launchUrl().startsWith(`http://127.0.0.1:${ui.port}/?k=`));
    } finally {
      await ui.close();
      blocker.close();
    }
  });

  it('says in one line to run `npm run build:ui` when the window was never built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tock-ui-empty-'));
    const ui = await startUiServer(t.app.services, { assetsDir: empty });
    try {
      const url = new URL(ui.launchUrl());
      const res = await rawRequest(ui.port, 'GET', '/', { host: url.host });
      assert.equal(res.status, 503);
      assert.match(res.body, /npm run build:ui/);
      assert.equal(res.body.trim().split('\n').length, 1);
    } finally {
      await ui.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('branch prompt suggestions', () => {
  it('match the branch, its last path segment, and that segment in words', () => {
    const { tracker } = t.app.services;
    tracker.createActivity('Login page');
    tracker.createActivity('feature/search');
    tracker.createActivity('Billing');
    const names = (branch: string) => branchSuggestions(t.app.services, branch).map((a) => a.activityName);
    assert.deepEqual(names('feature/login-page'), ['Login page']);
    assert.deepEqual(names('feature/search'), ['feature/search']);
    assert.deepEqual(names('main'), []);
  });
});

describe('window guard rails', () => {
  it('accept only 127.0.0.1:<port> and localhost:<port> as Host', () => {
    assert.ok(hostAllowed('127.0.0.1:4000', 4000));
    assert.ok(hostAllowed('LOCALHOST:4000', 4000));
    assert.ok(!hostAllowed(undefined, 4000));
    assert.ok(!hostAllowed('[::1]:4000', 4000));
    assert.ok(!hostAllowed('127.0.0.1:40000', 4000));
  });

  it('let GET through and require the own origin for everything else', () => {
    assert.ok(originAllowed('GET', 'https://evil.example', 'cross-site', '127.0.0.1:4000'));
    assert.ok(originAllowed('POST', 'http://127.0.0.1:4000', undefined, '127.0.0.1:4000'));
    assert.ok(!originAllowed('POST', 'http://localhost:4000', undefined, '127.0.0.1:4000'));
    assert.ok(!originAllowed('DELETE', undefined, undefined, '127.0.0.1:4000'));
    assert.ok(!originAllowed('PATCH', 'http://127.0.0.1:4000', 'same-site', '127.0.0.1:4000'));
  });
});

describe('openInBrowser', () => {
  it('opens the launch file as an app window with Chromium where it is installed, else in the default browser: a path, never a code', () => {
    const file = '/home/someone/.local/share/tock/open-abc.html';
    const bin = mkdtempSync(join(tmpdir(), 'tock-bin-'));
    try {
      writeFileSync(join(bin, 'chromium'), '#!/bin/sh\n', { mode: 0o755 });
      assert.deepEqual(openCommand(file, 'linux', { PATH: bin }), [join(bin, 'chromium'), `--app=file://${file}`]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
    assert.deepEqual(openCommand(file, 'linux', { PATH: '/nonexistent' }), ['xdg-open', file]);
    assert.deepEqual(openCommand(file, 'darwin', {}), ['open', file]);
    assert.equal(openCommand(file, 'win32', {})[2], 'start');
  });
});
