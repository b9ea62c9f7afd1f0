/**
 * The hash provider (hmac.ts): one implementation per runtime family, chosen in one place.
 * Both are held to the same bytes: RFC 4231 and NIST examples, the signing vectors of
 * spec/signing.json, and node:crypto's createHmac / createHash on arbitrary inputs.
 */

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as nodeCrypto from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hashes, requestStringToSign } from '../src/index.ts';
import { javascriptHashes, nodeCryptoHashes, type HashProvider } from '../src/hmac.ts';
import { signingVectors } from './vectors.ts';

const providers: HashProvider[] = [javascriptHashes, nodeCryptoHashes(nodeCrypto)];

describe('the chosen hash provider', () => {
  it('is node:crypto on Node (the runtime offers it synchronously)', () => {
    assert.equal(hashes.name, 'node:crypto');
  });

  it('falls back to JavaScript where node:crypto cannot be had (a browser)', async () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'process');
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    try {
      const fresh = (await import(`../src/hmac.ts?browser=${Date.now()}`)) as typeof import('../src/hmac.ts');
      assert.equal(fresh.hashes.name, 'javascript');
    } finally {
      if (saved) Object.defineProperty(globalThis, 'process', saved);
    }
  });
});

for (const provider of providers) {
  describe(`${provider.name} hashes`, () => {
    it('reproduce RFC 4231 test case 2 and the NIST "abc" digest', () => {
      assert.equal(
        provider.hmac('Jefe')('what do ya want for nothing?'),
        '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      );
      assert.equal(provider.sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      assert.equal(provider.sha256Hex(new Uint8Array(0)), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    });

    it('reproduce the request signatures of spec/signing.json', () => {
      const mac = provider.hmac(signingVectors.token);
      for (const v of signingVectors.vectors) {
        assert.equal(provider.sha256Hex(v.body), v.bodySha256, v.name);
        const text = requestStringToSign({ timestamp: v.timestamp, nonce: v.nonce, method: v.method, target: v.target, bodySha256: v.bodySha256 });
        assert.equal(`v1=${mac(text)}`, v.signature, v.name);
      }
    });

    it('agree with createHmac for any token (ASCII, other scripts, longer than a block) and message', () => {
      fc.assert(
        fc.property(
          fc.oneof(fc.string({ minLength: 1, maxLength: 100 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 100 })),
          fc.string({ unit: 'binary', maxLength: 300 }),
          (token, message) => {
            const expected = nodeCrypto.createHmac('sha256', Buffer.from(token, 'utf8')).update(message, 'utf8').digest('hex');
            const mac = provider.hmac(token);
            assert.equal(mac(message), expected);
            assert.equal(mac(message), expected, 'a key is reused');
          },
        ),
        { numRuns: 500, seed: 20261129 },
      );
    });

    it('agree with createHash for any bytes', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
          assert.equal(provider.sha256Hex(bytes), nodeCrypto.createHash('sha256').update(bytes).digest('hex'));
        }),
        { numRuns: 300, seed: 20261129 },
      );
    });
  });
}

describe('bench/hmac-providers.ts', () => {
  it('runs, and finds every candidate computing the same bytes (a smoke run, no timing asserted)', () => {
    const script = new URL('../../../bench/hmac-providers.ts', import.meta.url).pathname;
    const out = execFileSync(process.execPath, [script, '--ms=2', '--rounds=1'], { encoding: 'utf8' });
    for (const name of ['js', 'createHmac', 'pads+hash']) assert.match(out, new RegExp(`^  ${name.replace('+', '\\+')} +sign request`, 'm'));
  });
});
