import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Hmac256, sha256, toHex } from '../src/sha256.ts';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));

describe('sha256', () => {
  it('matches the FIPS 180-4 examples', () => {
    assert.equal(toHex(sha256('')), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(toHex(sha256('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(
      toHex(sha256('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')),
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    assert.equal(toHex(sha256('a'.repeat(1_000_000))), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('agrees with node:crypto on every length around the block and padding edges', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 0xff);
      assert.equal(toHex(sha256(bytes)), createHash('sha256').update(bytes).digest('hex'), `length ${length}`);
    }
  });

  it('agrees with node:crypto on arbitrary bytes and strings (UTF-8)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.string({ unit: 'grapheme', maxLength: 200 }), (bytes, text) => {
        assert.equal(toHex(sha256(bytes)), createHash('sha256').update(bytes).digest('hex'));
        assert.equal(toHex(sha256(text)), createHash('sha256').update(text, 'utf8').digest('hex'));
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });
});

describe('Hmac256', () => {
  // RFC 4231 test cases 1, 2, 3, 4, 6 and 7 (5 truncates the output).
  const cases = [
    { key: '0b'.repeat(20), data: Buffer.from('Hi There').toString('hex'), mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7' },
    { key: Buffer.from('Jefe').toString('hex'), data: Buffer.from('what do ya want for nothing?').toString('hex'), mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843' },
    { key: 'aa'.repeat(20), data: 'dd'.repeat(50), mac: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe' },
    { key: '0102030405060708090a0b0c0d0e0f10111213141516171819', data: 'cd'.repeat(50), mac: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b' },
    {
      key: 'aa'.repeat(131),
      data: Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First').toString('hex'),
      mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    },
    {
      key: 'aa'.repeat(131),
      data: Buffer.from('This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.').toString('hex'),
      mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    },
  ];
  for (const [i, c] of cases.entries()) {
    it(`matches RFC 4231 example ${i + 1}`, () => {
      assert.equal(toHex(new Hmac256(hex(c.key)).mac(hex(c.data))), c.mac);
    });
  }

  it('agrees with node:crypto for arbitrary keys and messages, and stays the same on reuse', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 150 }), fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 4 }), (key, messages) => {
        const hmac = new Hmac256(key);
        for (const message of [...messages, ...messages]) {
          assert.equal(toHex(hmac.mac(message)), createHmac('sha256', key).update(message).digest('hex'));
        }
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });
});
