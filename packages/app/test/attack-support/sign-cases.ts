/**
 * The TypeScript half of the cross-language signing check (docs/security.md, family 2), run by
 * python/tests/attack/test_cross_language.py. No code is shared with Python: the cases travel
 * as JSON, bytes as base64.
 *
 *   node sign-cases.ts generate N SEED OUT  — N fast-check cases, signed by the TS client's
 *                                            signer (@tock/protocol's JS HMAC), into OUT; each
 *                                            case also signs an event of the stream
 *   node sign-cases.ts verify IN            — cases signed by Python: recomputed by the TS
 *                                            client's signer and checked by the listener's own
 *                                            verifier (node:crypto, its HMAC fast path); prints
 *                                            {"checked": n, "mismatches": [...]}
 */
import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { SigningKey, eventStringToSign, requestStringToSign, responseStringToSign, sha256Hex, signEvent } from '@tock/protocol';
import { HmacKey, requestSignatureMatches, responseSignature } from '@tock/listener/testing';

/** One signing case as exchanged with Python. */
export interface SigningCase {
  token: string;
  method: string;
  target: string;
  /** base64 of the body bytes */
  body: string;
  timestamp: string;
  nonce: string;
  status: number;
  /** base64 of the response body bytes */
  responseBody: string;
  /** An event of the stream opened with `nonce` (docs/protocol.md "The event stream: `GET /events`"). */
  eventId: string;
  eventType: string;
  /** The exact text of the event's data line. */
  eventData: string;
  requestSignature?: string;
  responseSignature?: string;
  eventSignature?: string;
}

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const METHOD_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&\'*+-.^_`|~';

/** Tokens: real ones (43 chars), any Unicode (multi-byte UTF-8 keys), longer than a HMAC block. */
const tokenArb = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 43, maxLength: 43 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 60, maxLength: 200 }),
);

/** Targets: realistic paths and queries, and any Unicode string (the signer signs strings). */
const targetArb = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('/healthcheck', '/status', '/activities/search', '/entries', '/x/y'),
      fc.option(fc.stringMatching(/^[A-Za-z0-9=&%._~+-]{0,60}$/), { nil: undefined }),
    )
    .map(([path, query]) => (query === undefined ? path : `${path}?${query}`)),
  fc.string({ unit: 'binary', maxLength: 100 }).map((s) => '/' + s),
);

const caseArb: fc.Arbitrary<SigningCase> = fc.record({
  token: tokenArb,
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'get', 'Post'), fc.string({ unit: fc.constantFrom(...METHOD_CHARS), minLength: 1, maxLength: 12 })),
  target: targetArb,
  body: fc.oneof(fc.constant(new Uint8Array()), fc.uint8Array({ maxLength: 600 }), fc.string({ unit: 'binary', maxLength: 200 }).map((s) => new TextEncoder().encode(s))).map((b) =>
    Buffer.from(b).toString('base64'),
  ),
  timestamp: fc.bigInt({ min: 0n, max: 999_999_999_999n }).map(String),
  nonce: fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
  status: fc.integer({ min: 100, max: 599 }),
  responseBody: fc
    .oneof(fc.uint8Array({ maxLength: 600 }), fc.string({ unit: 'binary', maxLength: 300 }).map((s) => new TextEncoder().encode(s)))
    .map((b) => Buffer.from(b).toString('base64')),
  eventId: fc.oneof(
    fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{8,32}$/), fc.nat()).map(([run, seq]) => `${run}.${seq}`),
    fc.string({ unit: 'binary', maxLength: 40 }),
  ),
  eventType: fc.oneof(fc.constantFrom('status', 'branch-prompt', 'idle'), fc.string({ unit: 'binary', maxLength: 20 })),
  eventData: fc.oneof(fc.json(), fc.string({ unit: 'binary', maxLength: 300 })),
});

/** The TS client's signatures of a case (request, response and event). */
async function clientSignatures(c: SigningCase): Promise<{ request: string; response: string; event: string }> {
  const key = new SigningKey(c.token);
  const bodySha256 = sha256Hex(Buffer.from(c.body, 'base64'));
  const request = key.sign(requestStringToSign({ timestamp: c.timestamp, nonce: c.nonce, method: c.method, target: c.target, bodySha256 }));
  const response = key.sign(responseStringToSign(c.nonce, c.status, sha256Hex(Buffer.from(c.responseBody, 'base64'))));
  const event = signEvent(key, c.nonce, c.eventId, c.eventType, c.eventData);
  return { request, response, event };
}

async function generate(n: number, seed: number, out: string): Promise<void> {
  const cases = fc.sample(caseArb, { numRuns: n, seed });
  for (const c of cases) {
    const s = await clientSignatures(c);
    c.requestSignature = s.request;
    c.responseSignature = s.response;
    c.eventSignature = s.event;
  }
  writeFileSync(out, JSON.stringify(cases));
}

async function verify(file: string): Promise<void> {
  const cases = JSON.parse(readFileSync(file, 'utf8')) as SigningCase[];
  const mismatches: { index: number; what: string }[] = [];
  for (const [index, c] of cases.entries()) {
    const s = await clientSignatures(c);
    if (s.request !== c.requestSignature) mismatches.push({ index, what: 'request signature (TS client)' });
    if (s.response !== c.responseSignature) mismatches.push({ index, what: 'response signature (TS client)' });
    if (s.event !== c.eventSignature) mismatches.push({ index, what: 'event signature (TS client)' });
    // The listener verifies with @tock/protocol's HMAC (node:crypto here), any token.
    const key = new HmacKey(c.token);
    const body = Buffer.from(c.body, 'base64');
    const auth = { timestamp: c.timestamp, nonce: c.nonce, signature: c.requestSignature ?? '' };
    if (!requestSignatureMatches(key, auth, c.method.toUpperCase(), c.target, sha256Hex(body))) {
      mismatches.push({ index, what: 'request signature (listener verifier)' });
    }
    // The listener signs response bodies given as strings: compare where the bytes are UTF-8 text.
    const responseBytes = Buffer.from(c.responseBody, 'base64');
    const responseText = responseBytes.toString('utf8');
    if (Buffer.from(responseText, 'utf8').equals(responseBytes) && responseSignature(key, c.nonce, c.status, responseText) !== c.responseSignature) {
      mismatches.push({ index, what: 'response signature (listener)' });
    }
    // The listener signs events with node:crypto over the same string.
    const eventMac = `v1=${key.hex(eventStringToSign(c.nonce, c.eventId, c.eventType, sha256Hex(c.eventData)))}`;
    if (eventMac !== c.eventSignature) mismatches.push({ index, what: 'event signature (listener)' });
  }
  process.stdout.write(JSON.stringify({ checked: cases.length, mismatches }) + '\n');
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'generate') await generate(Number(args[0]), Number(args[1]), args[2] as string);
else if (mode === 'verify') await verify(args[0] as string);
else {
  process.stderr.write('usage: sign-cases.ts generate N SEED OUT | verify IN\n');
  process.exit(2);
}
