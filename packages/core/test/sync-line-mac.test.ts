/**
 * A log line's mac is HMAC-SHA256(key, "TOCK-SYNC-LINE\n" + deviceID + "\n" + op) (docs/sync.md
 * "Format 2: the folder key"), computed here from the raw key bytes as another implementation
 * would. The signer keeps each key imported once (folder-key.ts): these check that what it
 * keeps is each key's own, whichever key signed before.
 */

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { openLine, signLine } from '../src/sync/index.ts';

const DEVICE = '11111111-1111-4111-8111-111111111111';
const OP = '{"v":1,"hlc":"1767261600000-0-11111111-1111-4111-8111-111111111111","op":"activity.create","id":"x","set":{"name":"Ünïcode"}}';

function macOf(key: Uint8Array, op: string): string {
  return createHmac('sha256', key).update(`TOCK-SYNC-LINE\n${DEVICE}\n`).update(op).digest('hex');
}

test('signs each line with its own key, as the documented HMAC over the raw key bytes', () => {
  const one = new Uint8Array(32).fill(1);
  const two = new Uint8Array(32).fill(2);
  for (const key of [one, two, one, new Uint8Array(32).fill(1)]) {
    const line = signLine(key, DEVICE, OP);
    assert.equal(line, `{"mac":"${macOf(key, OP)}","op":${OP}}`);
    assert.equal(openLine(key, DEVICE, line), OP);
  }
  assert.throws(() => openLine(two, DEVICE, signLine(one, DEVICE, OP)), /wrong "mac"/);
});
