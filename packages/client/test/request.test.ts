import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY_BODY_SHA256, SigningKey, requestStringToSign } from '@tock/protocol';
import { type Operation, buildRequest, idempotencyKeyFor, operations } from '../src/request.ts';
import { signingVectors } from '@tock/protocol/testing';

/** The client call that produces each vector's request. */
const operationFor: Record<string, Operation> = {
  'get-status-no-body': operations.getStatus(),
  'get-healthcheck': operations.healthcheck(),
  'search-with-encoded-query': operations.searchActivities('café time', 5),
  'start-activity': operations.startActivity('Writing docs', true),
  'stop-empty-body': operations.stopActivity(),
  'entry-unicode-note': operations.logEntry(
    { name: 'Review', durationMinutes: 45, note: 'Relecture du chapitre 3 — café ☕', createIfMissing: false },
    'key',
  ),
  'branch-changed': operations.notifyBranchChange({ branch: 'feature/login', repo: '/home/ana/src/shop', previousBranch: 'main' }),
};

describe('request building against spec/signing.json', () => {
  const key = new SigningKey(signingVectors.token);
  for (const v of signingVectors.vectors) {
    it(`reproduces ${v.name} byte for byte from the client call`, () => {
      const op = operationFor[v.name];
      assert.ok(op, `no client call mapped to vector ${v.name}`);
      const req = buildRequest(op, {
        baseUrl: 'http://127.0.0.1:39847',
        key,
        timestamp: Number(v.timestamp),
        nonce: v.nonce,
      });
      assert.equal(req.method, v.method);
      assert.equal(req.url, `http://127.0.0.1:39847${v.target}`);
      assert.equal(new TextDecoder().decode(req.body ?? new Uint8Array()), v.body);
      assert.equal(req.headers['x-tock-timestamp'], v.timestamp);
      assert.equal(req.headers['x-tock-nonce'], v.nonce);
      assert.equal(req.headers['x-tock-signature'], v.signature);
      assert.equal(req.headers['content-type'], v.body === '' ? undefined : 'application/json');
    });
  }
});

describe('buildRequest', () => {
  const ctx = { baseUrl: 'http://127.0.0.1:1234', key: new SigningKey('t'), timestamp: 1795000000, nonce: 'n'.repeat(22) };

  it('signs the target as the URL serializes it, not as written', () => {
    // `'` is left alone by encodeURIComponent but percent-encoded by the URL parser: the
    // signature must cover what goes on the wire.
    const req = buildRequest(operations.searchActivities("it's", 3), ctx);
    const target = '/activities/search?q=it%27s&limit=3';
    assert.equal(req.url, `http://127.0.0.1:1234${target}`);
    const stringToSign = requestStringToSign({
      timestamp: '1795000000',
      nonce: ctx.nonce,
      method: 'GET',
      target,
      bodySha256: EMPTY_BODY_SHA256,
    });
    assert.equal(req.headers['x-tock-signature'], ctx.key.sign(stringToSign));
  });

  it('sends q even when it is empty and leaves limit out when not given', () => {
    const req = buildRequest(operations.searchActivities(''), ctx);
    assert.equal(req.url, 'http://127.0.0.1:1234/activities/search?q=');
  });

  it('sends the Idempotency-Key of logEntry and no body-less content type', () => {
    const entry = buildRequest(operations.logEntry({ activityID: 'a', durationMinutes: 5 }, 'k-1'), ctx);
    assert.equal(entry.headers['idempotency-key'], 'k-1');
    assert.equal(new TextDecoder().decode(entry.body), '{"activityID":"a","durationMinutes":5}');
    const stop = buildRequest(operations.stopActivity(), ctx);
    assert.equal(stop.body, undefined);
    assert.equal(stop.headers['content-type'], undefined);
    assert.equal(stop.headers['idempotency-key'], undefined);
  });

  it('starts by activityID without createIfMissing', () => {
    const req = buildRequest(operations.startActivity({ activityID: 'id-1' }, true), ctx);
    assert.equal(new TextDecoder().decode(req.body), '{"activityID":"id-1"}');
  });

  it('turns a Date endedAt into an ISO UTC string and refuses an invalid Date', () => {
    const op = operations.logEntry({ name: 'x', durationMinutes: 1, endedAt: new Date(Date.UTC(2026, 10, 22, 9, 15)) }, 'k');
    assert.equal((op.body as { endedAt: string }).endedAt, '2026-11-22T09:15:00.000Z');
    assert.throws(() => operations.logEntry({ name: 'x', durationMinutes: 1, endedAt: new Date('nope') }, 'k'), TypeError);
  });
});

describe('idempotencyKeyFor', () => {
  it('makes 16 random bytes, base64url, when the caller gives none', () => {
    assert.equal(idempotencyKeyFor(undefined, (n) => new Uint8Array(n).fill(251)), '-_v7-_v7-_v7-_v7-_v7-w');
  });

  it("keeps the caller's key and refuses one that the server would refuse", () => {
    assert.equal(idempotencyKeyFor('abc_DEF-1', () => new Uint8Array()), 'abc_DEF-1');
    for (const bad of ['', 'a b', 'x'.repeat(65), 'é']) {
      assert.throws(() => idempotencyKeyFor(bad, () => new Uint8Array()), TypeError);
    }
  });
});
