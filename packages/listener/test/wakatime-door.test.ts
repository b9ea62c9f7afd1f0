/**
 * The WakaTime door (docs/protocol.md "Editors: WakaTime heartbeats") over real HTTP with an
 * injected clock and stand-in use cases: the editor key's forms, every refusal docs/protocol.md lists, its own
 * lockout beside the signed API's, and the key never in an answer or the request list.
 */

import assert from 'node:assert/strict';
import type { OutgoingHttpHeaders } from 'node:http';
import { describe, it, type TestContext } from 'node:test';
import type { HeartbeatOutcome, StatusBarToday } from '@tock/protocol';
import { presentedKey, editorKeyMatches } from '../src/wakatime/editor-key.ts';
import { TOKEN, sendRaw, startHarness } from './signed-client.ts';

const KEY = '3f2b8c1e-9a4d-4e6f-8b2a-7c5d1e0f9a38';
const BULK = '/wakatime/api/v1/users/current/heartbeats.bulk';
const ONE = '/wakatime/api/v1/users/current/heartbeats';
const TODAY = '/wakatime/api/v1/users/current/statusbar/today';
const BAR: StatusBarToday = {
  cached_at: '2026-11-19T08:00:00.000Z',
  data: {
    grand_total: { decimal: '0.01', digital: '0:01', hours: 0, minutes: 1, text: 'Writing · 1 min', total_seconds: 60 },
    categories: [],
    range: { date: '2026-11-19', start: '2026-11-19T00:00:00.000Z', end: '2026-11-19T23:59:59.000Z', text: 'Today', timezone: 'UTC' },
  },
};

const basic = (text: string): string => `Basic ${Buffer.from(text).toString('base64')}`;

async function door(t: TestContext) {
  const received: { heartbeats: unknown[]; userAgent: string | undefined; machine: string | undefined }[] = [];
  const answered: { userAgent: string | undefined; accepted: number; refusal: string | null; refusalReason?: unknown }[] = [];
  const editorKey = { value: KEY as string | null };
  let committed = 0;
  const h = await startHarness(t, {
    atomically: async (work) => {
      const result = work();
      committed++;
      return result;
    },
    wakatime: {
      editorKey: () => editorKey.value,
      handlers: {
        recordHeartbeats: (input) => {
          received.push(input);
          return input.heartbeats.map((hb, i): HeartbeatOutcome =>
            typeof hb === 'object' && hb !== null && 'entity' in hb ? { data: { id: `id-${i}`, time: 1 } } : { error: 'entity is required' },
          );
        },
        statusBarToday: () => BAR,
        heartbeatsAnswered: (report) => answered.push(report),
      },
    },
  });
  const wk = (o: { method?: string; path?: string; body?: string; auth?: string | null; headers?: OutgoingHttpHeaders } = {}) => {
    const headers: OutgoingHttpHeaders = { host: `127.0.0.1:${h.port}`, 'user-agent': 'wakatime/13.1.0 vim/9.0 vim-wakatime/11.0.0' };
    if (o.auth !== null) headers.authorization = o.auth ?? basic(KEY);
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, o.headers);
    return sendRaw(h.port, o.method ?? (o.body !== undefined ? 'POST' : 'GET'), o.path ?? (o.body !== undefined ? BULK : TODAY), headers, o.body);
  };
  return { h, wk, received, answered, editorKey, committed: () => committed };
}

describe('the editor key', () => {
  it('is read from Basic base64(key), Basic base64(key + ":"), Bearer, with or without waka_', () => {
    for (const header of [basic(KEY), basic(`${KEY}:`), `Bearer ${KEY}`, `bearer waka_${KEY}`, basic(`waka_${KEY}`), basic(KEY.toUpperCase())]) {
      const presented = presentedKey(header);
      assert.ok(presented.present && editorKeyMatches(presented.key, KEY), header);
    }
    for (const header of [basic(TOKEN), `Bearer ${TOKEN}`, 'Digest x', basic(`${KEY}x`), basic(KEY.slice(0, -1)), `Bearer ${KEY} extra`, '']) {
      const presented = presentedKey(header);
      assert.ok(presented.present && !editorKeyMatches(presented.key, KEY), header);
    }
    assert.deepEqual(presentedKey(undefined), { present: false });
    assert.equal(editorKeyMatches(KEY, null), false);
  });

  it('reads each header as sent, also right after another was read (the last reading is kept, not a match)', () => {
    const other = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const sequence: [string, string, boolean][] = [
      [basic(KEY), KEY, true],
      [basic(KEY), other, false],
      [basic(other), KEY, false],
      [basic(other), other, true],
      [`Bearer ${KEY}`, KEY, true],
      ['Digest x', KEY, false],
      [basic(KEY), KEY, true],
    ];
    for (const [header, expected, matches] of sequence) {
      const presented = presentedKey(header);
      assert.equal(presented.present && editorKeyMatches(presented.key, expected), matches, `${header} against ${expected}`);
    }
  });

  it('matches only the whole key: one character off at either end, a prefix, a longer key or a wider character never match', () => {
    const last = KEY.at(-1) === '0' ? '1' : '0';
    for (const presented of [`x${KEY.slice(1)}`, `${KEY.slice(0, -1)}${last}`, KEY.slice(0, 20), `${KEY}0`, '', `${KEY.slice(0, -1)}${String.fromCharCode(0x100 + KEY.charCodeAt(KEY.length - 1))}`]) {
      assert.equal(editorKeyMatches(presented, KEY), false, presented);
    }
    assert.equal(editorKeyMatches(KEY, KEY), true);
  });
});

describe('the WakaTime door', () => {
  it('answers a bulk 201 with responses in order, after the transaction, with editor and machine passed on', async (t) => {
    const { wk, received, committed } = await door(t);
    const answer = await wk({ body: JSON.stringify([{ entity: 'a', time: 1 }, { time: 2 }]), headers: { 'x-machine-name': 'ana' } });
    assert.equal(answer.status, 201, answer.text);
    assert.deepEqual(answer.json, { responses: [[{ data: { id: 'id-0', time: 1 } }, 201], [{ error: 'entity is required' }, 400]] });
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['x-tock-response-signature'], undefined);
    assert.equal(committed(), 1);
    assert.equal(received[0]?.machine, 'ana');
    assert.match(received[0]?.userAgent ?? '', /vim-wakatime/);
  });

  it('takes a bulk at the api_url itself, with and without the slash, as the legacy Python wakatime sends it', async (t) => {
    const { wk, received, committed } = await door(t);
    for (const path of ['/wakatime/api/v1', '/wakatime/api/v1/']) {
      const answer = await wk({ path, body: JSON.stringify([{ entity: 'a', time: 1 }, { time: 2 }]) });
      assert.equal(answer.status, 201, `${path}: ${answer.text}`);
      assert.deepEqual(answer.json, { responses: [[{ data: { id: 'id-0', time: 1 } }, 201], [{ error: 'entity is required' }, 400]] });
      // The same limits and refusals as heartbeats.bulk: an object is no bulk, a wrong key is refused.
      assert.equal((await wk({ path, body: JSON.stringify({ entity: 'a', time: 1 }) })).status, 400);
      assert.equal((await wk({ path, body: '[{"entity":"a","time":1}]', auth: basic(TOKEN) })).status, 401);
      assert.equal((await wk({ path, method: 'GET' })).status, 405);
    }
    assert.equal(received.length, 2);
    assert.equal(committed(), 2);
    assert.equal((await wk({ path: '/wakatime/api/v2', body: '[{"entity":"a","time":1}]' })).status, 404);
  });

  it('tells how each request ended, under its User-Agent: what was accepted and why a request or a heartbeat was refused', async (t) => {
    const { wk, answered } = await door(t);
    const agent = 'wakatime/13.1.0 vim/9.0 vim-wakatime/11.0.0';
    await wk({ body: JSON.stringify([{ entity: 'a', time: 1 }, { time: 2 }]) });
    await wk({ body: '[{"entity":"a","time":1}]', auth: basic('00000000-0000-4000-8000-000000000000') });
    await wk({ body: '{}' });
    await wk({ path: ONE, body: JSON.stringify({ time: 1 }) });
    await wk();
    // Each refusal with its code and values beside its English (docs/i18n.md); the answer's body is unchanged.
    assert.deepEqual(answered, [
      { userAgent: agent, accepted: 1, refusal: 'entity is required', refusalReason: { code: 'editor_heartbeat', values: { error: 'entity is required' } } },
      { userAgent: agent, accepted: 0, refusal: 'the editor key is wrong; `tock editors key` prints the right one', refusalReason: { code: 'editor_key_wrong', values: { command: 'tock editors key' } } },
      { userAgent: agent, accepted: 0, refusal: 'the body must be a JSON array of 1 to 1000 heartbeats', refusalReason: { code: 'editor_body_shape', values: { shape: 'array' } } },
      { userAgent: agent, accepted: 0, refusal: 'entity is required', refusalReason: { code: 'editor_heartbeat', values: { error: 'entity is required' } } },
    ]);
  });

  it('answers a single heartbeat 201 {data} or 400 {error}', async (t) => {
    const { wk } = await door(t);
    const ok = await wk({ path: ONE, body: JSON.stringify({ entity: 'a', time: 1 }) });
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.json, { data: { id: 'id-0', time: 1 } });
    const bad = await wk({ path: ONE, body: JSON.stringify({ time: 1 }) });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json, { error: 'entity is required' });
    assert.equal((await wk({ path: ONE, body: '[]' })).status, 400);
  });

  it('answers 400 with the responses when every heartbeat of a bulk is refused, and 400 for a body that is no such array', async (t) => {
    const { wk, received } = await door(t);
    const all = await wk({ body: JSON.stringify([{ time: 1 }]) });
    assert.equal(all.status, 400);
    assert.deepEqual(all.json.responses, [[{ error: 'entity is required' }, 400]]);
    for (const body of ['{}', '[]', '"x"', 'null']) {
      const answer = await wk({ body });
      assert.equal(answer.status, 400, body);
      assert.equal(typeof answer.json.error, 'string');
    }
    const invalid = await wk({ body: '[{"entity":' });
    assert.equal(invalid.status, 400);
    assert.match(invalid.json.error, /not valid UTF-8 JSON/);
    assert.equal((await wk({ body: '[]', headers: { 'content-type': 'text/plain' } })).status, 415);
    const tooMany = await wk({ body: JSON.stringify(Array.from({ length: 1001 }, () => ({ entity: 'a', time: 1 }))) });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.json.error, /at most 1000/);
    const thousand = await wk({ body: JSON.stringify(Array.from({ length: 1000 }, () => ({ entity: 'a', time: 1 }))) });
    assert.equal(thousand.status, 201);
    assert.equal(received.length, 2); // the all-refused bulk and the 1 000: nothing else reached the use case
  });

  it('takes bodies up to 2 MiB and answers 413 beyond, declared or not', async (t) => {
    const { wk } = await door(t);
    const entity = 'x'.repeat(4000);
    const items = Array.from({ length: 500 }, () => ({ entity, time: 1 }));
    const body = JSON.stringify(items);
    assert.ok(body.length > 64 * 1024 && body.length < 2 * 1024 * 1024);
    assert.equal((await wk({ body })).status, 201);
    const big = JSON.stringify([{ entity: 'x'.repeat(2 * 1024 * 1024), time: 1 }]);
    const declared = await wk({ body: big });
    assert.equal(declared.status, 413);
    assert.match(declared.json.error, /2 MiB/);
    const { h } = await door(t);
    const chunked = await sendRaw(
      h.port,
      'POST',
      BULK,
      { host: `127.0.0.1:${h.port}`, authorization: basic(KEY), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      undefined,
      [Buffer.from(big.slice(0, 1024 * 1024)), Buffer.from(big.slice(1024 * 1024))],
    );
    assert.equal(chunked.status, 413);
  });

  it('serves the status bar with the key', async (t) => {
    const { wk } = await door(t);
    const answer = await wk();
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, BAR);
  });

  it('refuses a missing or wrong key 401 {error}, the listener token included, and without any key made', async (t) => {
    const { wk, editorKey } = await door(t);
    for (const auth of [null, basic('00000000-0000-4000-8000-000000000000'), `Bearer ${TOKEN}`, basic(TOKEN)]) {
      const answer = await wk({ auth });
      assert.equal(answer.status, 401, String(auth));
      assert.deepEqual(Object.keys(answer.json), ['error']);
    }
    editorKey.value = null;
    assert.equal((await wk()).status, 401);
  });

  it('refuses the editor key on the signed API, and the signed API token on the door', async (t) => {
    const { h, wk } = await door(t);
    for (const auth of [basic(KEY), `Bearer ${KEY}`]) {
      const answer = await h.send({ sign: false, headers: { authorization: auth } });
      assert.equal(answer.status, 401);
      assert.equal(answer.json.code, 'missing_auth');
    }
    // A request signed with the token, sent to the door: no editor key → 401.
    const signed = await h.send({ target: TODAY, headers: {} });
    assert.equal(signed.status, 401);
    assert.equal((await wk({ auth: `Bearer ${TOKEN}` })).status, 401);
  });

  it('locks the door out for 60 s after 11 wrong keys in 30 s, while the signed API still answers', async (t) => {
    const { h, wk } = await door(t);
    const wrong = basic('00000000-0000-4000-8000-000000000000');
    for (let i = 0; i < 10; i++) assert.equal((await wk({ auth: wrong })).status, 401);
    for (let i = 0; i < 5; i++) assert.equal((await wk({ auth: null })).status, 401); // a missing key does not count
    assert.equal((await wk()).status, 200);
    assert.equal((await wk({ auth: wrong })).status, 401);
    const locked = await wk();
    assert.equal(locked.status, 429);
    assert.equal(locked.headers['retry-after'], '60');
    assert.match(locked.json.error, /try again in 60 s/);
    assert.equal((await wk({ body: '[]' })).status, 429);
    assert.equal((await h.send()).status, 200); // the signed API is not locked
    h.clock.now += 60_000;
    assert.equal((await wk()).status, 200);
  });

  it("the signed API's lockout leaves the door open", async (t) => {
    const { h, wk } = await door(t);
    for (let i = 0; i < 11; i++) await h.sendBadSignature();
    assert.equal((await h.send()).status, 429);
    assert.equal((await wk()).status, 200);
  });

  it('refuses a foreign Host and browser requests 403, a locked license 423, unknown paths 404 and wrong methods 405', async (t) => {
    const { h, wk } = await door(t);
    assert.equal((await wk({ headers: { host: 'evil.example:80' } })).status, 403);
    assert.equal((await wk({ headers: { host: `localhost:${h.port}` } })).status, 200);
    const browser = await wk({ headers: { origin: 'https://evil.example' } });
    assert.equal(browser.status, 403);
    assert.match(browser.json.error, /browsers/);
    assert.equal((await wk({ headers: { 'sec-fetch-site': 'cross-site' } })).status, 403);
    assert.equal((await wk({ path: '/wakatime/api/v1/users/current/summaries' })).status, 404);
    const wrongMethod = await wk({ method: 'GET', path: BULK });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.allow, 'POST');
    h.license.state = 'locked';
    const locked = await wk();
    assert.equal(locked.status, 423);
    assert.equal(locked.text, '{"error":"license locked"}');
    assert.equal((await wk({ body: '[{"entity":"a","time":1}]' })).status, 423);
  });

  it('tells a 404, 405, 423, 500 and 503 by their codes beside the English, the answers byte for byte as before', async (t) => {
    const { h, wk, answered } = await door(t);
    const summaries = await wk({ path: '/wakatime/api/v1/users/current/summaries' });
    assert.equal(summaries.text, '{"error":"there is no endpoint GET /wakatime/api/v1/users/current/summaries"}');
    const wrongMethod = await wk({ method: 'GET', path: BULK });
    assert.equal(wrongMethod.text, `{"error":"${BULK} accepts POST only"}`);
    h.license.state = 'locked';
    assert.equal((await wk()).text, '{"error":"license locked"}');
    const reasons = answered.map((a) => [a.refusal, a.refusalReason]);
    assert.deepEqual(reasons, [
      ['there is no endpoint GET /wakatime/api/v1/users/current/summaries', { code: 'editor_no_endpoint', values: { method: 'GET', path: '/wakatime/api/v1/users/current/summaries' } }],
      [`${BULK} accepts POST only`, { code: 'editor_method', values: { path: BULK, allowed: 'POST' } }],
      ['license locked', { code: 'editor_license_locked' }],
    ]);

    const told: { refusal: string | null; refusalReason?: unknown }[] = [];
    const failing = await startHarness(t, {
      onError: () => {},
      wakatime: {
        editorKey: () => KEY,
        handlers: {
          recordHeartbeats: () => {
            throw new Error('disk on fire');
          },
          heartbeatsAnswered: (report) => told.push(report),
        },
      },
    });
    const headers = { host: `127.0.0.1:${failing.port}`, authorization: basic(KEY), 'content-type': 'application/json' };
    const failed = await sendRaw(failing.port, 'POST', BULK, headers, '[{"entity":"a","time":1}]');
    assert.equal(failed.status, 500);
    assert.equal(failed.text, '{"error":"Tock failed to handle the request; see the app log"}');
    const missing = await sendRaw(failing.port, 'GET', TODAY, { host: `127.0.0.1:${failing.port}`, authorization: basic(KEY) });
    assert.equal(missing.status, 503);
    assert.equal(missing.text, `{"error":"${TODAY} is not available in this version of the app"}`);
    assert.deepEqual(
      told.map((a) => a.refusalReason),
      [{ code: 'editor_failed' }, { code: 'editor_unavailable', values: { path: TODAY } }],
    );
  });

  it('answers 503 when the use cases are not wired, and is only there while the listener listens', async (t) => {
    const h = await startHarness(t, { wakatime: { editorKey: () => KEY, handlers: {} } });
    const answer = await sendRaw(h.port, 'GET', TODAY, { host: `127.0.0.1:${h.port}`, authorization: basic(KEY) });
    assert.equal(answer.status, 503);
    const port = h.port;
    await h.listener.close();
    await assert.rejects(sendRaw(port, 'GET', TODAY, { host: `127.0.0.1:${port}`, authorization: basic(KEY) }), /ECONNREFUSED/);
  });

  it('lists requests by path only, and never shows the key in an answer or the request list', async (t) => {
    const { h, wk } = await door(t);
    const answers = [
      await wk(),
      await wk({ auth: basic('00000000-0000-4000-8000-000000000000') }),
      await wk({ path: `${TODAY}?api_key=${KEY}` }),
      await wk({ body: JSON.stringify([{ entity: KEY, time: 1 }]).replace(KEY, 'a') }),
    ];
    const list = h.listener.requests();
    assert.deepEqual(
      list.slice(0, 4).map((r) => [r.method, r.path, r.status]),
      [
        ['POST', BULK, 201],
        ['GET', TODAY, 200],
        ['GET', TODAY, 401],
        ['GET', TODAY, 200],
      ],
    );
    const seen = JSON.stringify({ list, answers: answers.map((a) => [a.text, a.headers]) });
    assert.equal(seen.includes(KEY), false);
    assert.equal(seen.includes(Buffer.from(KEY).toString('base64')), false);
  });
});

describe('the WakaTime browser extension at the door', () => {
  const EXTENSION = 'chrome-extension://jnbbnacmeggbgdjgaoojpmhdlkkpblgi';
  const FIREFOX = 'moz-extension://0d3c5f1a-8a3b-4d2e-9f11-2b7c6a5e4d30';
  /** browser-wakatime's sendHeartbeats: the key in the query, a string body (text/plain), its own Origin, no Authorization. */
  const fromExtension = (origin: string, key: string = KEY, extra: OutgoingHttpHeaders = {}) => ({
    path: `${BULK}?api_key=${key}`,
    auth: null,
    body: JSON.stringify([{ entity: 'https://example.com/a', time: '1795338000.123', type: 'url', project: '<<LAST_PROJECT>>', plugin: 'Chrome/131 linux chrome-wakatime/4.1.1' }]),
    headers: { origin, 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'none', 'sec-fetch-mode': 'cors', ...extra },
  });

  it("admits a chrome- or moz-extension Origin with the key as ?api_key= and a text/plain body, and names the origin for CORS", async (t) => {
    const { wk, received } = await door(t);
    for (const origin of [EXTENSION, FIREFOX]) {
      const answer = await wk(fromExtension(origin));
      assert.equal(answer.status, 201, answer.text);
      assert.equal(answer.headers['access-control-allow-origin'], origin);
      assert.equal(answer.headers.vary, 'Origin');
    }
    assert.equal(received.length, 2);
    // waka_-prefixed and upper case too, as in Authorization.
    assert.equal((await wk(fromExtension(EXTENSION, `waka_${KEY.toUpperCase()}`))).status, 201);
  });

  it("answers an extension's preflight 204 without a key, and only an extension's", async (t) => {
    const { wk, received } = await door(t);
    const preflight = await wk({ method: 'OPTIONS', path: BULK, auth: null, headers: { origin: EXTENSION, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-machine-name' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], EXTENSION);
    assert.match(String(preflight.headers['access-control-allow-headers']), /x-machine-name/);
    const page = await wk({ method: 'OPTIONS', path: BULK, auth: null, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    assert.equal(page.status, 403);
    assert.equal(page.headers['access-control-allow-origin'], undefined);
    assert.equal(received.length, 0);
  });

  it('still refuses every other Origin 403, key or not, text/plain or JSON, with no CORS header', async (t) => {
    const { wk, received } = await door(t);
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:8080', 'chrome-extension://', 'chrome-extension://a/b', 'moz-extension://x.evil.example', 'chrome-extension://abc, https://evil.example', 'file://']) {
      for (const type of ['text/plain', 'application/json']) {
        const answer = await wk({ ...fromExtension(origin), headers: { ...fromExtension(origin).headers, 'content-type': type } });
        assert.equal(answer.status, 403, `${origin} ${type}`);
        assert.equal(answer.headers['access-control-allow-origin'], undefined);
      }
    }
    assert.equal(received.length, 0);
  });

  it('takes text/plain only from an extension: any other client sends JSON as JSON', async (t) => {
    const { wk } = await door(t);
    const plain = await wk({ body: '[{"entity":"a","time":1}]', headers: { 'content-type': 'text/plain' } });
    assert.equal(plain.status, 415);
  });

  it('a wrong ?api_key= is a wrong key: 401, counted toward the lockout; Authorization wins over the query', async (t) => {
    const { wk } = await door(t);
    const wrong = await wk(fromExtension(EXTENSION, '00000000-0000-4000-8000-000000000000'));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers['access-control-allow-origin'], EXTENSION, 'the extension reads the 401 and says "not signed in"');
    assert.equal((await wk({ path: `${TODAY}?api_key=${KEY}&api_key=${KEY}`, auth: null })).status, 401);
    assert.equal((await wk({ path: `${TODAY}?api_key=`, auth: null })).status, 401);
    assert.equal((await wk({ path: `${TODAY}?api_key=${KEY}`, auth: basic('00000000-0000-4000-8000-000000000000') })).status, 401);
    for (let i = 0; i < 8; i++) await wk({ path: `${TODAY}?api_key=nope`, auth: null });
    const locked = await wk({ path: `${TODAY}?api_key=${KEY}`, auth: null });
    assert.equal(locked.status, 429);
  });

  it('never lists or answers the ?api_key=: the request list holds the path without its query', async (t) => {
    const { h, wk } = await door(t);
    const answers = [await wk(fromExtension(EXTENSION)), await wk(fromExtension(EXTENSION, `${KEY}x`))];
    const list = h.listener.requests();
    assert.deepEqual(
      list.slice(0, 2).map((r) => [r.method, r.path, r.status]),
      [
        ['POST', BULK, 401],
        ['POST', BULK, 201],
      ],
    );
    const seen = JSON.stringify({ list, answers: answers.map((a) => [a.text, a.headers]) });
    assert.equal(seen.includes(KEY), false);
    assert.equal(seen.includes('api_key'), false);
  });
});
