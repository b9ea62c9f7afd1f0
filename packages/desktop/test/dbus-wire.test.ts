/**
 * The desktop's D-Bus wire format (packages/desktop/src/dbus/wire.ts) against an
 * independent implementation: @homebridge/dbus-native's marshaller (a dev dependency, kept as
 * this oracle; dbus-session-bus.test.ts uses it over a bus) writes the same bytes for the
 * messages the tray sends, and what it writes reads back the same. Broken or truncated input is refused with an error, never read past its end. The
 * stream reader (issue 35 finding 5) copies each byte at most once, and refuses a message over
 * 1 MiB from its first 16 bytes.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { decodeMessage, encodeMessage, MAX_MESSAGE_BYTES, MessageReader, MessageTooLarge, MessageType, messageLength, parseSignature, type WireMessage } from '../src/dbus/wire.ts';

const library = createRequire(import.meta.url)('@homebridge/dbus-native/lib/message') as {
  marshall(message: Record<string, unknown>): Buffer;
  unmarshall(data: Buffer): Record<string, unknown>;
};

const pixmap = (size: number): [number, number, Buffer] => [size, size, Buffer.alloc(size * size * 4, size)];

/** Messages like the tray's: a call, a GetAll reply with pixmaps and variants, a layout, a signal and an error. */
const MESSAGES: WireMessage[] = [
  { type: MessageType.methodCall, serial: 1, destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'Hello' },
  { type: MessageType.methodCall, serial: 7, destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'RequestName', signature: 'su', body: ['org.kde.StatusNotifierItem-1-1', 4] },
  {
    type: MessageType.methodReturn,
    serial: 9,
    replySerial: 42,
    destination: ':1.2',
    signature: 'a{sv}',
    body: [
      [
        ['Id', ['s', 'tock']],
        ['WindowId', ['i', -1]],
        ['ItemIsMenu', ['b', false]],
        ['IconPixmap', ['a(iiay)', [pixmap(16), pixmap(22), pixmap(32)]]],
        ['ToolTip', ['(sa(iiay)ss)', ['tock-idle', [pixmap(16)], 'Tock', 'Writing docs · 1:12 · today 3:05 — ünïcödé']]],
        ['Menu', ['o', '/MenuBar']],
        ['IconThemePath', ['as', ['/opt/tock-icons']]],
      ],
    ],
  },
  {
    type: MessageType.methodReturn,
    serial: 10,
    replySerial: 43,
    destination: ':1.2',
    signature: 'u(ia{sv}av)',
    body: [3, [0, [['children-display', ['s', 'submenu']]], [['(ia{sv}av)', [1, [['label', ['s', 'Stop']], ['enabled', ['b', true]]], []]]]]],
  },
  { type: MessageType.signal, serial: 11, path: '/StatusNotifierItem', interface: 'org.kde.StatusNotifierItem', member: 'NewStatus', signature: 's', body: ['Active'] },
  { type: MessageType.error, serial: 12, replySerial: 44, destination: ':1.2', errorName: 'org.freedesktop.DBus.Error.PropertyReadOnly', signature: 's', body: ['the tray item has no writable properties'] },
];

describe('the tray D-Bus wire format', () => {
  it('writes the bytes an independent marshaller writes for the messages the tray sends', () => {
    for (const message of MESSAGES) {
      assert.deepEqual(encodeMessage(message), library.marshall({ ...message }), `${message.member ?? message.signature}`);
    }
  });

  it('reads back what it and the independent marshaller wrote, with the length known from the first 16 bytes', () => {
    for (const message of MESSAGES) {
      const bytes = library.marshall({ ...message });
      assert.equal(messageLength(bytes.subarray(0, 16)), bytes.length);
      const read = decodeMessage(bytes);
      assert.equal(read.type, message.type);
      assert.equal(read.serial, message.serial);
      for (const key of ['path', 'interface', 'member', 'destination', 'errorName', 'replySerial'] as const) assert.equal(read[key], message[key]);
      assert.deepEqual(read.body, message.body ?? []);
    }
  });

  it('reads a method call with variants, arrays and a struct array the way a tray host sends them', () => {
    const events: WireMessage = {
      type: MessageType.methodCall,
      serial: 5,
      sender: ':1.2',
      path: '/MenuBar',
      interface: 'com.canonical.dbusmenu',
      member: 'EventGroup',
      signature: 'a(isvu)',
      body: [[[3, 'clicked', ['s', ''], 0], [4, 'hovered', ['i', 1], 12]]],
    };
    const read = decodeMessage(library.marshall({ ...events }));
    assert.equal(read.sender, ':1.2');
    assert.deepEqual(read.body, events.body);
  });

  it('refuses truncated and malformed messages instead of reading past them', () => {
    const bytes = encodeMessage(MESSAGES[2] as WireMessage);
    assert.equal(messageLength(bytes.subarray(0, 15)), null, 'not yet 16 bytes');
    assert.throws(() => decodeMessage(bytes.subarray(0, bytes.length - 1)));
    const lying = Buffer.from(bytes);
    lying.writeUInt32LE(0x7fffffff, 28); // the destination's length (the second header field), far past the end
    assert.throws(() => decodeMessage(lying));
    assert.throws(() => messageLength(Buffer.alloc(16, 0x78)), /not a D-Bus message/);
    assert.throws(() => parseSignature('a('), /unclosed/);
    assert.throws(() => parseSignature('z'), /unknown type/);
    assert.throws(() => encodeMessage({ type: MessageType.signal, serial: 1, path: '/x', interface: 'a.b', member: 'C', signature: 's', body: ['nul\0inside'] }), /NUL/);
  });
});

/** A method call to the tray with an `ay` body that makes the whole message exactly `total` bytes. */
function callOfLength(total: number, serial = 1): Buffer {
  const head = encodeMessage({ type: MessageType.methodCall, serial, path: '/StatusNotifierItem', interface: 'org.kde.StatusNotifierItem', member: 'Activate', signature: 'ay', body: [Buffer.alloc(0)] });
  const bytes = encodeMessage({ type: MessageType.methodCall, serial, path: '/StatusNotifierItem', interface: 'org.kde.StatusNotifierItem', member: 'Activate', signature: 'ay', body: [Buffer.alloc(total - head.length, 0x5a)] });
  assert.equal(bytes.length, total);
  return bytes;
}

/** Feeds `bytes` to `reader` in chunks of `size`; returns the messages read. */
function feed(reader: MessageReader, bytes: Buffer, size: number): WireMessage[] {
  const read: WireMessage[] = [];
  for (let at = 0; at < bytes.length; at += size) read.push(...reader.push(bytes.subarray(at, at + size)));
  return read;
}

describe('the tray D-Bus stream reader', () => {
  it('reads a message fed in 64 KiB chunks copying each of its bytes once, at 256 KiB as at 1 MiB (linear, not quadratic)', () => {
    for (const total of [256 * 1024, MAX_MESSAGE_BYTES]) {
      const reader = new MessageReader();
      const read = feed(reader, callOfLength(total), 64 * 1024);
      assert.equal(read.length, 1);
      assert.ok(((read[0]?.body?.[0] as Buffer | undefined)?.length ?? 0) > total - 256, 'the body, whole');
      // Joining each chunk to what was buffered copied 16·17/2 chunks (8.5 MiB) for 1 MiB.
      assert.equal(reader.copiedBytes, total, `${total} bytes copied once`);
      assert.equal(reader.bufferedBytes, 0);
    }
  });

  it('reads 300 messages fed 7 bytes at a time, each once, with no copy for those that lie in one chunk', () => {
    const messages = Array.from({ length: 300 }, (_, i) => callOfLength(256 + 8 * (i % 5), i + 1));
    const stream = Buffer.concat(messages);
    const small = new MessageReader();
    const read = feed(small, stream, 7);
    assert.deepEqual(
      read.map((m) => m.serial),
      messages.map((_, i) => i + 1),
    );
    assert.ok(small.copiedBytes <= stream.length + 16 * messages.length, `${small.copiedBytes} bytes copied for ${stream.length}`);
    const whole = new MessageReader();
    assert.equal(whole.push(stream).length, 300);
    assert.equal(whole.copiedBytes, 0, 'messages inside one chunk are read where they lie');
  });

  it('refuses a 64 MiB message from its first 16 bytes, holding one chunk and copying only its header', () => {
    const header = callOfLength(1024);
    header.writeUInt32LE(64 * 1024 * 1024, 4); // the body's length
    const reader = new MessageReader();
    assert.equal(reader.push(header.subarray(0, 15)).length, 0);
    assert.throws(
      () => reader.push(header.subarray(15, 1024)),
      (error: unknown) => error instanceof MessageTooLarge && error.declaredBytes > 64 * 1024 * 1024,
    );
    assert.equal(reader.copiedBytes, 15 + 1, 'only the 16 bytes of the header, which spanned two chunks');
    assert.ok(reader.bufferedBytes <= 1024);
    // A message of exactly 1 MiB is read; one of 1 MiB and 8 bytes is not.
    assert.equal(new MessageReader().push(callOfLength(MAX_MESSAGE_BYTES)).length, 1);
    assert.throws(() => new MessageReader().push(callOfLength(MAX_MESSAGE_BYTES + 8).subarray(0, 16)), MessageTooLarge);
  });

  it("capture's reader drops a 3 MiB message as it comes, holding one chunk and copying nothing of it, and reads the next", () => {
    const big = callOfLength(3 * 1024 * 1024, 7);
    const next = callOfLength(512, 8);
    const skipped: number[] = [];
    const reader = new MessageReader(MAX_MESSAGE_BYTES, (declared) => skipped.push(declared));
    let held = 0;
    const read: WireMessage[] = [];
    const stream = Buffer.concat([callOfLength(256, 6), big, next]);
    for (let at = 0; at < stream.length; at += 64 * 1024) {
      read.push(...reader.push(stream.subarray(at, at + 64 * 1024)));
      held = Math.max(held, reader.bufferedBytes);
    }
    assert.deepEqual(
      read.map((m) => m.serial),
      [6, 8],
      'the messages before and after it, whole',
    );
    assert.deepEqual(skipped, [big.length]);
    assert.ok(held <= 64 * 1024, `${held} bytes held at most`);
    assert.ok(reader.copiedBytes <= 16 + 512 + 256, `${reader.copiedBytes} bytes copied`);
    assert.equal(reader.bufferedBytes, 0);
  });

  it('refuses an array of empty structs (it would never end) and nesting deeper than 64', () => {
    assert.throws(() => parseSignature('a()'), /empty/);
    assert.throws(() => parseSignature('a{s}'), /dict entry/);
    assert.throws(() => parseSignature('a{vs}'), /dict entry/);
    let nested: [string, unknown] = ['s', 'deep'];
    for (let i = 0; i < 100; i++) nested = ['v', nested];
    const deep = encodeMessage({ type: MessageType.methodCall, serial: 1, path: '/MenuBar', member: 'Event', signature: 'v', body: [nested] });
    assert.throws(() => decodeMessage(deep), /deeper than 64/);
    assert.throws(() => new MessageReader().push(deep), /deeper than 64/);
  });
});

describe('the tray D-Bus stream reader under fuzzing', () => {
  it('reads or refuses 3 000 mutated messages (seeded), never hanging, never reading past the end, never holding over 1 MiB', () => {
    let seed = 0x35_05;
    const random = (below: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const seeds = MESSAGES.map((message) => encodeMessage(message));
    let read = 0;
    let refused = 0;
    for (let round = 0; round < 3_000; round++) {
      const bytes = Buffer.from(seeds[random(seeds.length)] as Buffer);
      for (let flips = 1 + random(4); flips > 0; flips--) {
        const at = random(bytes.length);
        // Lengths and signatures are where readers go wrong: often a 32-bit word, sometimes a byte.
        if (random(2) === 0 && at + 4 <= bytes.length) bytes.writeUInt32LE(random(3) === 0 ? 0xffff_fff0 : random(1 << 12), at - (at % 4));
        else bytes[at] = random(256);
      }
      const reader = new MessageReader();
      try {
        for (let at = 0; at < bytes.length; at += 61) read += reader.push(bytes.subarray(at, at + 61)).length;
      } catch (error) {
        assert.ok(error instanceof Error, 'refused with an Error');
        refused++;
      }
      assert.ok(reader.bufferedBytes <= bytes.length && reader.copiedBytes <= 2 * bytes.length + 16);
    }
    assert.ok(read > 0 && refused > 0, `${read} read, ${refused} refused`);
  });
});
