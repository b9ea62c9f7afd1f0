/**
 * Property tests of request signing against a live listener: a correctly signed request is
 * never refused as unauthenticated, and changing any single byte of what the signature covers
 * is. Each run gets its own listener, so the lockout never interferes and the test stays honest.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createListener } from '../src/index.ts';
import { START_MS, TOKEN, authHeaders, expectedResponseSignature, sendRaw, stubHandlers } from './signed-client.ts';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
const NONCE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const PATH_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/';
const NOW_SEC = START_MS / 1000;

const requestArb = fc.record({
  method: fc.constantFrom(...METHODS),
  target: fc.tuple(
    fc.constantFrom('/status', '/entries', '/activities/search', '/x'),
    fc.option(fc.stringMatching(/^[A-Za-z0-9=&%._~-]{0,40}$/), { nil: undefined }),
  ).map(([path, query]) => (query === undefined ? path : `${path}?${query}`)),
  body: fc.uint8Array({ maxLength: 512 }),
  timestamp: fc.integer({ min: NOW_SEC - 60, max: NOW_SEC + 60 }).map(String),
  nonce: fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
});

type SignedRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

/** One change to one byte of one signed part, keeping every header well formed. */
const mutationArb = fc.record({
  part: fc.constantFrom('method', 'target', 'body', 'timestamp', 'nonce'),
  position: fc.nat(),
  pick: fc.nat(),
});

function replaceAt(text: string, position: number, alphabet: string, pick: number): string {
  const i = position % text.length;
  const choices = alphabet.replace(text[i] as string, '');
  return text.slice(0, i) + choices[pick % choices.length] + text.slice(i + 1);
}

function mutate(r: SignedRequest, m: typeof mutationArb extends fc.Arbitrary<infer T> ? T : never): SignedRequest {
  switch (m.part) {
    case 'method': {
      const others = METHODS.filter((x) => x !== r.method);
      return { ...r, method: others[m.pick % others.length] as SignedRequest['method'] };
    }
    case 'target':
      // keep the leading "/" so the target stays origin-form
      return { ...r, target: '/' + replaceAt(r.target.slice(1) || 'a', m.position, PATH_CHARS, m.pick) };
    case 'body': {
      if (r.body.length === 0) return { ...r, body: Uint8Array.of(m.pick % 256) };
      const body = Uint8Array.from(r.body);
      const i = m.position % body.length;
      body[i] = (body[i] as number) ^ (1 + (m.pick % 255));
      return { ...r, body };
    }
    case 'timestamp':
      return { ...r, timestamp: replaceAt(r.timestamp, m.position, '0123456789', m.pick) };
    case 'nonce':
      return { ...r, nonce: replaceAt(r.nonce, m.position, NONCE_CHARS, m.pick) };
  }
}

describe('request signing (property)', () => {
  it('accepts every correctly signed request and refuses any single-byte change with 401', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, mutationArb, async (original, mutation) => {
        const listener = createListener({
          token: () => TOKEN,
          clock: () => START_MS,
          license: () => 'trial',
          appVersion: '1',
          handlers: stubHandlers({}),
          replayGuard: { startedAtMs: START_MS - 3_600_000 },
        });
        await listener.listen(0);
        try {
          const port = listener.port as number;
          const headersFor = (r: SignedRequest, signature: Record<string, string>) => ({
            host: `127.0.0.1:${port}`,
            'content-type': 'application/json',
            ...signature,
            'x-tock-timestamp': r.timestamp,
            'x-tock-nonce': r.nonce,
          });
          const signature = authHeaders(original);
          const changed = mutate(original, mutation);
          // the changed request first: a refused signature must not burn the nonce
          const refused = await sendRaw(port, changed.method, changed.target, headersFor(changed, signature), changed.body);
          assert.equal(refused.status, 401, `${mutation.part}: ${refused.text}`);
          assert.equal(refused.headers['x-tock-response-signature'], undefined);

          const accepted = await sendRaw(port, original.method, original.target, headersFor(original, signature), original.body);
          assert.notEqual(accepted.status, 401, accepted.text);
          assert.equal(
            accepted.headers['x-tock-response-signature'],
            expectedResponseSignature(original.nonce, accepted.status, accepted.text),
          );
        } finally {
          await listener.close();
        }
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });
});
