import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  randomBytes,
  EMPTY_BODY_SHA256,
  SigningKey,
  authHeadersWellFormed,
  newNonce,
  requestStringToSign,
  responseStringToSign,
  sha256Hex,
  signRequest,
} from '../src/index.ts';
import { signingVectors } from './vectors.ts';

describe('request signing vectors (spec/signing.json)', () => {
  const key = new SigningKey(signingVectors.token);
  for (const v of signingVectors.vectors) {
    it(`reproduces ${v.name} byte for byte`, () => {
      assert.equal(sha256Hex(v.body), v.bodySha256);
      const sts = requestStringToSign({
        timestamp: v.timestamp,
        nonce: v.nonce,
        method: v.method,
        target: v.target,
        bodySha256: v.bodySha256,
      });
      assert.equal(sts, v.stringToSign);
      assert.equal(key.sign(sts), v.signature);
      assert.equal(key.verify(sts, v.signature), true);
      const headers = signRequest(key, {
        method: v.method,
        target: v.target,
        body: v.body,
        timestamp: Number(v.timestamp),
        nonce: v.nonce,
      });
      assert.deepEqual(headers, {
        'x-tock-timestamp': v.timestamp,
        'x-tock-nonce': v.nonce,
        'x-tock-signature': v.signature,
      });
    });
  }
});

describe('SigningKey', () => {
  it('agrees with node:crypto HMAC for arbitrary tokens and strings', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (token, text) => {
        const expected = 'v1=' + createHmac('sha256', Buffer.from(token, 'utf8')).update(text, 'utf8').digest('hex');
        assert.equal(new SigningKey(token).sign(text), expected);
      }),
      { numRuns: 200, seed: 20261129 },
    );
  });

  it('rejects a signature whose any single hex digit changed', () => {
    const key = new SigningKey('token');
    const good = key.sign('payload');
    for (let i = 3; i < good.length; i++) {
      const digit = good[i] === '0' ? '1' : '0';
      const bad = good.slice(0, i) + digit + good.slice(i + 1);
      assert.equal(key.verify('payload', bad), false, `digit ${i}`);
    }
  });

  it('rejects malformed signatures without throwing', () => {
    const key = new SigningKey('token');
    for (const bad of ['', 'v1=', 'v2=' + '0'.repeat(64), 'v1=' + 'A'.repeat(64), 'v1=' + '0'.repeat(63)]) {
      assert.equal(key.verify('payload', bad), false);
    }
  });
});

describe('signed strings', () => {
  it('builds the response string of docs/protocol.md "Request signing"', () => {
    assert.equal(
      responseStringToSign('abc', 200, EMPTY_BODY_SHA256),
      `TOCK-HMAC-SHA256-RESPONSE\nabc\n200\n${EMPTY_BODY_SHA256}`,
    );
  });

  it('upper-cases the method and adds no trailing newline', () => {
    const s = requestStringToSign({ timestamp: '1', nonce: 'n', method: 'post', target: '/x', bodySha256: 'h' });
    assert.equal(s, 'TOCK-HMAC-SHA256\n1\nn\nPOST\n/x\nh');
  });

  it('makes 22-character base64url nonces that pass the nonce pattern', () => {
    const fixed = newNonce((n) => new Uint8Array(n).fill(255));
    assert.equal(fixed, '_____________________w');
    assert.equal(authHeadersWellFormed('1795000000', newNonce(), 'v1=' + 'a'.repeat(64)), true);
  });

  it('checks the exact header forms', () => {
    const sig = 'v1=' + 'a'.repeat(64);
    const nonce = 'a'.repeat(16);
    assert.equal(authHeadersWellFormed('1'.repeat(12), nonce, sig), true);
    assert.equal(authHeadersWellFormed('1'.repeat(13), nonce, sig), false);
    assert.equal(authHeadersWellFormed('+1', nonce, sig), false);
    assert.equal(authHeadersWellFormed('1.5', nonce, sig), false);
    assert.equal(authHeadersWellFormed('1', 'a'.repeat(15), sig), false);
    assert.equal(authHeadersWellFormed('1', 'a'.repeat(65), sig), false);
    assert.equal(authHeadersWellFormed('1', 'a'.repeat(15) + '=', sig), false);
    assert.equal(authHeadersWellFormed('1', nonce, sig.toUpperCase()), false);
  });
});

describe('randomBytes', () => {
  it('hands out fresh bytes of the asked length, across pool refills and for large requests', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const bytes = randomBytes(16);
      assert.equal(bytes.length, 16);
      seen.add(Buffer.from(bytes).toString('hex'));
    }
    assert.equal(seen.size, 1000, 'no 16 bytes were handed out twice');
    const large = randomBytes(5000);
    assert.equal(large.length, 5000);
    assert.ok(new Set(large).size > 200, 'large requests are random too');
  });

  it('gives every byte value about equally often (no zeroed or reused pool bytes)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 4096; i++) for (const b of randomBytes(16)) counts[b]!++;
    // 65 536 bytes: 256 expected per value; a pool handing out zeros would show at 0.
    assert.ok(Math.max(...counts) < 400 && Math.min(...counts) > 150, `${Math.min(...counts)}–${Math.max(...counts)}`);
  });
});
