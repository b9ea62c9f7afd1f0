import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MIN_LISTENER_PORT, isPort, parsePort } from '../src/index.ts';

describe('the one port reader', () => {
  it('takes an integer from 1 (or the given minimum) to 65535, nothing else', () => {
    for (const port of [1, 80, 1024, 39847, 65535]) assert.equal(isPort(port), true, String(port));
    for (const value of [0, -1, 65536, 1.5, Number.NaN, '39847', null, undefined]) assert.equal(isPort(value), false, String(value));
    assert.equal(isPort(80, MIN_LISTENER_PORT), false);
    assert.equal(isPort(1024, MIN_LISTENER_PORT), true);
  });

  it('reads one to five decimal digits as written, refusing signs, spaces, exponents and out-of-range values', () => {
    assert.equal(parsePort('39847'), 39847);
    assert.equal(parsePort('080'), 80);
    for (const text of ['', ' 39847', '39847 ', '+80', '-1', '1e3', '0x50', '0', '65536', '123456', 'abc']) assert.equal(parsePort(text), undefined, JSON.stringify(text));
    assert.equal(parsePort('80', MIN_LISTENER_PORT), undefined);
    assert.equal(parsePort('8080', MIN_LISTENER_PORT), 8080);
  });
});
