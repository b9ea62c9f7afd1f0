import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  EVENT_ID_PATTERN,
  EventStreamParser,
  SigningKey,
  eventSignatureValid,
  eventStringToSign,
  formatEvent,
  sha256Hex,
  signEvent,
} from '../src/index.ts';

interface EventVector {
  name: string;
  requestNonce: string;
  id: string;
  type: string;
  data: string;
  dataSha256: string;
  stringToSign: string;
  sig: string;
  wire: string;
}

const file: { token: string; events: EventVector[] } = JSON.parse(
  readFileSync(new URL('../../../spec/signing.json', import.meta.url), 'utf8'),
);

describe('event signing vectors (spec/signing.json "events")', () => {
  const key = new SigningKey(file.token);
  it('has worked examples of each event type', () => {
    assert.deepEqual(new Set(file.events.map((v) => v.type)), new Set(['status', 'branch-prompt', 'idle']));
  });
  for (const v of file.events) {
    it(`reproduces ${v.name} byte for byte`, () => {
      assert.match(v.id, EVENT_ID_PATTERN);
      assert.equal(sha256Hex(v.data), v.dataSha256);
      assert.equal(eventStringToSign(v.requestNonce, v.id, v.type, v.dataSha256), v.stringToSign);
      assert.equal(signEvent(key, v.requestNonce, v.id, v.type, v.data), v.sig);
      assert.equal(formatEvent(v.id, v.type, v.data, v.sig), v.wire);
      assert.equal(eventSignatureValid(key, v.requestNonce, { ...v }), true);
    });
    it(`refuses ${v.name} under another stream's nonce, id, type or data`, () => {
      assert.equal(eventSignatureValid(key, `${v.requestNonce}x`, v), false);
      assert.equal(eventSignatureValid(key, v.requestNonce, { ...v, id: `${v.id}1` }), false);
      assert.equal(eventSignatureValid(key, v.requestNonce, { ...v, type: 'idle2' }), false);
      assert.equal(eventSignatureValid(key, v.requestNonce, { ...v, data: `${v.data} ` }), false);
      assert.equal(eventSignatureValid(new SigningKey(`${file.token}x`), v.requestNonce, v), false);
    });
  }

  it('signs as node:crypto HMAC-SHA256 does for any nonce, id, type and data', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 16, maxLength: 64 }), fc.string(), fc.string(), fc.string(), (nonce, id, type, data) => {
        const expected = createHmac('sha256', file.token)
          .update(eventStringToSign(nonce, id, type, sha256Hex(data)))
          .digest('hex');
        assert.equal(signEvent(key, nonce, id, type, data), `v1=${expected}`);
      }),
      { numRuns: 200, seed: 20261129 },
    );
  });
});

describe('EventStreamParser', () => {
  const wire = file.events.map((v) => v.wire).join(': ping\n\n');

  it('reads back every field of the events the vectors put on the wire', () => {
    const events = new EventStreamParser().push(wire);
    assert.deepEqual(
      events,
      file.events.map((v) => ({ id: v.id, event: v.type, data: v.data, sig: v.sig })),
    );
  });

  it('gives the same events however the text is cut into chunks, and with CRLF or CR line ends', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: wire.length }), { maxLength: 12 }), fc.constantFrom('\n', '\r\n', '\r'), (cuts, eol) => {
        const text = wire.replace(/\n/g, eol);
        const parser = new EventStreamParser();
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const out: ReturnType<typeof parser.push> = [];
        let at = 0;
        for (const p of [...points, text.length]) {
          out.push(...parser.push(text.slice(at, p)));
          at = p;
        }
        // A trailing CR could still become CRLF: one more (empty) line settles it.
        out.push(...parser.push('\n'));
        assert.deepEqual(
          out.map((e) => e.id),
          file.events.map((v) => v.id),
        );
        assert.deepEqual(
          out.map((e) => e.data),
          file.events.map((v) => v.data),
        );
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });

  it('leaves a missing sig undefined, ignores comments and unknown fields, keeps one space after the colon only', () => {
    const [event] = new EventStreamParser().push(': ping\n\nid:a.1\nevent: status\nretry: 10\ndata:  {"x":1}\n\n');
    assert.deepEqual(event, { id: 'a.1', event: 'status', data: ' {"x":1}', sig: undefined });
  });

  it('produces nothing for keep-alive comments alone or for an event without its blank line yet', () => {
    const parser = new EventStreamParser();
    assert.deepEqual(parser.push(': ping\n\n: ping\n\nid: a.1\nevent: idle\n'), []);
    assert.equal(parser.push('\n').length, 1);
  });
});
