/**
 * An invoice line's rate is written with its currency's decimals (src/invoices/text.ts): a yen
 * rate kept as `12000.00` read `12,000.00 JPY/時間` beside amounts in whole yen (`26,760 JPY`);
 * it is `12,000 JPY/時間`, while euros keep their cents and a rate's own decimals stay.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateDecimals, rateText } from '../src/invoices/text.ts';

describe('an invoice line’s rate', () => {
  it('has its currency’s decimals, in every language', () => {
    assert.equal(rateText({ rate: '12000.00', currency: 'JPY' }, 'ja'), '12,000 JPY/時間');
    assert.equal(rateText({ rate: '12000.00', currency: 'JPY' }, 'fr'), '12\u202f000 JPY/h');
    assert.equal(rateText({ rate: '12000.00', currency: 'JPY' }), '12,000 JPY/h');
    assert.equal(rateText({ rate: '85.00', currency: 'EUR' }, 'fr'), '85,00 EUR/h');
    assert.equal(rateText({ rate: '85.00', currency: 'EUR' }), '85.00 EUR/h');
    assert.equal(rateText({ rate: null, currency: 'EUR' }), '—');
  });

  it('keeps the digits the rate has past its currency’s, and never drops a needed one', () => {
    assert.equal(rateDecimals('12000.50', 'JPY'), '12000.5');
    assert.equal(rateDecimals('9000', 'JPY'), '9000');
    assert.equal(rateDecimals('85.125', 'EUR'), '85.125');
    assert.equal(rateDecimals('85.1000', 'EUR'), '85.10');
    assert.equal(rateDecimals('85', 'EUR'), '85');
    assert.equal(rateDecimals('10.500', 'BHD'), '10.500');
    assert.equal(rateDecimals('10.00', 'XQQ'), '10.00');
  });
});
