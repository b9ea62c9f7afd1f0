/**
 * The sway source's IPC reader (packages/desktop/src/capture/sway.ts `IpcReader`), without
 * a compositor: a large message arriving in many chunks is joined once, not once per chunk
 * (issue 35: what a window's title can cost the app), and messages split anywhere come out
 * whole and in order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IpcReader, ipcMessage } from '../src/capture/sway.ts';

const WINDOW_EVENT = 0x80000003;

test('a 16 MiB window event in 64 KiB chunks is joined once: bytes copied grow linearly with its size', () => {
  const title = 'bank '.repeat((16 * 1024 * 1024) / 5);
  const message = ipcMessage(WINDOW_EVENT, JSON.stringify({ change: 'title', container: { focused: true, name: title } }));
  const reader = new IpcReader();
  const concat = Buffer.concat;
  let copied = 0;
  Buffer.concat = ((list: readonly Uint8Array[], totalLength?: number) => {
    const joined = concat(list, totalLength);
    copied += joined.length;
    return joined;
  }) as typeof Buffer.concat;
  const out: { type: number; payload: string }[] = [];
  try {
    for (let at = 0; at < message.length; at += 64 * 1024) out.push(...reader.push(message.subarray(at, at + 64 * 1024)));
  } finally {
    Buffer.concat = concat;
  }
  assert.equal(out.length, 1);
  assert.equal((JSON.parse(out[0]?.payload ?? '{}') as { container: { name: string } }).container.name.length, title.length);
  // Joined once (the old reader joined the rest with every chunk: 256 chunks, ~2 GiB copied).
  assert.ok(copied <= 2 * message.length, `${copied} bytes copied for a message of ${message.length}`);
});

test('messages split at every byte come out whole and in order; a stream that is not i3 IPC is refused', () => {
  const stream = Buffer.concat([ipcMessage(4, '{"a":1}'), ipcMessage(WINDOW_EVENT, '{}'), ipcMessage(2, '{"success":true}')]);
  const reader = new IpcReader();
  const out = [...stream].flatMap((_, i) => reader.push(stream.subarray(i, i + 1)));
  assert.deepEqual(out, [
    { type: 4, payload: '{"a":1}' },
    { type: WINDOW_EVENT, payload: '{}' },
    { type: 2, payload: '{"success":true}' },
  ]);
  assert.throws(() => new IpcReader().push(Buffer.from('GET / HTTP/1.1\r\n\r\n')), /not an i3 IPC message/);
  const huge = Buffer.alloc(14);
  Buffer.from('i3-ipc').copy(huge);
  huge.writeUInt32LE(64 * 1024 * 1024, 6);
  assert.throws(() => new IpcReader().push(huge), /too large/);
});
