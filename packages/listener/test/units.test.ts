/** The listener's small parts on their own: the nonce window, the request log, the checks. */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  allowedHostsFor,
  declaredBodyTooLarge,
  hostAllowed,
  idempotencyKeyOf,
  isJsonContentType,
  MALFORMED_KEY,
  parseJson,
  signedBeforeStart,
  timestampDrifts,
} from '../src/checks.ts';
import { successBody } from '../src/envelopes.ts';
import { NonceWindow } from '../src/nonce-window.ts';
import { RequestLog, isoTime } from '../src/request-log.ts';

describe('NonceWindow', () => {
  it('remembers a nonce until its expiry', () => {
    const w = new NonceWindow(10);
    assert.equal(w.add('n', 180_000, 0), true);
    assert.equal(w.has('n', 179_999), true);
    assert.equal(w.has('n', 180_000), false);
  });

  it('refuses new nonces when full of live ones, and makes room as they expire', () => {
    const w = new NonceWindow(2);
    assert.equal(w.add('a', 100, 0), true);
    assert.equal(w.add('b', 200, 0), true);
    assert.equal(w.add('c', 300, 50), false);
    assert.equal(w.msUntilRoom(50), 50);
    assert.equal(w.has('a', 50), true, 'a refused add never forgets a live nonce');
    assert.equal(w.add('c', 300, 100), true);
    assert.equal(w.size, 2);
  });

  it('finds expired nonces hidden behind live ones when entries came out of order', () => {
    const w = new NonceWindow(3);
    w.add('late', 1000, 0);
    w.add('early', 100, 0); // e.g. a remembered nonce loaded at start
    w.add('later', 1100, 0);
    assert.equal(w.msUntilRoom(0), 100);
    assert.equal(w.add('new', 1200, 150), true, 'the expired out-of-order entry was swept');
    assert.equal(w.has('early', 150), false);
  });

  it('behaves like an unbounded model that refuses beyond the bound (property)', () => {
    const op = fc.record({
      advance: fc.integer({ min: 0, max: 50 }),
      nonce: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      lifetime: fc.integer({ min: 1, max: 200 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 60 }), (max, ops) => {
        const w = new NonceWindow(max);
        const model = new Map<string, number>();
        let now = 0;
        for (const { advance, nonce, lifetime } of ops) {
          now += advance;
          const live = (n: string): boolean => (model.get(n) ?? Number.NEGATIVE_INFINITY) > now;
          assert.equal(w.has(nonce, now), live(nonce));
          if (live(nonce)) continue;
          const liveCount = [...model.keys()].filter(live).length;
          const added = w.add(nonce, now + lifetime, now);
          assert.equal(added, liveCount < max);
          if (added) model.set(nonce, now + lifetime);
        }
      }),
      { numRuns: 500, seed: 20261129 },
    );
  });
});

describe('NonceWindow at scale (its hash tables grow, shift entries back on removal, and shrink to nothing)', () => {
  it('agrees with a model over thousands of nonces, lifetimes out of order and re-used nonces (property)', () => {
    const op = fc.record({
      advance: fc.integer({ min: 0, max: 40 }),
      nonce: fc.integer({ min: 0, max: 3999 }),
      lifetime: fc.integer({ min: 1, max: 400 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 500, max: 5000 }), fc.array(op, { minLength: 2000, maxLength: 6000 }), (max, ops) => {
        const w = new NonceWindow(max);
        const model = new Map<string, number>();
        let now = 0;
        for (const { advance, nonce, lifetime } of ops) {
          now += advance;
          const n = `nonce-${nonce}`;
          const live = (x: string): boolean => (model.get(x) ?? Number.NEGATIVE_INFINITY) > now;
          assert.equal(w.has(n, now), live(n), `${n} at ${now}`);
          if (live(n)) continue;
          for (const [k, expiry] of model) if (expiry <= now) model.delete(k);
          const added = w.add(n, now + lifetime, now);
          assert.equal(added, model.size < max);
          if (added) model.set(n, now + lifetime);
        }
        for (let i = 0; i < 4000; i++) assert.equal(w.has(`nonce-${i}`, now), (model.get(`nonce-${i}`) ?? -1) > now);
      }),
      { numRuns: 15, seed: 20261129 },
    );
  });

  it('holds 200 000 nonces, finds every one, forgets them all as they expire, and takes new ones', () => {
    const w = new NonceWindow(200_000);
    for (let i = 0; i < 200_000; i++) assert.equal(w.add(`n${i}`, 1000 + i, 0), true);
    assert.equal(w.add('one more', 5000, 0), false);
    assert.equal(w.msUntilRoom(0), 1000);
    for (let i = 0; i < 200_000; i += 7) assert.equal(w.has(`n${i}`, 999), true);
    assert.equal(w.has('never added', 0), false);
    assert.equal(w.add('fresh', 500_000, 100_000), true, 'the first 99 001 expired');
    assert.equal(w.size, 200_000 - 99_001 + 1);
    assert.equal(w.has('n99000', 100_000), false);
    assert.equal(w.has('n99001', 100_000), true);
    assert.equal(w.add('later', 600_000, 300_000), true);
    assert.deepEqual([w.size, w.has('fresh', 300_000), w.has('n199999', 300_000)], [2, true, false]);
  });
});

describe('RequestLog', () => {
  it('lists newest first and keeps 25', () => {
    const log = new RequestLog();
    for (let i = 0; i < 27; i++) log.add(i * 1000, 'GET', `/p${i}`, 200);
    const list = log.list();
    assert.equal(list.length, 25);
    assert.equal(list[0]?.path, '/p26');
    assert.equal(list[24]?.path, '/p2');
    assert.equal(list[0]?.time, '1970-01-01T00:00:26.000Z');
  });

  it('writes every time exactly as toISOString does, the second kept between calls (property)', () => {
    const edges = [0, 1, 9, 10, 99, 100, 999, 1000, 1_763_900_000_007, 253_402_300_799_999, 253_402_300_800_000, -1, -1001, 1.5, 8.64e15];
    for (const ms of edges) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
    // Runs of calls within one second and across seconds, in any order.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -62_198_755_200_000, max: 8.64e15 - 5000 }), { maxLength: 20 }), fc.integer({ min: 0, max: 2500 }), (starts, step) => {
        for (const start of starts) {
          for (const ms of [start, start + step, start + 2 * step]) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
        }
      }),
      { numRuns: 500, seed: 20261129 },
    );
  });
});

describe('successBody', () => {
  it('serializes every result; a value that can still change is never answered from an earlier call', () => {
    const mutable = { todaySeconds: 1 };
    assert.equal(successBody(mutable), '{"ok":true,"result":{"todaySeconds":1}}');
    mutable.todaySeconds = 2;
    assert.equal(successBody(mutable), '{"ok":true,"result":{"todaySeconds":2}}');
    const frozen = Object.freeze({ todaySeconds: 3, currentActivity: Object.freeze({ activityName: 'A' }) });
    assert.equal(successBody(frozen), '{"ok":true,"result":{"todaySeconds":3,"currentActivity":{"activityName":"A"}}}');
    assert.equal(successBody(frozen), '{"ok":true,"result":{"todaySeconds":3,"currentActivity":{"activityName":"A"}}}');
    assert.equal(successBody(Object.freeze({ todaySeconds: 4 })), '{"ok":true,"result":{"todaySeconds":4}}');
    assert.equal(successBody(null), '{"ok":true,"result":null}');
    assert.equal(successBody(undefined), '{"ok":true,"result":null}');
    assert.equal(successBody([1, 2]), '{"ok":true,"result":[1,2]}');
  });
});

describe('checks', () => {
  it('accepts only the loopback Host names with the bound port', () => {
    const allowed = allowedHostsFor(39847);
    assert.equal(hostAllowed('127.0.0.1:39847', allowed), true);
    assert.equal(hostAllowed('localhost:39847', allowed), true);
    for (const host of [undefined, '', '127.0.0.1', '[::1]:39847', '127.0.0.1:39848', 'localhost.evil:39847', '0.0.0.0:39847']) {
      assert.equal(hostAllowed(host, allowed), false, String(host));
    }
  });

  it('compares the declared length with 64 KiB', () => {
    assert.equal(declaredBodyTooLarge({ 'content-length': '65536' }), false);
    assert.equal(declaredBodyTooLarge({ 'content-length': '65537' }), true);
    assert.equal(declaredBodyTooLarge({}), false);
  });

  it('allows drift of 60 s either way, not 61', () => {
    const now = 1_795_000_000_999;
    assert.equal(timestampDrifts(1_795_000_060, now), false);
    assert.equal(timestampDrifts(1_794_999_940, now), false);
    assert.equal(timestampDrifts(1_795_000_061, now), true);
    assert.equal(timestampDrifts(1_794_999_939, now), true);
  });

  it('guards only the first 60 s after a start', () => {
    assert.equal(signedBeforeStart(999, 1_000_000, 1_000_000), true);
    assert.equal(signedBeforeStart(1000, 1_000_000, 1_000_000), false);
    assert.equal(signedBeforeStart(999, 1_060_000, 1_000_000), false);
  });

  it('recognizes JSON content types with parameters', () => {
    assert.equal(isJsonContentType('application/json'), true);
    assert.equal(isJsonContentType(' application/json ; charset=utf-8'), true);
    assert.equal(isJsonContentType('application/json-patch+json'), false);
    assert.equal(isJsonContentType('text/json'), false);
    assert.equal(isJsonContentType(undefined), false);
  });

  it('parses strict UTF-8 JSON only', () => {
    assert.deepEqual(parseJson(Buffer.from('{"a":"é"}')), { ok: true, value: { a: 'é' } });
    assert.deepEqual(parseJson(Buffer.from([0x22, 0xff, 0x22])), { ok: false });
    assert.deepEqual(parseJson(Buffer.from('NaN')), { ok: false });
  });

  it('reads the Idempotency-Key', () => {
    assert.equal(idempotencyKeyOf({}), undefined);
    assert.equal(idempotencyKeyOf({ 'idempotency-key': 'abc_-1' }), 'abc_-1');
    assert.equal(idempotencyKeyOf({ 'idempotency-key': 'a, b' }), MALFORMED_KEY);
  });
});

describe('the listener’s HMAC key', () => {
  it('computes the same MAC as createHmac for any token and text (property)', async () => {
    const { createHmac } = await import('node:crypto');
    const { TokenKeys } = await import('../src/signature.ts');
    const keys = new TokenKeys();
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 80 })),
        fc.string({ unit: 'binary', maxLength: 300 }),
        (token, text) => {
          const expected = createHmac('sha256', Buffer.from(token, 'utf8')).update(text, 'utf8').digest('hex');
          const key = keys.forToken(token);
          assert.equal(key.hex(text), expected);
          assert.equal(keys.forToken(token), key, 'one key per token value');
          assert.equal(key.hex(text), expected, 'reusing the key gives the same MAC');
        },
      ),
      { numRuns: 1000, seed: 20261129 },
    );
  });

  it('accepts a request signature only when all 64 hex digits match (a change anywhere, a wrong length: refused)', async () => {
    const { TokenKeys, requestSignatureMatches } = await import('../src/signature.ts');
    const { requestStringToSign } = await import('@tock/protocol');
    const key = new TokenKeys().forToken('t0ken-for-the-comparison');
    const parts = { timestamp: '1763900000', nonce: 'abcdefghijklmnopqrstuv', method: 'GET', target: '/status', bodySha256: 'e'.repeat(64) };
    const good = `v1=${key.hex(requestStringToSign(parts))}`;
    const matches = (signature: string): boolean =>
      requestSignatureMatches(key, { timestamp: parts.timestamp, nonce: parts.nonce, signature }, parts.method, parts.target, parts.bodySha256);
    assert.equal(matches(good), true);
    for (let i = 3; i < good.length; i++) {
      const other = good[i] === '0' ? '1' : '0';
      assert.equal(matches(good.slice(0, i) + other + good.slice(i + 1)), false, `digit ${i - 3} changed`);
    }
    assert.equal(matches(good.slice(0, -1)), false);
    assert.equal(matches(`${good}0`), false);
  });

  it('handles tokens of exactly one block and longer', async () => {
    const { createHmac } = await import('node:crypto');
    const { TokenKeys } = await import('../src/signature.ts');
    for (const token of ['a'.repeat(64), 'b'.repeat(65), 'é'.repeat(20)]) {
      assert.equal(new TokenKeys().forToken(token).hex('text'), createHmac('sha256', token).update('text').digest('hex'));
    }
  });
});
