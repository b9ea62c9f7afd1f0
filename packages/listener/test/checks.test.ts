/** The checks of docs/protocol.md "Order of checks on the server", one behaviour per test, over real HTTP with an injected clock. */

import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { describe, it } from 'node:test';
import { LICENSE_LOCKED_BODY } from '@tock/protocol';
import { createListener } from '../src/index.ts';
import {
  START_MS,
  TOKEN,
  authHeaders,
  expectedResponseSignature,
  freshNonce,
  sendRaw,
  startHarness,
  stubHandlers,
  type Answer,
} from './signed-client.ts';

function assertError(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.json?.ok, false, answer.text);
  assert.equal(answer.json?.code, code, answer.text);
  assert.equal(typeof answer.json?.error, 'string');
}

function assertSigned(answer: Answer): void {
  assert.ok(answer.nonce, 'request was signed');
  assert.equal(answer.headers['x-tock-response-signature'], expectedResponseSignature(answer.nonce, answer.status, answer.text));
}

function assertUnsigned(answer: Answer): void {
  assert.equal(answer.headers['x-tock-response-signature'], undefined);
}

describe('a verified request', () => {
  it('answers GET /status with the success envelope and the standard headers', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send();
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, {
      ok: true,
      result: {
        isTracking: true,
        isOnBreak: false,
        currentActivity: { activityID: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12', activityName: 'Writing' },
        todaySeconds: 60,
        since: '2026-11-19T08:00:00.000Z',
      },
    });
    assert.equal(answer.headers['x-tock-api-version'], '1');
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assertSigned(answer);
  });

  it('answers /healthcheck itself with the app version and license', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ target: '/healthcheck' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { ok: true, result: { status: 'ok', apiVersion: 1, appVersion: '1.2.3', license: 'trial' } });
    assertSigned(answer);
  });

  it('accepts localhost:<port> as Host and a Host in upper case', async (t) => {
    const h = await startHarness(t);
    assert.equal((await h.send({ headers: { host: `localhost:${h.port}` } })).status, 200);
    assert.equal((await h.send({ headers: { host: `LOCALHOST:${h.port}` } })).status, 200);
  });

  it('verifies the signature against the target as sent, query included', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ target: '/activities/search?q=caf%C3%A9%20time&limit=5' });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(h.calls.searchActivities, [{ q: 'café time', limit: 5 }]);
  });

  it('uses a rotated token at once and refuses the old one', async (t) => {
    const h = await startHarness(t);
    assert.equal((await h.send()).status, 200);
    h.token.value = 'a-brand-new-token-value-0000000000000000000';
    assertError(await h.send(), 401, 'bad_signature');
    const answer = await h.send({ token: 'a-brand-new-token-value-0000000000000000000' });
    assert.equal(answer.status, 200);
    assert.equal(
      answer.headers['x-tock-response-signature'],
      expectedResponseSignature(answer.nonce as string, 200, answer.text, 'a-brand-new-token-value-0000000000000000000'),
    );
  });

  it('refuses every request as bad_signature while there is no token', async (t) => {
    const h = await startHarness(t);
    h.token.value = null;
    assertError(await h.send(), 401, 'bad_signature');
  });
});

describe('step 0: header size', () => {
  it('answers 431 to a 20 KiB header', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ headers: { 'x-padding': 'a'.repeat(20 * 1024) } });
    assert.equal(answer.status, 431);
    assert.equal(answer.headers['access-control-allow-origin'], undefined);
  });
});

describe('requests the HTTP parser refuses', () => {
  it('answers malformed HTTP with 400 and keeps serving', async (t) => {
    const h = await startHarness(t);
    const { connect } = await import('node:net');
    const reply = await new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: h.port }, () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
    });
    assert.match(reply, /^HTTP\/1\.1 400 /);
    assert.match(reply, /x-tock-api-version: 1/i);
    assert.equal((await h.send()).status, 200);
  });
});

describe('step 1: Host', () => {
  it('refuses a foreign Host with 403 forbidden_host', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ headers: { host: `evil.example:${h.port}` } });
    assertError(answer, 403, 'forbidden_host');
    assertUnsigned(answer);
  });

  it('refuses the right name with another port', async (t) => {
    const h = await startHarness(t);
    assertError(await h.send({ headers: { host: `127.0.0.1:${h.port + 1}` } }), 403, 'forbidden_host');
    assertError(await h.send({ headers: { host: '127.0.0.1' } }), 403, 'forbidden_host');
  });

  it('refuses a request without Host', async (t) => {
    const h = await startHarness(t);
    assertError(await h.send({ headers: { host: null } }), 403, 'forbidden_host');
  });

  it('checks Host before anything else (a browser request with a bad Host is forbidden_host)', async (t) => {
    const h = await startHarness(t);
    assertError(await h.send({ headers: { host: 'evil.example', origin: 'http://evil.example' } }), 403, 'forbidden_host');
  });
});

describe('step 2: browsers', () => {
  it('refuses a request with Origin as browser_request', async (t) => {
    const h = await startHarness(t);
    assertError(await h.send({ headers: { origin: 'http://localhost:3000' } }), 403, 'browser_request');
  });

  it('refuses a request with Sec-Fetch-Site as browser_request', async (t) => {
    const h = await startHarness(t);
    assertError(await h.send({ headers: { 'sec-fetch-site': 'cross-site' } }), 403, 'browser_request');
  });

  it('refuses a CORS preflight with 403 and no Access-Control headers', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({
      method: 'OPTIONS',
      sign: false,
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    assertError(answer, 403, 'browser_request');
    for (const name of Object.keys(answer.headers)) assert.ok(!name.startsWith('access-control-'), name);
  });
});

describe('step 4: body size', () => {
  it('refuses a Content-Length over 64 KiB with 413 before reading', async (t) => {
    const h = await startHarness(t);
    const body = '{"branch":"' + 'a'.repeat(64 * 1024) + '"}';
    const answer = await h.send({ method: 'POST', target: '/branch-changed', body });
    assertError(answer, 413, 'payload_too_large');
    assertUnsigned(answer);
    assert.equal(h.calls.branchChanged, undefined);
  });

  it('accepts a body of exactly 64 KiB (then judges its content)', async (t) => {
    const h = await startHarness(t);
    const filler = 64 * 1024 - '{"branch":"main","x":""}'.length;
    const body = `{"branch":"main","x":"${'a'.repeat(filler)}"}`;
    assert.equal(Buffer.byteLength(body), 64 * 1024);
    const answer = await h.send({ method: 'POST', target: '/branch-changed', body });
    assert.equal(answer.status, 200, answer.text);
  });

  it('stops reading a chunked body at 64 KiB and answers 413', async (t) => {
    const h = await startHarness(t);
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const answer = await h.send({ method: 'POST', target: '/branch-changed', chunks: [chunk, chunk, chunk, chunk, chunk] });
    assertError(answer, 413, 'payload_too_large');
    assert.equal(answer.headers.connection, 'close');
  });

  it('checks the size before the signature (a huge unsigned body is 413, not 401)', async (t) => {
    const h = await startHarness(t);
    assertError(await h.send({ method: 'POST', target: '/entries', sign: false, body: 'x'.repeat(70_000) }), 413, 'payload_too_large');
  });
});

describe('step 5: authentication', () => {
  it('answers missing_auth when a header is absent', async (t) => {
    const h = await startHarness(t);
    for (const name of ['x-tock-timestamp', 'x-tock-nonce', 'x-tock-signature']) {
      const answer = await h.send({ headers: { [name]: null } });
      assertError(answer, 401, 'missing_auth');
      assertUnsigned(answer);
    }
  });

  it('answers missing_auth when a header is repeated, even with the same value', async (t) => {
    const h = await startHarness(t);
    const nonce = freshNonce();
    const auth = authHeaders({ method: 'GET', target: '/status', body: '', timestamp: String(START_MS / 1000), nonce });
    for (const name of ['x-tock-timestamp', 'x-tock-nonce', 'x-tock-signature'] as const) {
      const headers = { host: `127.0.0.1:${h.port}`, ...auth, [name]: [auth[name] as string, auth[name] as string] };
      assertError({ ...(await sendRaw(h.port, 'GET', '/status', headers)), nonce }, 401, 'missing_auth');
    }
  });

  it('answers missing_auth for malformed values', async (t) => {
    const h = await startHarness(t);
    const sig = 'v1=' + 'a'.repeat(64);
    const cases: Record<string, string>[] = [
      { 'x-tock-timestamp': '+1795000000' },
      { 'x-tock-timestamp': '1795000000.0' },
      { 'x-tock-timestamp': '1'.repeat(13) },
      { 'x-tock-nonce': 'short' },
      { 'x-tock-nonce': 'a'.repeat(65) },
      { 'x-tock-nonce': 'has space in it 123' },
      { 'x-tock-signature': sig.toUpperCase() },
      { 'x-tock-signature': 'v2=' + 'a'.repeat(64) },
      { 'x-tock-signature': 'v1=' + 'a'.repeat(63) },
    ];
    for (const headers of cases) assertError(await h.send({ headers }), 401, 'missing_auth');
  });

  it('accepts a timestamp 60 s behind or ahead of the server clock', async (t) => {
    const h = await startHarness(t);
    const now = START_MS / 1000;
    assert.equal((await h.send({ timestamp: now - 60 })).status, 200);
    assert.equal((await h.send({ timestamp: now + 60 })).status, 200);
  });

  it('refuses a timestamp 61 s behind or ahead as clock_drift', async (t) => {
    const h = await startHarness(t);
    const now = START_MS / 1000;
    const behind = await h.send({ timestamp: now - 61 });
    assertError(behind, 401, 'clock_drift');
    assertUnsigned(behind);
    assertError(await h.send({ timestamp: now + 61 }), 401, 'clock_drift');
  });

  it('refuses a wrong signature as bad_signature, unsigned and without calling the handler', async (t) => {
    const h = await startHarness(t);
    const answer = await h.sendBadSignature();
    assertError(answer, 401, 'bad_signature');
    assertUnsigned(answer);
    assert.equal(h.calls.getStatus, undefined);
  });

  it('refuses a signature made with another token', async (t) => {
    const h = await startHarness(t);
    assertError(await h.send({ token: 'not-the-token' }), 401, 'bad_signature');
  });

  it('refuses a signature over another body', async (t) => {
    const h = await startHarness(t);
    const nonce = freshNonce();
    const headers = {
      host: `127.0.0.1:${h.port}`,
      'content-type': 'application/json',
      ...authHeaders({ method: 'POST', target: '/branch-changed', body: '{"branch":"main"}', timestamp: String(START_MS / 1000), nonce }),
    };
    const answer = await sendRaw(h.port, 'POST', '/branch-changed', headers, '{"branch":"evil"}');
    assertError({ ...answer, nonce }, 401, 'bad_signature');
  });
});

describe('restart guard', () => {
  it('refuses, for 60 s after the start, a timestamp earlier than the start', async (t) => {
    const h = await startHarness(t, { replayGuard: { startedAtMs: START_MS } });
    assertError(await h.send({ timestamp: START_MS / 1000 - 1 }), 401, 'clock_drift');
    assert.equal((await h.send({ timestamp: START_MS / 1000 })).status, 200);
    h.clock.now = START_MS + 59_000;
    assertError(await h.send({ timestamp: START_MS / 1000 - 1 }), 401, 'clock_drift');
    // From 60 s on, the drift check alone refuses every timestamp earlier than the start.
  });

  it('starts the guard at creation when no replayGuard is given', async (t) => {
    const h = await startHarness(t, { replayGuard: undefined });
    assertError(await h.send({ timestamp: START_MS / 1000 - 30 }), 401, 'clock_drift');
  });

  it('hands future-dated nonces to remember, and refuses them after a restart', async (t) => {
    const remembered: { nonce: string; timestamp: number }[] = [];
    const first = await startHarness(t, {
      replayGuard: { startedAtMs: START_MS - 3_600_000, remember: (nonce, timestamp) => remembered.push({ nonce, timestamp }) },
    });
    await first.send({ nonce: 'present-dated-nonce-01' });
    const futureNonce = 'future-dated-nonce-0001';
    const future = START_MS / 1000 + 30;
    assert.equal((await first.send({ nonce: futureNonce, timestamp: future })).status, 200);
    assert.deepEqual(remembered, [{ nonce: futureNonce, timestamp: future }]);
    await first.listener.close();

    // The app restarts 10 s later; the replay's timestamp is after the start, so only the
    // remembered nonce stops it.
    const second = await startHarness(t, { replayGuard: { startedAtMs: START_MS + 10_000, remembered } });
    second.clock.now = START_MS + 10_000;
    assertError(await second.send({ nonce: futureNonce, timestamp: future }), 409, 'nonce_reused');
  });
});

describe('restart guard within one second', () => {
  it('refuses a replay across a graceful restart in the same second', async (t) => {
    const remembered: { nonce: string; timestamp: number }[] = [];
    const first = await startHarness(t, {
      replayGuard: { startedAtMs: START_MS - 3_600_000, remember: (nonce, timestamp) => remembered.push({ nonce, timestamp }) },
    });
    first.clock.now = START_MS + 200;
    const nonce = 'answered-just-before-restart';
    assert.equal((await first.send({ nonce, timestamp: START_MS / 1000 })).status, 200);
    assert.deepEqual(remembered, [], 'nothing is written per request');
    await first.listener.close();
    assert.deepEqual(remembered, [{ nonce, timestamp: START_MS / 1000 }]);

    // The app is back 600 ms later, still in the same second: the guard lets the second through.
    const second = await startHarness(t, { replayGuard: { startedAtMs: START_MS + 800, remembered } });
    second.clock.now = START_MS + 900;
    assertError(await second.send({ nonce, timestamp: START_MS / 1000 }), 409, 'nonce_reused');
  });

  it('hands over only the nonces of the current second at close', async (t) => {
    const remembered: string[] = [];
    const h = await startHarness(t, {
      replayGuard: { startedAtMs: START_MS - 3_600_000, remember: (nonce) => remembered.push(nonce) },
    });
    await h.send({ nonce: 'dated-in-an-old-second' });
    h.clock.now += 1000;
    await h.send({ nonce: 'dated-in-the-closing-second' });
    await h.send({ nonce: 'dated-a-second-earlier', timestamp: START_MS / 1000 });
    await h.listener.close();
    assert.deepEqual(remembered, ['dated-in-the-closing-second']);
  });

  it('still closes when remember fails', async (t) => {
    const errors: unknown[] = [];
    const h = await startHarness(t, {
      onError: (e) => errors.push(e),
      replayGuard: {
        startedAtMs: START_MS - 3_600_000,
        remember: () => {
          throw new Error('store closed');
        },
      },
    });
    await h.send();
    await h.listener.close();
    assert.equal(h.listener.port, null);
    assert.equal(errors.length, 1);
  });
});

describe('step 6: nonces', () => {
  it('rejects a nonce reused within 180 s, with a signed 409', async (t) => {
    const h = await startHarness(t);
    const nonce = freshNonce();
    assert.equal((await h.send({ nonce })).status, 200);
    h.clock.now += 179_000;
    const again = await h.send({ nonce });
    assertError(again, 409, 'nonce_reused');
    assertSigned(again);
  });

  it('accepts a nonce again after 181 s', async (t) => {
    const h = await startHarness(t);
    const nonce = freshNonce();
    assert.equal((await h.send({ nonce })).status, 200);
    h.clock.now += 181_000;
    assert.equal((await h.send({ nonce })).status, 200);
  });

  it('does not remember the nonce of a request whose signature failed', async (t) => {
    const h = await startHarness(t);
    const nonce = freshNonce();
    assertError(await h.sendBadSignature({ nonce }), 401, 'bad_signature');
    assert.equal((await h.send({ nonce })).status, 200);
  });

  it('fails closed with a signed 429 when the nonce window is full, until nonces expire', async (t) => {
    const h = await startHarness(t, { maxNonces: 3 });
    for (let i = 0; i < 3; i++) {
      assert.equal((await h.send()).status, 200);
      h.clock.now += 10_000;
    }
    const full = await h.send();
    assertError(full, 429, 'locked_out');
    assertSigned(full);
    assert.equal(full.headers['retry-after'], '150');
    h.clock.now = START_MS + 180_000; // the first nonce has expired: room for one
    assert.equal((await h.send()).status, 200);
    assertError(await h.send(), 429, 'locked_out');
  });

  it('does not count a full nonce window toward the lockout', async (t) => {
    const h = await startHarness(t, { maxNonces: 1 });
    assert.equal((await h.send()).status, 200);
    for (let i = 0; i < 15; i++) assertError(await h.send(), 429, 'locked_out');
    h.clock.now += 180_000;
    assert.equal((await h.send()).status, 200);
  });
});

describe('step 7: license', () => {
  it('answers 423 with exactly {"error":"license locked"} once the license locks mid-run', async (t) => {
    const h = await startHarness(t);
    assert.equal((await h.send()).status, 200);
    h.license.state = 'locked';
    for (const target of ['/status', '/current', '/activities/search', '/nope']) {
      const answer = await h.send({ target });
      assert.equal(answer.status, 423);
      assert.equal(answer.text, LICENSE_LOCKED_BODY);
      assertSigned(answer);
    }
    const post = await h.send({ method: 'POST', target: '/entries', body: '{}' });
    assert.equal(post.status, 423);
    assert.equal(h.calls.getStatus?.length, 1);
  });

  it('still answers /healthcheck while locked, reporting the state', async (t) => {
    const h = await startHarness(t);
    h.license.state = 'locked';
    const answer = await h.send({ target: '/healthcheck' });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.result.license, 'locked');
  });

  it('answers 423 from a handler that throws license_locked with the exact body too', async (t) => {
    const { Problem } = await import('@tock/protocol');
    const h = await startHarness(t, {
      handlers: {
        getStatus: () => {
          throw new Problem('license_locked', 'locked');
        },
      },
    });
    const answer = await h.send();
    assert.equal(answer.status, 423);
    assert.equal(answer.text, LICENSE_LOCKED_BODY);
  });
});

describe('step 8: routing', () => {
  it('answers an unknown path with 404 route_not_found, signed', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ target: '/nope?x=1' });
    assertError(answer, 404, 'route_not_found');
    assertSigned(answer);
  });

  it('answers a wrong method with 405 method_not_allowed and Allow', async (t) => {
    const h = await startHarness(t);
    const post = await h.send({ method: 'POST', target: '/status' });
    assertError(post, 405, 'method_not_allowed');
    assert.equal(post.headers.allow, 'GET');
    const get = await h.send({ method: 'GET', target: '/entries' });
    assertError(get, 405, 'method_not_allowed');
    assert.equal(get.headers.allow, 'POST');
    const del = await h.send({ method: 'DELETE', target: '/healthcheck' });
    assert.equal(del.headers.allow, 'GET');
  });
});

describe('step 9: body', () => {
  it('answers 415 to a non-empty body without a JSON content type', async (t) => {
    const h = await startHarness(t);
    const answer = await h.send({ method: 'POST', target: '/branch-changed', body: '{"branch":"main"}', headers: { 'content-type': 'text/plain' } });
    assertError(answer, 415, 'unsupported_media_type');
    assertSigned(answer);
    assertError(
      await h.send({ method: 'POST', target: '/branch-changed', body: '{"branch":"main"}', headers: { 'content-type': null } }),
      415,
      'unsupported_media_type',
    );
  });

  it('accepts application/json with parameters and in any case', async (t) => {
    const h = await startHarness(t);
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8']) {
      const answer = await h.send({ method: 'POST', target: '/branch-changed', body: '{"branch":"main"}', headers: { 'content-type': type } });
      assert.equal(answer.status, 200, type);
    }
  });

  it('answers 400 invalid_json to malformed JSON, bare NaN and Infinity', async (t) => {
    const h = await startHarness(t);
    for (const body of ['{"branch":', 'NaN', '{"durationMinutes": NaN}', 'Infinity', "{'a':1}", ' ']) {
      assertError(await h.send({ method: 'POST', target: '/entries', body }), 400, 'invalid_json');
    }
  });

  it('answers 400 invalid_json to a body that is not valid UTF-8', async (t) => {
    const h = await startHarness(t);
    const body = Buffer.concat([Buffer.from('{"branch":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    assertError(await h.send({ method: 'POST', target: '/branch-changed', body }), 400, 'invalid_json');
  });
});

describe('a request that fails several steps', () => {
  it('is answered by the earliest: lockout before size and auth, nonce before routing, routing before the body', async (t) => {
    const h = await startHarness(t);
    const used = freshNonce();
    assert.equal((await h.send({ nonce: used })).status, 200);
    // Step 6 before step 8: a reused nonce on an unknown path.
    assertError(await h.send({ target: '/nope', nonce: used }), 409, 'nonce_reused');
    // Step 8 before step 9: a wrong method or an unknown path with a body that is neither JSON nor labelled so.
    const garbage = { body: '{not json', headers: { 'content-type': 'text/plain' } };
    const wrongMethod = await h.send({ method: 'PUT', target: '/entries', ...garbage });
    assertError(wrongMethod, 405, 'method_not_allowed');
    assert.equal(wrongMethod.headers.allow, 'POST');
    assertError(await h.send({ method: 'POST', target: '/nope', body: '{not json' }), 404, 'route_not_found');
    // Within step 9: the content type before the JSON, the JSON before the fields.
    assertError(await h.send({ method: 'POST', target: '/entries', ...garbage }), 415, 'unsupported_media_type');
    assertError(await h.send({ method: 'POST', target: '/entries', body: '{"durationMinutes":"x"' }), 400, 'invalid_json');
    assert.equal(h.calls.logEntry, undefined);

    for (let i = 0; i < 11; i++) await h.sendBadSignature();
    // Step 3 before steps 4 and 5: during the lockout an oversize or an unsigned request is 429 too.
    const big = 'x'.repeat(70_000);
    for (const answer of [await h.send({ method: 'POST', target: '/entries', body: big }), await h.send({ sign: false })]) {
      assertError(answer, 429, 'locked_out');
      assert.equal(answer.headers['retry-after'], '60');
    }
    // Steps 1 and 2 before step 3: a foreign Host or a browser is refused as such, lockout or not.
    assertError(await h.send({ headers: { host: 'example.com' } }), 403, 'forbidden_host');
    assertError(await h.send({ headers: { origin: 'https://example.com' } }), 403, 'browser_request');
  });
});

describe('steps 10 and 11: handlers', () => {
  it('answers 503 not_wired for a use case the app has not wired', async (t) => {
    const h = await startHarness(t, { handlers: {} });
    const answer = await h.send();
    assertError(answer, 503, 'not_wired');
    assertSigned(answer);
    assertError(await h.send({ method: 'POST', target: '/activities/stop' }), 503, 'not_wired');
  });

  it('turns a Problem into its envelope', async (t) => {
    const { Problem } = await import('@tock/protocol');
    const h = await startHarness(t, {
      handlers: {
        startActivity: () => {
          throw new Problem('activity_not_found', 'no activity named "x"; pass createIfMissing to create it');
        },
      },
    });
    const answer = await h.send({ method: 'POST', target: '/activities/start', body: '{"name":"x"}' });
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.json, { ok: false, error: 'no activity named "x"; pass createIfMissing to create it', code: 'activity_not_found' });
  });

  it('answers 500 internal_error without internals when a handler throws', async (t) => {
    const errors: unknown[] = [];
    const h = await startHarness(t, {
      onError: (e) => errors.push(e),
      handlers: {
        getStatus: () => {
          throw new Error(`database at /secret/path failed with ${TOKEN}`);
        },
        getCurrent: () => Promise.reject(new TypeError('boom')),
      },
    });
    for (const target of ['/status', '/current']) {
      const answer = await h.send({ target });
      assertError(answer, 500, 'internal_error');
      assertSigned(answer);
      assert.ok(!answer.text.includes('secret') && !answer.text.includes(TOKEN) && !answer.text.includes('boom'));
    }
    assert.equal(errors.length, 2);
  });
});

describe('every response', () => {
  it('carries the API version and no-store, and never Access-Control headers', async (t) => {
    const h = await startHarness(t);
    const answers = [
      await h.send(),
      await h.send({ headers: { host: 'evil' } }),
      await h.send({ headers: { origin: 'http://x' } }),
      await h.send({ sign: false }),
      await h.sendBadSignature(),
      await h.send({ target: '/nope' }),
      await h.send({ method: 'PUT' }),
      await h.send({ method: 'POST', target: '/entries', body: '[]' }),
    ];
    for (const answer of answers) {
      assert.equal(answer.headers['x-tock-api-version'], '1', answer.text);
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      for (const name of Object.keys(answer.headers)) assert.ok(!name.startsWith('access-control-'), name);
    }
  });
});

describe('request list', () => {
  it('keeps the 25 newest requests, newest first, paths without query, rejected ones too', async (t) => {
    const seen: unknown[] = [];
    const h = await startHarness(t, { onRequest: (r) => seen.push(r) });
    await h.send({ target: '/nope?token=secret' });
    await h.send({ headers: { host: 'evil' } });
    for (let i = 0; i < 30; i++) {
      h.clock.now += 1000;
      await h.send({ target: `/activities/search?q=${i}` });
    }
    const list = h.listener.requests();
    assert.equal(list.length, 25);
    assert.deepEqual(list[0], {
      time: new Date(START_MS + 30_000).toISOString(),
      method: 'GET',
      path: '/activities/search',
      status: 200,
    });
    assert.equal(list[24]?.time, new Date(START_MS + 6000).toISOString());
    assert.equal(seen.length, 32);
    assert.deepEqual(seen[0], { time: new Date(START_MS).toISOString(), method: 'GET', path: '/nope', status: 404 });
    assert.deepEqual(seen[1], { time: new Date(START_MS).toISOString(), method: 'GET', path: '/status', status: 403 });
    assert.ok(!JSON.stringify(list).includes('secret'));
  });

  it('starts empty', async (t) => {
    const h = await startHarness(t);
    assert.deepEqual(h.listener.requests(), []);
  });
});

describe('listen and close', () => {
  it('binds 127.0.0.1 and reports the port; close frees it', async () => {
    const listener = createListener({ token: () => TOKEN, license: () => 'trial', appVersion: '1', handlers: stubHandlers({}) });
    assert.equal(listener.port, null);
    await listener.listen(0);
    const port = Number(listener.port);
    assert.ok(port > 0);
    await listener.close();
    assert.equal(listener.port, null);
    await listener.listen(port); // the port is free again, the same listener binds again
    await listener.close();
  });

  it('rejects with a port_in_use Problem "port N is in use" when the port is taken', async (t) => {
    const { isProblem } = await import('@tock/protocol');
    const h = await startHarness(t);
    const other = createListener({ token: () => TOKEN, license: () => 'trial', appVersion: '1', handlers: {} });
    await assert.rejects(other.listen(h.port), (error: unknown) => {
      assert.ok(isProblem(error, 'port_in_use'));
      assert.equal(error.message, `port ${h.port} is in use`);
      return true;
    });
    assert.equal(other.port, null);
  });

  it('refuses to listen twice without closing', async (t) => {
    const h = await startHarness(t);
    await assert.rejects(h.listener.listen(0), /already listening/);
    assert.equal((await h.send()).status, 200);
  });

  // Were the idle socket left to its keep-alive timeout (set to ten minutes here), close()
  // would not resolve and node:test's timeout would fail the test: no wall-clock budget.
  it('closes idle keep-alive connections on close', { timeout: 30_000 }, async () => {
    const listener = createListener({
      token: () => TOKEN,
      license: () => 'trial',
      appVersion: '1',
      handlers: stubHandlers({}),
      serverTimeouts: { keepAliveTimeout: 600_000 },
    });
    await listener.listen(0);
    const agent = new Agent({ keepAlive: true });
    const port = listener.port as number;
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/healthcheck', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(status, 401);
    await listener.close();
    agent.destroy();
  });

  it('does not answer on other addresses than 127.0.0.1', async (t) => {
    const h = await startHarness(t);
    const { connect } = await import('node:net');
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '::1', port: h.port });
      socket.on('connect', () => (socket.destroy(), resolve(false)));
      socket.on('error', () => resolve(true));
    });
    assert.equal(refused, true);
  });
});
