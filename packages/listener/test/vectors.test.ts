/** The listener accepts every request of spec/signing.json byte for byte, and signs its answers. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { expectedResponseSignature, sendRaw, startHarness } from './signed-client.ts';

interface Vector {
  name: string;
  method: string;
  target: string;
  body: string;
  timestamp: string;
  nonce: string;
  signature: string;
}

const vectors: { token: string; vectors: Vector[] } = JSON.parse(
  readFileSync(new URL('../../../spec/signing.json', import.meta.url), 'utf8'),
);

describe('signing vectors (spec/signing.json)', () => {
  for (const v of vectors.vectors) {
    it(`accepts ${v.name} exactly as signed`, async (t) => {
      const h = await startHarness(t);
      h.token.value = vectors.token;
      h.clock.now = Number(v.timestamp) * 1000;
      const headers: Record<string, string> = {
        host: `127.0.0.1:${h.port}`,
        'x-tock-timestamp': v.timestamp,
        'x-tock-nonce': v.nonce,
        'x-tock-signature': v.signature,
      };
      if (v.body !== '') headers['content-type'] = 'application/json';
      const answer = await sendRaw(h.port, v.method, v.target, headers, v.body);
      assert.ok(answer.status >= 200 && answer.status < 300, `${answer.status} ${answer.text}`);
      assert.equal(
        answer.headers['x-tock-response-signature'],
        expectedResponseSignature(v.nonce, answer.status, answer.text, vectors.token),
      );
    });
  }
});
