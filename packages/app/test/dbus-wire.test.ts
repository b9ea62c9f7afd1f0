/**
 * The tray's D-Bus wire format (packages/app/src/desktop/tray/dbus-wire.ts) against an
 * independent implementation: @homebridge/dbus-native's marshaller (still the capture sources'
 * library) writes the same bytes for the messages the tray sends, and what it writes reads back
 * the same. Broken or truncated input is refused with an error, never read past its end.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { decodeMessage, encodeMessage, MessageType, messageLength, parseSignature, type WireMessage } from '../src/desktop/tray/dbus-wire.ts';

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
