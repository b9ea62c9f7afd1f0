/**
 * Counts said in English (counted.ts): one is singular — "1 minute", "1 labelled suggestion"
 * (issue 37 said "1 minutes", "1 labelled suggestions").
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { counted } from '../src/index.ts';

test('one is singular, every other count plural', () => {
  assert.equal(counted(1, 'minute'), '1 minute');
  assert.equal(counted(0, 'minute'), '0 minutes');
  assert.equal(counted(15, 'minute'), '15 minutes');
  assert.equal(counted(1, 'labelled suggestion'), '1 labelled suggestion');
  assert.equal(counted(3, 'labelled suggestion'), '3 labelled suggestions');
  assert.equal(counted(2, 'entry', 'entries'), '2 entries');
});
