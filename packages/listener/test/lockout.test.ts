/** The lockout of docs/protocol.md "Order of checks on the server", over real HTTP with an injected clock. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_STATUS, LOCKOUT_COUNTED_CODES, type ErrorCode } from '@tock/protocol';
import { Lockout } from '../src/lockout.ts';
import { START_MS, startHarness, type Harness } from './signed-client.ts';

async function fail(h: Harness, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const answer = await h.sendBadSignature();
    assert.equal(answer.status, 401, `failure ${i + 1}: ${answer.text}`);
  }
}

describe('lockout', () => {
  it('tolerates 10 failed authentications within 30 s', async (t) => {
    const h = await startHarness(t);
    await fail(h, 10);
    assert.equal((await h.send()).status, 200);
  });

  it('answers the 11th failure 401 and then locks out every request for 60 s with Retry-After', async (t) => {
    const h = await startHarness(t);
    await fail(h, 10);
    const eleventh = await h.sendBadSignature();
    assert.equal(eleventh.status, 401);
    assert.equal(eleventh.json.code, 'bad_signature');

    const valid = await h.send();
    assert.equal(valid.status, 429);
    assert.equal(valid.json.code, 'locked_out');
    assert.equal(valid.headers['retry-after'], '60');
    assert.equal(valid.headers['x-tock-response-signature'], undefined);

    h.clock.now += 59_500;
    const late = await h.send({ target: '/healthcheck' });
    assert.equal(late.status, 429);
    assert.equal(late.headers['retry-after'], '1');
    assert.equal((await h.send({ sign: false })).status, 429);
  });

  it('ends the lockout after 60 s and counts failures from zero again', async (t) => {
    const h = await startHarness(t);
    await fail(h, 11);
    h.clock.now += 60_000;
    assert.equal((await h.send()).status, 200);
    await fail(h, 10);
    assert.equal((await h.send()).status, 200);
    await fail(h, 1);
    assert.equal((await h.send()).status, 429);
  });

  it('does not extend the lockout for failures during it', async (t) => {
    const h = await startHarness(t);
    await fail(h, 11);
    for (let i = 0; i < 20; i++) {
      h.clock.now += 1000;
      assert.equal((await h.sendBadSignature()).status, 429);
    }
    h.clock.now = START_MS + 60_000;
    assert.equal((await h.send()).status, 200);
  });

  it('counts clock_drift failures', async (t) => {
    const h = await startHarness(t);
    for (let i = 0; i < 11; i++) assert.equal((await h.send({ timestamp: START_MS / 1000 - 3600 })).json.code, 'clock_drift');
    assert.equal((await h.send()).status, 429);
  });

  it('slides the 30 s window: failures older than 30 s are forgotten', async (t) => {
    const h = await startHarness(t);
    await fail(h, 10);
    h.clock.now += 30_000;
    await fail(h, 10);
    assert.equal((await h.send()).status, 200);
    h.clock.now += 29_000;
    await fail(h, 1);
    assert.equal((await h.send()).status, 429);
  });

  it('counts exactly the 401s of protocol’s LOCKOUT_COUNTED_CODES (one source for the rule)', async (t) => {
    const makes: Record<string, (h: Harness) => Promise<{ json: { code: string } }>> = {
      missing_auth: (h) => h.send({ sign: false }),
      clock_drift: (h) => h.send({ timestamp: START_MS / 1000 - 3600 }),
      bad_signature: (h) => h.sendBadSignature(),
    };
    const codes401 = Object.entries(ERROR_STATUS).filter(([, status]) => status === 401).map(([code]) => code);
    assert.deepEqual(codes401.sort(), Object.keys(makes).sort(), 'every 401 code is tried');
    for (const code of codes401) {
      const h = await startHarness(t);
      for (let i = 0; i < 11; i++) assert.equal((await makes[code]!(h)).json.code, code);
      const locked = (await h.send()).status === 429;
      assert.equal(locked, LOCKOUT_COUNTED_CODES.has(code as ErrorCode), `${code} counts toward the lockout`);
    }
  });

  it('never counts missing_auth (what a web page could send)', async (t) => {
    const h = await startHarness(t);
    for (let i = 0; i < 30; i++) assert.equal((await h.send({ sign: false })).json.code, 'missing_auth');
    for (let i = 0; i < 30; i++) assert.equal((await h.send({ headers: { 'x-tock-nonce': 'bad' } })).json.code, 'missing_auth');
    assert.equal((await h.send()).status, 200);
  });

  it('never counts browser requests, forbidden hosts, reused nonces or oversize bodies', async (t) => {
    const h = await startHarness(t);
    for (let i = 0; i < 15; i++) {
      assert.equal((await h.sendBadSignature({ headers: { origin: 'http://evil.example' } })).status, 403);
      assert.equal((await h.sendBadSignature({ headers: { host: 'evil.example' } })).status, 403);
      assert.equal((await h.send({ nonce: 'the-same-nonce-every-time' })).status, i === 0 ? 200 : 409);
      assert.equal((await h.sendBadSignature({ method: 'POST', target: '/entries', body: 'x'.repeat(70_000) })).status, 413);
    }
    assert.equal((await h.send()).status, 200);
  });
});

describe('Lockout (unit)', () => {
  it('rounds Retry-After up to whole seconds', () => {
    const lockout = new Lockout();
    for (let i = 0; i < 11; i++) lockout.recordFailure(1000);
    assert.equal(lockout.retryAfterSeconds(1000), 60);
    assert.equal(lockout.retryAfterSeconds(1001), 60);
    assert.equal(lockout.retryAfterSeconds(60_999), 1);
    assert.equal(lockout.retryAfterSeconds(61_000), 0);
  });

  it('reports which failure started the lockout', () => {
    const lockout = new Lockout();
    const started = Array.from({ length: 12 }, () => lockout.recordFailure(0));
    assert.deepEqual(started, [false, false, false, false, false, false, false, false, false, false, true, false]);
  });
});
