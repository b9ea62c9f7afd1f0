/** Figure 5d's floor (bench/servers/entry-floor.ts): a signed write answered once, signed; a forged one refused. */

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { HEADER, SIGNATURE_VERSION_PREFIX, responseStringToSign } from '@tock/protocol';
import { startEntryFloorServer } from './lib/children.ts';
import { RequestSigner, sha256Hex } from './lib/signing.ts';

test("figure 5d's floor answers a signed POST /entries 201, signed, a repeat of its key with the first answer, and refuses a wrong signature", async () => {
  const floor = await startEntryFloorServer();
  try {
    const signer = new RequestSigner(floor.ready.token);
    const body = JSON.stringify({ name: 'Bench project 0', durationMinutes: 1, note: 'bench' });
    const post = async (headers: Record<string, string>): Promise<{ status: number; text: string; signature: string | null }> => {
      const res = await fetch(`http://127.0.0.1:${floor.ready.port}/entries`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      return { status: res.status, text: await res.text(), signature: res.headers.get(HEADER.responseSignature) };
    };
    const signed = (): Record<string, string> => ({ ...signer.headers('POST', '/entries', sha256Hex(body)), [HEADER.idempotencyKey]: 'key-1' });
    const first = signed();
    const answered = await post(first);
    assert.equal(answered.status, 201);
    const expected = createHmac('sha256', floor.ready.token)
      .update(responseStringToSign(first[HEADER.nonce] as string, 201, sha256Hex(answered.text)))
      .digest('hex');
    assert.equal(answered.signature, SIGNATURE_VERSION_PREFIX + expected);
    const result = (JSON.parse(answered.text) as { result: { entryID: string; activity: { activityName: string }; durationMinutes: number } }).result;
    assert.equal(result.activity.activityName, 'Bench project 0');
    assert.equal(result.durationMinutes, 1);
    const again = await post(signed());
    assert.equal(again.status, 201);
    assert.equal(again.text, answered.text);
    assert.equal((await post({ ...signed(), [HEADER.signature]: `${SIGNATURE_VERSION_PREFIX}${'0'.repeat(64)}` })).status, 401);
  } finally {
    await floor.stop();
  }
});
